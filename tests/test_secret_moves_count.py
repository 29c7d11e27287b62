"""A player's public count of moves in time (`moves_in_time` of a profile) says nothing of secret moves: a
seat entering, taking back and entering again its sealed moves is counted once, when it is done."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from tests.games.advciv.helpers import begin, blank, units
from tests.test_advciv_web import put_state, start_game

AFRICA, CRETE, THRACE = 0, 1, 2
MOVE = {"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2}


def _moves_in_time(client: TestClient, user_id: int) -> int:
    count: int = client.get(f"/api/v1/users/{user_id}").json()["moves_in_time"]
    return count


def _order(client: TestClient, game_id: int, order: dict[str, Any]) -> None:
    version = client.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    sent = client.post(f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version})
    assert sent.status_code == 200, sent.text


def test_secret_moves_are_counted_once_when_the_seat_is_done(make_client: Any, db: Session) -> None:
    game_id, by_seat, spectator = start_game(make_client, 3)
    state = blank()
    state = units(state, AFRICA, {"tunisia": 3, "sahara": 1})
    state = units(state, CRETE, {"knossos": 2})
    state = units(state, THRACE, {"scythia": 5})
    put_state(db, game_id, begin(state, "move"))
    africa = by_seat[AFRICA]
    user_id = africa.get("/api/v1/me").json()["id"]
    before = _moves_in_time(spectator, user_id)
    for order in (MOVE, {"type": "undo"}, MOVE):
        _order(africa, game_id, order)
        assert _moves_in_time(spectator, user_id) == before  # what the others may read
    _order(africa, game_id, {"type": "done"})
    assert _moves_in_time(spectator, user_id) == before + 1
