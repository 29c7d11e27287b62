"""Every registered game honours the rules contract of app.games.contract."""

from __future__ import annotations

import json
import random
from typing import Any, Protocol, runtime_checkable

import pytest
from pydantic import BaseModel, TypeAdapter

from app.games import registry
from app.games.contract import GameRules, RuleError, created_options

GAMES = registry.all_games()
STEPS = 120


@runtime_checkable
class Progressing(Protocol):
    """The rules' optional hook read by app.services.play.absence: (current turn, expected length in
    turns)."""

    def progress(self, state: Any) -> tuple[int, int]: ...


def _play(rules: GameRules[Any], players: int, seed: int, steps: int) -> tuple[Any, list[tuple[int, Any]]]:
    rng = random.Random(seed)
    state = rules.new_game(created_options(rules), players, seed)
    log = []
    for _ in range(steps):
        waits = rules.waits(state)
        if not waits:
            break
        seat = rng.choice(waits).seat
        order = rules.sample_order(state, seat, rng)
        state = rules.apply(state, seat, order).state
        log.append((seat, order))
    return state, log


@pytest.fixture(params=GAMES, ids=lambda rules: rules.id)
def rules(request: pytest.FixtureRequest) -> GameRules[Any]:
    game: GameRules[Any] = request.param
    return game


def test_there_is_at_least_one_game() -> None:
    assert GAMES and all(registry.known(rules.id) and registry.get(rules.id) is rules for rules in GAMES)


def test_attributes(rules: GameRules[Any]) -> None:
    assert rules.id and rules.title
    assert 1 <= rules.min_players <= rules.max_players
    assert issubclass(rules.Options, BaseModel)
    rules.Options()  # every option has a default
    schema = TypeAdapter(rules.Order).json_schema()
    json.dumps(schema)


@pytest.mark.parametrize("players", ["min", "max"])
def test_new_game_round_trips_and_waits(rules: GameRules[Any], players: str) -> None:
    count = rules.min_players if players == "min" else rules.max_players
    state = rules.new_game(created_options(rules), count, seed=42)
    data = json.loads(json.dumps(rules.dump(state)))
    assert rules.load(data) == state
    assert rules.waits(state)
    assert rules.standings(state) is None
    for seat in [*range(count), None]:
        json.dumps(rules.view(state, seat))


def test_default_orders_are_legal_for_every_wait(rules: GameRules[Any]) -> None:
    state, _ = _play(rules, rules.min_players, seed=3, steps=STEPS // 2)
    for _ in range(STEPS):
        waits = rules.waits(state)
        if not waits:
            break
        for wait in waits:
            rules.apply(state, wait.seat, rules.default_order(state, wait.seat))
        state = rules.apply(state, waits[0].seat, rules.default_order(state, waits[0].seat)).state


def test_replay_is_deterministic(rules: GameRules[Any]) -> None:
    players = rules.max_players
    state, log = _play(rules, players, seed=11, steps=STEPS)
    replayed = rules.new_game(created_options(rules), players, 11)
    for seat, order in log:
        replayed = rules.apply(replayed, seat, order).state
    assert rules.dump(replayed) == rules.dump(state)
    assert _play(rules, players, seed=11, steps=STEPS)[0] == state


def test_apply_leaves_its_input_alone_and_refuses_nonsense(rules: GameRules[Any]) -> None:
    state = rules.new_game(created_options(rules), rules.min_players, seed=5)
    before = rules.dump(state)
    seat = rules.waits(state)[0].seat
    rules.apply(state, seat, rules.sample_order(state, seat, random.Random(1)))
    with pytest.raises(RuleError) as caught:
        rules.apply(state, seat, {"type": "no such order"})
    assert caught.value.code and caught.value.message
    assert rules.dump(state) == before


@pytest.mark.parametrize("game_id", ["amunre", "dragonstones", "tigris"])
def test_progress_grows_from_the_first_third_to_the_end(game_id: str) -> None:
    rules = registry.get(game_id)
    assert isinstance(rules, Progressing)
    rng = random.Random(7)
    state = rules.new_game(created_options(rules), rules.min_players, 11)
    first = rules.progress(state)
    assert 1 <= first[0] <= first[1] and first[0] * 3 <= first[1]
    for _ in range(5000):
        waits = rules.waits(state)
        if not waits:
            break
        seat = rng.choice(waits).seat
        state = rules.apply(state, seat, rules.sample_order(state, seat, rng)).state
        turn, length = rules.progress(state)
        assert 1 <= turn <= length
    assert rules.progress(state)[0] * 3 > rules.progress(state)[1] * 2


def _summaries(game_id: str, options: BaseModel | None = None) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(summary, the spectator's view of that seat) for every seat of a few games played part way."""
    rules: Any = registry.get(game_id)
    found = []
    for seed in range(4):
        rng = random.Random(seed)
        state = rules.new_game(options or rules.Options(), rules.min_players + seed % 2, seed)
        for _ in range(40 + 20 * seed):
            waits = rules.waits(state)
            if not waits:
                break
            seat = rng.choice(waits).seat
            state = rules.apply(state, seat, rules.sample_order(state, seat, rng)).state
        public = rules.view(state, None)["players"]
        found += [(rules.seat_summary(state, seat), public[seat]) for seat in range(len(public))]
    return found


def test_a_dragonstones_seat_summary_is_its_public_standing() -> None:
    target = registry.get("dragonstones").Options().model_dump()["points_to_win"]
    for summary, public in _summaries("dragonstones"):
        assert summary == {
            "Points": f"{public['points']} / {target}",
            "Stones": sum(public["stones"].values()),
            "Fairy gold in front of the screen": public["front_fairy"],
        }


def test_a_tigris_seat_summary_shows_points_only_under_open_scoring() -> None:
    for summary, public in _summaries("tigris"):
        assert summary == {
            "Leaders on the board": sum(1 for square in public["leaders"].values() if square is not None),
            "Catastrophe tiles left": public["catastrophes"],
        }
    open_scoring = registry.get("tigris").Options(open_scoring=True)
    for summary, public in _summaries("tigris", open_scoring):
        assert summary["Lowest colour score"] == min(public["points"].values())
        assert summary["Treasures"] == public["treasures"]


def test_an_amunre_seat_summary_is_its_public_standing() -> None:
    for summary, public in _summaries("amunre"):
        assert summary["Points"] == public["points"]
        assert summary["Cards in hand"] == public["cards_in_hand"]
        assert summary["Pyramids"] >= 0
