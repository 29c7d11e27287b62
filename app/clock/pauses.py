"""Pauses: a player's absence, in whole days, that no deadline of their games may fall into.

Times are tz-aware UTC datetimes; durations are timedelta; pause bounds are calendar dates in the pausing
user's zone. A pause covers its first and last days whole: from the local midnight that starts the first
day to the local midnight that ends the last one.

Removing a pause keeps it in force for 24 more hours, so the other players can react; a pause removed
before it starts is simply cancelled.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta

from app.clock._local import as_utc, closing_instant, opening_instant, zone_of
from app.clock.span import Span

REMOVAL_NOTICE = timedelta(hours=24)
_DAY = timedelta(days=1)


@dataclass(frozen=True)
class Pause:
    """A pause request: `first_day` to `last_day` inclusive, in `zone`; `removed_at` once removed."""

    first_day: date
    last_day: date
    zone: str = "UTC"
    reason: str = ""
    removed_at: datetime | None = None

    def __post_init__(self) -> None:
        zone_of(self.zone)
        if self.last_day < self.first_day:
            raise ValueError(f"a pause ends ({self.last_day}) before it starts ({self.first_day})")
        if self.removed_at is not None:
            object.__setattr__(self, "removed_at", as_utc(self.removed_at, "removed_at"))

    @property
    def days(self) -> int:
        """The number of days asked for, as the request form shows it."""
        return (self.last_day - self.first_day).days + 1


def requested_span(pause: Pause) -> Span:
    """The stretch the pause was asked for, ignoring any removal."""
    zone = zone_of(pause.zone)
    start = opening_instant(datetime.combine(pause.first_day, time()), zone)
    end = closing_instant(datetime.combine(pause.last_day + _DAY, time()), zone)
    return Span(start, end)


def pause_span(pause: Pause) -> Span | None:
    """The stretch the pause is in force: None once cancelled (removed before it started)."""
    span = requested_span(pause)
    if pause.removed_at is None:
        return span
    if pause.removed_at < span.start:
        return None
    return Span(span.start, min(span.end, pause.removed_at + REMOVAL_NOTICE))


def remove_pause(pause: Pause, at: datetime) -> Pause:
    """The pause after its user removes it at `at`; removing it again changes nothing."""
    if pause.removed_at is not None:
        return pause
    return replace(pause, removed_at=as_utc(at, "removal time"))


def pause_spans(pauses: Iterable[Pause]) -> list[Span]:
    """The stretches of the pauses still in force, cancelled ones left out."""
    spans = (pause_span(pause) for pause in pauses)
    return [span for span in spans if span is not None]


def is_paused(spans: Iterable[Span], at: datetime) -> bool:
    """Whether `at` falls inside one of `spans`."""
    at = as_utc(at)
    return any(at in span for span in spans)


def push_past_spans(spans: Iterable[Span], at: datetime) -> datetime:
    """`at`, moved to the end of any span it falls in, then of any span that end falls in, and so on."""
    at = as_utc(at)
    spans = list(spans)
    while True:
        ends = [span.end for span in spans if at in span]
        if not ends:
            return at
        at = max(ends)


def push_out_of_pauses(pauses: Iterable[Pause], at: datetime) -> datetime:
    """`at` if no pause is in force then, else the end of the pause (or chain of pauses) it falls in."""
    return push_past_spans(pause_spans(pauses), at)
