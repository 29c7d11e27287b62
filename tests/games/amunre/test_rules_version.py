"""Games begun before a rules change replay on the rules they began on (`State.rules_version`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from app.games.amunre import RULES
from app.games.amunre.model import RULES_VERSION, State
from app.games.contract import RuleError
from app.models import Game
from app.services.play import play
from tests.conftest import sign_up

# A 5-player game played to its end, in random play, on the rules before `rules_version` 1: its stored
# options (none), seed, first state, orders, a state midway and the final state, as the database held them.
OLD_GAME = json.loads((Path(__file__).parent / "data" / "old_game.json").read_text())


def stored(options: dict[str, Any]) -> Any:
    """The options as a replay reads them back from the database."""
    return RULES.Options.model_validate(options)


def replay(state: State, orders: list[dict[str, Any]]) -> State:
    for step in orders:
        state = RULES.apply(state, step["seat"], step["order"]).state
    return state


def test_a_game_stored_before_the_rules_version_replays_equal() -> None:
    first = RULES.new_game(stored(OLD_GAME["options"]), OLD_GAME["players"], OLD_GAME["seed"])
    assert first.rules_version == 0 and RULES.dump(first) == OLD_GAME["start"]
    assert RULES.dump(replay(first, OLD_GAME["orders"])) == OLD_GAME["final"]


def test_an_old_dump_goes_on_as_it_would_have() -> None:
    midway = OLD_GAME["midway"]
    state = RULES.load(midway["state"])
    assert state.rules_version == 0
    assert RULES.dump(replay(state, OLD_GAME["orders"][midway["after"] :])) == OLD_GAME["final"]


def test_the_same_orders_do_not_replay_on_the_new_rules() -> None:
    """The old game's orders part from the new rules: the rules version is what keeps it replaying."""
    new = RULES.new_game(stored({"rules_version": RULES_VERSION}), OLD_GAME["players"], OLD_GAME["seed"])
    assert new.rules_version == RULES_VERSION and "rules_version" in RULES.dump(new)
    try:
        final = RULES.dump(replay(new, OLD_GAME["orders"]))
    except RuleError:
        final = None  # an order the new rules do not wait for
    assert final != OLD_GAME["final"]


def test_the_lobby_stores_the_rules_version_and_a_replay_matches(make_client: Any, db: Session) -> None:
    players = [make_client() for _ in range(3)]
    for name, client in zip(("Alice", "Bob", "Carol"), players, strict=True):
        sign_up(client, name)
    game_id = players[0].post("/api/v1/games", json={"game_type": "amunre", "players": 3}).json()["id"]
    for client in players[1:]:
        client.post(f"/api/v1/games/{game_id}/join")
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    assert game.options["rules_version"] == RULES_VERSION and game.state["rules_version"] == RULES_VERSION
    assert play.replay(db, game_id, None)["matches_stored_state"]

    # a game stored before the rules version: its options, seed and first state as they were then
    game.players = OLD_GAME["players"]
    game.options, game.seed, game.state = dict(OLD_GAME["options"]), OLD_GAME["seed"], OLD_GAME["start"]
    db.commit()
    assert play.replay(db, game_id, None)["matches_stored_state"]
