"""Play whole games from many seeds: every game ends, and no awaited seat is ever stuck."""

from __future__ import annotations

import random
from collections import Counter

from app.games.dragonstones import RULES, DragonstonesOptions

SEEDS = range(24)
MAX_ORDERS = 6000


def _play_to_the_end(seed: int, kinds: Counter[str]) -> int:
    rng = random.Random(seed)
    state = RULES.new_game(DragonstonesOptions(), 3 + seed % 4, seed)
    for count in range(MAX_ORDERS):
        waits = RULES.waits(state)
        if not waits:
            assert state.winner is not None and RULES.standings(state) is not None
            return count
        for wait in waits:  # no dead end: both ways of answering are accepted
            RULES.apply(state, wait.seat, RULES.default_order(state, wait.seat))
            RULES.apply(state, wait.seat, RULES.sample_order(state, wait.seat, rng))
        seat = rng.choice(waits).seat
        order = (
            RULES.default_order(state, seat) if rng.random() < 0.1 else RULES.sample_order(state, seat, rng)
        )
        outcome = RULES.apply(state, seat, order)
        kinds.update(event.kind for event in outcome.events)
        state = outcome.state
    raise AssertionError(f"seed {seed}: no winner after {MAX_ORDERS} orders")


def test_random_games_finish() -> None:
    kinds: Counter[str] = Counter()
    lengths = [_play_to_the_end(seed, kinds) for seed in SEEDS]
    assert max(lengths) < MAX_ORDERS
    # the games went through the interesting parts of the rules
    for kind in (
        "tiebreak_revealed",
        "auction_bewitched",
        "copied",
        "round_ended",
        "game_won",
        "stole_stone",
    ):
        assert kinds[kind], kind
