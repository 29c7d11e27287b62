"""Amun-Re on the platform: a game created and played through the API and the plain HTML forms (no
JavaScript): an auction, a buying turn and a sealed offering, and what each seat's page shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import sign_up


@pytest.fixture
def table(make_client: Any) -> dict[str, Any]:
    clients = [make_client() for _ in range(3)]
    for client, name in zip(clients, ("Alice", "Bob", "Carol"), strict=True):
        sign_up(client, name)
    game = clients[0].post("/api/v1/games", json={"game_type": "amunre", "players": 3}).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{game['id']}/join")
    by_seat = {c.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: c for c in clients}
    return {"id": game["id"], "by_seat": by_seat}


def view(client: TestClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/api/v1/games/{game_id}")
    assert response.status_code == 200
    result: dict[str, Any] = response.json()["view"]
    return result


def post_form(client: TestClient, game_id: int, fields: dict[str, str]) -> int:
    page = client.get(f"/games/{game_id}").text
    token = page.split('name="csrf_token" value="')[1].split('"')[0]
    version = re.search(r'name="expected_version" value="(\d+)"', page)
    assert version, "the page has no order form"
    data = {"csrf_token": token, "expected_version": version.group(1), **fields}
    status: int = client.post(f"/games/{game_id}/orders", data=data, follow_redirects=False).status_code
    return status


def test_an_auction_and_an_offering_through_the_forms(table: dict[str, Any]) -> None:
    game_id, seats = table["id"], table["by_seat"]
    first = view(seats[0], game_id)
    provinces = [row["province"] for row in first["auction"]]
    page = seats[0].get(f"/games/{game_id}").text
    assert "Place your bidding block on a province." in page and f"bid 0 on {provinces[0]}" in page
    assert 'class="ar-nile"' in page and page.count('class="ar-province') == 15 and "Your hand" in page
    for seat, province in zip(range(3), provinces, strict=True):
        fields = {
            "type": "bid",
            "province": province,
            "amount": "0",
            "blockade": "false",
            "same_province": "false",
        }
        assert post_form(seats[seat], game_id, fields) == 303
    assert view(seats[0], game_id)["phase"] == "buy"
    for seat in range(3):
        assert post_form(seats[seat], game_id, {"type": "done"}) == 303
    page = seats[1].get(f"/games/{game_id}").text
    assert 'id="offer-form"' in page and 'name="gold.1"' in page
    assert post_form(seats[1], game_id, {"type": "offer", "gold.1": "1", "gold.5": ""}) == 303
    others = view(seats[0], game_id)
    assert others["players"][1]["has_offered"] is True and others["offerings"] == []
    assert view(seats[1], game_id)["me"]["offering"]["amount"] == 1
    assert post_form(seats[0], game_id, {"type": "offer", "minus_three": "true"}) == 303
    assert post_form(seats[2], game_id, {"type": "offer", "gold.2": "1"}) == 303
    revealed = view(seats[0], game_id)
    assert [o["amount"] for o in revealed["offerings"]] == [-3, 1, 2] and revealed["temple"] == 1
    assert revealed["phase"] == "reward" and revealed["pharaoh"] == 2
    page = seats[0].get(f"/games/{game_id}").text
    assert "Offerings" in page and "Your sealed offering" not in page
    assert f"bids 0 on {provinces[0]}." in page and "The offerings are revealed: 0 in all." in page


def test_a_bad_order_is_a_4xx_with_a_stable_code(table: dict[str, Any]) -> None:
    game_id, seats = table["id"], table["by_seat"]
    version = seats[0].get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    order = {"type": "bid", "province": "Nowhere", "amount": 0}
    response = seats[0].post(
        f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version}
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "illegal_choice"
