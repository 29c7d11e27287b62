"""The trade market window: the site's worked examples, then departures, re-entries and pauses."""

from datetime import UTC, date, datetime, time, timedelta

import pytest

from app.clock import (
    Availability,
    Pause,
    availability_pass,
    daily,
    is_closed,
    leave_market,
    market_opening,
    open_market,
    recompute_close,
    reenter_market,
    trade_takes_effect_at,
)

H = timedelta(hours=1)
T0 = datetime(2024, 5, 6, tzinfo=UTC)  # a Monday, midnight UTC
A, B, C = 0, 1, 2
SITE_EXAMPLE = {A: daily(time(13), time(15)), B: daily(time(14), time(18)), C: daily(time(11), time(13))}


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def pause(first: str, last: str) -> Pause:
    return Pause(date.fromisoformat(first), date.fromisoformat(last), "UTC", "away")


def test_site_example_base_noon_becomes_11am_next_day() -> None:
    # A pushes noon to 1 pm, B to 2 pm, and 2 pm is outside C's window: C pushes to 11 am the next day,
    # which is inside neither A's nor B's window, but is still after the base.
    assert availability_pass(utc(2024, 5, 6, 12), [A, B, C], SITE_EXAMPLE) == utc(2024, 5, 7, 11)


def test_site_example_as_a_market_three_players_four_hours() -> None:
    market = open_market(T0, 4 * H, [A, B, C], SITE_EXAMPLE, [])
    assert market.base == utc(2024, 5, 6, 12)
    assert market.closes_at == utc(2024, 5, 7, 11)


def test_the_pass_runs_in_seat_order_whatever_order_the_seats_come_in() -> None:
    assert availability_pass(utc(2024, 5, 6, 12), [C, A, B], SITE_EXAMPLE) == utc(2024, 5, 7, 11)
    # Seat order matters: with C seated first, noon is inside C's window, then A and B push to 2 pm.
    reseated = {0: SITE_EXAMPLE[C], 1: SITE_EXAMPLE[A], 2: SITE_EXAMPLE[B]}
    assert availability_pass(utc(2024, 5, 6, 12), [0, 1, 2], reseated) == utc(2024, 5, 6, 14)


def test_site_example_eight_players_48_hours() -> None:
    market = open_market(T0, 48 * H, range(8), {}, [])
    assert market.embargo_ends_at == T0 + 24 * H
    assert market.base == market.closes_at == T0 + 384 * H  # 16 days


def test_site_example_one_of_eight_leaves_after_24_hours_counted_from_the_opening() -> None:
    market = leave_market(open_market(T0, 48 * H, range(8), {}, []), 3, T0 + 24 * H, {}, [])
    assert market.closes_at == T0 + 336 * H  # 7 x 48 h from T0, not from the departure (T0 + 360 h)
    assert market.counted == (0, 1, 2, 4, 5, 6, 7)


def test_site_example_nine_players_24_hours_is_nine_days() -> None:
    assert open_market(T0, 24 * H, range(9), {}, []).closes_at == T0 + timedelta(days=9)


def test_the_embargo_is_inside_the_window() -> None:
    market = open_market(T0, 48 * H, range(2), {}, [])
    assert market.embargo_ends_at == T0 + 24 * H and market.closes_at == T0 + 96 * H


def test_a_late_departure_still_moves_the_close_earlier() -> None:
    # Counted from the departure (T0 + 300 h + 7 x 48 h) it would change nothing; from T0 it does.
    market = open_market(T0, 48 * H, range(8), {}, [])
    assert leave_market(market, 0, T0 + 300 * H, {}, []).closes_at == T0 + 336 * H


def test_a_departure_that_makes_the_close_past_closes_the_market_at_once() -> None:
    market = open_market(T0, 48 * H, range(8), {}, [])
    for seat in (0, 1, 2):
        market = leave_market(market, seat, T0 + 10 * H, {}, [])
    assert market.closes_at == T0 + 240 * H  # 5 left
    market = leave_market(market, 3, T0 + 200 * H, {}, [])  # 4 left: T0 + 192 h is already past
    assert market.closes_at == T0 + 200 * H
    assert is_closed(market, T0 + 200 * H)
    assert not is_closed(market, T0 + 200 * H - timedelta(microseconds=1))


def test_a_close_exactly_at_the_departure_closes_then() -> None:
    market = open_market(T0, 48 * H, range(3), {}, [])  # T0 + 144 h
    market = leave_market(market, 0, T0 + 96 * H, {}, [])  # 2 left: T0 + 96 h, the departure itself
    assert market.closes_at == T0 + 96 * H and is_closed(market, T0 + 96 * H)


def test_when_the_last_player_leaves_the_market_closes_at_once() -> None:
    market = open_market(T0, 48 * H, [A, B], {}, [])
    market = leave_market(market, A, T0 + 5 * H, {}, [])
    market = leave_market(market, B, T0 + 6 * H, {}, [])
    assert market.closes_at == T0 + 6 * H and market.counted == ()


def test_the_pushes_of_a_player_who_left_do_not_survive() -> None:
    # Base noon pushed to 11 am the next day by C. C leaves at 1 am: base = min(noon, T0 + 2 x 4 h) = 8 am,
    # and the pass over A and B only gives 2 pm the same day.
    market = open_market(T0, 4 * H, [A, B, C], SITE_EXAMPLE, [])
    market = leave_market(market, C, utc(2024, 5, 6, 1), SITE_EXAMPLE, [])
    assert market.base == utc(2024, 5, 6, 8)
    assert market.closes_at == utc(2024, 5, 6, 14)


def test_a_departure_redoes_the_pass_over_those_still_in() -> None:
    # A leaves: base = T0 + 8 h = 8 am; B pushes to 2 pm, outside C's window: C pushes to 11 am next day.
    market = open_market(T0, 4 * H, [A, B, C], SITE_EXAMPLE, [])
    assert leave_market(market, A, utc(2024, 5, 6, 1), SITE_EXAMPLE, []).closes_at == utc(2024, 5, 7, 11)


def test_reentering_changes_nothing_and_the_clock_no_longer_counts_the_player() -> None:
    market = open_market(T0, 4 * H, [A, B, C], SITE_EXAMPLE, [])
    left = leave_market(market, C, utc(2024, 5, 6, 1), SITE_EXAMPLE, [])
    back = reenter_market(left, C)
    assert back == left
    # B leaves: the pass runs over A only (C's windows are no longer consulted); C leaving again is a no-op.
    after_b = leave_market(back, B, utc(2024, 5, 6, 2), SITE_EXAMPLE, [])
    assert after_b.counted == (A,) and after_b.closes_at == utc(2024, 5, 6, 13)
    assert leave_market(after_b, C, utc(2024, 5, 6, 3), SITE_EXAMPLE, []) == after_b


def test_leaving_a_closed_market_changes_nothing() -> None:
    market = open_market(T0, 4 * H, [A], {}, [])
    assert leave_market(market, A, T0 + 5 * H, {}, []) == market


def test_a_pause_delays_the_opening_and_the_window_counts_from_the_real_opening() -> None:
    pauses = [pause("2024-05-06", "2024-05-07")]
    started = utc(2024, 5, 6, 10)
    assert market_opening(started, pauses) == utc(2024, 5, 8)
    market = open_market(started, 48 * H, range(4), {}, pauses)
    assert market.opened_at == utc(2024, 5, 8)
    assert market.embargo_ends_at == utc(2024, 5, 9)
    assert market.closes_at == utc(2024, 5, 8) + 4 * 48 * H


def test_trades_prepared_before_the_opening_take_effect_when_the_embargo_ends() -> None:
    market = open_market(utc(2024, 5, 6, 10), 48 * H, range(4), {}, [pause("2024-05-06", "2024-05-07")])
    assert trade_takes_effect_at(market, utc(2024, 5, 6, 11)) == utc(2024, 5, 9)
    assert trade_takes_effect_at(market, utc(2024, 5, 8, 23)) == utc(2024, 5, 9)
    assert trade_takes_effect_at(market, utc(2024, 5, 9, 1)) == utc(2024, 5, 9, 1)


def test_a_pause_starting_while_the_market_is_open_moves_the_close() -> None:
    market = open_market(T0, 24 * H, range(3), {}, [])  # closes Thursday 2024-05-09 00:00
    moved = recompute_close(market, utc(2024, 5, 7), {}, [pause("2024-05-08", "2024-05-10")])
    assert moved.opened_at == T0 and moved.base == market.base
    assert moved.closes_at == utc(2024, 5, 11)


def test_a_pause_added_before_the_opening_moves_the_opening_again() -> None:
    started = utc(2024, 5, 6, 10)
    market = open_market(started, 24 * H, range(2), {}, [pause("2024-05-06", "2024-05-06")])
    assert market.opened_at == utc(2024, 5, 7)
    later = recompute_close(
        market,
        utc(2024, 5, 6, 12),
        {},
        [pause("2024-05-06", "2024-05-06"), pause("2024-05-07", "2024-05-08")],
    )
    assert later.opened_at == utc(2024, 5, 9) and later.closes_at == utc(2024, 5, 11)


def test_after_a_pause_the_close_is_not_passed_through_the_windows_again() -> None:
    # Base Tuesday 12:00 is inside A's window; Tuesday's pause moves it to Wednesday 00:00, outside A's
    # window, and there it stays: a pause has the last word, as the site's pass is a single pass.
    windows = {A: daily(time(11), time(13))}
    market = open_market(T0, 36 * H, [A], windows, [pause("2024-05-07", "2024-05-07")])
    assert market.base == utc(2024, 5, 7, 12)
    assert market.closes_at == utc(2024, 5, 8)


def test_without_a_time_limit_there_is_no_embargo_and_no_close_until_everyone_leaves() -> None:
    market = open_market(T0, None, [A, B], {}, [])
    assert market.embargo_ends_at == T0 and market.closes_at is None and market.base is None
    market = leave_market(market, A, T0 + 100 * H, {}, [])
    assert market.closes_at is None and not is_closed(market, T0 + 1000 * H)
    assert leave_market(market, B, T0 + 200 * H, {}, []).closes_at == T0 + 200 * H


def test_a_market_with_nobody_in_it_closes_at_its_opening() -> None:
    assert open_market(T0, 24 * H, [], {}, []).closes_at == T0


def test_windows_are_read_in_each_players_zone() -> None:
    # Base Monday 12:00 UTC = 14:00 in Paris (A: 09:00-11:00 Paris) -> Tuesday 07:00 UTC;
    # B in New York (02:00-04:00, i.e. 06:00-08:00 UTC) is available then.
    windows = {A: daily(time(9), time(11), "Europe/Paris"), B: daily(time(2), time(4), "America/New_York")}
    assert availability_pass(utc(2024, 5, 6, 12), [A, B], windows) == utc(2024, 5, 7, 7)


@pytest.mark.parametrize("limit", [timedelta(0), -H])
def test_a_market_limit_must_be_positive(limit: timedelta) -> None:
    with pytest.raises(ValueError, match="positive"):
        open_market(T0, limit, [A], {}, [])


def test_a_seat_without_availability_is_always_available() -> None:
    assert availability_pass(utc(2024, 5, 6, 3), [A, B], {B: Availability()}) == utc(2024, 5, 6, 3)
