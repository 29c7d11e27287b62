"""Properties of the clock over random windows, pauses, zones and instants (DST days included)."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st

from app.clock import (
    Availability,
    Pause,
    Window,
    adjust_deadline,
    compensate_outage,
    is_available,
    is_paused,
    leave_market,
    open_market,
    passed_during_gap,
    pause_spans,
    push_into_window,
    reenter_market,
)

ZONES = [
    "UTC",
    "Europe/Paris",
    "America/New_York",
    "Australia/Lord_Howe",
    "America/Santiago",
    "Asia/Kathmandu",
    "Pacific/Apia",
]
DST_DAYS = [
    date(2024, 3, 10),
    date(2024, 3, 31),
    date(2024, 10, 27),
    date(2024, 11, 3),
    date(2024, 9, 8),
    date(2024, 4, 7),
]
FEW = settings(max_examples=150, deadline=None, database=None)

zones = st.sampled_from(ZONES)
times = st.times().map(lambda t: t.replace(microsecond=0))
windows = st.builds(Window, st.integers(0, 6), times, times)
availabilities = st.builds(Availability, zones, st.lists(windows, max_size=4).map(tuple))
some_windows = st.builds(Availability, zones, st.lists(windows, min_size=1, max_size=4).map(tuple))
near_dst = st.builds(
    lambda day, minutes: datetime.combine(day, time(), tzinfo=UTC) + timedelta(minutes=minutes),
    st.sampled_from(DST_DAYS),
    st.integers(-3 * 1440, 3 * 1440),
)
anywhen = st.datetimes(datetime(2000, 1, 1), datetime(2037, 12, 31)).map(lambda d: d.replace(tzinfo=UTC))
instants = st.one_of(anywhen, near_dst)


@st.composite
def pauses_near(draw: st.DrawFn, around: datetime) -> list[Pause]:
    result = []
    for _ in range(draw(st.integers(0, 3))):
        first = around.date() + timedelta(days=draw(st.integers(-3, 6)))
        last = first + timedelta(days=draw(st.integers(0, 4)))
        removed = draw(st.none() | st.builds(lambda h: around + timedelta(hours=h), st.integers(-100, 200)))
        result.append(Pause(first, last, draw(zones), "away", removed))
    return result


def wall_match(availability: Availability, at: datetime) -> bool:
    """The plain reading: the user's wall clock shows a time inside one of the windows."""
    local = at.astimezone(ZoneInfo(availability.zone))
    day, now = local.weekday(), local.time().replace(tzinfo=None)
    for w in availability.windows:
        if w.end > w.start and day == w.weekday and w.start <= now < w.end:
            return True
        if w.end <= w.start and (
            (day == w.weekday and now >= w.start) or (day == (w.weekday + 1) % 7 and now < w.end)
        ):
            return True
    return False


def offset_steady(zone: str, at: datetime) -> bool:
    z = ZoneInfo(zone)
    return (at - timedelta(hours=3)).astimezone(z).utcoffset() == (at + timedelta(hours=3)).astimezone(
        z
    ).utcoffset()


@FEW
@given(availabilities, instants)
def test_windows_hold_every_instant_their_wall_clock_reading_is_in(
    availability: Availability, at: datetime
) -> None:
    available = is_available(availability, at)
    if availability.always or wall_match(availability, at):
        assert available
    elif offset_steady(availability.zone, at):
        assert not available  # only the instants around a clock going back may be held in addition


@FEW
@given(availabilities, instants, st.data())
def test_the_effective_deadline_is_the_earliest_acceptable_instant(
    availability: Availability, raw: datetime, data: st.DataObject
) -> None:
    pauses = data.draw(pauses_near(raw))
    spans = pause_spans(pauses)
    result = adjust_deadline(raw, availability, pauses)
    assert result >= raw
    assert result.tzinfo is UTC
    assert is_available(availability, result)
    assert not is_paused(spans, result)
    assert adjust_deadline(result, availability, pauses) == result
    between = raw + (result - raw) * data.draw(st.floats(0, 1, exclude_max=True))
    if raw <= between < result:
        assert not (is_available(availability, between) and not is_paused(spans, between))


@FEW
@given(some_windows, instants, instants)
def test_the_window_push_keeps_order(availability: Availability, a: datetime, b: datetime) -> None:
    a, b = min(a, b), max(a, b)
    assert push_into_window(availability, a) <= push_into_window(availability, b)


@FEW
@given(
    st.lists(st.one_of(st.none(), some_windows), min_size=1, max_size=6),
    st.lists(st.integers(0, 5), max_size=8),
    st.integers(1, 72),
    st.data(),
)
def test_departures_never_extend_the_market_and_reentry_changes_nothing(
    per_seat: list[Availability | None], leaving: list[int], hours: int, data: st.DataObject
) -> None:
    opened = datetime(2024, 3, 25, tzinfo=UTC)
    seats = range(len(per_seat))
    availabilities = {seat: a for seat, a in enumerate(per_seat) if a is not None}
    market = open_market(opened, timedelta(hours=hours), seats, availabilities, [])
    at = opened
    for seat in leaving:
        at += timedelta(hours=data.draw(st.integers(0, 48)))
        after = leave_market(market, seat, at, availabilities, [])
        assert after.closes_at is not None and market.closes_at is not None
        assert after.closes_at <= max(market.closes_at, at)
        assert reenter_market(after, seat) == after
        market = after


@FEW
@given(instants, st.integers(0, 10_000), st.lists(st.integers(-20_000, 20_000), max_size=10))
def test_outage_compensation_only_moves_later_and_out_of_the_gap(
    last_sweep: datetime, gap_minutes: int, offsets: list[int]
) -> None:
    now = last_sweep + timedelta(minutes=gap_minutes)
    deadlines = [last_sweep + timedelta(minutes=m) for m in offsets]
    shifted = compensate_outage(last_sweep, now, timedelta(minutes=10), deadlines)
    assert all(after >= before for before, after in zip(deadlines, shifted, strict=True))
    if gap_minutes > 10:
        assert not any(passed_during_gap(last_sweep, now, d) for d in shifted)
