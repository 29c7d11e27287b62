"""Tigris & Euphrates on the shared generator: games begun before it replay on the one they began on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from app.games.kit import rng
from app.games.tigris import RULES, TigrisOptions
from app.games.tigris.model import State
from app.games.tigris.tx import Tx
from app.models import Game
from app.services.play import play
from tests.conftest import sign_up

OLD_GAME = json.loads((Path(__file__).parent / "data" / "old_game.json").read_text())


def stored(options: dict[str, Any]) -> TigrisOptions:
    """The options as a replay reads them back from the database."""
    return TigrisOptions.model_validate(options)


def replay(state: State, orders: list[dict[str, Any]]) -> State:
    for step in orders:
        state = RULES.apply(state, step["seat"], step["order"]).state
    return state


def test_a_game_stored_before_the_shared_generator_replays_equal() -> None:
    first = RULES.new_game(stored(OLD_GAME["options"]), OLD_GAME["players"], OLD_GAME["seed"])
    assert first.rng_version == 0 and RULES.dump(first) == OLD_GAME["start"]
    assert RULES.dump(replay(first, OLD_GAME["orders"])) == OLD_GAME["final"]


def test_an_old_dump_goes_on_as_it_would_have() -> None:
    midway = OLD_GAME["midway"]
    state = RULES.load(midway["state"])
    assert state.rng_version == 0
    assert RULES.dump(replay(state, OLD_GAME["orders"][midway["after"] :])) == OLD_GAME["final"]


def test_a_new_game_draws_from_the_shared_generator() -> None:
    options = TigrisOptions(open_scoring=True).model_dump(mode="json")  # what the lobby stores
    new = RULES.new_game(stored(options), 3, seed=99)
    old = RULES.new_game(stored(OLD_GAME["options"] | {"open_scoring": True}), 3, seed=99)
    assert new.rng_version == 1 and old.rng_version == 0
    assert [player.hand for player in new.players] != [player.hand for player in old.players]
    assert RULES.load(RULES.dump(new)) == new

    word, value = rng.below(new.rng, 1000)
    tx = Tx(new)
    assert tx.randbelow(1000) == value and tx.state.rng == word


def test_the_lobby_stores_the_generator_and_a_replay_matches(make_client: Any, db: Session) -> None:
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    game_id = alice.post("/api/v1/games", json={"game_type": "tigris", "players": 2}).json()["id"]
    bob.post(f"/api/v1/games/{game_id}/join")
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    assert game.options["rng_version"] == 1 and game.state["rng_version"] == 1
    assert play.replay(db, game_id, None)["matches_stored_state"]

    # a game stored before the shared generator: its options, seed and first state as they were then
    game.options, game.seed, game.state = dict(OLD_GAME["options"]), OLD_GAME["seed"], OLD_GAME["start"]
    db.commit()
    assert play.replay(db, game_id, None)["matches_stored_state"]
