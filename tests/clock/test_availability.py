"""Weekly availability windows in the user's zone: tables of edges (boundaries, midnight, month ends, DST)."""

from collections.abc import Callable
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from app.clock import ALWAYS, Availability, Window, daily, is_available, next_window_start, push_into_window
from app.clock.availability import WEEKDAYS


def window(text: str) -> Window:
    """'Mon 09:00-17:00' -> Window(0, 09:00, 17:00)."""
    day, hours = text.split()
    start, end = hours.split("-")
    return Window(WEEKDAYS.index(day.lower()), time.fromisoformat(start), time.fromisoformat(end))


def local(zone: str, text: str) -> datetime:
    """'2024-05-06 12:00' read on the wall clock of `zone`, as a UTC instant; ' (2nd)': its second showing."""
    second = text.endswith(" (2nd)")
    naive = datetime.fromisoformat(text.removesuffix(" (2nd)"))
    return naive.replace(tzinfo=ZoneInfo(zone), fold=int(second)).astimezone(UTC)


def availability(zone: str, *windows: str) -> Availability:
    return Availability(zone, tuple(window(w) for w in windows))


# One case a line: name | windows | deadline | where it lands. Times are read on the zone's wall clock;
# "(2nd)" is the second showing of a time the clock goes back over. 2024-05-06 is a Monday.
PUSHES = {
    "UTC": """
        inside                        | Mon 09:00-17:00 | 2024-05-06 12:00 | 2024-05-06 12:00
        at the start: stays           | Mon 09:00-17:00 | 2024-05-06 09:00 | 2024-05-06 09:00
        just before the end: stays    | Mon 09:00-17:00 | 2024-05-06 16:59:59.9 | 2024-05-06 16:59:59.9
        at the end: next window       | Mon 09:00-17:00 | 2024-05-06 17:00 | 2024-05-13 09:00
        before the window             | Mon 09:00-17:00 | 2024-05-06 08:59 | 2024-05-06 09:00
        later in the week             | Mon 09:00-17:00 | 2024-05-07 10:00 | 2024-05-13 09:00
        the nearest of several        | Wed 10:00-11:00, Tue 20:00-21:00 | 2024-05-06 12:00 | 2024-05-07 20:00
        overlapping windows           | Mon 09:00-12:00, Mon 11:00-14:00 | 2024-05-06 13:00 | 2024-05-06 13:00
        adjacent windows join         | Mon 09:00-12:00, Mon 12:00-14:00 | 2024-05-06 12:00 | 2024-05-06 12:00
        across midnight: after 00:00  | Fri 22:00-02:00 | 2024-05-11 01:00 | 2024-05-11 01:00
        across midnight: at its end   | Fri 22:00-02:00 | 2024-05-11 02:00 | 2024-05-17 22:00
        across midnight: before it    | Fri 22:00-02:00 | 2024-05-10 21:00 | 2024-05-10 22:00
        Sunday night into Monday      | Sun 23:00-01:00 | 2024-05-06 00:30 | 2024-05-06 00:30
        start equals end: 24 hours    | Wed 06:00-06:00 | 2024-05-09 05:59 | 2024-05-09 05:59
        start equals end: its end     | Wed 06:00-06:00 | 2024-05-09 06:00 | 2024-05-15 06:00
        whole day 00:00-00:00         | Wed 00:00-00:00 | 2024-05-09 00:00 | 2024-05-15 00:00
        month end: May into June      | Fri 22:00-02:00 | 2024-06-01 01:00 | 2024-06-01 01:00
        month end: pushed into June   | Sat 09:00-10:00 | 2024-05-31 12:00 | 2024-06-01 09:00
        year end                      | Tue 23:00-01:00 | 2025-01-01 00:30 | 2025-01-01 00:30
        leap day                      | Wed 22:00-03:00 | 2024-02-29 02:00 | 2024-02-29 02:00
        no leap day                   | Tue 23:00-01:00 | 2023-03-01 00:30 | 2023-03-01 00:30
        pushed past February          | Fri 09:00-10:00 | 2024-02-29 12:00 | 2024-03-01 09:00
    """,
    # Paris: on Sunday 2024-03-31 the clock jumps from 02:00 to 03:00; on Sunday 2024-10-27 it goes back
    # from 03:00 to 02:00.
    "Europe/Paris": """
        summer time                   | Mon 09:00-17:00 | 2024-05-06 08:00 | 2024-05-06 09:00
        spring: opens at the jump     | Sun 02:30-04:00 | 2024-03-30 12:00 | 2024-03-31 03:00
        spring: lost in the jump      | Sun 02:00-02:59 | 2024-03-30 12:00 | 2024-04-07 02:00
        spring: closes at the jump    | Sun 01:00-02:30 | 2024-03-31 03:00 | 2024-04-07 01:00
        spring: short night           | Sat 23:00-03:30 | 2024-03-31 03:29 | 2024-03-31 03:29
        spring: the next week         | Sun 02:30-04:00 | 2024-03-31 04:00 | 2024-04-07 02:30
        fall: opens at first 02:30    | Sun 02:30-04:00 | 2024-10-27 02:00 | 2024-10-27 02:30
        fall: open in the 2nd 02:10   | Sun 02:30-04:00 | 2024-10-27 02:10 (2nd) | 2024-10-27 02:10 (2nd)
        fall: open to the last 02:30  | Sun 01:00-02:30 | 2024-10-27 02:29 (2nd) | 2024-10-27 02:29 (2nd)
        fall: closed at last 02:30    | Sun 01:00-02:30 | 2024-10-27 02:30 (2nd) | 2024-11-03 01:00
        fall: an end at 02:00         | Sun 00:00-02:00 | 2024-10-27 02:15 (2nd) | 2024-11-03 00:00
    """,
    # New York: on Sunday 2024-03-10, 02:00 jumps to 03:00; on Sunday 2024-11-03, 02:00 goes back to 01:00.
    "America/New_York": """
        winter time                   | Mon 09:00-17:00 | 2024-12-02 17:30 | 2024-12-09 09:00
        spring: lost in the jump      | Sun 02:00-03:00 | 2024-03-09 12:00 | 2024-03-17 02:00
        spring: opens at the jump     | Sun 02:15-05:00 | 2024-03-10 00:00 | 2024-03-10 03:00
        fall: opens at first 01:30    | Sun 01:30-01:45 | 2024-11-03 01:00 | 2024-11-03 01:30
        fall: open to the last 01:45  | Sun 01:30-01:45 | 2024-11-03 01:44 (2nd) | 2024-11-03 01:44 (2nd)
        fall: a 25-hour day           | Sun 00:00-00:00 | 2024-11-03 23:59 | 2024-11-03 23:59
    """,
    # Lord Howe moves its clock by 30 minutes; Santiago changes at midnight; Samoa skipped 2011-12-30.
    "Australia/Lord_Howe": """
        spring: half-hour jump        | Sun 02:10-02:20 | 2024-10-05 12:00 | 2024-10-13 02:10
        fall: half-hour fold          | Sun 01:45-02:15 | 2024-04-07 01:40 (2nd) | 2024-04-07 01:40 (2nd)
    """,
    "America/Santiago": """
        midnight jumped over          | Sun 00:00-06:00 | 2024-09-07 20:00 | 2024-09-08 01:00
    """,
    "Pacific/Apia": """
        a day that never happened     | Fri 10:00-12:00 | 2011-12-29 12:00 | 2012-01-06 10:00
    """,
}
CASES = [
    (zone, *(cell.strip() for cell in line.split("|")))
    for zone, table in PUSHES.items()
    for line in table.strip().splitlines()
]


@pytest.mark.parametrize(
    ("zone", "windows", "deadline", "expected"),
    [(zone, windows, deadline, expected) for zone, _, windows, deadline, expected in CASES],
    ids=[f"{zone}: {name}" for zone, name, *_ in CASES],
)
def test_push_into_window(zone: str, windows: str, deadline: str, expected: str) -> None:
    awaited = availability(zone, *windows.split(", "))
    assert push_into_window(awaited, local(zone, deadline)) == local(zone, expected)


def test_no_windows_means_always_available() -> None:
    at = datetime(2024, 5, 6, 3, tzinfo=UTC)
    assert is_available(ALWAYS, at)
    assert push_into_window(Availability("Asia/Tokyo", ()), at) == at
    with pytest.raises(ValueError, match="no window"):
        next_window_start(ALWAYS, at)


def test_next_window_start_at_a_start_is_that_start() -> None:
    mondays = availability("UTC", "Mon 09:00-17:00")
    at = local("UTC", "2024-05-06 09:00")
    assert next_window_start(mondays, at) == at
    assert next_window_start(mondays, local("UTC", "2024-05-06 09:01")) == local("UTC", "2024-05-13 09:00")


@pytest.mark.parametrize(
    ("zone", "day", "hours"),
    [
        ("Europe/Paris", date(2024, 3, 31), 23),
        ("Europe/Paris", date(2024, 10, 27), 25),
        ("America/New_York", date(2024, 3, 10), 23),
        ("America/New_York", date(2024, 11, 3), 25),
        ("Europe/Paris", date(2024, 5, 6), 24),
    ],
)
def test_a_whole_day_window_lasts_as_long_as_the_day(zone: str, day: date, hours: int) -> None:
    span = Window(day.weekday(), time(0), time(0)).on(day, zone)
    assert span is not None and span.length.total_seconds() == hours * 3600


def test_a_window_lost_in_the_jump_has_no_span_that_day() -> None:
    assert Window(6, time(2), time(2, 59)).on(date(2024, 3, 31), "Europe/Paris") is None
    assert Window(4, time(10), time(12)).on(date(2011, 12, 30), "Pacific/Apia") is None


def test_the_result_is_always_utc() -> None:
    paris = ZoneInfo("Europe/Paris")
    result = push_into_window(
        daily(time(9), time(10), "Europe/Paris"), datetime(2024, 5, 6, 12, tzinfo=paris)
    )
    assert result.tzinfo is UTC and result == datetime(2024, 5, 7, 9, tzinfo=paris)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Window(7, time(9), time(10)),
        lambda: Window(-1, time(9), time(10)),
        lambda: Window(0, time(9, tzinfo=UTC), time(10)),
        lambda: Availability("Mars/Olympus_Mons", ()),
    ],
)
def test_bad_windows_are_refused(bad: Callable[[], object]) -> None:
    with pytest.raises(Exception):  # noqa: B017 - ValueError or ZoneInfoNotFoundError (a KeyError)
        bad()
