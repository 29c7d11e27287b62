"""A trade market's waits share its close: T0 + players x limit, shrinking as players leave; when its
embargo ends, the clock applies the rules' clock order, once."""

from __future__ import annotations

import logging
import threading
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.models import Game, MarketWindow, User
from app.services.deadlines import outage, pauses
from app.services.errors import ServiceError
from app.services.jobs import admin_clock, sweeper
from app.services.play import play
from app.web.i18n import translations
from tests import marketgame
from tests.clock_service.factory import (
    HOUR,
    NOW,
    events,
    game,
    make_users,
    orders,
    running_game,
    seat_of,
    sweep_at,
    waits,
)
from tests.conftest import POSTGRES_URL, sign_up
from tests.moderation import helpers as moderation_helpers


@pytest.fixture(autouse=True)
def market_game(monkeypatch: pytest.MonkeyPatch) -> None:
    marketgame.register(monkeypatch)


def trade(db: Session, user: User, game_id: int, kind: str, now: datetime) -> None:
    play.submit(db, user, game_id, {"type": kind}, game(db, game_id).version, now)


def closes(db: Session, game_id: int) -> set[datetime | None]:
    return {row.deadline_at for row in waits(db, game_id).values()}


def test_the_market_closes_at_players_times_limit_and_earlier_as_players_leave(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben", "Cat", "Dan")
    game_id = running_game(db, users, game_type="market")
    assert closes(db, game_id) == {NOW + 96 * HOUR}  # 4 players x 24 h, from T0
    trade(db, users[0], game_id, "offer", NOW + 5 * HOUR)  # still in: nothing moves
    assert closes(db, game_id) == {NOW + 96 * HOUR}
    trade(db, users[0], game_id, "done", NOW + 10 * HOUR)  # 3 left: T0 + 72 h
    assert closes(db, game_id) == {NOW + 72 * HOUR}
    assert len(waits(db, game_id)) == 3
    stored = db.query(MarketWindow).one()
    assert (stored.counted, stored.opened_at) == (
        sorted(set(range(4)) - {seat_of(db, game_id, users[0])}),
        NOW,
    )
    db.commit()


def test_a_pause_moves_the_close_and_the_close_times_everyone_out(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market")
    assert closes(db, game_id) == {NOW + 48 * HOUR}
    pauses.request_pause(db, users[1], date(2026, 12, 2), date(2026, 12, 2), "", NOW + HOUR)
    assert closes(db, game_id) == {NOW + 60 * HOUR}  # the end of 2 December
    assert sweep_at(sessions, NOW + 60 * HOUR).timeouts == 2
    assert game(db, game_id).status == "finished"
    assert db.query(MarketWindow).count() == 0
    db.commit()


# --- the end of the embargo: the rules' clock order ---------------------------------------------------


def window(db: Session, game_id: int) -> MarketWindow | None:
    query = select(MarketWindow).where(MarketWindow.game_id == game_id)
    query = query.execution_options(populate_existing=True)
    found = db.scalar(query)
    db.commit()  # ends the read (SQLite: frees the writer lock) without expiring what was read
    return found


def embargo(db: Session, game_id: int) -> bool:
    state = game(db, game_id).state
    assert state is not None
    return bool(state["embargo"])


def checks(db: Session, game_id: int) -> set[datetime | None]:
    return {row.check_at for row in waits(db, game_id).values()}


def user_at(db: Session, game_id: int, users: list[User], seat: int) -> User:
    return next(user for user in users if seat_of(db, game_id, user) == seat)


def test_the_clock_ends_the_embargo_once_at_half_a_limit_from_the_lowest_counted_seat(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, users, game_type="market")
    embargo_end = NOW + 12 * HOUR  # T0 + half of the 24 h limit
    assert checks(db, game_id) == {embargo_end}
    trade(db, user_at(db, game_id, users, 0), game_id, "done", NOW + HOUR)  # seat 0 leaves the market
    before = {seat: (row.started_at, row.since_version) for seat, row in waits(db, game_id).items()}

    assert sweep_at(sessions, embargo_end - timedelta(seconds=1)).claimed == 0
    assert orders(db, game_id, "clock") == []
    assert embargo(db, game_id) is True

    report = sweep_at(sessions, embargo_end)
    assert (report.signals, report.timeouts) == (1, 0)
    (order,) = orders(db, game_id, "clock")
    assert (order.seat, order.user_id, order.payload) == (1, None, marketgame.CLOCK_ORDER)
    assert embargo(db, game_id) is False
    stored = window(db, game_id)
    assert stored is not None and stored.embargo_signalled_at == embargo_end
    assert len(events(db, game_id, "embargo_over")) == 1
    rows = waits(db, game_id)
    assert {seat: (row.started_at, row.since_version) for seat, row in rows.items()} == before
    assert all(row.warn_at is not None and row.warn_at > embargo_end for row in rows.values())
    assert all(row.check_at == row.warn_at for row in rows.values())

    assert sweep_at(sessions, embargo_end + HOUR).claimed == 0
    assert len(orders(db, game_id, "clock")) == 1
    replayed = game(db, game_id)
    assert play.as_json(play.replay_state(db, replayed)) == replayed.state


def test_without_a_time_limit_the_embargo_ends_at_the_opening(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market", limit_hours=None)
    assert checks(db, game_id) == {NOW}
    assert sweep_at(sessions, NOW + timedelta(seconds=30)).signals == 1
    assert len(orders(db, game_id, "clock")) == 1
    assert embargo(db, game_id) is False
    assert checks(db, game_id) == {None}  # nothing left to time: no close, no signal


def test_a_pause_that_delays_the_opening_delays_the_end_of_the_embargo(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    pauses.request_pause(db, users[1], date(2026, 11, 30), date(2026, 11, 30), "", NOW - HOUR)
    game_id = running_game(db, users, game_type="market")
    stored = window(db, game_id)
    assert stored is not None and stored.opened_at == NOW + 12 * HOUR  # T0: the pause's end
    embargo_end = NOW + 24 * HOUR
    assert checks(db, game_id) == {embargo_end}
    assert sweep_at(sessions, embargo_end - timedelta(seconds=1)).signals == 0
    assert orders(db, game_id, "clock") == []
    assert sweep_at(sessions, embargo_end).signals == 1
    assert len(orders(db, game_id, "clock")) == 1


def test_after_an_outage_the_embargo_slides_with_the_market(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market")
    with sessions() as session:
        assert outage.check_in(session, NOW, timedelta(minutes=30)) is None
    with sessions() as session:  # down from NOW to NOW + 50 h: the close (NOW + 48 h) fell in the gap
        assert outage.check_in(session, NOW + 50 * HOUR, timedelta(minutes=30)) is not None
    stored = window(db, game_id)
    assert stored is not None and stored.opened_at == NOW + 50 * HOUR
    assert checks(db, game_id) == {NOW + 62 * HOUR}
    assert sweep_at(sessions, NOW + 62 * HOUR - timedelta(seconds=1)).signals == 0
    assert sweep_at(sessions, NOW + 62 * HOUR).signals == 1
    assert len(orders(db, game_id, "clock")) == 1


def test_an_end_of_embargo_the_rules_refuse_is_marked_done_and_logged(
    db: Session, sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market")
    found = db.get(Game, game_id)
    assert found is not None and found.state is not None
    found.state = {**found.state, "embargo": False}  # as if the market had no embargo left
    db.commit()
    with caplog.at_level(logging.INFO, logger="app.services.jobs.sweeper"):
        assert sweep_at(sessions, NOW + 12 * HOUR).signals == 1
    assert orders(db, game_id, "clock") == []
    stored = window(db, game_id)
    assert stored is not None and stored.embargo_signalled_at == NOW + 12 * HOUR
    assert f"game {game_id}: the rules refused the end of the embargo (no_embargo)" in caplog.text
    assert all(check is not None and check > NOW + 12 * HOUR for check in checks(db, game_id))


def test_the_next_market_has_its_own_embargo(db: Session, sessions: sessionmaker[Session]) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market", options={"rounds": 2})
    assert sweep_at(sessions, NOW + 12 * HOUR).signals == 1
    for user in users:  # everyone is done: the second round's market opens at NOW + 20 h
        trade(db, user, game_id, "done", NOW + 20 * HOUR)
    stored = window(db, game_id)
    assert stored is not None and stored.phase == "trade:2" and stored.embargo_signalled_at is None
    assert embargo(db, game_id) is True
    assert checks(db, game_id) == {NOW + 32 * HOUR}
    assert sweep_at(sessions, NOW + 32 * HOUR).signals == 1
    assert [order.seq for order in orders(db, game_id, "clock")] == [2, 5]
    assert embargo(db, game_id) is False


def test_a_released_quarantine_still_ends_the_embargo(db: Session, sessions: sessionmaker[Session]) -> None:
    users = make_users(db, "Ann", "Ben", "Root")
    users[2].role = "admin"
    db.commit()
    game_id = running_game(db, users[:2], game_type="market")
    sweeper.quarantine(db, play.locked_game(db, game_id), "seat 0: broken", NOW + HOUR)
    db.commit()
    assert checks(db, game_id) == {None}
    admin_clock.release(db, users[2], game_id, NOW + 2 * HOUR)
    assert checks(db, game_id) == {NOW + 12 * HOUR}
    assert sweep_at(sessions, NOW + 12 * HOUR).signals == 1


def test_a_player_may_not_send_the_clock_order(db: Session, sessions: sessionmaker[Session]) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market")
    version = game(db, game_id).version
    with pytest.raises(ServiceError) as refused:
        trade(db, users[0], game_id, "embargo_over", NOW + HOUR)
    db.rollback()
    assert (refused.value.code, refused.value.status, refused.value.field) == ("clock_only", 403, "order")
    assert translations("fr").gettext(refused.value.template) != refused.value.template
    assert (game(db, game_id).version, embargo(db, game_id)) == (version, True)
    assert orders(db, game_id) == []
    assert checks(db, game_id) == {NOW + 12 * HOUR}


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="needs TEST_DATABASE_URL (Postgres)")
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_two_sweepers_at_once_end_the_embargo_once(db: Session, sessions: sessionmaker[Session]) -> None:
    users = make_users(db, "Ann", "Ben", "Cat", "Dan")
    game_id = running_game(db, users, game_type="market")
    start, both_claimed = threading.Barrier(2), threading.Barrier(2)
    reports: list[sweeper.SweepReport] = []

    def sweep() -> None:
        first = [True]

        def hold_first_claim(_now: datetime) -> None:  # neither handles its wait before both have one
            if first:
                first.clear()
                both_claimed.wait(timeout=30)

        start.wait()
        config = sweeper.SweepSettings(batch=1)  # one wait a claim: both get some
        reports.append(sweeper.sweep(sessions, lambda: NOW + 12 * HOUR, config, on_batch=hold_first_claim))

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(reports) == 2 and all(report.claimed for report in reports)
    assert sum(report.signals for report in reports) == 1
    assert len(orders(db, game_id, "clock")) == 1
    assert len(events(db, game_id, "embargo_over")) == 1


def test_the_api_refuses_the_clock_order_in_the_player_language(make_client: Any) -> None:
    ann, ben = make_client(), make_client()
    sign_up(ann, "Ann", language="fr")
    sign_up(ben, "Ben")
    created = ann.post("/api/v1/games", json={"game_type": "market", "players": 2}).json()
    url = f"/api/v1/games/{created['id']}"
    assert ben.post(f"{url}/join").status_code == 200
    version = ann.get(url).json()["game"]["version"]
    body = {"order": {"type": "embargo_over"}, "expected_version": version}
    answer = ann.post(f"{url}/orders", json=body)
    assert answer.status_code == 403, answer.text
    error = answer.json()["error"]
    assert error["code"] == "clock_only"
    assert error["message"] == (
        "Seule l'horloge peut envoyer cet ordre\u00a0: il arrive à la fin de l'embargo."
    )
    assert ann.get(url).json()["game"]["version"] == version


def test_the_moderators_order_log_names_the_clock(
    db: Session, sessions: sessionmaker[Session], make_client: Any
) -> None:
    moderation_helpers.make_user(db, "Mod", "moderator")
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market")
    trade(db, users[1], game_id, "offer", NOW + HOUR)
    sweep_at(sessions, NOW + 12 * HOUR)
    client = moderation_helpers.api_client(make_client, "mod@example.com")
    for language, name in (("en", "the clock"), ("fr", "l'horloge")):
        client.cookies.set("lang", language)
        client.patch("/api/v1/me", json={"language": language})
        page = client.get(f"/moderation/games/{game_id}")
        assert page.status_code == 200
        log = page.text[page.text.index('id="order-log"') :]
        clock_row = log[log.index("<td>3</td>") : log.index("</tr>", log.index("<td>3</td>"))]
        assert f"<td>{name}</td>" in clock_row  # seq 3: after the start (1) and Ben's offer (2)
        assert "<td>Ben</td>" in log
