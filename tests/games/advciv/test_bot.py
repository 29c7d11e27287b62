"""The heuristic player (`bot.py`): whole games of bots, with no agreed last turn, reach the A.S.T.'s finish
at 3, 5 and 8 players, every order legal and the replay equal to the stored state; it decides only from
what its seat may know; and at a table of bot, random and default seats the game's invariants hold. A fixed
budget: one game per player count (the longer runs are in `bench/advciv_bot_games.py`)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from app.games.advciv import RULES
from app.games.advciv.model import State, conserved
from app.games.advciv.scoring import FINISHED
from app.games.advciv.tables import FINISH
from app.games.contract import Outcome, RuleError
from app.games.kit.model import evolve
from tests.games.advciv.test_full_games import market_blurred
from tests.games.advciv.test_properties import AFTER_SURPLUS, limits_hold

MAX_ORDERS = 30_000
Policy = Callable[[State, int, random.Random], Mapping[str, Any]]


def bot_play(
    state: State, rng: random.Random, policies: list[Policy], limit: int = MAX_ORDERS
) -> Iterator[tuple[int, dict[str, Any], Outcome[State]]]:
    """Orders of a random awaited seat, by its seat's policy, until nobody is awaited (or `limit`)."""
    for _ in range(limit):
        waits = RULES.waits(state)
        if not waits:
            return
        seat = rng.choice(waits).seat
        order = json.loads(json.dumps(policies[seat](state, seat, rng)))
        outcome = RULES.apply(state, seat, order)
        yield seat, order, outcome
        state = outcome.state


def _default(state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
    return RULES.default_order(state, seat)


# (players, seed): seeded games that the bots take to the finish within the budget
WHOLE_GAMES = [(3, 1), (5, 1), (8, 2)]


@pytest.mark.parametrize(("players", "seed"), WHOLE_GAMES)
def test_bot_games_reach_the_finish(players: int, seed: int) -> None:
    first = RULES.new_game(RULES.Options(), players, seed)
    state = first
    log: list[tuple[int, dict[str, Any]]] = []
    kinds: set[str] = set()
    for seat, order, outcome in bot_play(first, random.Random(seed), [RULES.bot_order] * players):
        log.append((seat, order))
        kinds.update(event.kind for event in outcome.events)
        state = outcome.state
    assert state.phase == "over" and state.end == FINISHED
    assert max(nation.ast for nation in state.players) == FINISH
    standings = RULES.standings(state)
    assert standings is not None and sorted(s.seat for s in standings) == list(range(players))
    assert {"cities_built", "advances_bought", "trade_announced", "calamity_resolved"} <= kinds
    replayed = first
    for seat, order in log:
        replayed = RULES.apply(replayed, seat, order).state
    assert RULES.dump(replayed) == RULES.dump(state)


def blurred(state: State, seat: int, rng: random.Random) -> State:
    """What `seat` cannot see changed: the other hands and the stacks (`market_blurred`, the real cards
    of the others' offers included), the other seats' moves not yet finalised and the game's generator.
    While calamities resolve the hands stay: they hold no calamity then."""
    changed = market_blurred(state, seat, rng)
    if state.phase == "calamity":  # the Grain shown against Famine is public, and the answers replay on it
        changed = evolve(changed, hands=state.hands)
    moves = tuple(moves if other == seat else () for other, moves in enumerate(state.moves))
    return evolve(changed, moves=moves, rng=state.rng ^ 0x5DEECE66D)


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (6, 4)])
def test_the_bot_decides_from_what_its_seat_may_know(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state = RULES.new_game(RULES.Options(), players, seed)
    checked: set[str] = set()
    for step, (_, _, outcome) in enumerate(bot_play(state, rng, [RULES.bot_order] * players, 1_500)):
        state = outcome.state
        if step % 3:
            continue
        for wait in RULES.waits(state):
            salt = rng.randrange(1 << 30)
            mine = RULES.bot_order(state, wait.seat, random.Random(salt))
            other = blurred(state, wait.seat, random.Random(salt))
            assert RULES.bot_order(other, wait.seat, random.Random(salt)) == mine, (state.phase, wait.seat)
            checked.add(state.phase)
    assert {"move", "trade", "calamity", "advances", "build"} <= checked


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (6, 6), (8, 7)])
def test_mixed_tables_keep_the_invariants(players: int, seed: int) -> None:
    """Bot, random and default seats at one table: after every order every count is conserved, the
    population limits hold once surplus is removed, every awaited seat's default is legal and the dump
    loads back; the replay gives the same state."""
    policies: list[Policy] = [
        (RULES.bot_order, RULES.sample_order, _default)[seat % 3] for seat in range(players)
    ]
    first = RULES.new_game(RULES.Options(), players, seed)
    state = first
    log: list[tuple[int, dict[str, Any]]] = []
    for step, (seat, order, outcome) in enumerate(bot_play(first, random.Random(seed), policies, 1_500)):
        log.append((seat, order))
        state = outcome.state
        assert conserved(state)
        assert state.phase not in AFTER_SURPLUS or limits_hold(state)
        for wait in RULES.waits(state):
            RULES.apply(state, wait.seat, RULES.default_order(state, wait.seat))
        if step % 5 == 0:
            assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state
    assert state.turn > 5
    replayed = first
    for seat, order in log:
        replayed = RULES.apply(replayed, seat, order).state
    assert RULES.dump(replayed) == RULES.dump(state)


def test_the_bot_answers_only_an_awaited_seat() -> None:
    state = RULES.new_game(RULES.Options(), 3, 0)
    (wait,) = RULES.waits(state)
    idle = next(seat for seat in range(3) if seat != wait.seat)
    with pytest.raises(RuleError):
        RULES.bot_order(state, idle, random.Random(0))
