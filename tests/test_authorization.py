"""Who may do what: every route of the app, as each kind of visitor, with the expected status.

The table must name every route: a new route without an entry fails `test_every_route_is_in_the_table`.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute
from starlette.testclient import TestClient

from tests.conftest import sign_up

ROLES = ("anonymous", "outsider", "player", "creator")
OPEN, ACTIVE = "{open}", "{active}"

# (method, path, body, {role: status}); a role left out is not checked for that route.
MATRIX: list[tuple[str, str, Any, dict[str, int]]] = [
    ("GET", "/api/v1/auth/csrf", None, {r: 200 for r in ROLES}),
    ("GET", "/api/v1/me", None, {"anonymous": 401, "outsider": 200}),
    ("PATCH", "/api/v1/me", {"language": "fr"}, {"anonymous": 401, "outsider": 200}),
    (
        "POST",
        "/api/v1/me/password",
        {"current_password": "x", "new_password": "y"},
        {"anonymous": 401, "outsider": 401},
    ),
    ("POST", "/api/v1/auth/logout", None, {"anonymous": 204}),
    ("POST", "/api/v1/auth/logout-everywhere", None, {"anonymous": 401}),
    ("POST", "/api/v1/auth/login", {"email": "no@example.com", "password": "nope-nope"}, {"anonymous": 401}),
    (
        "POST",
        "/api/v1/auth/signup",
        {"email": "bad", "password": "x", "display_name": "x"},
        {"anonymous": 422},
    ),
    ("GET", "/api/v1/game-types", None, {r: 200 for r in ROLES}),
    ("GET", "/api/v1/game-types/fake", None, {r: 200 for r in ROLES}),
    ("GET", "/api/v1/games", None, {r: 200 for r in ROLES}),
    ("POST", "/api/v1/games", {"game_type": "fake", "players": 2}, {"anonymous": 401, "outsider": 201}),
    ("GET", f"/api/v1/games/{ACTIVE}", None, {r: 200 for r in ROLES}),
    ("GET", f"/api/v1/games/{ACTIVE}/log", None, {r: 200 for r in ROLES}),
    ("GET", f"/api/v1/games/{ACTIVE}/replay", None, {r: 200 for r in ROLES}),
    ("GET", f"/api/v1/games/{OPEN}/replay", None, {"anonymous": 409}),
    (
        "POST",
        f"/api/v1/games/{OPEN}/rename",
        {"name": "X"},
        {"anonymous": 401, "outsider": 403, "creator": 200},
    ),
    ("POST", f"/api/v1/games/{OPEN}/join", None, {"anonymous": 401, "outsider": 200, "creator": 409}),
    ("POST", f"/api/v1/games/{ACTIVE}/join", None, {"anonymous": 401, "outsider": 409, "player": 409}),
    ("POST", f"/api/v1/games/{OPEN}/leave", None, {"anonymous": 401, "outsider": 403, "creator": 403}),
    ("POST", f"/api/v1/games/{OPEN}/cancel", None, {"anonymous": 401, "outsider": 403, "creator": 200}),
    ("POST", f"/api/v1/games/{ACTIVE}/cancel", None, {"player": 409}),
    (
        "POST",
        f"/api/v1/games/{ACTIVE}/orders",
        {"order": {"type": "pick", "value": 1}, "expected_version": 1},
        {"anonymous": 401, "outsider": 403, "player": 200},
    ),
    ("GET", "/", None, {r: 200 for r in ROLES}),
    ("GET", "/signup", None, {"anonymous": 200}),
    ("GET", "/login", None, {"anonymous": 200}),
    ("POST", "/signup", {}, {"anonymous": 422}),
    ("POST", "/login", {}, {"anonymous": 422}),
    ("POST", "/logout", {}, {"anonymous": 303, "outsider": 303}),
    ("POST", "/logout-everywhere", {}, {"anonymous": 401}),
    ("GET", "/account", None, {"anonymous": 401, "outsider": 200}),
    ("POST", "/account", {}, {"anonymous": 401, "outsider": 422}),
    ("POST", "/account/password", {}, {"anonymous": 401, "outsider": 422}),
    ("POST", "/language", {"language": "fr"}, {"anonymous": 303, "outsider": 303}),
    ("GET", "/games/new", None, {"anonymous": 401, "outsider": 200}),
    ("POST", "/games", {"game_type": "fake", "players": "2"}, {"anonymous": 401, "outsider": 303}),
    ("GET", f"/games/{ACTIVE}", None, {r: 200 for r in ROLES}),
    ("GET", f"/games/{OPEN}", None, {r: 200 for r in ROLES}),
    ("GET", f"/games/{ACTIVE}/fragment", None, {r: 200 for r in ROLES}),
    ("POST", f"/games/{OPEN}/join", {}, {"anonymous": 401, "outsider": 303}),
    ("POST", f"/games/{OPEN}/leave", {}, {"anonymous": 401, "outsider": 403}),
    ("POST", f"/games/{OPEN}/cancel", {}, {"anonymous": 401, "outsider": 403, "creator": 303}),
    ("POST", f"/games/{OPEN}/rename", {"name": "Y"}, {"anonymous": 401, "outsider": 403, "creator": 303}),
    (
        "POST",
        f"/games/{ACTIVE}/orders",
        {"expected_version": "1", "type": "pick", "value": "2"},
        {"anonymous": 401, "outsider": 403, "player": 303},
    ),
]
UNCHECKED = {("GET", "/games/{game_id}/live")}  # an endless stream: covered by the browser tests


def test_every_route_is_in_the_table(app: Any) -> None:
    listed = {(method, _pattern(path)) for method, path, _, _ in MATRIX} | UNCHECKED
    missing = []
    for route in app.routes:
        if not isinstance(route, APIRoute):
            continue
        for method in route.methods - {"HEAD"}:
            if (method, route.path) not in listed:
                missing.append(f"{method} {route.path}")
    assert missing == []


def _pattern(path: str) -> str:
    return path.replace(OPEN, "{game_id}").replace(ACTIVE, "{game_id}").replace("/fake", "/{game_type}")


@pytest.fixture
def visitors(make_client: Any) -> dict[str, Any]:
    creator, player, partner, outsider, anonymous = (make_client() for _ in range(5))
    sign_up(creator, "Creator")
    sign_up(player, "Player")
    sign_up(partner, "Partner")
    sign_up(outsider, "Outsider")
    anonymous.headers["X-CSRF-Token"] = anonymous.get("/api/v1/auth/csrf").json()["csrf_token"]
    open_game = creator.post("/api/v1/games", json={"game_type": "fake", "players": 3}).json()["id"]
    active = player.post("/api/v1/games", json={"game_type": "fake", "players": 2}).json()["id"]
    partner.post(f"/api/v1/games/{active}/join")
    return {
        "clients": {"anonymous": anonymous, "outsider": outsider, "player": player, "creator": creator},
        "ids": {OPEN: open_game, ACTIVE: active},
    }


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"), MATRIX, ids=[f"{m} {p}" for m, p, _, _ in MATRIX]
)
def test_route_statuses(
    visitors: dict[str, Any], method: str, path: str, body: Any, expected: dict[str, int]
) -> None:
    for role, status in expected.items():
        client: TestClient = visitors["clients"][role]
        url = path.replace(OPEN, str(visitors["ids"][OPEN])).replace(ACTIVE, str(visitors["ids"][ACTIVE]))
        token = client.headers.get("X-CSRF-Token", "")
        if path.startswith("/api/"):
            response = client.request(method, url, json=body)
        elif method == "GET":
            response = client.get(url)
        else:
            response = client.request(method, url, data={**body, "csrf_token": token}, follow_redirects=False)
        assert response.status_code == status, (
            f"{role}: {method} {url} -> {response.status_code} {response.text[:200]}"
        )
        assert "Traceback" not in response.text
