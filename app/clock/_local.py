"""Wall clock and instants: turning a user's local date and time into an instant.

Times are tz-aware UTC datetimes; durations are timedelta; local times are naive datetimes read on the
wall clock of an IANA zone.

Two DST cases need a rule:
- a local time the clock jumps over (spring forward) is taken as the instant of the jump, the first moment
  the wall clock reads that time or later;
- a local time the clock shows twice (fall back) is taken as its first showing when it opens a span and as
  its last showing when it closes one, so a span keeps every instant whose wall-clock reading lies inside it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

_TICK = timedelta(microseconds=1)


def zone_of(name: str) -> ZoneInfo:
    """The zone called `name` (an IANA name); raises `ZoneInfoNotFoundError` for an unknown one."""
    return ZoneInfo(name)


def as_utc(at: datetime, what: str = "time") -> datetime:
    """`at` converted to UTC; a naive datetime is refused."""
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware, got {at!r}")
    return at.astimezone(UTC)


def wall(at: datetime, zone: ZoneInfo) -> datetime:
    """What the wall clock of `zone` reads at the instant `at` (a naive datetime)."""
    return at.astimezone(zone).replace(tzinfo=None)


def _reading(local: datetime, zone: ZoneInfo, fold: int) -> datetime | None:
    """The instant at which the wall clock reads `local` (first or second showing), None if it never does."""
    at = local.replace(tzinfo=zone, fold=fold).astimezone(UTC)
    return at if wall(at, zone) == local else None


def _jump(local: datetime, zone: ZoneInfo) -> datetime:
    """The instant the clock jumps over the missing local time `local`."""
    before = local.replace(tzinfo=zone, fold=1).astimezone(UTC)  # still reads earlier than `local`
    after = local.replace(tzinfo=zone, fold=0).astimezone(UTC)  # already reads later than `local`
    while after - before > _TICK:
        middle = before + (after - before) // 2
        if wall(middle, zone) < local:
            before = middle
        else:
            after = middle
    return after


def opening_instant(local: datetime, zone: ZoneInfo) -> datetime:
    """The first instant the wall clock of `zone` reads `local` (or, in a gap, has just jumped past it)."""
    first = _reading(local, zone, fold=0)
    return first if first is not None else _jump(local, zone)


def closing_instant(local: datetime, zone: ZoneInfo) -> datetime:
    """The instant after which the wall clock of `zone` never again reads a time just before `local`."""
    last = _reading(local, zone, fold=1)
    if last is None:
        return _jump(local, zone)
    if wall(last - _TICK, zone) < local:
        return last
    return opening_instant(local, zone)  # `local` is where the clock falls back to: its first showing
