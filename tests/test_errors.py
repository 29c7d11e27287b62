"""Refusals under pressure: a busy database is a 503 with a stable code, and an error page never stalls
the server while it waits for the database."""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.testclient import TestClient

from app.services.social import lobby
from tests.conftest import sign_up


def test_a_busy_database_is_a_503_in_the_users_language(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(client, "Alice", language="fr")

    def locked(*_args: Any, **_kwargs: Any) -> Any:
        raise OperationalError("BEGIN IMMEDIATE", {}, sqlite3.OperationalError("database is locked"))

    monkeypatch.setattr(lobby, "create_game", locked)
    response = client.post("/api/v1/games", json={"game_type": "fake", "players": 3})
    assert response.status_code == 503
    assert response.headers["retry-after"] == "5"
    error = response.json()["error"]
    assert error["code"] == "busy" and "Réessayez" in error["message"]


def test_an_error_page_waiting_for_the_database_does_not_stall_other_requests(
    client: TestClient, database_url: str
) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("the write lock taken at BEGIN is SQLite's")
    sign_up(client, "Alice")
    holder = sqlite3.connect(database_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # what a request in the middle of an order holds
    statuses: list[int] = []
    waiting = threading.Thread(
        target=lambda: statuses.append(client.get("/api/v1/no-such-thing").status_code)
    )
    waiting.start()
    try:
        waiting.join(0.5)  # its error page now waits for the user's row, behind the lock
        assert waiting.is_alive()
        # The same event loop still serves a request that needs no database.
        assert client.get("/static/vendor/htmx-2.0.11.min.js").status_code == 200
        assert waiting.is_alive(), "the error page should still be waiting for the lock"
    finally:
        holder.rollback()
        holder.close()
    waiting.join()
    assert statuses == [404]


def _broken() -> None:
    raise RuntimeError("a bug")


@pytest.mark.parametrize("path", ["/broken", "/api/v1/broken"])
def test_a_server_error_carries_the_security_headers(app: Any, path: str) -> None:
    app.add_api_route(path, _broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get(path)
    assert answer.status_code == 500
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["cache-control"] == "private, no-store"


@pytest.mark.parametrize(("path", "status"), [("/no-such-page", 404), ("/broken", 500)])
def test_an_error_page_carries_no_csrf_token(app: Any, path: str, status: int) -> None:
    app.add_api_route("/broken", _broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        token = sign_up(client, "Alice")["csrf_token"]
        assert token in client.get("/").text
        page = client.get(path)
    assert page.status_code == status
    assert token not in page.text
    assert 'name="csrf_token"' not in page.text and "X-CSRF-Token" not in page.text
