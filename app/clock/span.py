"""A stretch of time between two instants.

Times are tz-aware UTC datetimes; durations are timedelta.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from app.clock._local import as_utc


@dataclass(frozen=True)
class Span:
    """The half-open stretch [start, end): it holds `start`, not `end`."""

    start: datetime
    end: datetime

    def __post_init__(self) -> None:
        object.__setattr__(self, "start", as_utc(self.start, "span start"))
        object.__setattr__(self, "end", as_utc(self.end, "span end"))
        if self.end < self.start:
            raise ValueError(f"span ends before it starts: {self.start} > {self.end}")

    def __contains__(self, at: datetime) -> bool:
        return self.start <= at < self.end

    @property
    def length(self) -> timedelta:
        return self.end - self.start
