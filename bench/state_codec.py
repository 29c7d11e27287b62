"""What loading and dumping a game's state costs, beside the JSON parse and serialisation of the same
document in the same process (the floor any codec pays). Usage:

    python bench/state_codec.py [--orders 60] [--repeat 300]

For each game: a state after `--orders` random orders (3 players; Advanced Civilization 5), then the
best of five rounds of `--repeat` loads (`rules.load` of the stored document) and dumps (`rules.dump`),
each in microseconds and as a ratio to `json.loads` / `json.dumps` of the document. With `--plain`, the
same for Advanced Civilization's plain item-by-item codec (`tests/games/advciv/test_codec.py`, what its
codec was), its rounds interleaved with the others', since the machine's load changes.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import registry
from app.games.contract import created_options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--plain", action="store_true", help="Advanced Civilization's plain codec too")
    args = parser.parse_args()
    if args.plain:
        _against_plain(args.orders, args.repeat)
        return
    for rules in registry.all_games():
        if rules.id == "fake":
            continue
        state = _played(rules, args.orders)
        stored = json.loads(json.dumps(rules.dump(state)))  # as the database gives it back
        text = json.dumps(stored)
        load = _best(partial(rules.load, stored), args.repeat)
        dump = _best(partial(rules.dump, state), args.repeat)
        parse = _best(partial(json.loads, text), args.repeat)
        serialise = _best(partial(json.dumps, stored), args.repeat)
        print(
            f"{rules.id:13} {len(text):6} bytes: load {load:7.1f} µs ({load / parse:4.1f}x json.loads), "
            f"dump {dump:7.1f} µs ({dump / serialise:4.1f}x json.dumps)"
        )


def _against_plain(orders: int, repeat: int) -> None:
    from app.games.advciv import model
    from tests.games.advciv.test_codec import plain_dump, plain_load

    state = _played(registry.get("advciv"), orders)
    stored = json.loads(json.dumps(model.dump(state)))
    text = json.dumps(stored)
    runs: dict[str, Callable[[], object]] = {
        "load": partial(model.load, stored),
        "dump": partial(model.dump, state),
        "plain load": partial(plain_load, stored),
        "plain dump": partial(plain_dump, state),
        "json.loads": partial(json.loads, text),
        "json.dumps": partial(json.dumps, stored),
    }
    best = {name: float("inf") for name in runs}
    for _ in range(5):  # interleaved: each round times every one of them
        for name, run in runs.items():
            best[name] = min(best[name], _best(run, repeat, rounds=1))
    floor = best["json.loads"] + best["json.dumps"]
    print(f"advciv {len(text)} bytes, µs, the best of five interleaved rounds of {repeat}:")
    for name, micros in best.items():
        print(f"  {name:11} {micros:7.1f}")
    for name in ("", "plain "):
        both = best[f"{name}load"] + best[f"{name}dump"]
        print(f"  {name or 'codec '}load + dump {both:6.1f} = {both / floor:.2f}x (json.loads + json.dumps)")


def _played(rules: Any, orders: int) -> Any:
    rng = random.Random(7)
    players = 5 if rules.id == "advciv" else 3
    state = rules.new_game(created_options(rules), players, 7)
    for _ in range(orders):
        waits = rules.waits(state)
        if not waits:
            break
        seat = rng.choice(waits).seat
        state = rules.apply(state, seat, rules.sample_order(state, seat, rng)).state
    return state


def _best(run: Callable[[], object], repeat: int, rounds: int = 5) -> float:
    """Microseconds per call, the best of `rounds` rounds."""
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(repeat):
            run()
        timings.append((time.perf_counter() - started) / repeat)
    return 1e6 * min(timings)


if __name__ == "__main__":
    main()
