"""ORM tables, one module per aggregate. Importing this package registers them all on `Base.metadata`."""

from app.models.games import Game, GameEvent, GameOrder, Seat, SeatTenure, WaitRow
from app.models.mail import Notification
from app.models.users import User

__all__ = ["Game", "GameEvent", "GameOrder", "Notification", "Seat", "SeatTenure", "User", "WaitRow"]
