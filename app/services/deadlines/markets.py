"""Trade-market windows as rows: the clock's `Market`, stored while a game's market waits last.

A game's market waits (`Wait.market`) share one close. The market opens when its first market waits
start; a seat whose market wait ends has left it (base shrinks, availability pass redone); a seat that
comes back is not counted again; when no market wait is left the window is deleted.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import clock
from app.models import MarketWindow, WaitRow
from app.services.deadlines.calendars import GameClock


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


def end_market(session: Session, game_id: int) -> None:
    stored = stored_market(session, game_id)
    if stored is not None:
        session.delete(stored)


def sync_market(session: Session, gc: GameClock, rows: Sequence[WaitRow], now: datetime) -> datetime | None:
    """Open, shrink or end the game's market to match its market waits; returns their close."""
    market_rows = [row for row in rows if row.market]
    stored = stored_market(session, gc.game.id)
    if stored is not None and (not market_rows or stored.phase != market_rows[0].phase):
        session.delete(stored)
        session.flush()
        stored = None
    if not market_rows:
        return None
    seats = {row.seat for row in market_rows}
    if stored is None:
        return _open(session, gc, market_rows[0].phase, seats, now)
    market = as_market(stored)
    for seat in [seat for seat in market.counted if seat not in seats]:
        market = clock.leave_market(market, seat, now, gc.by_seat(market.counted), gc.pauses)
    _store(stored, market)
    return market.closes_at


def _open(session: Session, gc: GameClock, phase: str, seats: set[int], now: datetime) -> datetime | None:
    market = clock.open_market(now, gc.limit, seats, gc.by_seat(seats), gc.pauses)
    row = MarketWindow(
        game_id=gc.game.id,
        phase=phase,
        phase_started_at=market.phase_started_at,
        limit_hours=gc.game.time_limit_hours,
    )
    _store(row, market)
    session.add(row)
    return market.closes_at


def recompute_market(session: Session, gc: GameClock, now: datetime) -> datetime | None:
    """The close after a pause, a window or a seat's holder changed; None when there is no market."""
    stored = stored_market(session, gc.game.id)
    if stored is None:
        return None
    market = as_market(stored)
    market = clock.recompute_close(market, now, gc.by_seat(market.counted), gc.pauses)
    _store(stored, market)
    return market.closes_at


def shift_market(session: Session, game_id: int, gap: timedelta) -> None:
    """Slide the whole market later by `gap` (outage compensation)."""
    stored = stored_market(session, game_id)
    if stored is None:
        return
    stored.phase_started_at += gap
    stored.opened_at += gap
    stored.base = stored.base + gap if stored.base is not None else None
    stored.closes_at = stored.closes_at + gap if stored.closes_at is not None else None
