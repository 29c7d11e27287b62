"""The sweeper: defaults at the deadline, warnings at 80%, exactly once, attempts, quarantine."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker

from app.models import Game
from app.services.deadlines import pauses
from app.services.errors import ServiceError
from app.services.jobs import admin_clock, sweeper
from app.services.play import play, seats
from tests.clock_service.factory import (
    HOUR,
    NOW,
    game,
    make_users,
    notifications,
    orders,
    running_game,
    seat_of,
    sweep_at,
    waits,
)

DEADLINE = NOW + 24 * HOUR


def test_at_the_deadline_the_default_is_played_as_a_timeout_and_counts_a_missed_turn(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    game_id = running_game(db, make_users(db, "Ann", "Ben", "Cat"))
    assert sweep_at(sessions, DEADLINE - timedelta(seconds=1)).timeouts == 0
    report = sweep_at(sessions, DEADLINE)
    assert report.timeouts == 3
    timeouts = orders(db, game_id, "timeout")
    assert [(o.seat, o.payload, o.user_id, o.created_at) for o in sorted(timeouts, key=lambda o: o.seat)] == [
        (seat, {"type": "pick", "value": 1}, None, DEADLINE) for seat in range(3)
    ]
    assert {seat.missed_turns for seat in game(db, game_id).seats} == {1}
    # The chooser's wait started at the timeout, with a full limit of its own.
    (choose,) = waits(db, game_id).values()
    assert (choose.phase, choose.started_at, choose.deadline_at) == ("choose", DEADLINE, DEADLINE + 24 * HOUR)


def test_an_order_in_time_resets_the_missed_turns(db: Session, sessions: sessionmaker[Session]) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    sweep_at(sessions, DEADLINE)  # both time out; one of them must now choose
    chooser = next(iter(waits(db, game_id)))
    user = ann if seat_of(db, game_id, ann) == chooser else ben
    current = game(db, game_id).version
    play.submit(db, user, game_id, {"type": "choose", "take": True}, current, DEADLINE + HOUR)
    missed = {seat.number: seat.missed_turns for seat in game(db, game_id).seats}
    assert missed[chooser] == 0 and missed[1 - chooser] == 1


def test_the_warning_goes_out_once_at_80_percent(db: Session, sessions: sessionmaker[Session]) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    warn_time = NOW + timedelta(hours=19, minutes=12)
    assert sweep_at(sessions, warn_time - timedelta(seconds=1)).warnings == 0
    assert sweep_at(sessions, warn_time).warnings == 2
    assert sweep_at(sessions, warn_time + HOUR).warnings == 0
    (warning,) = notifications(db, ann, "deadline_warning")
    assert warning.game_id == game_id
    assert warning.data["deadline_at"] == DEADLINE.isoformat()
    assert all(row.check_at == DEADLINE and row.warned_for == DEADLINE for row in waits(db, game_id).values())


def test_a_deadline_extended_after_the_warning_warns_again(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    sweep_at(sessions, DEADLINE - HOUR)
    pauses.request_pause(db, ben, date(2026, 12, 1), date(2026, 12, 1), "", DEADLINE - HOUR)
    assert {row.deadline_at for row in waits(db, game_id).values()} == {NOW + 36 * HOUR}
    assert sweep_at(sessions, DEADLINE).timeouts == 0
    assert sweep_at(sessions, NOW + 36 * HOUR - timedelta(minutes=1)).warnings == 2
    assert len(notifications(db, ann, "deadline_warning")) == 2


def test_a_second_sweep_at_the_same_time_does_nothing(db: Session, sessions: sessionmaker[Session]) -> None:
    game_id = running_game(db, make_users(db, "Ann", "Ben", "Cat"))
    assert sweep_at(sessions, DEADLINE).timeouts == 3
    assert sweep_at(sessions, DEADLINE).claimed == 0
    assert len(orders(db, game_id, "timeout")) == 3


def test_a_claimed_wait_is_checked_again_before_acting(db: Session, sessions: sessionmaker[Session]) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    with sessions() as session:
        claimed = sweeper.claim_due(session, DEADLINE, sweeper.SweepSettings())
    assert len(claimed) == 2
    # Meanwhile a pause moves both deadlines; the handler must notice and only reschedule.
    pauses.request_pause(db, ben, date(2026, 12, 1), date(2026, 12, 1), "", NOW + HOUR)
    with sessions() as session:
        assert [sweeper.handle_wait(session, wait_id, DEADLINE) for wait_id in claimed] == ["rescheduled"] * 2
    assert orders(db, game_id, "timeout") == []
    # The deadline is now +36 h; the warning comes at 80% of that.
    assert {row.check_at for row in waits(db, game_id).values()} == {NOW + timedelta(hours=28, minutes=48)}


def test_a_dead_claimer_only_delays_its_waits_by_the_lease(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    game_id = running_game(db, make_users(db, "Ann", "Ben"))
    config = sweeper.SweepSettings(lease=timedelta(minutes=5))
    with sessions() as session:
        assert len(sweeper.claim_due(session, DEADLINE, config)) == 2  # ... and the process dies here
    assert sweep_at(sessions, DEADLINE + timedelta(minutes=4)).claimed == 0
    report = sweep_at(sessions, DEADLINE + timedelta(minutes=5))
    assert report.timeouts == 2
    assert len(orders(db, game_id, "timeout")) == 2


def _break(db: Session, game_id: int) -> dict[str, Any]:
    """Corrupt the game's state so that its rules fail to load it; returns the good state."""
    state = game(db, game_id).state
    assert state is not None
    db.execute(update(Game).where(Game.id == game_id).values(state={"broken": True}))
    db.commit()
    return state


def test_a_failing_game_is_retried_then_quarantined_and_never_blocks_the_others(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    bad, good = running_game(db, users), running_game(db, users)
    _break(db, bad)
    first = sweep_at(sessions, DEADLINE, max_attempts=3)
    assert (first.timeouts, first.failed) == (2, 2)
    assert len(orders(db, good, "timeout")) == 2
    row = next(iter(waits(db, bad).values()))
    assert (row.attempts, row.check_at) == (1, DEADLINE + timedelta(minutes=1))
    assert row.last_error is not None and row.last_error.startswith("KeyError")
    sweep_at(sessions, DEADLINE + HOUR, max_attempts=3)
    last = sweep_at(sessions, DEADLINE + 2 * HOUR, max_attempts=3)
    assert len(last.quarantined) >= 1
    broken = game(db, bad)
    assert broken.quarantined_at == DEADLINE + 2 * HOUR
    assert all(row.check_at is None for row in waits(db, bad).values())
    assert sweep_at(sessions, DEADLINE + 9 * HOUR).claimed == 0


def test_admins_see_quarantined_and_late_games_and_may_release_them(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, ben, boss = make_users(db, "Ann", "Ben", "Boss")
    boss.role = "admin"
    db.commit()
    bad = running_game(db, [ann, ben])
    good_state = _break(db, bad)
    for hours in range(3):
        sweep_at(sessions, DEADLINE + hours * HOUR, max_attempts=3)
    report = admin_clock.clock_report(db, boss, DEADLINE + 3 * HOUR)
    assert [g.game_id for g in report.quarantined] == [bad]
    assert [g.game_id for g in report.late] == [bad, bad]  # both of its waits
    with pytest.raises(ServiceError) as refused:
        admin_clock.clock_report(db, ann, DEADLINE)
    assert refused.value.code == "forbidden"
    db.execute(update(Game).where(Game.id == bad).values(state=good_state))
    db.commit()
    admin_clock.release(db, boss, bad, DEADLINE + 4 * HOUR)
    released = game(db, bad)
    assert released.quarantined_at is None
    rows = waits(db, bad).values()
    assert all(row.attempts == 0 and row.check_at is not None and row.check_at <= DEADLINE for row in rows)
    assert sweep_at(sessions, DEADLINE + 5 * HOUR).timeouts == 2


def test_an_open_seat_waits_a_quarter_of_the_limit(db: Session, sessions: sessionmaker[Session]) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben, cat])
    seats.quit_game(db, cat, game_id, None, NOW + 2 * HOUR)
    seat = next(s for s in game(db, game_id).seats if s.status == "open")
    assert seat.number is not None
    row = waits(db, game_id)[seat.number]
    assert (row.deadline_at, row.warn_at) == (NOW + 8 * HOUR, None)  # opened at +2 h, then 24 h / 4
    assert sweep_at(sessions, NOW + 8 * HOUR).timeouts == 1
    assert [order.seat for order in orders(db, game_id, "timeout")] == [seat.number]
    still_open = next(s for s in game(db, game_id).seats if s.number == seat.number)
    assert (still_open.status, still_open.missed_turns) == ("open", 0)
