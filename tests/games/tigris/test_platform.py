"""Tigris & Euphrates on the platform: a game created and played through the API and the HTML forms (no
JavaScript), its pages for each seat and for a spectator, and what the API, the pages and the log let each
of them see."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import sign_up


@pytest.fixture
def table(make_client: Any) -> dict[str, Any]:
    clients = [make_client() for _ in range(2)]
    for client, name in zip(clients, ("Alice", "Bob"), strict=True):
        sign_up(client, name)
    body = {"game_type": "tigris", "players": 2, "options": {"open_scoring": False}}
    game = clients[0].post("/api/v1/games", json=body).json()
    clients[1].post(f"/api/v1/games/{game['id']}/join")
    by_seat = {c.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: c for c in clients}
    return {"id": game["id"], "by_seat": by_seat, "outsider": make_client()}


def detail(client: TestClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{game_id}")
    assert response.status_code == 200
    result: dict[str, Any] = response.json()
    return result


def post_form(client: TestClient, game_id: int, fields: dict[str, str]) -> Any:
    """Post an order as the page's plain HTML form does (no JavaScript)."""
    page = client.get(f"/games/{game_id}").text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    version = re.search(r'name="expected_version" value="(\d+)"', page)
    assert version, "the page has no order form"
    data = {"csrf_token": token, "expected_version": version.group(1), **fields}
    return client.post(f"/games/{game_id}/orders", data=data, follow_redirects=False)


def test_the_game_type_is_published() -> None:
    from app.games import registry

    assert registry.get("tigris").title == "Tigris & Euphrates"


def test_a_revolt_through_the_forms_and_what_each_one_sees(table: dict[str, Any]) -> None:
    game_id, alice, bob = table["id"], table["by_seat"][0], table["by_seat"][1]
    outsider = table["outsider"]
    types = outsider.get("/api/v1/game-types/tigris").json()
    assert set(types["options_schema"]["properties"]) == {"english_variant", "open_scoring"}
    assert "leader" in json.dumps(types["order_schema"])

    mine, theirs = detail(alice, game_id)["view"], detail(bob, game_id)["view"]
    assert mine["me"]["seat"] == 0 and theirs["me"]["seat"] == 1
    assert theirs["players"][0]["points"] is None and detail(outsider, game_id)["view"]["me"] is None
    assert "J7" in mine["legal"]["targets"]["leader:red"]

    # seat 0: the priest beside the temple I7, and a tile far away
    assert post_form(alice, game_id, {"type": "leader", "colour": "red", "square": "I6"}).status_code == 303
    colour = next(c for c, count in mine["me"]["hand"].items() if count)
    square = "E1" if colour == "blue" else "A1"
    assert post_form(alice, game_id, {"type": "tile", "colour": colour, "square": square}).status_code == 303
    # seat 1: a priest beside the same temple starts a revolt
    assert post_form(bob, game_id, {"type": "leader", "colour": "red", "square": "J7"}).status_code == 303
    bob_page = bob.get(f"/games/{game_id}").text
    assert "You attack: will you send support?" in bob_page
    assert "data-tg-targets=" in bob_page and "tg-map" in bob_page
    alice_page = alice.get(f"/games/{game_id}").text
    assert "You attack" not in alice_page and "Revolt of the priests" in alice_page
    assert post_form(bob, game_id, {"type": "support", "count": "0"}).status_code == 303
    assert "You are attacked: will you send support?" in alice.get(f"/games/{game_id}").text
    assert detail(alice, game_id)["waits"][0]["default_order"] == {"type": "support", "count": 0}
    assert post_form(alice, game_id, {"type": "support", "count": "0"}).status_code == 303

    view = detail(bob, game_id)["view"]
    assert view["players"][1]["leaders"]["red"] is None  # the attacker lost the tie
    assert view["players"][0]["leaders"]["red"] == "I6" and view["players"][0]["points"] is None

    # the log: the draws are the drawer's own, the points the scorer's own
    logs = {
        seat: client.get(f"/api/v1/games/{game_id}/log").json()
        for seat, client in (("alice", alice), ("bob", bob), ("outsider", outsider))
    }
    assert any(e["kind"] == "drew" for e in logs["alice"]) and any(
        e["kind"] == "scored" for e in logs["alice"]
    )
    assert not any(e["kind"] in ("drew", "scored") for e in logs["bob"] + logs["outsider"])
    assert {e["kind"] for e in logs["outsider"]} >= {"leader_placed", "conflict_started", "support"}
    spectator_page = outsider.get(f"/games/{game_id}").text
    assert "Behind your screen" not in spectator_page and "data-piece-form" not in spectator_page
    for client in (alice, bob, outsider):
        page = client.get(f"/games/{game_id}")
        assert page.status_code == 200 and 'style="' not in page.text and "<script>" not in page.text
    replay = alice.get(f"/api/v1/games/{game_id}/replay").json()
    assert replay["matches_stored_state"] is True


def test_a_refused_placement_explains_why(table: dict[str, Any]) -> None:
    game_id, alice = table["id"], table["by_seat"][0]
    response = post_form(alice, game_id, {"type": "leader", "colour": "red", "square": "E1"})
    assert response.status_code == 422
    assert "A leader may not stand on a river." in response.text


def test_a_swap_through_the_form(table: dict[str, Any]) -> None:
    game_id, alice = table["id"], table["by_seat"][0]
    hand = detail(alice, game_id)["view"]["me"]["hand"]
    colour = next(c for c, count in hand.items() if count)
    fields = {"type": "swap", **{f"tiles.{c}": "0" for c in hand}, f"tiles.{colour}": "1"}
    assert post_form(alice, game_id, fields).status_code == 303
    view = detail(alice, game_id)["view"]
    assert sum(view["me"]["hand"].values()) == 6 and view["discarded"] == 1 and view["actions_left"] == 1


def test_a_game_played_to_its_end_shows_the_final_scores(table: dict[str, Any]) -> None:
    game_id, by_seat = table["id"], table["by_seat"]
    for _ in range(60):
        game = detail(by_seat[0], game_id)
        if game["game"]["status"] == "finished":
            break
        seat = game["waits"][0]["seat"]
        view = detail(by_seat[seat], game_id)["view"]
        swap = {colour: count for colour, count in view["me"]["hand"].items() if count}
        order = {"type": "swap", "tiles": swap} if swap else {"type": "pass"}
        version = game["game"]["version"]
        response = by_seat[seat].post(
            f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version}
        )
        assert response.status_code == 200, response.text
    game = detail(table["outsider"], game_id)
    assert game["game"]["status"] == "finished" and game["view"]["end"] == "bag"
    assert sorted(row["place"] for row in game["standings"]) in ([1, 1], [1, 2])
    for client in (*by_seat.values(), table["outsider"]):
        page = client.get(f"/games/{game_id}").text
        assert "Final scores" in page and "The game is over." in page
