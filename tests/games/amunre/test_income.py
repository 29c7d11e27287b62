"""Rules 3.1, phase 5: harvest, fixed and camel income, 8 Gold and Harvest Increase."""

from __future__ import annotations

import pytest

from app.games.amunre import RULES, cards, flow
from app.games.amunre.cards import value
from app.games.amunre.model import State
from app.games.amunre.tx import Tx
from app.games.contract import RuleError
from tests.games.amunre.helpers import game, owning, phase, play, player, with_player, with_province

RED = 0


def _income(state: State, seat: int = RED) -> int:
    tx = Tx(state)
    flow.collect_income(tx, seat)
    return value(tx.player(seat).gold) - value(player(state, seat).gold)


def _red(temple: int) -> State:
    """Red owns Memphis (1 farmer), Abu (2 farmers) and Sawu."""
    state = owning(game(3), {RED: ["Memphis", "Abu", "Sawu"]})
    state = with_province(state, "Memphis", owner=RED, farmers=1)
    state = with_province(state, "Abu", owner=RED, farmers=2)
    return phase(state, "income", (RED, 1, 2), temple=temple)


def test_the_income_example_17_gold() -> None:
    """Space 2: 2 gold a farmer; Abu's 4 always; Sawu's 7 on a camel space: 2 + 4 + 4 + 7 = 17."""
    assert _income(_red(2)) == 17


def test_no_camel_income_on_spaces_3_and_4() -> None:
    assert _income(_red(3)) == 3 * 3 + 4
    assert _income(_red(1)) == 3 + 4 + 7


def test_printed_farmers_and_flat_land_farmers_are_harvested() -> None:
    state = owning(game(3), {RED: ["Baharya"]})
    state = with_province(state, "Baharya", owner=RED, flat_farmers=1)
    assert _income(phase(state, "income", temple=4)) == 4 * 3


def test_eight_gold_replaces_a_provinces_income_and_harvest_increase_adds_one_a_farmer() -> None:
    state = with_player(_red(2), RED, powers=(cards.EIGHT_GOLD, cards.HARVEST_INCREASE))
    waits = RULES.waits(state)  # every seat, card or no card, so that waiting tells nothing
    assert [(wait.seat, wait.phase, wait.simultaneous) for wait in waits] == [
        (seat, "income", True) for seat in range(3)
    ]
    assert RULES.default_order(state, RED) == {"type": "done"}
    before = value(player(state, RED).gold)
    state, _ = play(state, RED, {"type": "income_card", "card": cards.EIGHT_GOLD, "province": "Memphis"})
    with pytest.raises(RuleError):  # 8 Gold replaces the harvest: no Harvest Increase there
        play(state, RED, {"type": "income_card", "card": cards.HARVEST_INCREASE, "province": "Memphis"})
    state, _ = play(state, RED, {"type": "income_card", "card": cards.HARVEST_INCREASE, "province": "Abu"})
    state, _ = play(state, RED, {"type": "done"})
    assert value(player(state, RED).gold) - before == 8 + 2 * 3 + 4 + 7
    assert [wait.seat for wait in RULES.waits(state)] == [1, 2]
    for seat in (1, 2):
        state, _ = play(state, seat, {"type": "done"})
    assert state.phase == "auction" and not any(p.eight_gold for p in state.provinces)  # the next round
