"""Weekly availability windows: reading, checking and replacing a user's windows.

A deadline that falls outside the awaited player's windows moves to the start of their next window
(app.clock). Windows are read on the user's wall clock, in their time zone. No windows at all means
"always available". Changing the windows recomputes the deadlines of the user's running games.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, time, timedelta

from sqlalchemy import delete
from sqlalchemy.orm import Session

from app import clock
from app.models import AvailabilityWindow
from app.models.records import UserFacts
from app.services.deadlines import deadlines
from app.services.deadlines.calendars import minute_of
from app.services.errors import ServiceError

MAX_WINDOWS = 28
MIN_WINDOW = timedelta(hours=1)
MIN_WEEKLY = timedelta(hours=14)  # a player must be reachable two hours a day on average
_RANGE = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


def parse_time(text: str, field: str = "windows") -> time:
    """ "HH:MM" (00:00 to 23:59) as a wall-clock time."""
    match = re.fullmatch(r"\s*(\d{1,2}):(\d{2})\s*", text)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise ServiceError("invalid_input", "Write times as HH:MM, from 00:00 to 23:59.", field)
    return time(int(match[1]), int(match[2]))


def parse_day(weekday: int, text: str) -> list[clock.Window]:
    """The windows of one weekday written as "09:00-12:00, 20:00-23:30" (empty: none that day)."""
    field = f"day{weekday}"
    windows = []
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        match = _RANGE.match(part)
        if match is None:
            raise ServiceError("invalid_input", "Write each window as HH:MM-HH:MM.", field)
        start = parse_time(f"{match[1]}:{match[2]}", field)
        end = parse_time(f"{match[3]}:{match[4]}", field)
        windows.append(clock.Window(weekday, start, end))
    return windows


def window_length(window: clock.Window) -> timedelta:
    start = window.start.hour * 60 + window.start.minute
    end = window.end.hour * 60 + window.end.minute
    return timedelta(minutes=(end - start) % (24 * 60) or 24 * 60)


def check_windows(windows: Sequence[clock.Window]) -> None:
    """Refuse windows that would let a player stall a game (see docs/time.md)."""
    if len(windows) > MAX_WINDOWS:
        raise ServiceError("invalid_input", "At most 28 windows a week.", "windows")
    if any(window_length(window) < MIN_WINDOW for window in windows):
        raise ServiceError("invalid_input", "Each window lasts at least one hour.", "windows")
    if windows and sum((window_length(w) for w in windows), timedelta()) < MIN_WEEKLY:
        raise ServiceError(
            "invalid_input", "Your windows must add up to at least 14 hours a week.", "windows"
        )


def set_windows(
    session: Session, user: UserFacts, windows: Sequence[clock.Window], now: datetime
) -> list[deadlines.DeadlineChange]:
    """Replace the user's windows; returns the deadlines of their games that moved."""
    check_windows(windows)
    session.execute(delete(AvailabilityWindow).where(AvailabilityWindow.user_id == user.id))
    for window in windows:
        session.add(
            AvailabilityWindow(
                user_id=user.id,
                weekday=window.weekday,
                start_minute=minute_of(window.start),
                end_minute=minute_of(window.end),
            )
        )
    session.flush()
    changes = deadlines.recompute_games_of(session, user.id, now)
    session.commit()
    return changes


def make_window(weekday: int, start: str, end: str) -> clock.Window:
    """A window from the API's fields: weekday 0 (Monday) to 6, times as HH:MM."""
    if not 0 <= weekday <= 6:
        raise ServiceError("invalid_input", "A weekday is 0 (Monday) to 6 (Sunday).", "windows")
    return clock.Window(weekday, parse_time(start), parse_time(end))


def day_texts(windows: Sequence[clock.Window]) -> list[str]:
    """Each weekday's windows as the form writes them: "09:00-12:00, 20:00-23:30"."""
    texts: list[list[str]] = [[] for _ in range(7)]
    for window in windows:
        texts[window.weekday].append(f"{window.start:%H:%M}-{window.end:%H:%M}")
    return [", ".join(day) for day in texts]
