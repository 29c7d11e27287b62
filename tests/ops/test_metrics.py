"""/metrics: every figure is there, the orders counter moves, and only loopback or the token may read it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import select, update
from starlette.testclient import TestClient

from app.main import create_app
from app.models import Game, OutgoingMail, TimeoutPlayed, WaitRow
from app.services.jobs import sweeper
from app.services.ops import metrics
from app.settings import Settings
from tests.conftest import sign_up

EVERY_METRIC = {
    "ostraca_http_request_duration_seconds",
    "ostraca_orders_applied",
    "ostraca_orders_refused",
    "ostraca_live_connections",
    "ostraca_waits_due",
    "ostraca_waits_quarantined",
    "ostraca_deadline_lateness_seconds",
    "ostraca_outbox_backlog",
    "ostraca_outbox_dead",
    "ostraca_games_active",
    "ostraca_timeout_lateness_seconds",
}


Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> tuple[set[str], Samples]:
    """The metric families announced, and every sample by name and labels."""
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    families, samples = set(), {}
    for family in text_string_to_metric_families(response.text):
        families.add(family.name)
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return families, samples


def running_fake_game(app: Any) -> tuple[int, list[TestClient]]:
    players = [TestClient(app).__enter__() for _ in range(3)]
    for player, name in zip(players, ("Alice", "Bob", "Carol"), strict=True):
        sign_up(player, name)
    game = players[0].post("/api/v1/games", json={"game_type": "fake", "players": 3}).json()
    for player in players[1:]:
        player.post(f"/api/v1/games/{game['id']}/join")
    return game["id"], players


def seat_zero(game_id: int, players: list[TestClient]) -> TestClient:
    return next(p for p in players if p.get(f"/api/v1/games/{game_id}").json()["your_seat"] == 0)


def test_every_metric_is_there_and_orders_move_it(app: Any) -> None:
    game_id, players = running_fake_game(app)
    with TestClient(app, client=("127.0.0.1", 40000)) as prometheus:
        families, before = scrape(prometheus)
        assert families >= EVERY_METRIC, EVERY_METRIC - families
        player = seat_zero(game_id, players)
        url = f"/api/v1/games/{game_id}/orders"
        refused = player.post(url, json={"order": {"type": "pick", "value": 9}, "expected_version": 1})
        assert refused.status_code == 422
        applied = player.post(url, json={"order": {"type": "pick", "value": 3}, "expected_version": 1})
        assert applied.status_code == 200
        _, after = scrape(prometheus)
    for client in players:
        client.__exit__(None, None, None)
    applied_key = ("ostraca_orders_applied_total", (("game_type", "fake"), ("origin", "player")))
    refused_key = ("ostraca_orders_refused_total", (("game_type", "fake"),))
    assert after[applied_key] == before.get(applied_key, 0) + 1
    assert after[refused_key] == before.get(refused_key, 0) + 1
    assert after[("ostraca_games_active", (("game_type", "fake"),))] == 1
    timed = ("ostraca_http_request_duration_seconds_count", (("method", "POST"), ("route", url)))
    template = (
        "ostraca_http_request_duration_seconds_count",
        (("method", "POST"), ("route", "/api/v1/games/{game_id}/orders")),
    )
    assert timed not in after  # the route template, never the raw path
    assert after[template] >= 2


def test_metrics_are_refused_to_others(client: TestClient) -> None:
    response = client.get("/metrics")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "metrics_forbidden"
    assert "ostraca_" not in response.text


@pytest.mark.parametrize(
    ("given", "status"), [("Bearer s3cret-token", 200), ("Bearer wrong", 403), ("", 403)]
)
def test_the_metrics_token_opens_them(settings: Settings, given: str, status: int) -> None:
    app = create_app(settings.model_copy(update={"metrics_token": "s3cret-token"}))
    with TestClient(app) as client:
        assert client.get("/metrics", headers={"Authorization": given}).status_code == status


def test_the_database_figures_are_read_at_scrape_time(app: Any, sessions: Any) -> None:
    game_id, players = running_fake_game(app)
    now = datetime.now(UTC)
    with sessions.begin() as session:
        waits = list(session.scalars(select(WaitRow).where(WaitRow.game_id == game_id)))
        for wait in waits:
            wait.deadline_at = now - timedelta(hours=2)
        for number, dead in enumerate((None, None, now)):
            session.add(
                OutgoingMail(
                    kind="test",
                    to_address="someone@example.com",
                    subject="s",
                    message_id=f"<{number}@example.com>",
                    raw="",
                    next_attempt_at=now,
                    dead_at=dead,
                )
            )
    with TestClient(app, client=("127.0.0.1", 40000)) as prometheus:
        _, late = scrape(prometheus)
        with sessions.begin() as session:
            session.execute(update(Game).where(Game.id == game_id).values(quarantined_at=now))
        _, quarantined = scrape(prometheus)
    for client in players:
        client.__exit__(None, None, None)
    assert late[("ostraca_waits_due", ())] == len(waits) > 0
    assert late[("ostraca_deadline_lateness_seconds", ())] >= 7200
    assert late[("ostraca_waits_quarantined", ())] == 0
    assert (late[("ostraca_outbox_backlog", ())], late[("ostraca_outbox_dead", ())]) == (2, 1)
    assert quarantined[("ostraca_waits_due", ())] == 0  # the sweeper leaves a quarantined game alone
    assert quarantined[("ostraca_waits_quarantined", ())] == len(waits)
    assert quarantined[("ostraca_deadline_lateness_seconds", ())] == 0


def test_a_timeout_counts_as_an_order_applied_by_the_clock(app: Any, sessions: Any) -> None:
    game_id, players = running_fake_game(app)
    for client in players:
        client.__exit__(None, None, None)
    now = datetime.now(UTC)
    with sessions.begin() as session:
        waits = list(session.scalars(select(WaitRow).where(WaitRow.game_id == game_id)))
        for wait in waits:
            wait.deadline_at = wait.check_at = now - timedelta(minutes=1)
    labels = {"game_type": "fake", "origin": "timeout"}
    before = metrics.sample("ostraca_orders_applied_total", labels)
    timed_before = metrics.sample("ostraca_timeout_lateness_seconds_count", {"game_type": "fake"})
    late_before = metrics.sample("ostraca_timeout_lateness_seconds_sum", {"game_type": "fake"})
    report = sweeper.sweep(sessions, lambda: now)
    assert report.timeouts >= 1
    assert metrics.sample("ostraca_orders_applied_total", labels) == before + report.timeouts
    timed = metrics.sample("ostraca_timeout_lateness_seconds_count", {"game_type": "fake"})
    assert timed == timed_before + report.timeouts
    late = metrics.sample("ostraca_timeout_lateness_seconds_sum", {"game_type": "fake"}) - late_before
    assert late == pytest.approx(60.0 * report.timeouts)
    with sessions() as session:
        played = list(session.scalars(select(TimeoutPlayed).where(TimeoutPlayed.game_id == game_id)))
    assert len(played) == report.timeouts
    assert {row.late_seconds for row in played} == {60.0}
