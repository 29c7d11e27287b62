"""Orders: one transaction each; refusals write nothing; concurrent orders never both apply; replays."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from app.models import Game, GameEvent, GameOrder, WaitRow
from tests.conftest import sign_up


@pytest.fixture
def table(make_client: Any) -> dict[str, Any]:
    """A running 3-seat fake game; `by_seat[n]` is the client of seat n."""
    clients = [make_client() for _ in range(3)]
    for client, name in zip(clients, ("Alice", "Bob", "Carol"), strict=True):
        sign_up(client, name)
    game = clients[0].post("/api/v1/games", json={"game_type": "fake", "players": 3}).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{game['id']}/join")
    by_seat = {c.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: c for c in clients}
    return {"id": game["id"], "by_seat": by_seat, "outsider": make_client()}


def order(client: TestClient, game_id: int, body: dict[str, Any], version: int | None = None) -> Any:
    if version is None:
        version = client.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    return client.post(f"/api/v1/games/{game_id}/orders", json={"order": body, "expected_version": version})


def snapshot(db: Any, game_id: int) -> tuple[Any, ...]:
    db.expire_all()
    game = db.get(Game, game_id)
    counts = tuple(
        db.scalar(select(func.count()).select_from(model).where(model.game_id == game_id))
        for model in (GameOrder, GameEvent, WaitRow)
    )
    result = (game.version, game.state, counts)
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    return result


def test_an_order_moves_the_game(table: dict[str, Any]) -> None:
    game_id, seat0 = table["id"], table["by_seat"][0]
    response = order(seat0, game_id, {"type": "pick", "value": 3})
    assert response.status_code == 200
    assert response.json() == {"version": 2, "status": "active"}
    detail = seat0.get(f"/api/v1/games/{game_id}").json()
    assert detail["view"]["my_pick"] == 3
    assert 0 not in {w["seat"] for w in detail["waits"]}


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        (0, {"type": "pick", "value": 9}, 422, "invalid_order"),
        (0, {"type": "fly"}, 422, "invalid_order"),
        (0, {"type": "choose", "take": True}, 422, "wrong_phase"),
        ("outsider", {"type": "pick", "value": 1}, 403, "not_your_game"),
    ],
)
def test_refused_orders_write_nothing(
    table: dict[str, Any], db: Any, who: Any, body: dict[str, Any], status: int, code: str
) -> None:
    game_id = table["id"]
    client = table["outsider"] if who == "outsider" else table["by_seat"][who]
    if who == "outsider":
        sign_up(client, "Mallory")
    before = snapshot(db, game_id)
    response = order(client, game_id, body, version=1)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code
    assert snapshot(db, game_id) == before


def test_not_your_turn_and_stale_version(table: dict[str, Any], db: Any) -> None:
    game_id, by_seat = table["id"], table["by_seat"]
    assert order(by_seat[0], game_id, {"type": "pick", "value": 1}).status_code == 200
    twice = order(by_seat[0], game_id, {"type": "pick", "value": 2})
    assert (twice.status_code, twice.json()["error"]["code"]) == (409, "not_your_turn")
    # Seat 1 loaded the page at version 1: its question is unchanged by seat 0's sealed pick.
    assert order(by_seat[1], game_id, {"type": "pick", "value": 2}, version=1).status_code == 200
    future = order(by_seat[2], game_id, {"type": "pick", "value": 2}, version=99)
    assert (future.status_code, future.json()["error"]["code"]) == (409, "stale_version")
    assert order(by_seat[2], game_id, {"type": "pick", "value": 3}, version=3).status_code == 200
    # Now the chooser's question began at version 4; an order made from version 3 is stale.
    chooser = by_seat[2]
    before = snapshot(db, game_id)
    stale = order(chooser, game_id, {"type": "choose", "take": True}, version=3)
    assert (stale.status_code, stale.json()["error"]["code"]) == (409, "stale_version")
    assert snapshot(db, game_id) == before


def test_anonymous_cannot_order(table: dict[str, Any]) -> None:
    anonymous = table["outsider"]
    anonymous.headers["X-CSRF-Token"] = anonymous.get("/api/v1/auth/csrf").json()["csrf_token"]
    response = order(anonymous, table["id"], {"type": "pick", "value": 1}, version=1)
    assert (response.status_code, response.json()["error"]["code"]) == (401, "login_required")


def test_malformed_order_bodies(table: dict[str, Any], db: Any) -> None:
    game_id, seat0 = table["id"], table["by_seat"][0]
    before = snapshot(db, game_id)
    bodies: list[object] = [
        {"order": "pick", "expected_version": 1},
        {"order": {}},
        {"expected_version": "x"},
        [1, 2],
    ]
    for body in bodies:
        response = seat0.post(f"/api/v1/games/{game_id}/orders", json=body)
        assert response.status_code == 422, body
        assert response.json()["error"]["code"] == "invalid_input"
    garbage = seat0.post(
        f"/api/v1/games/{game_id}/orders", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert garbage.status_code == 422
    assert snapshot(db, game_id) == before


def test_two_concurrent_orders_never_both_apply(table: dict[str, Any], db: Any) -> None:
    game_id, seat0 = table["id"], table["by_seat"][0]
    barrier = threading.Barrier(4)
    statuses: list[int] = []

    def send(value: int) -> None:
        barrier.wait()
        statuses.append(order(seat0, game_id, {"type": "pick", "value": value}, version=1).status_code)

    threads = [threading.Thread(target=send, args=(v % 3 + 1,)) for v in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409, 409, 409]
    assert snapshot(db, game_id)[2][0] == 1


def play_to_the_end(table: dict[str, Any]) -> None:
    game_id, by_seat = table["id"], table["by_seat"]
    for _ in range(200):
        detail = by_seat[0].get(f"/api/v1/games/{game_id}").json()
        if detail["game"]["status"] == "finished":
            return
        for wait in detail["waits"]:
            client = by_seat[wait["seat"]]
            mine = client.get(f"/api/v1/games/{game_id}").json()
            default = next(w for w in mine["waits"] if w["seat"] == wait["seat"])["default_order"]
            body = (
                {"type": "choose", "take": True}
                if default["type"] == "choose"
                else {"type": "pick", "value": 3}
            )
            assert order(client, game_id, body).status_code == 200
    raise AssertionError("the game did not end")


def test_a_whole_game_then_replay(table: dict[str, Any], db: Any) -> None:
    play_to_the_end(table)
    game_id, seat0 = table["id"], table["by_seat"][0]
    detail = seat0.get(f"/api/v1/games/{game_id}").json()
    assert detail["game"]["status"] == "finished"
    assert detail["waits"] == []
    assert detail["standings"][0]["place"] == 1
    replay = seat0.get(f"/api/v1/games/{game_id}/replay").json()
    assert replay["matches_stored_state"] is True
    assert replay["orders"] == detail["game"]["version"] - 1
    late = order(seat0, game_id, {"type": "pick", "value": 1})
    assert late.status_code == 409


def test_replay_detects_a_tampered_state(table: dict[str, Any], db: Any) -> None:
    game_id, seat0 = table["id"], table["by_seat"][0]
    order(seat0, game_id, {"type": "pick", "value": 2})
    game = db.get(Game, game_id)
    game.state = {**game.state, "scores": [5, 0, 0]}
    db.commit()
    assert seat0.get(f"/api/v1/games/{game_id}/replay").json()["matches_stored_state"] is False


def test_the_log_shows_each_seat_only_what_it_may_see(table: dict[str, Any]) -> None:
    game_id, by_seat = table["id"], table["by_seat"]
    order(by_seat[0], game_id, {"type": "pick", "value": 3})
    mine = by_seat[0].get(f"/api/v1/games/{game_id}/log").json()
    theirs = by_seat[1].get(f"/api/v1/games/{game_id}/log").json()
    public = table["outsider"].get(f"/api/v1/games/{game_id}/log").json()
    game_kinds = [
        {e["kind"] for e in log if not e["kind"].startswith("platform:")} for log in (mine, theirs, public)
    ]
    assert game_kinds[0] == {"picked", "my_pick"}
    assert game_kinds[1] == game_kinds[2] == {"picked"}
    for client in (by_seat[1], table["outsider"]):
        page = client.get(f"/games/{game_id}").text
        assert '<span class="event-kind">my_pick' not in page
    assert '<span class="event-kind">my_pick' in by_seat[0].get(f"/games/{game_id}").text


def test_html_order_form_and_live_fragment(table: dict[str, Any]) -> None:
    game_id, seat0 = table["id"], table["by_seat"][0]
    page = seat0.get(f"/games/{game_id}")
    assert page.status_code == 200
    assert 'id="prompt-since" name="since" value="1"' in page.text
    token = page.text.split('name="csrf_token" value="')[1].split('"')[0]
    form = {"csrf_token": token, "expected_version": "1", "type": "pick", "value": "2"}
    response = seat0.post(f"/games/{game_id}/orders", data=form, follow_redirects=False)
    assert response.status_code == 303
    refused = seat0.post(f"/games/{game_id}/orders", data=form, headers={"HX-Request": "true"})
    assert refused.status_code == 409
    assert 'class="error"' in refused.text
    same_question = table["by_seat"][1].get(f"/games/{game_id}/fragment?since=1").text
    assert 'id="game-orders"' not in same_question and 'id="game-status"' in same_question
    changed = table["by_seat"][1].get(f"/games/{game_id}/fragment?since=").text
    assert 'id="game-orders"' in changed
