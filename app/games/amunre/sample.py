"""Random play: a legal order drawn for a seat (the fuzzer, the contract tests, the benchmark)."""

from __future__ import annotations

import random
from typing import Any

from app.games.amunre import cards
from app.games.amunre.orders import Legal

SELL_CHANCE = 0.05  # now and then a seat sells a power card first (allowed at any time)


def sample(legal: Legal, anytime: Legal | None, rng: random.Random) -> dict[str, Any]:
    if anytime is not None and rng.random() < SELL_CHANCE:
        return anytime.random_choice(rng)
    if legal.phase == "offering":
        return _offering(legal.limits or {}, rng)
    if legal.phase == "pay":
        return _sale(legal.limits or {}, rng)
    if legal.phase == "buy" and rng.random() < 0.3:  # end the turn now and then, not only when broke
        return legal.default.model_dump()
    return legal.random_choice(rng)


def _sale(limits: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    hand = [card for card, count in sorted(limits["powers"].items()) for _ in range(count)]
    powers: dict[str, int] = {}
    for card in rng.sample(hand, limits["count"]):
        powers[card] = powers.get(card, 0) + 1
    return {"type": "pay_bid", "powers": powers}


def _offering(limits: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    adjust = bool(limits["adjust"]) and rng.random() < 0.5
    gold: dict[str, int] = limits["gold"]
    if limits["minus_three"] and (not gold or rng.random() < 0.25):
        return {"type": "offer", "minus_three": True, "adjust": adjust}
    chosen = {key: rng.randint(0, count) for key, count in gold.items()}
    if not any(chosen.values()):
        key = rng.choice(sorted(gold))
        chosen[key] = 1
    powers: dict[str, int] = {}
    for card, count in limits["powers"].items():
        spare = count - (adjust and card == cards.OFFERING_ADJUSTMENT)
        if spare > 0 and rng.random() < 0.2:
            powers[card] = 1
    return {"type": "offer", "gold": chosen, "powers": powers, "adjust": adjust}
