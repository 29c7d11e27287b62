"""Outage compensation: deadlines that passed while no sweep ran are given the lost time back.

Times are tz-aware UTC datetimes; durations are timedelta.

The server records when it last swept. On start, if the gap since then is longer than a threshold, every
deadline that passed during the gap (after the last sweep, up to and including now) is extended by the
gap's length; earlier and later deadlines are left alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from app.clock._local import as_utc


def outage_gap(last_sweep: datetime, now: datetime, threshold: timedelta) -> timedelta | None:
    """The length of the outage if it is longer than `threshold`, else None."""
    gap = as_utc(now, "now") - as_utc(last_sweep, "last sweep")
    return gap if gap > threshold else None


def passed_during_gap(last_sweep: datetime, now: datetime, deadline: datetime) -> bool:
    """Whether `deadline` fell due while nothing swept: after `last_sweep`, at or before `now`."""
    return as_utc(last_sweep) < as_utc(deadline, "deadline") <= as_utc(now)


def compensate_outage(
    last_sweep: datetime, now: datetime, threshold: timedelta, deadlines: Iterable[datetime]
) -> list[datetime]:
    """`deadlines` in the same order, those that passed during an outage longer than `threshold` shifted."""
    deadlines = [as_utc(deadline, "deadline") for deadline in deadlines]
    gap = outage_gap(last_sweep, now, threshold)
    if gap is None:
        return deadlines
    return [d + gap if passed_during_gap(last_sweep, now, d) else d for d in deadlines]
