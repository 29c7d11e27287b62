"""Whole random games from many seeds: every game ends, no awaited seat is ever stuck, and the games go
through every part of the rules."""

from __future__ import annotations

import random
from collections import Counter

from app.games.tigris import RULES, TigrisOptions

SEEDS = range(30)
MAX_ORDERS = 3000


def _play_to_the_end(seed: int, seen: Counter[str]) -> int:
    rng = random.Random(seed)
    options = TigrisOptions(english_variant=seed % 3 == 0, open_scoring=seed % 5 == 0)
    state = RULES.new_game(options, 2 + seed % 3, seed)
    for count in range(MAX_ORDERS):
        waits = RULES.waits(state)
        if not waits:
            assert RULES.standings(state) is not None
            seen[f"end:{state.end}"] += 1
            return count
        (wait,) = waits
        seen[f"phase:{wait.phase}"] += 1
        RULES.apply(state, wait.seat, RULES.default_order(state, wait.seat))  # no dead end
        order = (
            RULES.default_order(state, wait.seat)
            if rng.random() < 0.05
            else RULES.sample_order(state, wait.seat, rng)
        )
        outcome = RULES.apply(state, wait.seat, order)
        for event in outcome.events:
            seen[event.kind] += 1
            if event.kind == "conflict_resolved":
                seen[f"{event.data['kind']}:{event.data['colour']}"] += 1
            if event.kind == "leader_returned":
                seen[f"returned:{event.data['reason']}"] += 1
        state = outcome.state
    raise AssertionError(f"seed {seed}: no end after {MAX_ORDERS} orders")


def test_random_games_finish_and_cover_the_rules() -> None:
    seen: Counter[str] = Counter()
    lengths = [_play_to_the_end(seed, seen) for seed in SEEDS]
    assert max(lengths) < MAX_ORDERS
    for kind in (
        "phase:support",
        "phase:war_order",
        "phase:monument",
        "phase:treasure",
        "revolt:red",
        "war:green",
        "war:black",
        "wars_ended",
        "junction_removed",
        "monument_built",
        "monument_declined",
        "treasures_taken",
        "catastrophe",
        "swapped",
        "returned:no_temple",
        "returned:war",
        "returned:revolt",
        "end:bag",
    ):
        assert seen[kind], (kind, sorted(seen.items()))
