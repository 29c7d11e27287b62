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
   - a trade market's embargo over (and the rules have a `clock_order`): apply that order, once per
     market, through `play.apply_order(origin="clock")` and mark the market signalled (before the rest);
   - neither (the deadline moved): just set `check_at` again;
3. a handler that fails is rolled back and retried with a back-off; after `max_attempts` claims the game
   is quarantined (its waits leave the sweep, admins see it) so it never blocks the others.

Step 2 is done set-wise (`handle_batch`): one transaction locks the batch's games (ascending ids, as every
multi-game writer does), reads their waits, the last event numbers and the clock inputs in a few queries,
plays the plain timeouts in memory through the same `play.apply_order`, writes each table once and sends
the live news in one statement. The rare cases — a seat draft, a market, a warning, an order that ends
the game or evicts a player, a wait claimed before and not finished — and, once one of them is met, the
rest of that game's waits are handed to the one-by-one path after the batch commits. A batch that fails
is rolled back whole and handled one by one, which does the counting of failures.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.clock.absence import EVICTION_FLOOR
from app.games import registry
from app.games.contract import RuleError, clock_order_of
from app.models import Game, Notification, Seat, WaitRow
from app.services.deadlines import deadlines, markets, notices
from app.services.deadlines.calendars import ClockInputs
from app.services.ops import metrics as ops_metrics
from app.services.play import draft, play

log = logging.getLogger(__name__)
MAX_BACKOFF = timedelta(hours=1)
ERROR_LENGTH = 200


@dataclass(frozen=True)
class SweepSettings:
    batch: int = 100
    lease: timedelta = timedelta(minutes=5)
    max_attempts: int = 5
    set_wise: bool = True  # False: every wait in its own transaction (the reference path)


@dataclass
class SweepReport:
    claimed: int = 0
    timeouts: int = 0
    warnings: int = 0
    signals: int = 0
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
        .where(WaitRow.check_at <= now, WaitRow.bot.is_(False))  # a bot's waits: the bots job's
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
    game = locked_game_of(session, wait_id)
    row = session.get(WaitRow, wait_id) if game is not None else None  # read after the game's lock
    if game is None or row is None or game.status != "active" or game.clock_stopped:
        session.rollback()
        return "gone"
    signalled = row.market and signal_embargo(session, game, now)
    if signalled:
        session.flush()
        row = session.get(WaitRow, wait_id)  # the clock order may have ended the wait, or the game
        if row is None or game.status != "active":
            session.commit()
            return "signals"
    if row.deadline_at is not None and row.deadline_at <= now:
        ops_metrics.timeout_played(session, game.game_type, game.id, row.seat, row.deadline_at, now)
        play_default(session, game, row.seat, now)
        outcome = "timeouts"
    else:
        if row.warn_at is not None and row.warn_at <= now:
            warn(session, game, row)
            outcome = "warnings"
        else:
            outcome = "signals" if signalled else "rescheduled"
        row.attempts = 0
        row.last_error = None
        deadlines.set_next_checks(session, game, [row])
    session.commit()
    return outcome


def signal_embargo(session: Session, game: Game, now: datetime) -> bool:
    """Apply the rules' clock order if the game's trade market has come to the end of its embargo and it
    was not applied yet (under the game's lock: once, however many sweep); returns whether it was due.

    An order the rules refuse (the market is already over) is marked as applied all the same."""
    rules = registry.get(game.game_type)
    order = clock_order_of(rules)
    stored = markets.stored_market(session, game.id)
    if order is None or stored is None or stored.embargo_signalled_at is not None:
        return False
    if markets.as_market(stored).embargo_ends_at > now:
        return False
    stored.embargo_signalled_at = now  # first: the waits' next checks, set by the order, leave it out
    seat = markets.signalling_seat(stored, deadlines.wait_rows(session, game.id))
    if seat is None:
        return True
    try:
        rules.apply(rules.load(game.state or {}), seat, order)
    except RuleError as error:
        log.info(
            "game %s: the rules refused the end of the embargo (%s); marked as done", game.id, error.code
        )
        return True
    session.flush()
    play.apply_order(session, game, seat, order, origin="clock", user_id=None, now=now)
    return True


def locked_game_of(session: Session, wait_id: int) -> Game | None:
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
    game = locked_game_of(session, wait_id)
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
        rest = _handle_batch(sessions, ids, clock(), report) if config.set_wise else ids
        for wait_id in rest:
            _handle_one(sessions, wait_id, clock(), config, report)
    return report


def _handle_batch(
    sessions: sessionmaker[Session], ids: list[int], now: datetime, report: SweepReport
) -> list[int]:
    """`handle_batch` in its own transaction; returns the waits left to the one-by-one path (all of them
    when the batch failed: that path retries them and counts the failures)."""
    try:
        with sessions() as session:
            outcomes, rest = handle_batch(session, ids, now)
    except Exception:
        log.exception("the sweeper's batch failed; handling its waits one by one")
        return ids
    for outcome in outcomes:
        report.count(outcome)
    return rest


def handle_batch(session: Session, wait_ids: list[int], now: datetime) -> tuple[list[str], list[int]]:
    """Act on claimed waits set-wise, in one transaction (see the module's docstring); returns what was
    done and the waits left to the one-by-one path, in their claimed order."""
    games = {game.id: game for game in deadlines.locked_games(session, _games_of(session, wait_ids))}
    batch = play.BatchWrites.open(session, list(games))
    rows = batch.waits = _waits_of(session, list(games))  # read after the games' locks
    claimed = {row.id: (row, row.since_version) for game_rows in rows.values() for row in game_rows}
    inputs = ClockInputs.read(session, _players(games.values()), now)
    outcomes: list[str] = []
    handed_over: set[int] = set()  # games whose remaining waits go one by one
    rest: list[int] = []
    try:
        for wait_id in wait_ids:
            row, since = claimed.get(wait_id, (None, None))
            game = games.get(row.game_id) if row is not None else None
            if row is None or game is None or row not in rows[game.id] or row.since_version != since:
                outcomes.append("gone")  # consumed (elsewhere, or earlier in this batch) since its claim
                continue
            if game.id in handed_over or not _plain(game, row, rows[game.id], now):
                handed_over.add(game.id)
                rest.append(wait_id)
                continue
            outcome = _act_plainly(session, game, row, now)
            if outcome is None:
                handed_over.add(game.id)
                rest.append(wait_id)
            else:
                outcomes.append(outcome)
    finally:
        inputs.close(session)
    batch.close(session)
    session.commit()
    return outcomes, rest


def _games_of(session: Session, wait_ids: list[int]) -> list[int]:
    return list(session.scalars(select(WaitRow.game_id).where(WaitRow.id.in_(wait_ids)).distinct()))


def _waits_of(session: Session, game_ids: list[int]) -> dict[int, list[WaitRow]]:
    found: dict[int, list[WaitRow]] = {game_id: [] for game_id in game_ids}
    query = select(WaitRow).where(WaitRow.game_id.in_(game_ids)).order_by(WaitRow.game_id, WaitRow.seat)
    for row in session.scalars(query):
        found[row.game_id].append(row)
    return found


def _players(games: Iterable[Game]) -> list[int]:
    return [seat.user_id for game in games for seat in game.seats if seat.user_id is not None]


def _plain(game: Game, row: WaitRow, rows: list[WaitRow], now: datetime) -> bool:
    """Whether the wait is one the batch handles: a running game of the rules' own, no market, a wait
    claimed for the first time, no warning due, and a timeout that cannot evict."""
    if game.status != "active" or game.clock_stopped or game.state is None or row.attempts > 1:
        return False
    if any(other.market for other in rows):
        return False
    due = row.deadline_at is not None and row.deadline_at <= now
    if not due:
        return row.warn_at is None or row.warn_at > now
    seat = next((s for s in game.seats if s.number == row.seat), None)
    return seat is None or seat.status != "playing" or seat.missed_turns + 1 < EVICTION_FLOOR


def _act_plainly(session: Session, game: Game, row: WaitRow, now: datetime) -> str | None:
    """A plain wait's timeout or new check time; None when the timeout would end the game (the
    one-by-one path rates it and tells the players)."""
    if row.deadline_at is None or row.deadline_at > now:
        row.attempts = 0
        row.last_error = None
        row.check_at = deadlines.earliest(row.warn_at, row.deadline_at)
        return "rescheduled"
    rules = registry.get(game.game_type)
    state = rules.load(game.state or {})
    order = rules.default_order(state, row.seat)
    if not rules.waits(rules.apply(state, row.seat, order).state):
        return None
    ops_metrics.timeout_played(session, game.game_type, game.id, row.seat, row.deadline_at, now)
    play_default(session, game, row.seat, now)  # the batch's wait rows are kept up to date by apply_order
    return "timeouts"


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
