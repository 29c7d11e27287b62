"""The Amun-Re bot's choices: the offering, income cards, rewards."""

from __future__ import annotations

import random

from app.games.amunre import RULES, cards
from tests.games.amunre.helpers import game, gold, owning, phase, with_player, with_province

RED = 0


def test_a_poor_seat_offers_the_minus_three_card_and_a_rich_one_gold() -> None:
    state = phase(game(3), "offering")
    poor = with_player(state, RED, gold=gold(1, 2))
    assert RULES.bot_order(poor, RED, random.Random(1)) == {
        "type": "offer",
        "gold": {},
        "minus_three": True,
        "powers": {},
        "adjust": False,
    }
    rich = with_player(state, RED, gold=gold(20, 10, 5, 5))
    order = RULES.bot_order(rich, RED, random.Random(1))
    assert order["gold"] == {"10": 1} and not order["minus_three"]


def test_it_plays_8_gold_on_a_poor_province_in_the_last_round() -> None:
    state = owning(game(3), {RED: ["Memphis"]})
    state = with_province(state, "Memphis", owner=RED)
    state = with_player(state, RED, powers=(cards.EIGHT_GOLD,))
    state = phase(state, "income", (RED, 1, 2), round=6, temple=1)
    order = RULES.bot_order(state, RED, random.Random(1))
    assert order == {"type": "income_card", "card": cards.EIGHT_GOLD, "province": "Memphis"}


def test_a_reward_completes_a_pyramid_first() -> None:
    state = owning(game(3), {RED: ["Memphis", "Abu"]})
    state = with_province(state, "Abu", owner=RED, blocks=2)
    state = phase(state, "reward", (RED,), round=2)
    order = RULES.bot_order(state, RED, random.Random(1))
    assert order == {"type": "reward", "item": "block", "province": "Abu"}
