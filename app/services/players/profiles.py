"""Profiles: what a player did, how reliably, where they play now, and their rank in each game type.

Reliability is kept apart from skill. It counts, from the history of seat tenures and orders:
- orders given in time (and how long each took, from the start of the wait: `record_move`);
- timeouts (default orders the server played for a seat while the player held it);
- games quit and games the player was evicted from.
Its percentage is 100 × in time / (in time + timeouts + QUIT_WEIGHT × (quits + evictions)); a player with
no history yet has none, and passes every reliability gate (a gate keeps out the unreliable, not the new).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Executable, func, or_, select
from sqlalchemy.orm import Session

from app.db import table_of, upsert
from app.models import Game, GameOrder, MoveStat, Seat, SeatTenure, User
from app.services.errors import not_found
from app.services.players import ratings

QUIT_WEIGHT = 10  # quitting (or being evicted) weighs as much as this many timeouts
UNFINISHED = ("open", "active")


@dataclass(frozen=True)
class Reliability:
    moves: int
    move_seconds: int
    timeouts: int
    quits: int
    evictions: int

    @property
    def percent(self) -> int | None:
        weight = self.moves + self.timeouts + QUIT_WEIGHT * (self.quits + self.evictions)
        return None if weight == 0 else round(100 * self.moves / weight)

    @property
    def average_move_seconds(self) -> int | None:
        return None if self.moves == 0 else round(self.move_seconds / self.moves)

    def passes(self, gate: int | None) -> bool:
        percent = self.percent
        return gate is None or percent is None or percent >= gate


def record_move(session: Session, user_id: int, started_at: datetime, now: datetime) -> None:
    """An order given in time, `now`, for a wait that began at `started_at` (in the caller's transaction)."""
    seconds = max(0, int((now - started_at).total_seconds()))
    dialect = session.get_bind().dialect.name
    if dialect not in _COUNT_MOVE:
        _COUNT_MOVE[dialect] = _count_move(session)
    session.execute(_COUNT_MOVE[dialect], {"user_id": user_id, "moves": 1, "move_seconds": seconds})


_COUNT_MOVE: dict[str, Executable] = {}  # by dialect: built once, so compiled once and prepared


def _count_move(session: Session) -> Executable:
    """One more move of `move_seconds` for the user: a new row, or the counts of theirs moved on."""
    stats = table_of(MoveStat)
    statement = upsert(session, stats)
    more = {
        "moves": stats.c.moves + 1,
        "move_seconds": stats.c.move_seconds + statement.excluded.move_seconds,
    }
    return statement.on_conflict_do_update(index_elements=[stats.c.user_id], set_=more)


def reliability(session: Session, user_id: int) -> Reliability:
    stat = session.get(MoveStat, user_id)
    ends = dict(
        session.execute(
            select(SeatTenure.end_reason, func.count())
            .join(Seat, Seat.id == SeatTenure.seat_id)
            .join(Game, Game.id == Seat.game_id)
            .where(
                SeatTenure.user_id == user_id,
                SeatTenure.end_reason.in_(("quit", "evicted")),
                Game.bot_seats == 0,  # a practice game with bots counts in no one's statistics
            )
            .group_by(SeatTenure.end_reason)
        ).all()
    )
    return Reliability(
        moves=stat.moves if stat else 0,
        move_seconds=stat.move_seconds if stat else 0,
        timeouts=timeouts(session, user_id),
        quits=ends.get("quit", 0),
        evictions=ends.get("evicted", 0),
    )


def timeouts(session: Session, user_id: int) -> int:
    """Default orders played at a deadline for a seat while this user held it."""
    query = (
        select(func.count(GameOrder.id))
        .select_from(SeatTenure)
        .join(Seat, Seat.id == SeatTenure.seat_id)
        .join(GameOrder, (GameOrder.game_id == Seat.game_id) & (GameOrder.seat == Seat.number))
        .where(
            SeatTenure.user_id == user_id,
            GameOrder.origin == "timeout",
            Seat.game_id.not_in(select(Game.id).where(Game.bot_seats > 0)),
            GameOrder.created_at >= SeatTenure.started_at,
            or_(SeatTenure.ended_at.is_(None), GameOrder.created_at <= SeatTenure.ended_at),
        )
    )
    return session.scalar(query) or 0


@dataclass(frozen=True)
class GameCounts:
    played: int  # games the player held a seat of (at the start or as a replacement)
    finished: int  # held a seat when the game ended
    quit: int
    evicted: int


def game_counts(session: Session, user_id: int) -> GameCounts:
    rows = session.execute(
        select(Game.id, Game.status, SeatTenure.ended_at, SeatTenure.end_reason)
        .select_from(SeatTenure)
        .join(Seat, Seat.id == SeatTenure.seat_id)
        .join(Game, Game.id == Seat.game_id)
        .where(SeatTenure.user_id == user_id, Game.status != "cancelled", Game.bot_seats == 0)
    ).all()
    finished = {game_id for game_id, status, ended, _ in rows if status == "finished" and ended is None}
    return GameCounts(
        played=len({row[0] for row in rows}),
        finished=len(finished),
        quit=sum(1 for row in rows if row[3] == "quit"),
        evicted=sum(1 for row in rows if row[3] == "evicted"),
    )


def current_games(session: Session, user_id: int) -> list[Game]:
    query = (
        select(Game)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user_id, Seat.status == "playing", Game.status.in_(UNFINISHED))
        .order_by(Game.id.desc())
    )
    return list(session.scalars(query))


@dataclass(frozen=True)
class Profile:
    user: User
    counts: GameCounts
    reliability: Reliability
    current: list[Game]
    ranks: list[ratings.Rank]


def profile(session: Session, user_id: int) -> Profile:
    user = session.get(User, user_id)
    if user is None:
        raise not_found("This player does not exist.")
    return Profile(
        user=user,
        counts=game_counts(session, user_id),
        reliability=reliability(session, user_id),
        current=current_games(session, user_id),
        ranks=ratings.ranks_of(session, user_id),
    )
