"""A wait's effective deadline: the limit, then all seated players' pauses and the awaited one's windows."""

from datetime import UTC, date, datetime, time, timedelta

from app.clock import (
    Availability,
    Pause,
    Window,
    adjust_deadline,
    daily,
    effective_deadline,
    is_available,
    is_paused,
    pause_spans,
    push_into_window,
    push_out_of_pauses,
)

H = timedelta(hours=1)
EVENINGS = daily(time(18), time(20)).windows  # 18:00-20:00 UTC every day


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def pause(first: str, last: str, zone: str = "UTC") -> Pause:
    return Pause(date.fromisoformat(first), date.fromisoformat(last), zone, "away")


def test_without_windows_or_pauses_it_is_start_plus_limit() -> None:
    assert effective_deadline(utc(2024, 5, 6, 8), 12 * H, False, (), "UTC", []) == utc(2024, 5, 6, 20)


def test_no_time_limit_means_no_deadline_whatever_the_windows_and_pauses() -> None:
    assert (
        effective_deadline(utc(2024, 5, 6), None, True, EVENINGS, "UTC", [pause("2024-05-06", "2024-05-09")])
        is None
    )


def test_the_first_player_bonus_comes_before_the_window_push() -> None:
    # 08:00 + 18 h = Tuesday 02:00, outside 09:00-23:00: moves to Tuesday 09:00.
    windows = daily(time(9), time(23)).windows
    assert effective_deadline(utc(2024, 5, 6, 8), 12 * H, True, windows, "UTC", []) == utc(2024, 5, 7, 9)


def test_a_deadline_in_the_awaited_players_window_stays() -> None:
    assert effective_deadline(utc(2024, 5, 6, 7), 12 * H, False, EVENINGS, "UTC", []) == utc(2024, 5, 6, 19)


def test_a_deadline_inside_another_seated_players_pause_moves_to_its_end() -> None:
    others = [pause("2024-05-06", "2024-05-07")]
    assert effective_deadline(utc(2024, 5, 6, 8), 12 * H, False, (), "UTC", others) == utc(2024, 5, 8)


def test_a_pause_that_only_covers_the_start_adds_no_time() -> None:
    during = [pause("2024-05-06", "2024-05-06")]
    assert effective_deadline(utc(2024, 5, 6, 8), 24 * H, False, (), "UTC", during) == utc(2024, 5, 7, 8)


def test_a_pause_end_outside_the_window_moves_to_the_next_window() -> None:
    # Raw: Monday 20:00, in Monday's pause; the pause ends Tuesday 00:00; the window opens Tuesday 18:00.
    assert effective_deadline(
        utc(2024, 5, 6, 8), 12 * H, False, EVENINGS, "UTC", [pause("2024-05-06", "2024-05-06")]
    ) == utc(2024, 5, 7, 18)


def test_a_window_start_inside_another_pause_moves_past_it_and_on_to_a_window() -> None:
    # Monday 12:00 is in Monday's pause -> Tuesday 00:00 -> window Tuesday 18:00, which is in another
    # player's Tuesday pause -> Wednesday 00:00 -> window Wednesday 18:00.
    pauses = [pause("2024-05-06", "2024-05-06"), pause("2024-05-07", "2024-05-07", "UTC")]
    assert adjust_deadline(utc(2024, 5, 6, 12), Availability("UTC", EVENINGS), pauses) == utc(2024, 5, 8, 18)


def test_a_long_chain_of_pauses_and_windows_settles() -> None:
    # One-day pauses on 21 days in a row: the first free evening is the first day without one.
    pauses = [pause(f"2024-05-{day:02d}", f"2024-05-{day:02d}") for day in range(6, 27)]
    assert adjust_deadline(utc(2024, 5, 6, 12), Availability("UTC", EVENINGS), pauses) == utc(2024, 5, 27, 18)


def test_the_order_of_the_two_pushes_does_not_change_the_result() -> None:
    awaited = Availability("Europe/Paris", (Window(1, time(21), time(1)), Window(4, time(7), time(8))))
    pauses = [
        pause("2024-05-07", "2024-05-08", "Asia/Tokyo"),
        pause("2024-05-10", "2024-05-10", "America/New_York"),
    ]
    spans = pause_spans(pauses)
    windows_first = utc(2024, 5, 6, 12)
    while True:
        moved = push_out_of_pauses(pauses, push_into_window(awaited, windows_first))
        if moved == windows_first:
            break
        windows_first = moved
    result = adjust_deadline(utc(2024, 5, 6, 12), awaited, pauses)
    assert result == windows_first
    assert is_available(awaited, result) and not is_paused(spans, result)


def test_it_is_the_earliest_acceptable_minute() -> None:
    awaited = Availability("America/New_York", (Window(2, time(20), time(2)), Window(5, time(10), time(12))))
    pauses = [
        pause("2024-05-08", "2024-05-08", "America/New_York"),
        pause("2024-05-11", "2024-05-11", "Europe/Paris"),
    ]
    raw = utc(2024, 5, 6, 12)
    result = adjust_deadline(raw, awaited, pauses)
    spans = pause_spans(pauses)
    first = raw
    while not (is_available(awaited, first) and not is_paused(spans, first)):
        first += timedelta(minutes=1)
    assert result == first


def test_adjusting_twice_changes_nothing() -> None:
    awaited = Availability("UTC", EVENINGS)
    pauses = [pause("2024-05-06", "2024-05-07")]
    once = adjust_deadline(utc(2024, 5, 6, 12), awaited, pauses)
    assert adjust_deadline(once, awaited, pauses) == once


def test_a_pause_ending_on_a_dst_night_then_a_window_in_paris() -> None:
    # A Paris pause of Saturday 2024-03-30 ends at Sunday 00:00 CET (23:00 UTC); the awaited player in
    # Paris is available Sunday 02:30-04:00, which opens at the jump, 03:00 CEST (01:00 UTC).
    awaited = Availability("Europe/Paris", (Window(6, time(2, 30), time(4)),))
    pauses = [pause("2024-03-30", "2024-03-30", "Europe/Paris")]
    assert adjust_deadline(utc(2024, 3, 30, 12), awaited, pauses) == utc(2024, 3, 31, 1)
