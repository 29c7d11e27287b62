"""The trade market window of Advanced Civilization: opening, embargo and close.

Times are tz-aware UTC datetimes; durations are timedelta.

- T0 is the moment the market actually opens: the start of the trade phase, moved past any pause.
- The embargo is the first half of one time limit from T0: trades set up during it (or before the opening)
  take effect when it ends.
- The base close is T0 + (players in the market x time limit); the close is the base after one availability
  pass over the players still in the market, in seat order, each exactly once, then moved past any pause.
- When a player leaves, base = min(base, T0 + players left x limit) and the pass is redone from the base
  over those still in; a close that is then already past closes the market at once.
- Re-entering changes nothing: a player who comes back may trade, but the clock no longer counts them.
- Without a time limit there is no embargo and no close until every player has left.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from app.clock._local import as_utc
from app.clock.availability import ALWAYS, Availability, push_into_window
from app.clock.limits import check_limit, scale
from app.clock.pauses import Pause, push_out_of_pauses

EMBARGO_FACTOR = (1, 2)  # the embargo lasts 50% of one time limit


@dataclass(frozen=True)
class Market:
    """One open trade market, as the clock sees it."""

    phase_started_at: datetime  # when the trade phase began
    opened_at: datetime  # T0: the phase start moved past any pause
    limit: timedelta | None
    counted: tuple[int, ...]  # the seats still in the market and counted, in seat order
    base: datetime | None  # the close before availability and pauses; None without a time limit
    closes_at: datetime | None  # the close; None: not before every player has left

    def __post_init__(self) -> None:  # rebuilt from stored rows too: normalise what they give
        for name in ("phase_started_at", "opened_at", "base", "closes_at"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, as_utc(value, name))
        object.__setattr__(self, "counted", tuple(sorted(set(self.counted))))

    @property
    def embargo_ends_at(self) -> datetime:
        """When trades start to take effect."""
        if self.limit is None:
            return self.opened_at
        return self.opened_at + scale(self.limit, *EMBARGO_FACTOR)


def market_opening(phase_started_at: datetime, pauses: Iterable[Pause]) -> datetime:
    """T0: the trade phase's start, or the end of the pause (of any seated player) it falls in."""
    return push_out_of_pauses(pauses, as_utc(phase_started_at, "phase start"))


def availability_pass(
    base: datetime, seats: Iterable[int], availabilities: Mapping[int, Availability]
) -> datetime:
    """The base close after each seat, in seat order and once, moves it into its next window if outside.

    A seat missing from `availabilities` is always available. The result need not lie in the windows of
    the seats visited before the last move.
    """
    close = as_utc(base, "base close")
    for seat in sorted(seats):
        close = push_into_window(availabilities.get(seat, ALWAYS), close)
    return close


def _cap(opened_at: datetime, limit: timedelta, players: int) -> datetime:
    return opened_at + limit * players


def _settle(
    market: Market, at: datetime, availabilities: Mapping[int, Availability], pauses: Iterable[Pause]
) -> Market:
    """The market with its close computed from its base; a close at or before `at` becomes `at`."""
    if not market.counted:
        return replace(market, closes_at=at)
    if market.base is None:
        return replace(market, closes_at=None)
    close = availability_pass(market.base, market.counted, availabilities)
    close = push_out_of_pauses(pauses, close)
    return replace(market, closes_at=max(close, at))


def open_market(
    phase_started_at: datetime,
    limit: timedelta | None,
    seats: Iterable[int],
    availabilities: Mapping[int, Availability],
    pauses: Iterable[Pause],
) -> Market:
    """The market of a trade phase that started at `phase_started_at`, with `seats` in it."""
    pauses = list(pauses)
    opened_at = market_opening(phase_started_at, pauses)
    limit = check_limit(limit)
    counted = tuple(sorted(set(seats)))
    base = None if limit is None else _cap(opened_at, limit, len(counted))
    market = Market(as_utc(phase_started_at), opened_at, limit, counted, base, closes_at=None)
    return _settle(market, opened_at, availabilities, pauses)


def leave_market(
    market: Market,
    seat: int,
    at: datetime,
    availabilities: Mapping[int, Availability],
    pauses: Iterable[Pause],
) -> Market:
    """The market after `seat` says "Done" at `at`: the base shrinks and the pass is redone."""
    at = as_utc(at, "departure time")
    if seat not in market.counted or is_closed(market, at):
        return market
    counted = tuple(other for other in market.counted if other != seat)
    base = market.base
    if base is not None and market.limit is not None:
        base = min(base, _cap(market.opened_at, market.limit, len(counted)))
    return _settle(replace(market, counted=counted, base=base), at, availabilities, pauses)


def reenter_market(market: Market, seat: int) -> Market:
    """The market after `seat` comes back into it: unchanged, so re-entering never extends it."""
    return market


def recompute_close(
    market: Market, at: datetime, availabilities: Mapping[int, Availability], pauses: Iterable[Pause]
) -> Market:
    """The market after a pause or a window changed at `at`: the pass is redone from the base.

    Before the market has opened, a pause may also move its opening, and the base with it.
    """
    at = as_utc(at, "time")
    if is_closed(market, at):
        return market
    pauses = list(pauses)
    if at < market.opened_at:
        opened_at = market_opening(market.phase_started_at, pauses)
        base = None if market.limit is None else _cap(opened_at, market.limit, len(market.counted))
        market = replace(market, opened_at=opened_at, base=base)
    return _settle(market, at, availabilities, pauses)


def is_closed(market: Market, at: datetime) -> bool:
    """Whether the market is closed at `at`."""
    return market.closes_at is not None and as_utc(at) >= market.closes_at


def trade_takes_effect_at(market: Market, submitted_at: datetime) -> datetime:
    """When a trade submitted at `submitted_at` takes effect: at once, or when the embargo ends."""
    return max(as_utc(submitted_at, "submission time"), market.embargo_ends_at)
