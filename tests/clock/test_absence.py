"""The absence ladder: the 80% warning, missed turns in a row, the eviction threshold X and the vote."""

from datetime import UTC, datetime, timedelta

import pytest

from app.clock import (
    AbsenceLadder,
    eviction_threshold,
    game_stage,
    is_evicted,
    may_vote_to_evict,
    missed_in_row_after,
    warning_at,
)

H = timedelta(hours=1)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_the_warning_goes_out_at_80_percent_of_a_24_hour_wait() -> None:
    assert warning_at(utc(2024, 5, 6), utc(2024, 5, 7)) == utc(2024, 5, 6, 19, 12)


def test_the_warning_is_80_percent_of_the_effective_deadline_not_of_the_raw_limit() -> None:
    # 12 h wait pushed to 20 h by a window: the warning comes at 16 h, not 9 h 36.
    assert warning_at(utc(2024, 5, 6), utc(2024, 5, 6, 20)) == utc(2024, 5, 6, 16)


def test_no_deadline_no_warning() -> None:
    assert warning_at(utc(2024, 5, 6), None) is None


def test_the_warning_share_is_a_game_setting() -> None:
    assert warning_at(utc(2024, 5, 6), utc(2024, 5, 7), AbsenceLadder(warning_percent=50)) == utc(
        2024, 5, 6, 12
    )


def test_a_timeout_counts_a_missed_turn_and_an_order_resets_the_count() -> None:
    assert missed_in_row_after(0, timed_out=True) == 1
    assert missed_in_row_after(2, timed_out=True) == 3
    assert missed_in_row_after(2, timed_out=False) == 0


@pytest.mark.parametrize(
    ("turn", "length", "stage"),
    [
        (1, 15, 0),
        (5, 15, 0),
        (6, 15, 1),
        (10, 15, 1),
        (11, 15, 2),
        (15, 15, 2),
        (30, 15, 2),
        (1, 1, 0),
        (2, 2, 1),
    ],
)
def test_game_stage_is_the_third_of_the_game_the_turn_is_in(turn: int, length: int, stage: int) -> None:
    assert game_stage(turn, length) == stage


@pytest.mark.parametrize(("turn", "length"), [(0, 15), (1, 0)])
def test_game_stage_needs_turns_from_one(turn: int, length: int) -> None:
    with pytest.raises(ValueError):
        game_stage(turn, length)


# X = max(2, preset 4 + stage - (1 with 6 players or more) - votes), a game of 15 turns.
THRESHOLDS = [
    (2, 1, 0, 4),
    (5, 1, 0, 4),
    (6, 1, 0, 3),
    (8, 1, 0, 3),
    (4, 8, 0, 5),
    (8, 8, 0, 4),
    (4, 15, 0, 6),
    (8, 15, 0, 5),
    (8, 1, 1, 2),
    (4, 15, 3, 3),
    (4, 1, 9, 2),
]


@pytest.mark.parametrize(("players", "turn", "votes", "x"), THRESHOLDS)
def test_eviction_threshold_table(players: int, turn: int, votes: int, x: int) -> None:
    assert eviction_threshold(players, turn, 15, votes) == x


def test_the_preset_is_a_game_setting() -> None:
    assert eviction_threshold(4, 1, 15, ladder=AbsenceLadder(eviction_preset=6)) == 6
    assert eviction_threshold(8, 15, 15, ladder=AbsenceLadder(eviction_preset=2)) == 3


def test_the_others_may_vote_to_evict_sooner_after_two_missed_turns() -> None:
    assert [may_vote_to_evict(missed) for missed in range(4)] == [False, False, True, True]


def test_a_vote_after_two_missed_turns_can_evict_at_once_but_never_below_two() -> None:
    x = eviction_threshold(4, 1, 15)  # 4
    assert not is_evicted(2, x)
    assert is_evicted(2, eviction_threshold(4, 1, 15, votes=2))
    assert not is_evicted(1, eviction_threshold(4, 1, 15, votes=7))


def test_evicted_at_x_missed_turns_in_a_row() -> None:
    assert [is_evicted(missed, 4) for missed in range(6)] == [False, False, False, False, True, True]


@pytest.mark.parametrize(
    "settings",
    [{"warning_percent": 0}, {"warning_percent": 100}, {"eviction_preset": 1}, {"vote_after": 0}],
)
def test_bad_ladders_are_refused(settings: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        AbsenceLadder(**settings)


@pytest.mark.parametrize(("players", "votes"), [(0, 0), (4, -1)])
def test_bad_threshold_inputs_are_refused(players: int, votes: int) -> None:
    with pytest.raises(ValueError):
        eviction_threshold(players, 1, 15, votes)
