"""The state codec (`model.dump` / `model.load`) gives exactly what its plain, item-by-item version gave,
so that every stored game loads as before and dumps back to the same document: the same values, the same
types (tuples in the state, lists in the dump) and the same key order, for the states of random games
(markets and calamities among them), for documents of older games, and for shapes the fast path does not
expect."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest

from app.games.advciv import RULES
from app.games.advciv.market import Market
from app.games.advciv.model import Nation, State, dump, load
from app.games.kit.model import from_json, to_json
from tests.games.advciv.helpers import begin, random_play
from tests.games.advciv.test_properties import rich_start


def plain_dump(state: State) -> dict[str, Any]:
    data = {f.name: _lists(getattr(state, f.name)) for f in fields(State)}
    data["players"] = [
        {f.name: _lists(getattr(p, f.name)) for f in fields(Nation)} | {"cards": sorted(p.cards)}
        for p in state.players
    ]
    data["in_play"] = [index for index, used in enumerate(state.in_play) if not used]
    data["market"] = to_json(state.market)
    return data


def plain_load(data: dict[str, Any]) -> State:
    values = {f.name: _tuples(data[f.name]) for f in fields(State) if f.name in data}
    values["market"] = from_json(Market | None, data.get("market"))
    values["players"] = tuple(
        Nation(
            **{name: _tuples(value) for name, value in player.items()} | {"cards": frozenset(player["cards"])}
        )
        for player in data["players"]
    )
    unused = set(data["in_play"])
    values["in_play"] = tuple(index not in unused for index in range(len(data["cities"])))
    return State(**values)


def _lists(value: Any) -> Any:
    return [_lists(item) for item in value] if isinstance(value, tuple) else value


def _tuples(value: Any) -> Any:
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def typed(value: Any) -> Any:
    """`value` with every container and scalar tagged by its type, so that == tells (1,) from [1] and
    True from 1."""
    if isinstance(value, dict):
        return ("dict", [(key, typed(item)) for key, item in value.items()])
    if isinstance(value, list | tuple | frozenset):
        items = sorted(value) if isinstance(value, frozenset) else value
        return (type(value).__name__, [typed(item) for item in items])
    if hasattr(value, "__dataclass_fields__"):
        return (type(value).__name__, [(f.name, typed(getattr(value, f.name))) for f in fields(value)])
    return (type(value).__name__, value)


def states(players: int, seed: int, rich: bool, orders: int = 250) -> Iterator[State]:
    rng = random.Random(seed)
    state = RULES.new_game(RULES.Options(), players, seed)
    if rich:  # cities, civ cards and calamities from the start: markets open, calamities strike
        while state.phase == "start":
            (wait,) = RULES.waits(state)
            state = RULES.apply(state, wait.seat, RULES.default_order(state, wait.seat)).state
        state = begin(rich_start(state, random.Random(seed)), "tax")
    yield state
    for step, (_seat, _order, outcome) in enumerate(random_play(state, rng, orders, embargo_over=0.05)):
        if step % 3 == 0:
            yield outcome.state


GAMES = [(players, seed, seed % 2 == 0) for players in (3, 5, 8) for seed in range(4)]


@pytest.mark.parametrize(("players", "seed", "rich"), GAMES)
def test_the_codec_is_the_plain_one_on_random_games(players: int, seed: int, rich: bool) -> None:
    for state in states(players, seed, rich):
        document = dump(state)
        assert typed(document) == typed(plain_dump(state))
        stored = json.loads(json.dumps(document))  # as the database gives it back
        loaded = load(stored)
        assert typed(loaded) == typed(plain_load(stored)) and loaded == state
        assert typed(dump(loaded)) == typed(stored)


def test_an_older_document_loads_as_before() -> None:
    """A game stored before some fields existed (defaults) and before trade cards (no deck: the rules'
    decoder deals it), beside one whose fields hold shapes the fast path does not expect."""
    state = next(states(5, 1, rich=True))
    stored = json.loads(json.dumps(plain_dump(state)))
    for name in ("deck", "hands", "discard", "options", "grain_shown", "mining_used", "trade_mail"):
        del stored[name]
    assert typed(load(stored)) == typed(plain_load(stored))
    assert RULES.decode(stored) == RULES.decode(json.loads(json.dumps(stored)))
    odd = json.loads(json.dumps(plain_dump(state))) | {"conflicts": [1, [2, [3, True]], None, 2.5, "x"]}
    odd["players"][0]["ships"] = [[4], 5]
    assert typed(load(odd)) == typed(plain_load(odd))
    assert typed(dump(load(odd))) == typed(odd)
