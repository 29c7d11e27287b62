"""Amun-Re through the whole platform: random games, with sales at any time from any seat, every page
rendered for every seat and for a spectator, and proof that no response to one viewer depends on what the
others hold (gold cards, power cards, sealed offerings), the face-down free cards or the deck's order."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games import registry
from app.models import Game, User
from app.services.play import play
from tests.conftest import NOW
from tests.games.amunre.helpers import blur_others
from tests.web_views import responses, seated_game

RULES = registry.get("amunre")
SALE_CHANCE = 0.15


def _play_one(db: Session, game_id: int, rng: random.Random) -> bool:
    """One order: now and then a sale by any seat holding a card, else a random awaited seat's order."""
    game = db.get(Game, game_id)
    assert game is not None
    db.refresh(game)
    if game.status != "active":
        db.rollback()  # end the read: on SQLite an open transaction holds the write lock
        return False
    state = RULES.load(game.state or {})
    holders = [seat for seat, player in enumerate(state.players) if player.powers]
    if holders and rng.random() < SALE_CHANCE:
        seat = rng.choice(holders)
        order: Any = {"type": "sell", "card": rng.choice(state.players[seat].powers)}
    else:
        seat = rng.choice([wait.seat for wait in RULES.waits(state)])
        order = RULES.sample_order(state, seat, rng)
    holder = next(s for s in game.seats if s.number == seat)
    user = db.get(User, holder.user_id)
    assert user is not None
    play.submit(db, user, game_id, order, game.version, NOW)
    return True


@pytest.mark.parametrize("players", [3, 5])
def test_random_games_render_for_everyone_and_leak_nothing(
    make_client: Any, db: Session, players: int
) -> None:
    rng = random.Random(players)
    game_id, by_seat, spectator = seated_game(make_client, "amunre", players, name="Scribe")
    viewers: list[tuple[int | None, TestClient]] = [*by_seat.items(), (None, spectator)]
    steps = blurred = 0
    while _play_one(db, game_id, rng):
        steps += 1
        if steps % 11:
            continue
        seat, client = rng.choice(viewers)
        before = responses(client, game_id)
        assert "Traceback" not in before[0] and 'class="ar-nile"' in before[0]
        game = db.get(Game, game_id)
        assert game is not None and game.state is not None
        original = game.state
        game.state = RULES.dump(blur_others(RULES.load(original), seat))
        blurred += game.state != original  # the check is not vacuous: some secret did change
        db.commit()
        after = responses(client, game_id)
        game.state = original
        db.commit()
        assert after == before, f"seat {seat} sees something of another seat's secrets at step {steps}"
        db.rollback()
    assert blurred > 5
    detail = by_seat[0].get(f"/api/v1/games/{game_id}").json()
    assert detail["game"]["status"] == "finished" and detail["standings"][0]["place"] == 1
    assert by_seat[0].get(f"/api/v1/games/{game_id}/replay").json()["matches_stored_state"] is True
    assert "Scoring of the New Kingdom" in by_seat[0].get(f"/games/{game_id}").text
