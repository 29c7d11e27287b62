"""A wait's effective deadline: the time limit, then the awaited player's windows and everyone's pauses.

Times are tz-aware UTC datetimes; durations are timedelta.

The raw deadline is pushed out of every pause of every seated player, and into a window of the awaited
player, again and again until neither moves it. Both pushes only ever move a time to the earliest instant
at or after it that they accept, so the result is the earliest instant at or after the raw deadline that is
inside one of the awaited player's windows and outside every pause, whatever the order of the pushes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta

from app.clock._local import as_utc
from app.clock.availability import Availability, Window, push_into_window
from app.clock.limits import raw_deadline
from app.clock.pauses import Pause, pause_spans, push_past_spans


def adjust_deadline(raw: datetime, awaited: Availability, pauses: Iterable[Pause]) -> datetime:
    """The earliest instant at or after `raw` inside a window of `awaited` and outside every pause."""
    spans = pause_spans(pauses)
    at = as_utc(raw, "deadline")
    for _ in range(2 * len(spans) + 2):  # each round passes one more pause for good, or stops
        moved = push_into_window(awaited, push_past_spans(spans, at))
        if moved == at:
            return at
        at = moved
    raise AssertionError("a deadline adjustment did not settle")  # unreachable: see the loop's bound


def effective_deadline(
    started_at: datetime,
    limit: timedelta | None,
    first_in_phase: bool,
    awaited_windows: Sequence[Window],
    awaited_zone: str,
    pauses: Iterable[Pause],
) -> datetime | None:
    """When a wait started at `started_at` times out; None without a time limit.

    `awaited_windows` and `awaited_zone` are the awaited player's; `pauses` are those of every player
    seated in the game (a pause of any of them moves the deadline of every seat).
    """
    raw = raw_deadline(started_at, limit, first_in_phase)
    if raw is None:
        return None
    return adjust_deadline(raw, Availability(awaited_zone, tuple(awaited_windows)), pauses)
