"""Dragonstones through the whole platform: random games played to the end, every page rendered for every
seat and for a spectator, and proof that no response to one seat depends on another seat's secrets."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games import registry
from app.models import Game
from app.services.play import play
from tests.conftest import NOW, sign_up

RULES = registry.get("dragonstones")
CSRF = re.compile(r'(name="csrf_token" value="|"X-CSRF-Token": ")[^"]+')


def start_game(make_client: Any, players: int) -> tuple[int, dict[int, TestClient], TestClient]:
    clients = [make_client() for _ in range(players)]
    for index, client in enumerate(clients):
        sign_up(client, f"Player{index}")
    game = clients[0].post("/api/v1/games", json={"game_type": "dragonstones", "players": players}).json()
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game['id']}/join").status_code == 200
    by_seat = {client.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: client for client in clients}
    return game["id"], by_seat, make_client()


def responses(client: TestClient, game_id: int) -> tuple[Any, ...]:
    """Everything one visitor can read about the game, with the per-session CSRF token blanked."""
    page = CSRF.sub(r"\1", client.get(f"/games/{game_id}").text)
    fragment = CSRF.sub(r"\1", client.get(f"/games/{game_id}/fragment").text)
    detail = client.get(f"/api/v1/games/{game_id}").json()
    log = client.get(f"/api/v1/games/{game_id}/log").json()
    return page, fragment, detail, log


def hide_differently(state: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """The same game as far as `viewer` may know: others' coins and unrevealed bids, and every hidden order,
    changed."""
    other = copy.deepcopy(state)
    for seat, player in enumerate(other["players"]):
        if seat != viewer:
            player["screen"]["silver"] += 2
    auction = other["auction"]
    if not auction["revealed"]:
        for seat, bid in enumerate(auction["bids"]):
            if bid is not None and seat != viewer:
                bid["fairy"] += 1
    rng.shuffle(other["pile"])
    rng.shuffle(other["deck"])
    other["rng"] = rng.getrandbits(63)
    return other


def play_one(db: Session, game_id: int, rng: random.Random) -> bool:
    game = db.get(Game, game_id)
    assert game is not None
    db.refresh(game)
    if game.status != "active":
        db.rollback()  # end the read: on SQLite an open transaction holds the write lock
        return False
    assert game.state is not None
    state = RULES.load(game.state)
    seat = rng.choice([wait.seat for wait in RULES.waits(state)])
    holder = next(s for s in game.seats if s.number == seat)
    from app.models import User

    user = db.get(User, holder.user_id)
    assert user is not None
    order = RULES.sample_order(state, seat, rng)
    play.submit(db, user, game_id, order, game.version, NOW)
    return True


@pytest.mark.parametrize("players", [3, 5])
def test_random_games_render_for_everyone_and_leak_nothing(
    make_client: Any, db: Session, players: int
) -> None:
    rng = random.Random(players)
    game_id, by_seat, spectator = start_game(make_client, players)
    viewers: list[tuple[int | None, TestClient]] = [*by_seat.items(), (None, spectator)]
    steps = 0
    while play_one(db, game_id, rng):
        steps += 1
        if steps % 7:
            continue
        seat, client = rng.choice(viewers)
        before = responses(client, game_id)
        assert "Traceback" not in before[0]
        game = db.get(Game, game_id)
        assert game is not None
        original = game.state
        assert original is not None
        game.state = hide_differently(original, seat, rng)
        db.commit()
        after = responses(client, game_id)
        game.state = original
        db.commit()
        assert after == before, f"seat {seat} sees something of another seat's secrets at step {steps}"
        db.rollback()
    detail = by_seat[0].get(f"/api/v1/games/{game_id}").json()
    assert detail["game"]["status"] == "finished"
    assert detail["standings"][0]["place"] == 1
    assert by_seat[0].get(f"/api/v1/games/{game_id}/replay").json()["matches_stored_state"] is True
    for client in by_seat.values():
        page = client.get(f"/games/{game_id}").text
        assert "Game over" in page


def test_a_bid_through_the_html_form(make_client: Any) -> None:
    game_id, by_seat, spectator = start_game(make_client, 3)
    page = by_seat[0].get(f"/games/{game_id}").text
    assert 'id="bid-form"' in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    form = {"csrf_token": token.group(1), "expected_version": "1", "type": "bid", "fairy": "2", "gold": ""}
    response = by_seat[0].post(f"/games/{game_id}/orders", data=form, follow_redirects=False)
    assert response.status_code == 303
    mine = by_seat[0].get(f"/api/v1/games/{game_id}").json()["view"]["me"]["bid"]
    assert mine == {"fairy": 2, "gold": 0, "cursed": False, "amulet": False}
    theirs = by_seat[1].get(f"/api/v1/games/{game_id}").json()
    assert theirs["view"]["players"][0]["has_bid"] is True
    assert "fairy" not in str(spectator.get(f"/api/v1/games/{game_id}").json()["view"]["me"])
    too_much = {**form, "expected_version": "1", "fairy": "99"}
    refused = by_seat[1].post(
        f"/games/{game_id}/orders", data={**too_much, "csrf_token": _token(by_seat[1], game_id)}
    )
    assert refused.status_code == 422
    assert "Traceback" not in refused.text


def _token(client: TestClient, game_id: int) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(f"/games/{game_id}").text)
    assert match is not None
    return match.group(1)
