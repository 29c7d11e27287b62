"""Creating, joining, leaving, cancelling and listing games; the start; spectators."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import sign_up


@pytest.fixture
def players(make_client: Any) -> list[TestClient]:
    clients = [make_client() for _ in range(3)]
    for client, name in zip(clients, ("Alice", "Bob", "Carol"), strict=True):
        sign_up(client, name)
    return clients


def create(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"game_type": "fake", "players": 3, "time_limit_hours": 24, **extra}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def test_create_game_with_generated_name(players: list[TestClient]) -> None:
    game = create(players[0])
    assert game["status"] == "open"
    assert len(game["name"].split()) == 3
    assert game["seats_taken"] == 1
    listed = players[1].get("/api/v1/games?status=open").json()
    assert [g["id"] for g in listed] == [game["id"]]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game_type": "chess"}, "game_type"),
        ({"players": 1}, "players"),
        ({"players": 5}, "players"),
        ({"time_limit_hours": 0}, "time_limit_hours"),
        ({"time_limit_hours": 10_000}, "time_limit_hours"),
        ({"options": {"target": 1}}, "options.target"),
        ({"options": {"target": "many"}}, "options.target"),
        ({"name": "   "}, None),
    ],
)
def test_create_game_refusals(players: list[TestClient], body: dict[str, Any], field: str | None) -> None:
    full = {"game_type": "fake", "players": 3, "time_limit_hours": 24, **body}
    response = players[0].post("/api/v1/games", json=full)
    assert response.status_code == 422
    if field:
        assert response.json()["error"]["field"] == field
    assert players[0].get("/api/v1/games?status=open").json() == []


def test_no_time_limit_and_options_are_kept(players: list[TestClient]) -> None:
    game = create(players[0], time_limit_hours=None, options={"target": 5}, name="  Friday   night ")
    detail = players[0].get(f"/api/v1/games/{game['id']}").json()
    assert detail["game"]["time_limit_hours"] is None
    assert detail["options"] == {"target": 5}
    assert detail["game"]["name"] == "Friday night"


def test_game_starts_when_full_with_a_random_pick_order(players: list[TestClient]) -> None:
    game = create(players[0])
    assert players[1].post(f"/api/v1/games/{game['id']}/join").json()["status"] == "open"
    assert players[2].post(f"/api/v1/games/{game['id']}/join").json()["status"] == "active"
    seats = {client.get(f"/api/v1/games/{game['id']}").json()["your_seat"] for client in players}
    assert seats == {0, 1, 2}
    detail = players[0].get(f"/api/v1/games/{game['id']}").json()
    assert sorted(detail["players"]) == ["Alice", "Bob", "Carol"]
    assert {w["seat"] for w in detail["waits"]} == {0, 1, 2}
    assert all(w["deadline_at"] for w in detail["waits"])
    assert players[0].get("/api/v1/games?status=active").json()[0]["id"] == game["id"]


def test_join_refusals(players: list[TestClient], make_client: Any) -> None:
    game = create(players[0], players=2)
    again = players[0].post(f"/api/v1/games/{game['id']}/join")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "already_joined")
    players[1].post(f"/api/v1/games/{game['id']}/join")
    late = players[2].post(f"/api/v1/games/{game['id']}/join")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "wrong_status")
    missing = players[2].post("/api/v1/games/9999/join")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    anonymous = make_client()
    anonymous.headers["X-CSRF-Token"] = anonymous.get("/api/v1/auth/csrf").json()["csrf_token"]
    assert anonymous.post(f"/api/v1/games/{game['id']}/join").status_code == 401


def test_leave_and_cancel(players: list[TestClient]) -> None:
    game = create(players[0])
    players[1].post(f"/api/v1/games/{game['id']}/join")
    assert players[1].post(f"/api/v1/games/{game['id']}/leave").json()["seats_taken"] == 1
    not_in = players[2].post(f"/api/v1/games/{game['id']}/leave")
    assert (not_in.status_code, not_in.json()["error"]["code"]) == (403, "not_your_game")
    creator_leaves = players[0].post(f"/api/v1/games/{game['id']}/leave")
    assert creator_leaves.status_code == 403
    other_cancels = players[1].post(f"/api/v1/games/{game['id']}/cancel")
    assert other_cancels.status_code == 403
    assert players[0].post(f"/api/v1/games/{game['id']}/cancel").json()["status"] == "cancelled"
    assert players[1].get("/api/v1/games?status=open").json() == []
    assert players[1].post(f"/api/v1/games/{game['id']}/join").status_code == 409


def test_rename_by_creator_only(players: list[TestClient]) -> None:
    game = create(players[0])
    assert players[1].post(f"/api/v1/games/{game['id']}/rename", json={"name": "Mine"}).status_code == 403
    assert (
        players[0].post(f"/api/v1/games/{game['id']}/rename", json={"name": "Ours"}).json()["name"] == "Ours"
    )


def test_spectator_sees_only_the_public_view(players: list[TestClient], make_client: Any) -> None:
    game = create(players[0])
    for client in players[1:]:
        client.post(f"/api/v1/games/{game['id']}/join")
    spectator = make_client()
    detail = spectator.get(f"/api/v1/games/{game['id']}").json()
    assert detail["your_seat"] is None
    assert detail["view"]["my_pick"] is None
    assert all(w["default_order"] is None for w in detail["waits"])


def test_game_type_schemas(client: TestClient) -> None:
    types = client.get("/api/v1/game-types").json()
    assert "fake" in {t["id"] for t in types}
    schema = client.get("/api/v1/game-types/fake").json()
    assert schema["options_schema"]["properties"]["target"]["default"] == 8
    assert '"pick"' in str(schema["order_schema"]).replace("'", '"')
    assert "discriminator" in schema["order_schema"] or "oneOf" in schema["order_schema"]
    assert client.get("/api/v1/game-types/chess").status_code == 404


def test_lobby_tabs_render(players: list[TestClient]) -> None:
    game = create(players[0], name="Table of three")
    page = players[0].get("/?tab=open")
    assert "Table of three" in page.text
    assert players[0].get("/?tab=active").status_code == 200
    assert players[0].get("/?tab=finished").status_code == 200
    assert players[0].get("/?tab=bogus").status_code == 422
    assert "Table of three" in players[1].get(f"/games/{game['id']}").text
