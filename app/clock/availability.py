"""Weekly availability windows: a deadline never falls while the awaited player is away.

Times are tz-aware UTC datetimes; durations are timedelta. Windows are read on the user's wall clock, in
their IANA zone, so a window of "Monday 09:00-17:00" follows the user's summer and winter time.

Rules (docs/time.md has the reasons and the tests that pin them):
- a window is half-open: it holds its start, not its end;
- an end at or before the start crosses midnight into the next day; an end equal to the start is 24 hours;
- no windows at all means "always available";
- on a DST change day a window holds every instant whose wall-clock reading lies inside it: a start the
  clock jumps over opens at the jump; a start shown twice opens at its first showing, an end shown twice
  closes at its last showing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from app.clock._local import as_utc, closing_instant, opening_instant, wall, zone_of
from app.clock.span import Span

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY = timedelta(days=1)
_SEARCH_DAYS = 400  # a weekly window opens within a week; this only bounds pathological zones


@dataclass(frozen=True)
class Window:
    """A weekly window in the user's zone: `weekday` 0 = Monday ... 6 = Sunday, from `start` to `end`."""

    weekday: int
    start: time
    end: time

    def __post_init__(self) -> None:
        if not 0 <= self.weekday <= 6:
            raise ValueError(f"weekday must be 0 (Monday) to 6 (Sunday), got {self.weekday}")
        for bound in (self.start, self.end):
            if bound.tzinfo is not None:
                raise ValueError("window times are wall-clock times: give them without a zone")
        object.__setattr__(self, "start", self.start.replace(fold=0))
        object.__setattr__(self, "end", self.end.replace(fold=0))

    @property
    def crosses_midnight(self) -> bool:
        return self.end <= self.start

    def on(self, day: date, zone_name: str) -> Span | None:
        """What this window covers on the local date `day`; None on another weekday or if DST ate it."""
        if day.weekday() != self.weekday:
            return None
        zone = zone_of(zone_name)
        end_day = day + _DAY if self.crosses_midnight else day
        start = opening_instant(datetime.combine(day, self.start), zone)
        end = closing_instant(datetime.combine(end_day, self.end), zone)
        return Span(start, end) if start < end else None


@dataclass(frozen=True)
class Availability:
    """A user's weekly windows and the zone they are read in; no windows means always available."""

    zone: str = "UTC"
    windows: tuple[Window, ...] = ()

    def __post_init__(self) -> None:
        zone_of(self.zone)  # fails early on an unknown zone
        object.__setattr__(self, "windows", tuple(self.windows))

    @property
    def always(self) -> bool:
        return not self.windows


ALWAYS = Availability()


def daily(start: time, end: time, zone: str = "UTC") -> Availability:
    """The same window every day of the week."""
    return Availability(zone, tuple(Window(day, start, end) for day in range(7)))


def spans_between(availability: Availability, first_day: date, last_day: date) -> Iterator[Span]:
    """The window stretches that open on the local dates first_day..last_day, by date."""
    day = first_day
    while day <= last_day:
        yield from _spans_on(availability, day)
        day += _DAY


def _spans_on(availability: Availability, day: date) -> Iterable[Span]:
    spans = (window.on(day, availability.zone) for window in availability.windows)
    return [span for span in spans if span is not None]


def _local_day(availability: Availability, at: datetime) -> date:
    return wall(at, zone_of(availability.zone)).date()


def is_available(availability: Availability, at: datetime) -> bool:
    """Whether `at` lies inside one of the windows (always true without windows)."""
    at = as_utc(at)
    if availability.always:
        return True
    today = _local_day(availability, at)
    return any(at in span for span in spans_between(availability, today - 2 * _DAY, today))


def next_window_start(availability: Availability, at: datetime) -> datetime:
    """The earliest window start at or after `at`; raises ValueError when there are no windows."""
    at = as_utc(at)
    if availability.always:
        raise ValueError("an availability without windows has no window start")
    day = _local_day(availability, at) - 2 * _DAY
    best: datetime | None = None
    best_day = day
    for _ in range(_SEARCH_DAYS):
        for span in _spans_on(availability, day):
            if span.start >= at and (best is None or span.start < best):
                best, best_day = span.start, day
        if best is not None and day >= best_day + 2 * _DAY:
            return best
        day += _DAY
    if best is None:
        raise ValueError("no window of this availability ever opens")
    return best


def push_into_window(availability: Availability, at: datetime) -> datetime:
    """`at` if the user is available then, else the start of their next window: the earliest such instant."""
    at = as_utc(at)
    if is_available(availability, at):
        return at
    return next_window_start(availability, at)
