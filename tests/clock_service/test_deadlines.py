"""Deadlines as rows: computed when a wait starts, recomputed when a pause or a window touches them."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from sqlalchemy.orm import Session

from app import clock
from app.services.deadlines import availability, pauses
from app.services.errors import ServiceError
from tests.clock_service.factory import HOUR, NOW, make_users, running_game, waits

DAY = timedelta(days=1)


def test_each_wait_gets_its_deadline_warning_and_check_when_it_starts(db: Session) -> None:
    game_id = running_game(db, make_users(db, "Ann", "Ben", "Cat"))
    rows = waits(db, game_id)
    assert sorted(rows) == [0, 1, 2]
    for row in rows.values():
        assert row.started_at == NOW
        assert row.deadline_at == NOW + 24 * HOUR
        assert row.warn_at == NOW + timedelta(hours=19, minutes=12)  # 80% of 24 hours
        assert row.check_at == row.warn_at


def test_without_a_time_limit_there_is_no_deadline_and_nothing_to_check(db: Session) -> None:
    game_id = running_game(db, make_users(db, "Ann", "Ben"), limit_hours=None)
    assert all(row.deadline_at is None and row.check_at is None for row in waits(db, game_id).values())


def test_the_awaited_players_windows_move_only_their_own_deadline(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    ben.time_zone = "Europe/Paris"
    db.commit()
    availability.set_windows(db, ben, clock.daily(time(18), time(23)).windows, NOW - DAY)
    game_id = running_game(db, [ann, ben])
    rows = waits(db, game_id)
    by_user: dict[int, datetime] = {}
    for row in rows.values():
        assert row.deadline_at is not None
        by_user[row.seat] = row.deadline_at
    # Tuesday noon UTC is 13:00 in Paris: Ben's deadline waits for his window, 18:00 Paris = 17:00 UTC.
    assert sorted(by_user.values()) == [NOW + DAY, datetime(2026, 12, 1, 17, 0, tzinfo=UTC)]


def test_a_pause_of_any_seated_player_moves_every_seats_deadline(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben, cat])
    result = pauses.request_pause(db, cat, date(2026, 12, 1), date(2026, 12, 2), "a wedding", NOW + HOUR)
    thursday = datetime(2026, 12, 3, tzinfo=UTC)
    assert {row.deadline_at for row in waits(db, game_id).values()} == {thursday}
    assert sorted(change.seat for change in result.changes) == [0, 1, 2]
    assert {(change.before, change.after) for change in result.changes} == {(NOW + DAY, thursday)}


def test_a_pause_is_read_in_the_zone_the_user_had_when_asking(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    ben.time_zone = "Asia/Tokyo"
    db.commit()
    game_id = running_game(db, [ann, ben])
    pauses.request_pause(db, ben, date(2026, 12, 1), date(2026, 12, 1), "", NOW)
    ben.time_zone = "America/New_York"  # moving later does not move the pause
    db.commit()
    # Tokyo's 1 December is 30 Nov 15:00 UTC to 1 Dec 15:00 UTC.
    assert {row.deadline_at for row in waits(db, game_id).values()} == {datetime(2026, 12, 1, 15, tzinfo=UTC)}


def test_cancelling_a_pause_brings_deadlines_back_but_never_sooner_than_a_day_ahead(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    pause = pauses.request_pause(db, ben, date(2026, 12, 1), date(2026, 12, 2), "", NOW).pause
    removed = pauses.remove_pause(db, ben, pause.id, NOW + HOUR)  # before it starts: cancelled
    assert {row.deadline_at for row in waits(db, game_id).values()} == {NOW + 25 * HOUR}
    assert {change.after for change in removed.changes} == {NOW + 25 * HOUR}


def test_removing_a_pause_that_has_started_keeps_it_24_more_hours(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    pause = pauses.request_pause(db, ben, date(2026, 12, 1), date(2026, 12, 10), "", NOW).pause
    assert {row.deadline_at for row in waits(db, game_id).values()} == {datetime(2026, 12, 11, tzinfo=UTC)}
    pauses.remove_pause(db, ben, pause.id, datetime(2026, 12, 1, 6, tzinfo=UTC))
    assert {row.deadline_at for row in waits(db, game_id).values()} == {datetime(2026, 12, 2, 6, tzinfo=UTC)}


def test_changing_windows_moves_the_deadline_later_at_once_and_sooner_only_with_a_days_notice(
    db: Session,
) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben], limit_hours=48)
    # Available on Sundays only: the Wednesday-noon deadline moves to Sunday 6 December.
    sundays = [clock.Window(6, time(0), time(0))]
    changes = availability.set_windows(db, ben, sundays, NOW + HOUR)
    sunday = datetime(2026, 12, 6, tzinfo=UTC)
    ben_seat = next(change.seat for change in changes)
    assert waits(db, game_id)[ben_seat].deadline_at == sunday
    assert waits(db, game_id)[1 - ben_seat].deadline_at == NOW + 48 * HOUR  # Ann's own is untouched
    # Back to "always": the deadline comes back, but not sooner than 24 hours after the change.
    availability.set_windows(db, ben, [], NOW + 40 * HOUR)
    assert waits(db, game_id)[ben_seat].deadline_at == NOW + 64 * HOUR


@pytest.mark.parametrize(
    ("days", "field"),
    [
        ({0: "9-17"}, "day0"),
        ({0: "25:00-26:00"}, "day0"),
        ({0: "09:00-09:30", 1: "00:00-00:00"}, "windows"),  # shorter than an hour
        ({0: "09:00-12:00"}, "windows"),  # less than 14 hours a week
    ],
)
def test_bad_windows_are_refused(days: dict[int, str], field: str) -> None:
    with pytest.raises(ServiceError) as refused:
        windows = [window for day, text in days.items() for window in availability.parse_day(day, text)]
        availability.check_windows(windows)
    assert (refused.value.code, refused.value.field) == ("invalid_input", field)


def test_windows_are_parsed_per_weekday() -> None:
    assert availability.parse_day(2, " 08:00-12:00 , 20:30-01:00 ") == [
        clock.Window(2, time(8), time(12)),
        clock.Window(2, time(20, 30), time(1)),
    ]
    assert availability.parse_day(2, "") == []


@pytest.mark.parametrize(
    ("first", "last", "field"),
    [
        (date(2026, 12, 3), date(2026, 12, 2), "last_day"),
        (date(2026, 11, 29), date(2026, 12, 2), "first_day"),
        (date(2026, 12, 1), date(2027, 1, 5), "last_day"),
        (date(2028, 1, 1), date(2028, 1, 2), "first_day"),
    ],
)
def test_bad_pauses_are_refused(db: Session, first: date, last: date, field: str) -> None:
    (ann,) = make_users(db, "Ann")
    with pytest.raises(ServiceError) as refused:
        pauses.request_pause(db, ann, first, last, "", NOW)
    assert (refused.value.code, refused.value.field) == ("invalid_input", field)


def test_at_most_three_pauses_to_come_and_only_your_own_can_be_removed(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    ids = [
        pauses.request_pause(db, ann, date(2026, 12, d), date(2026, 12, d), "", NOW).pause.id
        for d in (1, 3, 5)
    ]
    with pytest.raises(ServiceError, match="three pauses"):
        pauses.request_pause(db, ann, date(2026, 12, 7), date(2026, 12, 7), "", NOW)
    with pytest.raises(ServiceError) as refused:
        pauses.remove_pause(db, ben, ids[0], NOW)
    assert refused.value.code == "not_found"
    pauses.remove_pause(db, ann, ids[0], NOW)
    with pytest.raises(ServiceError) as again:
        pauses.remove_pause(db, ann, ids[0], NOW)
    assert again.value.code == "wrong_status"
    pauses.request_pause(db, ann, date(2026, 12, 7), date(2026, 12, 7), "", NOW)  # the cancelled one is over


def test_changing_ones_time_zone_moves_running_deadlines_with_the_windows(db: Session) -> None:
    from app.services.accounts import accounts

    ann, ben = make_users(db, "Ann", "Ben")
    ben.time_zone = "Europe/Paris"
    db.commit()
    availability.set_windows(db, ben, clock.daily(time(18), time(23)).windows, NOW - DAY)
    game_id = running_game(db, [ann, ben])
    seat = next(row.seat for row in waits(db, game_id).values() if row.deadline_at != NOW + DAY)
    assert waits(db, game_id)[seat].deadline_at == datetime(2026, 12, 1, 17, 0, tzinfo=UTC)
    profile = accounts.Profile(ben.display_name, ben.email, ben.language, "America/New_York")
    accounts.update_profile(db, ben, profile, NOW + HOUR)
    # 18:00 in New York is 23:00 UTC: a later deadline applies at once.
    assert waits(db, game_id)[seat].deadline_at == datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
