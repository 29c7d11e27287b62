"""Random full games per second for each registered game.

Plays `sample_order` for a random awaited seat until `waits()` is empty, from successive seeds, for a
fixed time per game and player count. Usage:

    python bench/rules_playouts.py [--seconds 5] [--game dragonstones]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from app.games import registry
from app.games.contract import GameRules

MAX_ORDERS = 100_000


def play_one(rules: GameRules[Any], players: int, seed: int) -> int:
    """Play one random game to its end; return the number of orders."""
    rng = random.Random(seed)
    state = rules.new_game(rules.Options(), players, seed)
    for orders in range(MAX_ORDERS):
        waits = rules.waits(state)
        if not waits:
            return orders
        seat = rng.choice(waits).seat
        state = rules.apply(state, seat, rules.sample_order(state, seat, rng)).state
    raise RuntimeError(f"{rules.id}: seed {seed} did not finish in {MAX_ORDERS} orders")


def bench(rules: GameRules[Any], seconds: float) -> None:
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
