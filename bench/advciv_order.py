"""The cost of one Advanced Civilization order as the server pays it: load the stored JSON, apply one
order, dump the new state back to JSON, on a mid-game 8-player state (random play to turn 6, then to a
movement phase). Usage:

    python bench/advciv_order.py [--repeat 2000]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from app.games.advciv import RULES
from app.games.advciv.model import State

PLAYERS = 8


def mid_game(seed: int = 4, turn: int = 6) -> State:
    rng = random.Random(seed)
    state = RULES.new_game(RULES.Options(), PLAYERS, seed)
    while state.turn < turn or state.phase != "move" or not state.moves or not RULES.waits(state):
        seat = rng.choice(RULES.waits(state)).seat
        state = RULES.apply(state, seat, RULES.sample_order(state, seat, rng)).state
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    state = mid_game()
    stored = json.dumps(RULES.dump(state))
    seat = RULES.waits(state)[0].seat
    orders = [RULES.sample_order(state, seat, random.Random(n)) for n in range(50)]
    timings = []
    for n in range(args.repeat):
        start = time.perf_counter()
        loaded = RULES.load(json.loads(stored))
        after = RULES.apply(loaded, seat, orders[n % len(orders)]).state
        json.dumps(RULES.dump(after))
        timings.append(time.perf_counter() - start)
    timings.sort()
    print(
        f"advciv {PLAYERS} players, turn {state.turn}, phase {state.phase}, {len(stored)} bytes stored: "
        f"load+apply+dump median {statistics.median(timings) * 1000:.2f} ms, "
        f"p95 {timings[int(len(timings) * 0.95)] * 1000:.2f} ms"
    )


if __name__ == "__main__":
    main()
