"""A player's export: everything held about them, their own secrets and never another seat's."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import AuditEntry, Game
from tests.conftest import sign_up
from tests.test_dragonstones_web import hide_differently, play_one
from tests.web_views import seated_game


def export_of(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/v1/me/export")
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"].startswith("attachment;")
    document: dict[str, Any] = response.json()
    document.pop("exported_at")
    return document


def test_an_export_holds_only_the_players_own_secrets(make_client: Any, db: Session) -> None:
    rng = random.Random(5)
    game_id, by_seat, _ = seated_game(make_client, "dragonstones", 3)
    by_seat[1].post(f"/api/v1/games/{game_id}/messages", json={"body": "psst", "to": [0]})
    for _ in range(8):
        play_one(db, game_id, rng)
    for seat, client in by_seat.items():
        before = export_of(client)
        game = db.get(Game, game_id)
        assert game is not None and game.state is not None
        original = game.state
        game.state = hide_differently(original, seat, rng)  # every other seat's secrets changed
        db.commit()
        after = export_of(client)
        game.state = original
        db.commit()
        assert after == before, f"seat {seat}'s export shows another seat's secrets"
        mine = before["games"][0]
        assert mine["your_seat"] == seat
        assert mine["view"]["me"] is not None  # their own hidden information is in it
        assert "password_hash" not in before["profile"] and before["profile"]["email"].endswith(
            "@example.com"
        )
        assert all("key_hash" not in row for row in before["sessions"])
    private = [message["body"] for message in export_of(by_seat[0])["games"][0]["messages"]]
    assert "psst" in private
    assert "psst" not in [message["body"] for message in export_of(by_seat[2])["games"][0]["messages"]]
    assert db.scalars(select(AuditEntry.action)).all().count("account.export") >= 6


def test_exports_are_rate_limited_and_need_a_log_in(make_client: Any) -> None:
    client: TestClient = make_client()
    assert client.get("/api/v1/me/export").status_code == 401
    sign_up(client, "Alice")
    for _ in range(3):
        assert client.get("/account/export").status_code == 200
    refused = client.get("/api/v1/me/export")
    assert (refused.status_code, refused.json()["error"]["code"]) == (429, "rate_limited")
