"""Amun-Re on the platform: a game created and played through the API and the plain HTML forms (no
JavaScript): an auction, a buying turn and a sealed offering, and what each seat's page shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from app.models import Notification, WaitRow
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


def test_a_bid_short_of_gold_asks_which_power_cards_to_sell(table: dict[str, Any]) -> None:
    game_id, seats = table["id"], table["by_seat"]
    provinces = [row["province"] for row in view(seats[0], game_id)["auction"]]
    for seat, amount in enumerate((21, 0, 0)):  # 20 gold and a Master Builder to sell
        fields = {"type": "bid", "province": provinces[seat], "amount": str(amount)}
        assert post_form(seats[seat], game_id, fields) == 303
    assert view(seats[1], game_id)["phase"] == "pay" and view(seats[1], game_id)["waiting_for"] == [0]
    page = seats[0].get(f"/games/{game_id}").text
    assert 'id="pay-form"' in page and 'name="powers.master_builder"' in page and 'value="1"' in page
    refused = post_form(seats[0], game_id, {"type": "pay_bid", "powers.master_builder": "0"})
    assert refused == 422 and view(seats[0], game_id)["phase"] == "pay"  # not enough sold
    assert post_form(seats[0], game_id, {"type": "pay_bid", "powers.master_builder": "1"}) == 303
    after = view(seats[0], game_id)
    assert after["phase"] == "buy" and after["discard"] == ["master_builder"]


def test_a_bad_order_is_a_4xx_with_a_stable_code(table: dict[str, Any]) -> None:
    game_id, seats = table["id"], table["by_seat"]
    version = seats[0].get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    order = {"type": "bid", "province": "Nowhere", "amount": 0}
    response = seats[0].post(
        f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version}
    )
    assert response.status_code == 422 and response.json()["error"]["code"] == "illegal_choice"


def _rows(db: Any, game_id: int) -> list[tuple[int, str, int, Any]]:
    db.expire_all()
    rows = db.scalars(select(WaitRow).where(WaitRow.game_id == game_id).order_by(WaitRow.seat))
    result = [(row.seat, row.phase, row.since_version, row.deadline_at) for row in rows]
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    return result


def _turn_notices(db: Any, game_id: int) -> int:
    query = select(func.count()).select_from(Notification).where(Notification.game_id == game_id)
    count: int = db.scalar(query.where(Notification.kind == "your_turn"))
    db.rollback()
    return count


def test_a_seat_not_awaited_sells_from_its_hand_and_every_wait_keeps_its_deadline(
    table: dict[str, Any], db: Any
) -> None:
    """Everyone starts with a Master Builder: seat 1 sells it through the page's form while the game waits
    on seat 0; seat 0's wait, its deadline and its question stay, and nobody is told it is their turn."""
    game_id, seats = table["id"], table["by_seat"]
    waits, notices = _rows(db, game_id), _turn_notices(db, game_id)
    assert [row[0] for row in waits] == [0]
    page = seats[1].get(f"/games/{game_id}").text
    assert "Nothing to do for now" in page and "Sell for 1 gold" in page
    gold = view(seats[1], game_id)["me"]["gold_value"]
    fields = {"type": "sell", "card": "master_builder"}
    assert post_form(seats[1], game_id, fields) == 303
    mine = view(seats[1], game_id)
    assert mine["me"]["gold_value"] == gold + 1 and mine["me"]["powers"] == []
    assert mine["discard"] == ["master_builder"] and mine["anytime"] is None
    assert _rows(db, game_id) == waits and _turn_notices(db, game_id) == notices
    assert "sells Master Builder for 1 gold." in seats[2].get(f"/games/{game_id}").text
    # seat 0 answers the question it was asked before the sale: its order is still fresh
    version = waits[0][2]
    order = {"type": "bid", "province": view(seats[0], game_id)["auction"][0]["province"], "amount": 0}
    response = seats[0].post(
        f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version}
    )
    assert response.status_code == 200, response.text


def test_the_awaited_seat_selling_keeps_its_deadline_and_its_question_starts_again(
    table: dict[str, Any], db: Any
) -> None:
    game_id, seats = table["id"], table["by_seat"]
    ((seat, phase, _since, deadline),) = _rows(db, game_id)
    version = seats[0].get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    order = {"type": "sell", "card": "master_builder"}
    response = seats[0].post(
        f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version}
    )
    assert response.status_code == 200, response.text
    assert _rows(db, game_id) == [(seat, phase, version + 1, deadline)]


@pytest.mark.parametrize(
    ("order", "expected", "status", "code"),
    [
        ({"type": "bid", "province": "Buto", "amount": 0}, 0, 409, "not_your_turn"),
        ({"type": "sell", "card": "eight_gold"}, 0, 422, "card_not_held"),
        ({"type": "sell", "card": "master_builder"}, 99, 409, "stale_version"),
    ],
)
def test_what_a_seat_not_awaited_may_not_send(
    table: dict[str, Any], db: Any, order: dict[str, Any], expected: int, status: int, code: str
) -> None:
    game_id, seats = table["id"], table["by_seat"]
    waits = _rows(db, game_id)
    before = view(seats[1], game_id)
    version = seats[1].get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    response = seats[1].post(
        f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version + expected}
    )
    assert response.status_code == status and response.json()["error"]["code"] == code
    assert view(seats[1], game_id) == before and _rows(db, game_id) == waits


def test_the_game_type_lists_its_anytime_orders(table: dict[str, Any]) -> None:
    published = table["by_seat"][0].get("/api/v1/game-types/amunre").json()
    assert published["anytime_orders"] == ["sell"]
