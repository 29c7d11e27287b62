"""Deadlines as rows: each wait's deadline, its 80% warning and when the sweeper should look at it.

A wait's deadline is computed when it starts (`start_waits`, called by `play.sync_waits`) from the game's
time limit, the awaited player's availability windows and the pauses of every seated player, and
recomputed (`recompute_game`) when a pause, a window, a seat's holder or an outage touches it. A trade
market's waits all share the market's close (`app.services.deadlines.markets`).

Rules the pure clock does not cover (docs/time.md, "Deadlines in the database"):
- an open seat (no holder) waits a quarter of the time limit (at least an hour; 24 hours in a game
  without a limit), from when its wait started or the seat opened, whichever is later, moved out of
  pauses but not into anyone's windows, and gets no warning;
- a recomputation never brings a held seat's deadline sooner than 24 hours from now (unless it was
  already sooner): the player may have planned on the old one;
- an outage's extension is kept on the row (`extension_seconds`) and survives later recomputations.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import clock
from app.models import Game, Seat, User, WaitRow
from app.models.records import GameFacts
from app.services.deadlines import markets
from app.services.deadlines.calendars import GameClock, game_clock, time_limit

OPEN_SEAT_SHARE = 4  # an open seat waits a quarter of the time limit
OPEN_SEAT_MINIMUM = timedelta(hours=1)
OPEN_SEAT_WITHOUT_LIMIT = timedelta(hours=24)
RECOMPUTE_NOTICE = timedelta(hours=24)


@dataclass(frozen=True)
class DeadlineChange:
    """A deadline that moved, to show the user the effect of what they did."""

    game_id: int
    game_name: str
    seat: int
    phase: str
    before: datetime | None
    after: datetime | None


def ladder_of(game: GameFacts) -> clock.AbsenceLadder:
    return clock.AbsenceLadder(
        warning_percent=game.warning_percent,
        eviction_preset=game.eviction_preset,
        vote_after=game.vote_after,
    )


def open_seat_limit(limit: timedelta | None) -> timedelta:
    if limit is None:
        return OPEN_SEAT_WITHOUT_LIMIT
    return max(OPEN_SEAT_MINIMUM, limit / OPEN_SEAT_SHARE)


def earliest(*moments: datetime | None) -> datetime | None:
    present = [moment for moment in moments if moment is not None]
    return min(present) if present else None


def wait_rows(session: Session, game_id: int) -> list[WaitRow]:
    return list(session.scalars(select(WaitRow).where(WaitRow.game_id == game_id).order_by(WaitRow.seat)))


def own_deadline(gc: GameClock, row: WaitRow) -> datetime | None:
    """The deadline of a wait that is not a market's, with its outage extension."""
    extension = timedelta(seconds=row.extension_seconds)
    if gc.holders.get(row.seat) is None:
        opened = gc.opened.get(row.seat) or row.started_at
        raw: datetime | None = max(row.started_at, opened) + open_seat_limit(gc.limit)
    else:
        raw = clock.raw_deadline(row.started_at, gc.limit, row.first_in_phase)
    if raw is None:
        return None
    availability = gc.seat_availability(row.seat)
    deadline = clock.adjust_deadline(raw, availability, gc.pauses)
    return clock.adjust_deadline(deadline + extension, availability, gc.pauses) if extension else deadline


def market_deadline(gc: GameClock, row: WaitRow, times: markets.MarketTimes) -> datetime | None:
    close = times.close
    if close is None or not row.extension_seconds:
        return close
    return clock.push_out_of_pauses(gc.pauses, close + timedelta(seconds=row.extension_seconds))


def set_timers(
    gc: GameClock, row: WaitRow, deadline: datetime | None, signal_at: datetime | None = None
) -> None:
    """The row's deadline, its warning (held seats only, once per deadline) and its next check (`signal_at`:
    also when the market's clock order falls due). A bot's wait is due at once, has no deadline of its own
    (a market's keeps the market's close) and no warning."""
    row.bot = row.seat in gc.bots
    if row.bot:
        row.deadline_at = deadline if row.market else None
        row.warn_at = None
        row.check_at = None if gc.game.clock_stopped else row.started_at
        return
    row.deadline_at = deadline
    warn = None
    held = gc.holders.get(row.seat) is not None
    if held and deadline is not None and (row.warned_for is None or deadline > row.warned_for):
        warn = clock.warning_at(row.started_at, deadline, ladder_of(gc.game))
    row.warn_at = warn
    stopped = gc.game.clock_stopped  # quarantined or held
    row.check_at = None if stopped else earliest(warn, deadline, signal_at)


def set_next_checks(session: Session, game: GameFacts, rows: Sequence[WaitRow]) -> None:
    """Each row's next check from its stored timers (after a claim, or a quarantine released): its warning,
    its deadline and, for a market's waits, the clock order's signal."""
    stored = markets.stored_market(session, game.id) if any(row.market for row in rows) else None
    signal = markets.signal_at(game, stored)
    for row in rows:
        due = row.started_at if row.bot else None
        row.check_at = earliest(due, row.warn_at, row.deadline_at, signal if row.market else None)


def start_waits(
    session: Session,
    game: GameFacts,
    started: Sequence[WaitRow],
    now: datetime,
    *,
    had_market: bool = True,
    rows: Sequence[WaitRow] | None = None,
) -> None:
    """Give the waits that start now their deadlines; the market's waits all follow its close.

    `had_market`: whether market waits were there before (else, with nothing starting, nothing can move);
    `rows`: all the game's wait rows as they are now, when the caller has them.
    """
    if not started and not had_market:
        return  # the common case of a simultaneous phase: one seat answered, the others keep their waits
    rows = wait_rows(session, game.id) if rows is None else rows
    gc = game_clock(session, game, since=now)
    has_market = had_market or any(r.market for r in rows)
    times = markets.sync_market(session, gc, rows, now) if has_market else markets.NO_MARKET
    new_ids = {id(row) for row in started}
    for row in rows:
        if row.market:
            set_timers(gc, row, market_deadline(gc, row, times), times.signal_at)
        elif id(row) in new_ids:
            set_timers(gc, row, own_deadline(gc, row))


def floored(before: datetime | None, after: datetime | None, now: datetime) -> datetime | None:
    """A recomputed deadline never comes sooner than RECOMPUTE_NOTICE from now, unless it already did."""
    if before is None or after is None or after >= before:
        return after
    return max(after, min(before, now + RECOMPUTE_NOTICE))


def recompute_game(session: Session, game: GameFacts, now: datetime) -> list[DeadlineChange]:
    """Recompute every wait of a locked game; returns the deadlines that moved."""
    rows = wait_rows(session, game.id)
    if not rows:
        return []
    gc = game_clock(session, game, since=min(row.started_at for row in rows))
    times = markets.recompute_market(session, gc, now)
    changes = []
    for row in rows:
        after = market_deadline(gc, row, times) if row.market else own_deadline(gc, row)
        if gc.holders.get(row.seat) is not None:
            after = floored(row.deadline_at, after, now)
        if after != row.deadline_at:
            changes.append(DeadlineChange(game.id, game.name, row.seat, row.phase, row.deadline_at, after))
        set_timers(gc, row, after, times.signal_at if row.market else None)
    return changes


def locked_games(session: Session, game_ids: Iterable[int]) -> list[Game]:
    """Lock games in ascending id (the one order every multi-game change uses, so none deadlocks)."""
    ids = sorted(set(game_ids))
    if not ids:
        return []
    return list(session.scalars(select(Game).where(Game.id.in_(ids)).order_by(Game.id).with_for_update()))


def active_games_of(session: Session, user_id: int) -> list[int]:
    query = (
        select(Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.user_id == user_id, Seat.status == "playing", Game.status == "active")
    )
    return list(session.scalars(query))


def recompute_games_of(session: Session, user_id: int, now: datetime) -> list[DeadlineChange]:
    """Recompute the deadlines of every running game the user plays in (their pauses or windows moved)."""
    changes: list[DeadlineChange] = []
    for game in locked_games(session, active_games_of(session, user_id)):
        changes += recompute_game(session, game, now)
    return changes


def restart_seat(session: Session, game: GameFacts, seat: int, now: datetime) -> None:
    """The seat's waits start afresh now (a replacement's first deadline is a full time limit)."""
    for row in wait_rows(session, game.id):
        if row.seat == seat and not row.market:
            row.started_at = now
            row.extension_seconds = 0
            row.warned_for = None
            row.attempts = 0
            row.last_error = None


# --- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameDeadline:
    """One wait of one of the user's games, with what the time limit alone would have given."""

    game_id: int
    game_name: str
    seat: int
    player: str | None
    phase: str
    mine: bool
    by_limit: datetime | None  # started + limit (x 1.5 first in phase), before windows and pauses
    deadline_at: datetime | None

    @property
    def moved(self) -> bool:
        return (
            self.by_limit is not None and self.deadline_at is not None and self.deadline_at != self.by_limit
        )


def user_deadlines(session: Session, user_id: int) -> list[GameDeadline]:
    """Every wait of every running game the user plays in: where windows and pauses put its deadline."""
    games = {game.id: game for game in games_by_id(session, active_games_of(session, user_id))}
    holders = {
        (seat.game_id, seat.number): seat.user_id
        for game in games.values()
        for seat in game.seats
        if seat.status == "playing" and seat.user_id is not None
    }
    names = _names(session, set(holders.values()))
    query = select(WaitRow).where(WaitRow.game_id.in_(list(games))).order_by(WaitRow.game_id, WaitRow.seat)
    found = []
    for row in session.scalars(query):
        game, holder = games[row.game_id], holders.get((row.game_id, row.seat))
        by_limit = (
            None if row.market else clock.raw_deadline(row.started_at, time_limit(game), row.first_in_phase)
        )
        player = names.get(holder) if holder is not None else None
        mine = holder == user_id
        found.append(
            GameDeadline(game.id, game.name, row.seat, player, row.phase, mine, by_limit, row.deadline_at)
        )
    return found


def games_by_id(session: Session, game_ids: Iterable[int]) -> list[Game]:
    return list(session.scalars(select(Game).where(Game.id.in_(list(game_ids))).order_by(Game.id)))


def _names(session: Session, user_ids: set[int]) -> dict[int, str]:
    rows = session.execute(select(User.id, User.display_name).where(User.id.in_(user_ids)))
    return {user_id: name for user_id, name in rows}
