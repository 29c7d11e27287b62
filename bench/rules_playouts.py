"""Random full games per second for each registered game.

Plays `sample_order` for a random awaited seat until `waits()` is empty, from successive seeds, for a
fixed time per game and player count. A long game (Advanced Civilization, which random play rarely takes
to the A.S.T.'s finish) is measured in turns per second instead: games played to the end of an agreed
last turn (`TURNS`, the game's option) at the player counts of `BY_TURNS`. Usage:

    python bench/rules_playouts.py [--seconds 5] [--game dragonstones]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from app.games import registry
from app.games.contract import GameRules, created_options

MAX_ORDERS = 100_000
TURNS = 10
BY_TURNS = {"advciv": (3, 5, 8)}  # game id -> player counts, measured in turns per second
LAST_TURN = {"advciv": {"last_turn": TURNS}}  # the options that end such a game after `TURNS` turns


def play_one(rules: GameRules[Any], players: int, seed: int) -> int:
    """Play one random game to its end; return the number of orders."""
    rng = random.Random(seed)
    state = rules.new_game(created_options(rules), players, seed)
    for orders in range(MAX_ORDERS):
        waits = rules.waits(state)
        if not waits:
            return orders
        seat = rng.choice(waits).seat
        state = rules.apply(state, seat, rules.sample_order(state, seat, rng)).state
    raise RuntimeError(f"{rules.id}: seed {seed} did not finish in {MAX_ORDERS} orders")


def play_turns(rules: GameRules[Any], players: int, seed: int) -> tuple[int, int]:
    """Play one random game to its end (at the latest after `TURNS` turns); return (turns, orders)."""
    rng = random.Random(seed)
    state = rules.new_game(rules.Options(**LAST_TURN.get(rules.id, {})), players, seed)
    for orders in range(MAX_ORDERS):
        waits = rules.waits(state)
        if not waits:
            if rules.standings(state) is None:
                raise RuntimeError(f"{rules.id}: seed {seed} waits on nobody and is not over")
            return state.turn, orders
        seat = rng.choice(waits).seat
        state = rules.apply(state, seat, rules.sample_order(state, seat, rng)).state
    raise RuntimeError(f"{rules.id}: seed {seed} did not finish in {MAX_ORDERS} orders")


def bench_turns(rules: GameRules[Any], seconds: float, counts: tuple[int, ...]) -> None:
    budget = seconds / len(counts)
    for players in counts:
        games = turns = orders = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget or games == 0:
            played, count = play_turns(rules, players, seed=games)
            turns, orders, games = turns + played, orders + count, games + 1
        elapsed = time.perf_counter() - start
        print(
            f"{rules.id:16} {players} players: {turns / elapsed:8.1f} turns/s  "
            f"{orders / elapsed:9.0f} orders/s  {orders / turns:7.1f} orders/turn"
        )


def bench(rules: GameRules[Any], seconds: float) -> None:
    if rules.id in BY_TURNS:
        bench_turns(rules, seconds, BY_TURNS[rules.id])
        return
    counts = range(rules.min_players, rules.max_players + 1)
    budget = seconds / len(counts)
    for players in counts:
        games = orders = 0
        start = time.perf_counter()
        while time.perf_counter() - start < budget or games == 0:
            orders += play_one(rules, players, seed=games)
            games += 1
        elapsed = time.perf_counter() - start
        print(
            f"{rules.id:16} {players} players: {games / elapsed:8.2f} games/s  "
            f"{orders / elapsed:9.0f} orders/s  {orders / games:7.1f} orders/game"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per game (split over player counts)")
    parser.add_argument("--game", help="a game id; all registered games if omitted")
    args = parser.parse_args()
    games = [registry.get(args.game)] if args.game else registry.all_games()
    for rules in games:
        bench(rules, args.seconds)


if __name__ == "__main__":
    main()
