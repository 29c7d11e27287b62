"""The replay corpus: stored games of every game type (tests/fixtures/replays/, made by
bench/make_replay_corpus.py) still replay, order by order, to their stored final state under the current
rules. A change of the rules that fails here changes what an old game's log gives: it must come with a
rules version for the game type that keeps old games on the old behaviour."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.games import registry
from app.services.play.play import as_json

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "replays"
GAME_TYPES = ("advciv", "amunre", "dragonstones", "tigris")
FILES = sorted(CORPUS.glob("*/*.json"))
ADVICE = (
    "{name}: this stored {game_type} game no longer replays to its stored state under the current rules "
    "({why}). Games stored before this change would be shown differently: give the game type a rules "
    "version (an option the server sets at creation, as Tigris & Euphrates does with `rng_version`) so "
    "that old games keep the old behaviour, then add a corpus game of the new version "
    "(bench/make_replay_corpus.py). Do not just regenerate the corpus."
)


def test_every_game_type_has_stored_games() -> None:
    for game_type in GAME_TYPES:
        assert len(list((CORPUS / game_type).glob("*.json"))) >= 2, game_type


def replay_problem(game: dict[str, Any]) -> str | None:
    """Why the stored game no longer replays to its stored state under the current rules (None: it does)."""
    rules = registry.get(game["game_type"])
    state = rules.new_game(rules.Options.model_validate(game["options"]), game["players"], game["seed"])
    for step, played in enumerate(game["orders"], start=1):
        try:
            state = rules.apply(state, played["seat"], played["order"]).state
        except Exception as error:  # any error: the log no longer replays
            return f"step {step} of {len(game['orders'])} is refused: {error!r}"
    if as_json(rules.dump(state)) != game["state"]:
        return f"the state after its {len(game['orders'])} orders differs"
    return None


@pytest.mark.parametrize("path", FILES, ids=[f"{path.parent.name}/{path.stem}" for path in FILES])
def test_a_stored_game_replays_to_its_stored_state(path: Path) -> None:
    game: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    why = replay_problem(game)
    if why is not None:
        pytest.fail(ADVICE.format(name=path.name, game_type=game["game_type"], why=why))


@pytest.mark.parametrize("game_type", GAME_TYPES)
def test_a_rules_change_that_alters_a_stored_game_is_caught(game_type: str) -> None:
    """The check is not blind: a game dealt otherwise (another seed, as a changed generator would deal it)
    or played on other rules (its stored result changed) no longer replays to its stored state."""
    path = sorted((CORPUS / game_type).glob("*.json"))[0]
    game: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert game["source"] == "bot" and len(game["orders"]) >= 100, "a corpus of whole bot games"
    assert replay_problem(game) is None
    assert replay_problem({**game, "seed": game["seed"] + 1}) is not None
    altered = json.loads(json.dumps(game["state"]))
    altered["__altered__"] = True
    assert replay_problem({**game, "state": altered}) is not None
