"""Whose turn it is in each of a user's games: the home page's list, the navigation's count, the API's."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, aliased

from app.models import Game, Seat, User, WaitRow
from app.models.records import UserFacts

LIST_LIMIT = 100


@dataclass
class GameTurn:
    """One forming or running game of the user's, and whom it waits for."""

    game_id: int
    name: str
    game_type: str
    status: str  # open, active
    held: bool
    my_turn: bool = False
    my_deadline: datetime | None = None
    waiting_for: list[str] = field(default_factory=list)  # the other players it waits on

    def urgency(self) -> tuple[int, float, int]:
        """Sort key: the user's turns soonest deadline first, then games waiting on others, then forming."""
        if self.my_turn:
            soonest = self.my_deadline.timestamp() if self.my_deadline else float("inf")
            return (0, soonest, -self.game_id)
        return (1 if self.status == "active" else 2, 0.0, -self.game_id)


@dataclass(frozen=True)
class Turns:
    games: list[GameTurn]

    @property
    def waiting_on_you(self) -> int:
        return sum(1 for game in self.games if game.my_turn)


_MINE, _WAITED = aliased(Seat, name="mine"), aliased(Seat, name="waited")
# Built once: an aliased entity made per call would build its columns again at each call, which cost more
# than running the query.
_TURNS = (
    select(Game.id, Game.name, Game.game_type, Game.status, Game.held_at, _MINE.number)
    .add_columns(WaitRow.seat, WaitRow.deadline_at, _WAITED.user_id, User.display_name)
    .join(_MINE, (_MINE.game_id == Game.id) & (_MINE.user_id == bindparam("user_id")))
    .outerjoin(WaitRow, (WaitRow.game_id == Game.id) & (Game.status == "active"))
    .outerjoin(
        _WAITED,
        (_WAITED.game_id == Game.id) & (_WAITED.number == WaitRow.seat) & (_WAITED.status == "playing"),
    )
    .outerjoin(User, User.id == _WAITED.user_id)
    .where(Game.status.in_(("open", "active")), _MINE.status == "playing")
    .order_by(Game.id.desc(), WaitRow.seat)
)


def turns_of(session: Session, user: UserFacts) -> Turns:
    """The user's forming and running games, most urgent first, in one query (a row per game and wait)."""
    rows = session.execute(_TURNS, {"user_id": user.id})
    games: dict[int, GameTurn] = {}
    for game_id, name, game_type, status, held_at, my_seat, seat, deadline, holder, holder_name in rows:
        game = games.setdefault(game_id, GameTurn(game_id, name, game_type, status, held_at is not None))
        if seat is None:
            continue
        if seat == my_seat or holder == user.id:
            game.my_turn = True
            game.my_deadline = deadline
        elif holder_name is not None and holder_name not in game.waiting_for:
            game.waiting_for.append(holder_name)
    ordered = sorted(games.values(), key=GameTurn.urgency)
    return Turns(ordered[:LIST_LIMIT])
