"""The status pages: the admins' shows the figures of /metrics, the public one the phases resolved on time."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.models import TimeoutPlayed, User, WaitRow
from app.services.ops import figures
from tests.conftest import sign_up
from tests.ops.test_metrics import running_fake_game


def played(sessions: sessionmaker[Session], game_id: int, *late_seconds: float) -> None:
    now = datetime.now(UTC)
    with sessions.begin() as session:
        for seat, late in enumerate(late_seconds):
            deadline = now - timedelta(seconds=late)
            figures.record_timeout(session, game_id, seat % 3, deadline, now)


def test_the_on_time_figure_counts_the_punctual_timeouts_and_their_99th_percentile(
    app: Any, sessions: sessionmaker[Session]
) -> None:
    game_id, players = running_fake_game(app)
    for client in players:
        client.__exit__(None, None, None)
    played(sessions, game_id, *([2.0] * 98), 45.0, 3600.0)
    with sessions() as session:
        old = TimeoutPlayed(
            game_id=game_id,
            seat=0,
            deadline_at=datetime(2020, 1, 1, tzinfo=UTC),
            played_at=datetime(2020, 1, 1, 2, tzinfo=UTC),
            late_seconds=7200.0,
        )
        session.add(old)
        session.commit()
        figure = figures.on_time(session, datetime.now(UTC))
    assert (figure.played, figure.on_time) == (100, 99)  # the one of 2020 is out of the window
    assert figure.percent == 99.0
    assert figure.p99_seconds == 45.0


def test_the_public_page_shows_the_figure(
    app: Any, client: TestClient, sessions: sessionmaker[Session]
) -> None:
    assert "No deadline has passed" in client.get("/status").text
    game_id, players = running_fake_game(app)
    for player in players:
        player.__exit__(None, None, None)
    played(sessions, game_id, 3.0, 4.0, 500.0, 5.0)
    page = client.get("/status")
    assert page.status_code == 200
    assert "75.0 %" in page.text and "of the 4 deadlines" in page.text
    french = client.get("/status", headers={"Accept-Language": "fr"}).text
    assert "Phases résolues à l’heure" in french and "des 4 échéances" in french


def admin_client(app: Any, sessions: sessionmaker[Session]) -> TestClient:
    admin = TestClient(app).__enter__()
    sign_up(admin, "Adelaide")
    with sessions.begin() as session:
        user = session.scalar(select(User).where(User.display_name == "Adelaide"))
        assert user is not None
        user.role = "admin"
    return admin


def figure(page: str, element_id: str) -> int:
    found = re.search(rf'id="{element_id}">(\d+)<', page)
    assert found is not None, element_id
    return int(found.group(1))


def test_the_admin_page_shows_the_figures_of_the_metrics(app: Any, sessions: sessionmaker[Session]) -> None:
    admin = admin_client(app, sessions)
    game_id, players = running_fake_game(app)
    first = admin.get("/admin/status")
    assert first.status_code == 200
    assert figure(first.text, "waits-due") == 0
    with sessions.begin() as session:
        for wait in session.scalars(select(WaitRow).where(WaitRow.game_id == game_id)):
            wait.deadline_at = datetime.now(UTC) - timedelta(hours=1)
    page = admin.get("/admin/status").text
    assert figure(page, "waits-due") >= 1
    assert "<td>fake</td><td>1</td>" in page  # one running fake game
    # the slowest routes this process has served (which ones depends on what it served before)
    assert re.search(r"<tr><td><code>(GET|POST) /[^<]*</code></td><td>\d+</td>", page)
    for client in (*players, admin):
        client.__exit__(None, None, None)
