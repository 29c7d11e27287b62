"""Outage compensation: the server stops, time passes, every deadline that fell in the gap gets it back."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.main import create_app
from app.models import ClockMark, WaitRow
from app.services.deadlines import outage, pauses
from app.settings import Settings
from tests.clock_service.factory import HOUR, NOW, events, make_users, running_game, sweep_at, waits

THRESHOLD = timedelta(minutes=5)


def check_in(sessions: sessionmaker[Session], now: datetime) -> outage.Compensation | None:
    with sessions() as session:
        return outage.check_in(session, now, THRESHOLD)


def test_a_simulated_outage_gives_every_deadline_in_the_gap_its_length_back(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    early = running_game(db, users, now=NOW - 20 * HOUR)  # due at NOW + 4 h: in the gap
    late = running_game(db, users, now=NOW + 10 * HOUR)  # due at NOW + 34 h: after the gap
    assert check_in(sessions, NOW) is None  # the server sweeps at NOW, then stops
    compensation = check_in(sessions, NOW + 6 * HOUR)  # ... and starts again 6 hours later
    assert compensation is not None
    assert (compensation.since, compensation.gap, compensation.games) == (NOW, 6 * HOUR, [early])
    assert {row.deadline_at for row in waits(db, early).values()} == {NOW + 10 * HOUR}
    assert {row.deadline_at for row in waits(db, late).values()} == {NOW + 34 * HOUR}
    (notice,) = events(db, early, "platform:clock_outage")
    assert notice.visible_to is None and notice.data["minutes"] == 360
    assert events(db, late, "platform:clock_outage") == []
    assert sweep_at(sessions, NOW + 6 * HOUR).timeouts == 0
    assert sweep_at(sessions, NOW + 10 * HOUR).timeouts == 2


def test_compensation_happens_once_and_not_for_a_short_gap(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, now=NOW - 24 * HOUR + timedelta(minutes=10))  # due at NOW + 10 min
    check_in(sessions, NOW)
    assert check_in(sessions, NOW + THRESHOLD) is None  # a gap at the threshold is no outage
    assert {row.deadline_at for row in waits(db, game_id).values()} == {NOW + timedelta(minutes=10)}
    found = check_in(sessions, NOW + 2 * HOUR)  # the gap runs from the last check-in, at NOW + 5 min
    assert found is not None and found.gap == timedelta(hours=1, minutes=55)
    assert check_in(sessions, NOW + 2 * HOUR) is None
    assert {row.deadline_at for row in waits(db, game_id).values()} == {NOW + timedelta(hours=2, minutes=5)}


def test_the_extension_survives_a_later_recomputation(db: Session, sessions: sessionmaker[Session]) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben], now=NOW - 20 * HOUR)
    check_in(sessions, NOW)
    check_in(sessions, NOW + 6 * HOUR)
    pauses.request_pause(db, ben, date(2026, 12, 20), date(2026, 12, 21), "", NOW + 7 * HOUR)
    assert {row.deadline_at for row in waits(db, game_id).values()} == {NOW + 10 * HOUR}


def test_a_sweeper_process_that_starts_after_an_outage_compensates_before_sweeping(
    settings: Settings, db: Session
) -> None:
    now = datetime.now(UTC)
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, now=now - 25 * HOUR)  # due an hour ago, while the server was down
    db.add(ClockMark(name=outage.LAST_SWEEP, at=now - 2 * HOUR))
    db.commit()
    started = settings.model_copy(update={"run_jobs": True, "sweep_seconds": 3600.0})
    with TestClient(create_app(started)) as client:
        assert client.get("/").status_code == 200
    (notice,) = events(db, game_id, "platform:clock_outage")
    assert notice.data["minutes"] >= 119
    for row in waits(db, game_id).values():
        assert row.deadline_at is not None and row.deadline_at > now + 50 * timedelta(minutes=1)
    with sessions_of(settings) as session:
        assert outage.last_sweep(session) is not None


def sessions_of(settings: Settings) -> Any:
    from app.db import make_engine, session_factory

    return session_factory(make_engine(settings.sqlalchemy_url))()


def test_the_last_sweep_is_recorded_by_every_pass(db: Session, sessions: sessionmaker[Session]) -> None:
    game_id = running_game(db, make_users(db, "Ann", "Ben"))
    db.execute(update(WaitRow).where(WaitRow.game_id == game_id).values(check_at=NOW))
    db.commit()
    with sessions() as session:
        outage.touch(session, NOW)
        outage.touch(session, NOW - HOUR)  # never backwards
        assert outage.last_sweep(session) == NOW
