"""The order path on a budget: the SQL statements of one ordinary order's POST and of one game read, and
no ORM object for the game, its seats or the session's user on either (Core rows read into records); the
reads make none for the waits either (an order loads the wait rows it changes).

A count, not a time: each statement is a round trip and, on Postgres, a parse and a plan unless it is
prepared. Transaction control (BEGIN, COMMIT) is not counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, event
from starlette.testclient import TestClient

from app.models import Game, Seat, User, WaitRow
from tests.conftest import sign_up

ORDER_BUDGET = 8  # an ordinary order: one seat answers, no new wait starts
READ_BUDGET = 3


@contextmanager
def counted(engine: Engine) -> Iterator[list[str]]:
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if not statement.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


@contextmanager
def orm_loads() -> Iterator[list[str]]:
    """The ORM objects of a game, a seat, a user or a wait made from rows meanwhile, by class name."""
    loaded: list[str] = []

    def note(target: Any, _context: Any) -> None:
        loaded.append(type(target).__name__)

    for model in MODELS:
        event.listen(model, "load", note)
    try:
        yield loaded
    finally:
        for model in MODELS:
            event.remove(model, "load", note)


MODELS = (Game, Seat, User, WaitRow)


def three_seat_game(make_client: Any) -> tuple[int, dict[int, TestClient]]:
    """A running game of the fake game, three seats in its simultaneous first phase; clients by seat."""
    clients = [make_client() for _ in range(3)]
    for name, client in zip(("Alice", "Bruno", "Chloe"), clients, strict=True):
        sign_up(client, name)
    created = clients[0].post("/api/v1/games", json={"game_type": "fake", "players": 3})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game_id}/join").status_code == 200
    by_seat = {client.get(f"/api/v1/games/{game_id}").json()["your_seat"]: client for client in clients}
    return game_id, by_seat


def test_a_game_read_and_an_ordinary_order_stay_within_their_budgets(app: Any, make_client: Any) -> None:
    game_id, by_seat = three_seat_game(make_client)
    mover = by_seat[0]
    engine = app.state.engine
    with counted(engine) as read:
        detail = mover.get(f"/api/v1/games/{game_id}").json()
    assert [wait["seat"] for wait in detail["waits"]] == [0, 1, 2]
    body = {"order": {"type": "pick", "value": 2}, "expected_version": detail["game"]["version"]}
    with counted(engine) as order:
        response = mover.post(
            f"/api/v1/games/{game_id}/orders", json=body, headers={"Prefer": "return=representation"}
        )
    assert response.status_code == 200, response.text
    assert response.json()["version"] == detail["game"]["version"] + 1
    assert len(read) <= READ_BUDGET, "\n".join(read)
    assert len(order) <= ORDER_BUDGET, "\n".join(order)


def test_the_order_answer_is_the_movers_new_view(make_client: Any) -> None:
    game_id, by_seat = three_seat_game(make_client)
    mover = by_seat[0]
    version = mover.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    body = {"order": {"type": "pick", "value": 2}, "expected_version": version}
    plain = {"version": version + 1, "status": "active"}
    prefer = {"Prefer": "return=representation"}
    answer = mover.post(f"/api/v1/games/{game_id}/orders", json=body, headers=prefer).json()
    assert {key: answer[key] for key in plain} == plain
    fresh = mover.get(f"/api/v1/games/{game_id}").json()
    assert answer["game"] == fresh
    assert [wait["seat"] for wait in answer["game"]["waits"]] == [1, 2]


def test_the_hot_paths_load_no_orm_game_seat_or_user(make_client: Any) -> None:
    game_id, by_seat = three_seat_game(make_client)
    mover = by_seat[0]
    with orm_loads() as read:
        version = mover.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    body = {"order": {"type": "pick", "value": 2}, "expected_version": version}
    with orm_loads() as ordered:
        prefer = {"Prefer": "return=representation"}
        answer = mover.post(f"/api/v1/games/{game_id}/orders", json=body, headers=prefer)
    with orm_loads() as shown:
        page = by_seat[1].get(f"/games/{game_id}")
        fragment = by_seat[1].get(f"/games/{game_id}/fragment")
    assert answer.status_code == 200 and page.status_code == 200 and fragment.status_code == 200
    assert answer.json()["version"] == version + 1
    assert read == [] and shown == []
    assert set(ordered) == {"WaitRow"}  # the waits the order changes, and nothing else
