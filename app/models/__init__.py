"""ORM tables, one module per aggregate. Importing this package registers them all on `Base.metadata`."""

from app.models.clock import (
    AvailabilityWindow,
    ClockMark,
    EvictionVote,
    JobRun,
    MarketWindow,
    PauseRequest,
    TimeoutPlayed,
)
from app.models.games import Game, GameEvent, GameOrder, Seat, SeatTenure, WaitRow
from app.models.mail import Notification
from app.models.messages import (
    GameMessage,
    GamePresence,
    MailSettings,
    NotificationPreference,
    OutgoingMail,
)
from app.models.moderation import AuditEntry, BannedEmail, GameRollback, Report, Sanction
from app.models.social import (
    Block,
    DraftPick,
    Friendship,
    GameInvitation,
    MoveStat,
    QueueBook,
    QueueEntry,
    RatedGame,
    Rating,
    RatingBook,
    RatingChange,
    SeatStat,
)
from app.models.users import ApiToken, LoginSession, User

__all__ = [
    "ApiToken",
    "AuditEntry",
    "AvailabilityWindow",
    "BannedEmail",
    "Block",
    "ClockMark",
    "DraftPick",
    "EvictionVote",
    "Friendship",
    "Game",
    "GameEvent",
    "GameInvitation",
    "GameMessage",
    "GameOrder",
    "GamePresence",
    "GameRollback",
    "JobRun",
    "LoginSession",
    "MailSettings",
    "MarketWindow",
    "MoveStat",
    "Notification",
    "NotificationPreference",
    "OutgoingMail",
    "PauseRequest",
    "QueueBook",
    "QueueEntry",
    "RatedGame",
    "Rating",
    "RatingBook",
    "RatingChange",
    "Report",
    "Sanction",
    "Seat",
    "SeatStat",
    "SeatTenure",
    "TimeoutPlayed",
    "User",
    "WaitRow",
]
