"""Pauses: whole days in the pausing user's zone; removal keeps 24 more hours; chains and overlaps."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.clock import (
    Pause,
    is_paused,
    pause_span,
    pause_spans,
    push_out_of_pauses,
    remove_pause,
    requested_span,
)

H = timedelta(hours=1)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def days(first: str, last: str, zone: str = "UTC", removed_at: datetime | None = None) -> Pause:
    return Pause(date.fromisoformat(first), date.fromisoformat(last), zone, "holiday", removed_at)


def test_a_pause_covers_whole_days_from_local_midnight_to_local_midnight() -> None:
    pause = days("2024-05-10", "2024-05-12", "Europe/Paris")
    span = pause_span(pause)
    assert span is not None
    assert (span.start, span.end) == (utc(2024, 5, 9, 22), utc(2024, 5, 12, 22))
    assert pause.days == 3


def test_a_one_day_pause() -> None:
    span = pause_span(days("2024-05-06", "2024-05-06"))
    assert span is not None and (span.start, span.end) == (utc(2024, 5, 6), utc(2024, 5, 7))


def test_a_pause_ending_before_it_starts_is_refused() -> None:
    with pytest.raises(ValueError, match="before it starts"):
        days("2024-05-06", "2024-05-05")


@pytest.mark.parametrize(
    ("zone", "day", "hours"),
    [
        ("Europe/Paris", "2024-03-31", 23),
        ("Europe/Paris", "2024-10-27", 25),
        ("America/New_York", "2024-03-10", 23),
        ("America/New_York", "2024-11-03", 25),
        ("America/Santiago", "2024-09-08", 23),  # midnight itself is jumped over: starts at 01:00
        ("America/Santiago", "2024-04-06", 25),  # the clock goes back from 24:00 to 23:00
    ],
)
def test_a_pause_day_lasts_as_long_as_the_local_day(zone: str, day: str, hours: int) -> None:
    span = requested_span(days(day, day, zone))
    assert span.length == hours * H


def test_a_pause_starting_on_a_jumped_midnight_starts_at_the_jump() -> None:
    span = requested_span(days("2024-09-08", "2024-09-08", "America/Santiago"))
    assert span.start == datetime(2024, 9, 8, 1, tzinfo=ZoneInfo("America/Santiago"))


# (name, removal time, effective span or None); the pause is 2024-05-10 to 2024-05-12 in UTC.
REMOVALS = [
    ("before it starts: cancelled", utc(2024, 5, 9, 23), None),
    ("long before it starts: cancelled", utc(2024, 4, 1), None),
    ("exactly at its start: 24 hours", utc(2024, 5, 10), (utc(2024, 5, 10), utc(2024, 5, 11))),
    ("during it: 24 more hours", utc(2024, 5, 10, 15), (utc(2024, 5, 10), utc(2024, 5, 11, 15))),
    ("in its last day: original end", utc(2024, 5, 12, 6), (utc(2024, 5, 10), utc(2024, 5, 13))),
    ("exactly 24 hours before its end", utc(2024, 5, 12), (utc(2024, 5, 10), utc(2024, 5, 13))),
    ("after its end: unchanged", utc(2024, 5, 20), (utc(2024, 5, 10), utc(2024, 5, 13))),
]


@pytest.mark.parametrize(
    ("removed_at", "expected"), [case[1:] for case in REMOVALS], ids=[case[0] for case in REMOVALS]
)
def test_removing_a_pause(removed_at: datetime, expected: tuple[datetime, datetime] | None) -> None:
    span = pause_span(remove_pause(days("2024-05-10", "2024-05-12"), removed_at))
    assert (None if span is None else (span.start, span.end)) == expected


def test_removing_a_pause_twice_keeps_the_first_removal() -> None:
    once = remove_pause(days("2024-05-10", "2024-05-12"), utc(2024, 5, 10, 15))
    assert remove_pause(once, utc(2024, 5, 11)) == once


def test_removal_does_not_change_the_request() -> None:
    pause = days("2024-05-10", "2024-05-12")
    removed = remove_pause(pause, utc(2024, 5, 10, 15))
    assert requested_span(removed) == requested_span(pause)
    assert pause.removed_at is None


# (name, pauses, deadline, where it lands)
PUSHES = [
    ("inside: to the end", [("2024-05-10", "2024-05-12")], utc(2024, 5, 11, 9), utc(2024, 5, 13)),
    ("at the start: to the end", [("2024-05-10", "2024-05-12")], utc(2024, 5, 10), utc(2024, 5, 13)),
    ("at the end: stays", [("2024-05-10", "2024-05-12")], utc(2024, 5, 13), utc(2024, 5, 13)),
    ("before: stays", [("2024-05-10", "2024-05-12")], utc(2024, 5, 9, 23, 59), utc(2024, 5, 9, 23, 59)),
    (
        "chained pauses: past both",
        [("2024-05-10", "2024-05-12"), ("2024-05-13", "2024-05-14")],
        utc(2024, 5, 11),
        utc(2024, 5, 15),
    ),
    (
        "overlapping pauses: past the later end",
        [("2024-05-10", "2024-05-12"), ("2024-05-11", "2024-05-16")],
        utc(2024, 5, 10, 12),
        utc(2024, 5, 17),
    ),
    (
        "nested pause: the outer end",
        [("2024-05-10", "2024-05-20"), ("2024-05-12", "2024-05-13")],
        utc(2024, 5, 12, 12),
        utc(2024, 5, 21),
    ),
    (
        "a gap of a day between pauses: stops in the gap",
        [("2024-05-10", "2024-05-11"), ("2024-05-13", "2024-05-14")],
        utc(2024, 5, 10, 12),
        utc(2024, 5, 12),
    ),
]


@pytest.mark.parametrize(
    ("pauses", "deadline", "expected"), [case[1:] for case in PUSHES], ids=[case[0] for case in PUSHES]
)
def test_push_out_of_pauses(pauses: list[tuple[str, str]], deadline: datetime, expected: datetime) -> None:
    assert push_out_of_pauses([days(*p) for p in pauses], deadline) == expected


def test_a_cancelled_pause_moves_nothing() -> None:
    cancelled = remove_pause(days("2024-05-10", "2024-05-12"), utc(2024, 5, 1))
    assert pause_spans([cancelled]) == []
    assert push_out_of_pauses([cancelled], utc(2024, 5, 11)) == utc(2024, 5, 11)


def test_a_removed_pause_moves_to_its_shortened_end() -> None:
    removed = remove_pause(days("2024-05-10", "2024-05-20"), utc(2024, 5, 11, 8))
    assert push_out_of_pauses([removed], utc(2024, 5, 12)) == utc(2024, 5, 12, 8)
    assert push_out_of_pauses([removed], utc(2024, 5, 12, 8)) == utc(2024, 5, 12, 8)


def test_pauses_of_users_in_different_zones_chain() -> None:
    tokyo = days("2024-05-10", "2024-05-10", "Asia/Tokyo")  # 2024-05-09 15:00 to 2024-05-10 15:00 UTC
    new_york = days("2024-05-10", "2024-05-10", "America/New_York")  # 04:00 to 2024-05-11 04:00 UTC
    assert push_out_of_pauses([tokyo, new_york], utc(2024, 5, 9, 20)) == utc(2024, 5, 11, 4)
    assert is_paused(pause_spans([tokyo, new_york]), utc(2024, 5, 10, 14))
    assert not is_paused(pause_spans([tokyo, new_york]), utc(2024, 5, 11, 4))
