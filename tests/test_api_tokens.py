"""Personal API tokens: made once and shown once, stored hashed, scoped, revoked, and no CSRF with them."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games import registry
from app.models import ApiToken, Game
from app.services.errors import ServiceError
from app.settings import Settings
from app.web.ratelimit import TOKEN_REQUESTS_PER_MINUTE, RateLimiter
from tests.conftest import PASSWORD, sign_up
from tests.web_views import seated_game

RULES = registry.get("dragonstones")


def make_token(client: TestClient, scopes: list[str], name: str = "my bot", **extra: Any) -> str:
    response = client.post("/api/v1/me/tokens", json={"name": name, "scopes": scopes, **extra})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def bearer(make_client: Any, token: str) -> TestClient:
    """A client with no cookie and no CSRF token: only the personal token."""
    script: TestClient = make_client()
    script.headers["Authorization"] = f"Bearer {token}"
    return script


def next_order(db: Session, game_id: int) -> tuple[int, dict[str, Any], int]:
    """A seat the game waits on, a legal order of it, and the game's version."""
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    db.refresh(game)
    state = RULES.load(game.state)
    seat = RULES.waits(state)[0].seat
    order = dict(RULES.sample_order(state, seat, random.Random(1)))
    version = game.version
    db.rollback()
    return seat, order, version


def test_an_order_with_a_token_needs_no_csrf_and_is_refused_when_out_of_scope_or_revoked(
    make_client: Any, db: Session, caplog: Any
) -> None:
    game_id, by_seat, _ = seated_game(make_client, "dragonstones", 3)
    seat, order, version = next_order(db, game_id)
    owner = by_seat[seat]
    reader = bearer(make_client, make_token(owner, ["read"], name="reader"))
    refused = reader.post(
        f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version}
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "token_scope")
    assert reader.get(f"/api/v1/games/{game_id}").json()["your_seat"] == seat

    player_token = make_token(owner, ["read", "play"], name="turn player")
    script = bearer(make_client, player_token)
    caplog.set_level("INFO", logger="app.web.api.play")
    played = script.post(
        f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version}
    )
    assert played.status_code == 200, played.text
    assert any("turn player" in record.getMessage() for record in caplog.records)

    tokens = owner.get("/api/v1/me/tokens").json()
    assert {token["name"] for token in tokens} == {"reader", "turn player"}
    assert all("token" not in token for token in tokens)
    stored = db.scalars(select(ApiToken.token_hash)).all()
    assert player_token not in stored and all(len(value) == 64 for value in stored)
    db.rollback()

    revoked_id = next(token["id"] for token in tokens if token["name"] == "turn player")
    assert owner.post(f"/api/v1/me/tokens/{revoked_id}/revoke").status_code == 204
    again = script.get(f"/api/v1/games/{game_id}")
    assert (again.status_code, again.json()["error"]["code"]) == (401, "bad_token")


def test_the_cookie_still_needs_csrf_and_a_token_never_reads_the_cookie(make_client: Any) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice")
    token = make_token(client, ["read", "play"])
    del client.headers["X-CSRF-Token"]
    refused = client.put("/api/v1/queue/dragonstones", json={})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "csrf_failed")
    client.headers["Authorization"] = "Bearer not-a-token"  # the cookie is still there, and not used
    assert client.get("/api/v1/me").status_code == 401
    client.headers["Authorization"] = f"Bearer {token}"
    assert client.get("/api/v1/me").json()["display_name"] == "Alice"


def test_a_token_cannot_touch_the_account(make_client: Any) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice")
    script = bearer(make_client, make_token(client, ["read", "play", "messages"]))
    for path, body in [
        ("/api/v1/me/tokens", {"name": "more", "scopes": ["read"]}),
        ("/api/v1/me/password", {"current_password": PASSWORD, "new_password": "another long one"}),
        ("/api/v1/auth/logout", {}),
    ]:
        response = script.post(path, json=body)
        assert (response.status_code, response.json()["error"]["code"]) == (403, "token_scope"), path
    assert script.patch("/api/v1/me", json={"display_name": "Mallory"}).status_code == 403
    for path in ("/api/v1/me/export", "/api/v1/me/sessions", "/api/v1/me/tokens"):
        assert script.get(path).status_code == 403, path


def test_a_new_password_revokes_every_token(make_client: Any) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice")
    script = bearer(make_client, make_token(client, ["read"]))
    assert script.get("/api/v1/me").status_code == 200
    body = {"current_password": PASSWORD, "new_password": "a brand new secret"}
    assert client.post("/api/v1/me/password", json=body).status_code == 204
    assert script.get("/api/v1/me").status_code == 401
    assert client.get("/api/v1/me/tokens").json() == []


def test_an_expired_token_is_refused(make_client: Any, db: Session) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice")
    script = bearer(make_client, make_token(client, ["read"], days=1))
    assert script.get("/api/v1/me").status_code == 200
    row = db.scalars(select(ApiToken)).one()
    row.expires_at = row.created_at
    db.commit()
    assert script.get("/api/v1/me").status_code == 401


def test_bad_token_requests_are_refused_with_a_reason(make_client: Any) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice")
    for body in [
        {"name": "", "scopes": ["read"]},
        {"name": "x", "scopes": []},
        {"name": "x", "scopes": ["all"]},
    ]:
        assert client.post("/api/v1/me/tokens", json=body).status_code == 422


def test_the_openapi_document_declares_the_bearer_scheme(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema["components"]["securitySchemes"]["PersonalToken"]["scheme"] == "bearer"
    assert {"PersonalToken": []} in schema["paths"]["/api/v1/games/{game_id}/orders"]["post"]["security"]


def test_the_script_in_the_api_docs_plays_a_dragonstones_turn(make_client: Any, db: Session) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    script = re.search(r"```python\n(.*?)```", docs, re.DOTALL)
    assert script is not None
    namespace: dict[str, Any] = {"__name__": "docs_api_script"}
    exec(compile(script.group(1), "docs/api.md", "exec"), namespace)
    game_id, by_seat, _ = seated_game(make_client, "dragonstones", 3)
    seat, _, version = next_order(db, game_id)
    answer = namespace["play_my_turn"](
        through(bearer(make_client, make_token(by_seat[seat], ["read", "play"]))), game_id
    )
    assert answer["version"] == version + 1
    mine = by_seat[seat].get(f"/api/v1/games/{game_id}").json()["view"]["me"]["bid"]
    assert mine is not None


def through(client: TestClient) -> Any:
    """The docs script's `api` function, sent through the test client instead of the network."""

    def call(method: str, path: str, body: Any = None) -> Any:
        answer = client.request(method, path, json=body)
        assert answer.status_code < 400, answer.text
        return answer.json()

    return call


def test_a_token_has_its_own_limits_on_orders_and_requests() -> None:
    limiter = RateLimiter(Settings(orders_per_minute=4, _env_file=None))
    for _ in range(2):
        limiter.token_order(7)
    with pytest.raises(ServiceError) as refused:
        limiter.token_order(7)
    assert refused.value.code == "rate_limited"
    limiter.token_order(8)  # another token of the same player has its own count
    limiter.order(1)  # and the player's own limit is not spent by their scripts
    for _ in range(TOKEN_REQUESTS_PER_MINUTE):
        limiter.token_request(7)
    with pytest.raises(ServiceError):
        limiter.token_request(7)
