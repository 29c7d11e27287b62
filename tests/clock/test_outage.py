"""Outage compensation: deadlines that passed while nothing swept get the lost time back."""

from datetime import UTC, datetime, timedelta

import pytest

from app.clock import compensate_outage, outage_gap, passed_during_gap

H = timedelta(hours=1)
LAST_SWEEP = datetime(2024, 5, 6, 10, tzinfo=UTC)
NOW = datetime(2024, 5, 6, 16, tzinfo=UTC)  # a six-hour outage
THRESHOLD = timedelta(minutes=10)


def test_a_short_gap_is_no_outage() -> None:
    assert outage_gap(LAST_SWEEP, LAST_SWEEP + THRESHOLD, THRESHOLD) is None
    assert outage_gap(LAST_SWEEP, NOW, THRESHOLD) == 6 * H


# (name, deadline, after compensation)
CASES = [
    ("long before the outage: untouched", LAST_SWEEP - 5 * H, LAST_SWEEP - 5 * H),
    ("at the last sweep: it was handled", LAST_SWEEP, LAST_SWEEP),
    ("just after the last sweep", LAST_SWEEP + timedelta(microseconds=1), NOW + timedelta(microseconds=1)),
    ("during the outage", LAST_SWEEP + 2 * H, NOW + 2 * H),
    ("exactly now", NOW, NOW + 6 * H),
    ("after now: untouched", NOW + H, NOW + H),
]


@pytest.mark.parametrize(("deadline", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_compensation(deadline: datetime, expected: datetime) -> None:
    assert compensate_outage(LAST_SWEEP, NOW, THRESHOLD, [deadline]) == [expected]


def test_below_the_threshold_nothing_moves() -> None:
    now = LAST_SWEEP + THRESHOLD
    deadlines = [LAST_SWEEP + timedelta(minutes=5)]
    assert compensate_outage(LAST_SWEEP, now, THRESHOLD, deadlines) == deadlines


def test_the_order_of_the_deadlines_is_kept() -> None:
    deadlines = [NOW + H, LAST_SWEEP + H, LAST_SWEEP - H, LAST_SWEEP + 3 * H]
    assert compensate_outage(LAST_SWEEP, NOW, THRESHOLD, deadlines) == [
        NOW + H,
        NOW + H,
        LAST_SWEEP - H,
        NOW + 3 * H,
    ]


def test_after_compensation_no_deadline_lies_in_the_gap() -> None:
    deadlines = [LAST_SWEEP + timedelta(minutes=m) for m in range(0, 400, 7)]
    for deadline in compensate_outage(LAST_SWEEP, NOW, THRESHOLD, deadlines):
        assert not passed_during_gap(LAST_SWEEP, NOW, deadline)


def test_naive_times_are_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        compensate_outage(LAST_SWEEP, NOW, THRESHOLD, [datetime(2024, 5, 6, 12)])
