"""Time limit per wait: start + limit, 1.5 times for the first player of a phase, none without a limit."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.clock import raw_deadline, wait_limit

H = timedelta(hours=1)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_site_example_turn_at_8am_in_a_12_hour_game_ends_at_8pm() -> None:
    assert raw_deadline(utc(2024, 5, 6, 8), 12 * H, first_in_phase=False) == utc(2024, 5, 6, 20)


def test_site_example_first_player_of_a_phase_gets_36_hours_in_a_24_hour_game() -> None:
    assert wait_limit(24 * H, first_in_phase=True) == 36 * H
    assert raw_deadline(utc(2024, 5, 6, 8), 24 * H, first_in_phase=True) == utc(2024, 5, 7, 20)


@pytest.mark.parametrize("first", [False, True])
def test_no_time_limit_means_no_deadline(first: bool) -> None:
    assert wait_limit(None, first) is None
    assert raw_deadline(utc(2024, 5, 6), None, first) is None


@pytest.mark.parametrize("limit", [timedelta(0), -H])
def test_a_limit_must_be_positive(limit: timedelta) -> None:
    with pytest.raises(ValueError, match="positive"):
        raw_deadline(utc(2024, 5, 6), limit, False)


def test_one_and_a_half_is_exact_to_the_microsecond_rounded_down() -> None:
    assert wait_limit(timedelta(microseconds=3), True) == timedelta(microseconds=4)
    assert wait_limit(timedelta(hours=7, microseconds=1), True) == timedelta(
        hours=10, minutes=30, microseconds=1
    )


def test_a_naive_start_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        raw_deadline(datetime(2024, 5, 6, 8), 12 * H, False)


def test_a_start_given_in_another_zone_comes_back_in_utc() -> None:
    start = datetime(2024, 5, 6, 10, tzinfo=ZoneInfo("Europe/Paris"))
    deadline = raw_deadline(start, 12 * H, False)
    assert deadline == utc(2024, 5, 6, 20)
    assert deadline is not None and deadline.tzinfo is UTC


def test_the_limit_is_elapsed_time_across_a_dst_change() -> None:
    # 24 hours from Saturday 12:00 in Paris is Sunday 13:00 in Paris: the night lost an hour.
    paris = ZoneInfo("Europe/Paris")
    deadline = raw_deadline(datetime(2024, 3, 30, 12, tzinfo=paris), 24 * H, False)
    assert deadline == datetime(2024, 3, 31, 13, tzinfo=paris)
