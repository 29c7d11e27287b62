"""The sweeper: dumb, indexed, self-rescheduling. It handles the waits whose `check_at` has come.

One pass (`sweep`) repeats until nothing is due:
1. claim a batch: `SELECT ... WHERE check_at <= now ORDER BY check_at LIMIT n FOR UPDATE SKIP LOCKED`,
   count an attempt on each row and push its `check_at` a lease ahead, commit (so a process that dies
   mid-batch only delays its rows by the lease, and a game that kills its handler is still counted);
2. handle each claimed wait in its own transaction: lock the game, re-read the wait, and only then act:
   - deadline passed: play the rules' default order through `play.apply_order(origin="timeout")`, which
     counts the missed turn and removes the wait (a wait is consumed once, under the game's lock, so
     however many processes sweep, each timeout is played exactly once);
   - warning time passed: write the "deadline_warning" notification, once per deadline;
   - neither (the deadline moved): just set `check_at` again;
3. a handler that fails is rolled back and retried with a back-off; after `max_attempts` claims the game
   is quarantined (its waits leave the sweep, admins see it) so it never blocks the others.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.games import registry
from app.models import Game, Notification, Seat, WaitRow
from app.services.deadlines import deadlines, notices
from app.services.play import draft, play

log = logging.getLogger(__name__)
MAX_BACKOFF = timedelta(hours=1)
ERROR_LENGTH = 200


@dataclass(frozen=True)
class SweepSettings:
    batch: int = 100
    lease: timedelta = timedelta(minutes=5)
    max_attempts: int = 5


@dataclass
class SweepReport:
    claimed: int = 0
    timeouts: int = 0
    warnings: int = 0
    rescheduled: int = 0
    gone: int = 0
    failed: int = 0
    quarantined: list[int] = field(default_factory=list)

    def count(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)


def claim_due(session: Session, now: datetime, config: SweepSettings) -> list[int]:
    """Claim up to a batch of due waits: an attempt more each, and their next check a lease ahead."""
    query = (
        select(WaitRow.id)
        .where(WaitRow.check_at <= now)
        .order_by(WaitRow.check_at)
        .limit(config.batch)
        .with_for_update(skip_locked=True)
    )
    ids = list(session.scalars(query))
    if ids:
        session.execute(
            update(WaitRow)
            .where(WaitRow.id.in_(ids))
            .values(attempts=WaitRow.attempts + 1, check_at=now + config.lease)
        )
    session.commit()
    return ids


def handle_wait(session: Session, wait_id: int, now: datetime) -> str:
    """Act on one claimed wait (see the module's docstring); returns what was done."""
    game = _locked_game_of(session, wait_id)
    row = session.get(WaitRow, wait_id) if game is not None else None  # read after the game's lock
    if game is None or row is None or game.status != "active" or game.clock_stopped:
        session.rollback()
        return "gone"
    if row.deadline_at is not None and row.deadline_at <= now:
        play_default(session, game, row.seat, now)
        outcome = "timeouts"
    else:
        if row.warn_at is not None and row.warn_at <= now:
            warn(session, game, row)
            outcome = "warnings"
        else:
            outcome = "rescheduled"
        row.attempts = 0
        row.last_error = None
        row.check_at = deadlines.earliest(row.warn_at, row.deadline_at)
    session.commit()
    return outcome


def _locked_game_of(session: Session, wait_id: int) -> Game | None:
    """The game of the wait, locked (the game first, as every writer of a game does)."""
    game_id = select(WaitRow.game_id).where(WaitRow.id == wait_id).scalar_subquery()
    return session.scalar(select(Game).where(Game.id == game_id).with_for_update())


def play_default(session: Session, game: Game, seat: int, now: datetime) -> None:
    if game.state is None:  # the seat draft, before the rules' first state: its own default
        draft.play_timeout(session, game, seat, now)
        return
    rules = registry.get(game.game_type)
    order = rules.default_order(rules.load(game.state or {}), seat)
    play.apply_order(session, game, seat, order, origin="timeout", user_id=None, now=now)


def warn(session: Session, game: Game, row: WaitRow) -> None:
    holder = _holder(game, row.seat)
    if holder is not None and row.deadline_at is not None:
        data = {"seat": row.seat, "phase": row.phase, "deadline_at": row.deadline_at.isoformat()}
        session.add(Notification(user_id=holder, game_id=game.id, kind="deadline_warning", data=data))
    row.warned_for = row.deadline_at
    row.warn_at = None


def _holder(game: Game, seat_number: int) -> int | None:
    seat: Seat | None = next((s for s in game.seats if s.number == seat_number), None)
    return seat.user_id if seat is not None and seat.status == "playing" else None


def backoff(attempts: int) -> timedelta:
    return min(MAX_BACKOFF, timedelta(minutes=2 ** max(0, attempts - 1)))


def record_failure(session: Session, wait_id: int, error: str, now: datetime, config: SweepSettings) -> bool:
    """After a failed handler: back off, or quarantine the game. Returns whether it was quarantined."""
    game = _locked_game_of(session, wait_id)
    row = session.get(WaitRow, wait_id) if game is not None else None
    if game is None or row is None:
        return False
    row.last_error = error[:ERROR_LENGTH]
    quarantine_now = row.attempts >= config.max_attempts
    if quarantine_now:
        quarantine(session, game, f"seat {row.seat}: {row.last_error}", now)
    else:
        row.check_at = now + backoff(row.attempts)
    session.commit()
    return quarantine_now


def quarantine(session: Session, game: Game, reason: str, now: datetime) -> None:
    """Take the game out of the sweep until an admin releases it; say so in its log."""
    game.quarantined_at = now
    game.quarantine_reason = reason[:ERROR_LENGTH]
    session.execute(update(WaitRow).where(WaitRow.game_id == game.id).values(check_at=None))
    notices.public_notice(session, game, "platform:clock_quarantined", {}, now)


def sweep(
    sessions: sessionmaker[Session],
    clock: Callable[[], datetime],
    config: SweepSettings | None = None,
    *,
    stop: Callable[[], bool] = lambda: False,
    on_batch: Callable[[datetime], None] = lambda _now: None,
) -> SweepReport:
    """Handle every due wait, batch after batch, until none is due (or `stop()` says so)."""
    config = config or SweepSettings()
    report = SweepReport()
    while not stop():
        now = clock()
        with sessions() as session:
            ids = claim_due(session, now, config)
        on_batch(now)
        if not ids:
            break
        report.claimed += len(ids)
        for wait_id in ids:
            _handle_one(sessions, wait_id, clock(), config, report)
    return report


def _handle_one(
    sessions: sessionmaker[Session], wait_id: int, now: datetime, config: SweepSettings, report: SweepReport
) -> None:
    try:
        with sessions() as session:
            report.count(handle_wait(session, wait_id, now))
    except Exception as error:  # one bad game must never stop the sweep
        log.exception("the sweeper failed on wait %s", wait_id)
        report.failed += 1
        with sessions() as session:
            if record_failure(session, wait_id, f"{type(error).__name__}: {error}", now, config):
                report.quarantined.append(wait_id)
