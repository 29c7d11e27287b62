"""Trade-market windows as rows: the clock's `Market`, stored while a game's market waits last.

A game's market waits (`Wait.market`) share one close. The market opens when its first market waits
start; a seat whose market wait ends has left it (base shrinks, availability pass redone); a seat that
comes back is not counted again; when no market wait is left the window is deleted.

When the rules have a `clock_order`, the market waits are also checked at the embargo's end until the
sweeper has applied that order (`embargo_signalled_at`); a new market is a new window, so a new signal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import clock
from app.games import registry
from app.games.contract import clock_order_of
from app.models import MarketWindow, WaitRow
from app.models.records import GameFacts
from app.services.deadlines.calendars import GameClock


@dataclass(frozen=True)
class MarketTimes:
    """What the market's waits are timed by."""

    close: datetime | None  # the close they all share; None: not before every player has left
    signal_at: datetime | None = None  # when the rules' clock order falls due, until it is applied


NO_MARKET = MarketTimes(None)


@dataclass(frozen=True)
class MarketClock:
    """An open market's times as its page shows them."""

    opened_at: datetime
    embargo_ends_at: datetime  # trades agreed before it wait for it
    closes_at: datetime | None  # None: not before every player has left


def market_clock(session: Session, game_id: int) -> MarketClock | None:
    stored = stored_market(session, game_id)
    if stored is None:
        return None
    market = as_market(stored)
    return MarketClock(market.opened_at, market.embargo_ends_at, market.closes_at)


def as_market(row: MarketWindow) -> clock.Market:
    limit = timedelta(hours=row.limit_hours) if row.limit_hours is not None else None
    return clock.Market(
        row.phase_started_at, row.opened_at, limit, tuple(row.counted), row.base, row.closes_at
    )


def _store(row: MarketWindow, market: clock.Market) -> None:
    row.opened_at = market.opened_at
    row.counted = list(market.counted)
    row.base = market.base
    row.closes_at = market.closes_at


def stored_market(session: Session, game_id: int) -> MarketWindow | None:
    return session.scalar(select(MarketWindow).where(MarketWindow.game_id == game_id))


def signal_at(game: GameFacts, stored: MarketWindow | None) -> datetime | None:
    """When the clock must apply the rules' clock order: the embargo's end, until it has been applied."""
    if stored is None or stored.embargo_signalled_at is not None or not registry.known(game.game_type):
        return None
    if clock_order_of(registry.get(game.game_type)) is None:
        return None
    return as_market(stored).embargo_ends_at


def times_of(game: GameFacts, stored: MarketWindow) -> MarketTimes:
    return MarketTimes(stored.closes_at, signal_at(game, stored))


def signalling_seat(stored: MarketWindow, rows: Sequence[WaitRow]) -> int | None:
    """The seat the clock order comes from: the lowest still counted, else the lowest market wait's."""
    seats = list(stored.counted) or [row.seat for row in rows if row.market]
    return min(seats) if seats else None


def end_market(session: Session, game_id: int) -> None:
    stored = stored_market(session, game_id)
    if stored is not None:
        session.delete(stored)


def sync_market(session: Session, gc: GameClock, rows: Sequence[WaitRow], now: datetime) -> MarketTimes:
    """Open, shrink or end the game's market to match its market waits; returns what times them."""
    market_rows = [row for row in rows if row.market]
    stored = stored_market(session, gc.game.id)
    if stored is not None and (not market_rows or stored.phase != market_rows[0].phase):
        session.delete(stored)
        session.flush()
        stored = None
    if not market_rows:
        return NO_MARKET
    seats = {row.seat for row in market_rows}
    if stored is None:
        return _open(session, gc, market_rows[0].phase, seats, now)
    market = as_market(stored)
    for seat in [seat for seat in market.counted if seat not in seats]:
        market = clock.leave_market(market, seat, now, gc.by_seat(market.counted), gc.pauses)
    _store(stored, market)
    return times_of(gc.game, stored)


def _open(session: Session, gc: GameClock, phase: str, seats: set[int], now: datetime) -> MarketTimes:
    market = clock.open_market(now, gc.limit, seats, gc.by_seat(seats), gc.pauses)
    row = MarketWindow(
        game_id=gc.game.id,
        phase=phase,
        phase_started_at=market.phase_started_at,
        limit_hours=gc.game.time_limit_hours,
    )
    _store(row, market)
    session.add(row)
    return times_of(gc.game, row)


def recompute_market(session: Session, gc: GameClock, now: datetime) -> MarketTimes:
    """The close (and the signal) after a pause, a window, a seat's holder or an outage changed them."""
    stored = stored_market(session, gc.game.id)
    if stored is None:
        return NO_MARKET
    market = as_market(stored)
    market = clock.recompute_close(market, now, gc.by_seat(market.counted), gc.pauses)
    _store(stored, market)
    return times_of(gc.game, stored)


def shift_market(session: Session, game_id: int, gap: timedelta) -> None:
    """Slide the whole market later by `gap` (outage compensation), its embargo's end with it."""
    stored = stored_market(session, game_id)
    if stored is None:
        return
    stored.phase_started_at += gap
    stored.opened_at += gap
    stored.base = stored.base + gap if stored.base is not None else None
    stored.closes_at = stored.closes_at + gap if stored.closes_at is not None else None
