"""The time limit of one wait, before availability and pauses move it.

Times are tz-aware UTC datetimes; durations are timedelta. A limit of None means "no time limit": the wait
has no deadline at all.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.clock._local import as_utc

FIRST_IN_PHASE_FACTOR = (3, 2)  # the first player of a phase gets 1.5 times the limit (the site's rule)


def scale(duration: timedelta, numerator: int, denominator: int) -> timedelta:
    """`duration` times numerator/denominator, exact to the microsecond (rounded down)."""
    micros = duration // timedelta(microseconds=1)
    return timedelta(microseconds=micros * numerator // denominator)


def check_limit(limit: timedelta | None) -> timedelta | None:
    """`limit` itself; a limit that is zero or negative is refused."""
    if limit is not None and limit <= timedelta(0):
        raise ValueError(f"a time limit must be positive, got {limit}")
    return limit


def wait_limit(limit: timedelta | None, first_in_phase: bool) -> timedelta | None:
    """How long one wait lasts: the game's limit, 1.5 times it for the first player of a phase."""
    limit = check_limit(limit)
    if limit is None:
        return None
    return scale(limit, *FIRST_IN_PHASE_FACTOR) if first_in_phase else limit


def raw_deadline(started_at: datetime, limit: timedelta | None, first_in_phase: bool) -> datetime | None:
    """When a wait that started at `started_at` runs out, before availability and pauses; None: never."""
    duration = wait_limit(limit, first_in_phase)
    return None if duration is None else as_utc(started_at, "started_at") + duration
