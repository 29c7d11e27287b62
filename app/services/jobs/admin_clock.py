"""What admins see of the clock: late waits (the sweeper is behind or failing) and quarantined games."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.models import Game, WaitRow
from app.models.records import UserFacts
from app.services.deadlines import deadlines, notices, outage
from app.services.errors import ServiceError
from app.services.play import seats

LATE_AFTER = timedelta(minutes=10)  # a wait this long past its deadline should have been handled
LIST_LIMIT = 200


@dataclass(frozen=True)
class LateWait:
    game_id: int
    game_name: str
    seat: int
    phase: str
    deadline_at: datetime
    attempts: int
    last_error: str | None


@dataclass(frozen=True)
class QuarantinedGame:
    game_id: int
    game_name: str
    quarantined_at: datetime
    reason: str | None


@dataclass(frozen=True)
class ClockReport:
    last_sweep: datetime | None
    late: list[LateWait]
    quarantined: list[QuarantinedGame]


def require_admin(user: UserFacts) -> None:
    if not user.is_admin:
        raise ServiceError("forbidden", "Only administrators may see this.")


def clock_report(session: Session, user: UserFacts, now: datetime) -> ClockReport:
    require_admin(user)
    late_query = (
        select(WaitRow, Game.name)
        .join(Game, Game.id == WaitRow.game_id)
        .where(WaitRow.deadline_at < now - LATE_AFTER, Game.status == "active")
        .order_by(WaitRow.deadline_at)
        .limit(LIST_LIMIT)
    )
    late = [
        LateWait(row.game_id, name, row.seat, row.phase, row.deadline_at, row.attempts, row.last_error)
        for row, name in session.execute(late_query)
        if row.deadline_at is not None
    ]
    quarantined_query = select(Game).where(Game.quarantined_at.is_not(None)).order_by(Game.quarantined_at)
    quarantined = [
        QuarantinedGame(game.id, game.name, game.quarantined_at, game.quarantine_reason)
        for game in session.scalars(quarantined_query.limit(LIST_LIMIT))
        if game.quarantined_at is not None
    ]
    return ClockReport(outage.last_sweep(session), late, quarantined)


def release(session: Session, user: UserFacts, game_id: int, now: datetime) -> Game:
    """Put a quarantined game back in the sweep (once its cause is fixed), its attempts forgotten."""
    require_admin(user)
    game = seats.locked_game(session, game_id)
    if game.quarantined_at is None:
        raise ServiceError("wrong_status", "This game is not quarantined.")
    game.quarantined_at = None
    game.quarantine_reason = None
    session.execute(update(WaitRow).where(WaitRow.game_id == game.id).values(attempts=0, last_error=None))
    deadlines.set_next_checks(session, game, deadlines.wait_rows(session, game.id))
    notices.public_notice(session, game, "platform:clock_released", {}, now)
    session.commit()
    return game
