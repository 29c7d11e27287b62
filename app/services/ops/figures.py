"""The shared figures a host watches, read from the database: the same for every process that reads them.

`/metrics` (every web process and worker) turns them into gauges; the admins' status page shows them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from app.db import insert_many
from app.models import Game, OutgoingMail, TimeoutPlayed, WaitRow

ON_TIME = timedelta(minutes=1)  # a timeout played within this of its deadline resolved its phase on time
ON_TIME_WINDOW = timedelta(days=30)


@dataclass(frozen=True)
class DatabaseFigures:
    waits_due: int  # waits of running games past their deadline, not yet acted on
    waits_quarantined: int
    oldest_due_seconds: float  # how long ago the oldest of those fell due (0 when none)
    outbox_backlog: int
    outbox_dead: int
    active_games: dict[str, int]  # game type -> running games


@dataclass(frozen=True)
class OnTime:
    """Deadlines acted on in a window: how many, how many on time, and the 99th percentile of lateness."""

    since: datetime
    played: int
    on_time: int
    p99_seconds: float | None

    @property
    def percent(self) -> float | None:
        return 100.0 * self.on_time / self.played if self.played else None


def database_figures(session: Session, now: datetime) -> DatabaseFigures:
    running = select(Game.id).where(Game.status == "active", Game.quarantined_at.is_(None))
    overdue = (WaitRow.deadline_at <= now, WaitRow.game_id.in_(running))
    oldest = session.scalar(select(func.min(WaitRow.deadline_at)).where(*overdue))
    quarantined_games = select(Game.id).where(Game.quarantined_at.is_not(None))
    pending = OutgoingMail.sent_at.is_(None)
    active = session.execute(
        select(Game.game_type, func.count()).where(Game.status == "active").group_by(Game.game_type)
    )
    return DatabaseFigures(
        waits_due=_count(session, *overdue),
        waits_quarantined=_count(session, WaitRow.game_id.in_(quarantined_games)),
        oldest_due_seconds=(now - oldest).total_seconds() if oldest is not None else 0.0,
        outbox_backlog=_count(session, pending, OutgoingMail.dead_at.is_(None)),
        outbox_dead=_count(session, pending, OutgoingMail.dead_at.is_not(None)),
        active_games={game_type: count for game_type, count in active},
    )


def _count(session: Session, *conditions: object) -> int:
    return session.scalar(select(func.count()).where(*conditions)) or 0  # type: ignore[arg-type]


def on_time(session: Session, now: datetime, window: timedelta = ON_TIME_WINDOW) -> OnTime:
    """The public "phases resolved on time" figure, from the timeouts played in the window."""
    since = now - window
    recent = TimeoutPlayed.played_at >= since
    played = _count(session, recent)
    punctual = _count(session, recent, TimeoutPlayed.late_seconds <= ON_TIME.total_seconds())
    p99 = None
    if played:
        rank = int(0.99 * (played - 1))  # nearest rank, counted from the smallest
        p99 = session.scalar(
            select(TimeoutPlayed.late_seconds).where(recent).order_by(TimeoutPlayed.late_seconds).offset(rank)
        )
    return OnTime(since, played, punctual, p99)


def record_timeout(session: Session, game_id: int, seat: int, deadline_at: datetime, now: datetime) -> float:
    """Note a deadline acted on (in the caller's transaction); returns how late it was, in seconds."""
    late = max(0.0, (now - deadline_at).total_seconds())
    pending = session.info.get(PENDING_TIMEOUTS)
    if pending is None:  # one INSERT for every timeout of the transaction (a sweeper's batch), at commit
        pending = session.info[PENDING_TIMEOUTS] = []
        event.listen(session, "before_commit", _write_timeouts, once=True)
        event.listen(session, "after_rollback", _drop_timeouts, once=True)
    row = {"game_id": game_id, "seat": seat, "deadline_at": deadline_at, "played_at": now}
    pending.append(row | {"late_seconds": late})
    return late


PENDING_TIMEOUTS = "ops.timeouts_played"


def _write_timeouts(session: Session) -> None:
    rows = session.info.pop(PENDING_TIMEOUTS, [])
    if rows:
        insert_many(session, TimeoutPlayed, rows)


def _drop_timeouts(session: Session) -> None:
    session.info.pop(PENDING_TIMEOUTS, None)
