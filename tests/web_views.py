"""What the tests of a game's pages share: a game with every seat taken through the API, and everything one
visitor can read of it (page, live fragment, API view, log), for the leak tests that compare the two."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from starlette.testclient import TestClient

from app.web.deps import get_now
from tests.conftest import sign_up

CSRF = re.compile(r'(name="csrf_token" value="|"X-CSRF-Token": ")[^"]+')


def seated_game(
    make_client: Any, game_type: str, players: int, name: str = "Player"
) -> tuple[int, dict[int, TestClient], TestClient]:
    """A game of `game_type` created and joined by `players` new accounts; their clients by seat, and one
    more client for a spectator. The app's clock stops at the start, so that a page read twice in a row
    says the same "in 3 hr" even when a minute turns between the two reads."""
    clients = [make_client() for _ in range(players)]
    stop_clock(clients[0], datetime.now(UTC))
    for index, client in enumerate(clients):
        sign_up(client, f"{name}{index}")
    game = clients[0].post("/api/v1/games", json={"game_type": game_type, "players": players}).json()
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game['id']}/join").status_code == 200
    by_seat = {client.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: client for client in clients}
    return game["id"], by_seat, make_client()


def stop_clock(client: Any, at: datetime) -> None:
    """The app's clock (every client of it) reads `at` from now on."""
    client.app.dependency_overrides[get_now] = lambda: at


def responses(client: TestClient, game_id: int) -> tuple[Any, ...]:
    """Everything one visitor can read about the game, with the per-session CSRF token blanked."""
    page = CSRF.sub(r"\1", client.get(f"/games/{game_id}").text)
    fragment = CSRF.sub(r"\1", client.get(f"/games/{game_id}/fragment").text)
    detail = client.get(f"/api/v1/games/{game_id}").json()
    log = client.get(f"/api/v1/games/{game_id}/log").json()
    return page, fragment, detail, log
