"""Rules 3.1, phase 3: power cards, then farmers, then blocks, each n for n(n+1)/2; pyramids."""

from __future__ import annotations

import pytest

from app.games.amunre import RULES, cards
from app.games.amunre.cards import value
from app.games.amunre.model import State
from app.games.amunre.phases import legal_for
from app.games.contract import RuleError
from tests.games.amunre.helpers import (
    game,
    gold,
    index,
    owning,
    phase,
    play,
    player,
    with_player,
    with_province,
)

RED = 0


def _buying(holdings: list[str], money: int = 40, powers: tuple[str, ...] = ()) -> State:
    state = owning(game(3), {RED: holdings})
    state = with_player(state, RED, gold=gold(*[1] * money), powers=powers)
    return phase(state, "buy", (RED, 1, 2))


def _spent(before: State, after: State) -> int:
    return value(player(before, RED).gold) - value(player(after, RED).gold)


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_n_blocks_cost_n_n_plus_one_over_two(count: int) -> None:
    state = start = _buying(["Abu", "Thebes", "Edfu"])
    for step in range(count):
        state, _ = play(state, RED, {"type": "buy_block", "province": ("Abu", "Thebes", "Edfu")[step % 3]})
    assert _spent(start, state) == count * (count + 1) // 2


def test_the_farmer_example_two_farmers_in_baharya_cost_3() -> None:
    """Red owns Baharya (2 printed farmers) and Berenike (no farm space); two farmers cost 3."""
    state = start = _buying(["Baharya", "Berenike"])
    legal = legal_for(state, RED)
    assert legal is not None
    farms = {
        choice.order.model_dump()["province"] for choice in legal.choices if choice.order.type == "buy_farmer"
    }
    assert farms == {"Baharya"}
    for _ in range(2):
        state, _ = play(state, RED, {"type": "buy_farmer", "province": "Baharya"})
    assert _spent(start, state) == 3
    with pytest.raises(RuleError):
        play(state, RED, {"type": "buy_farmer", "province": "Berenike"})
    assert RULES.view(state, None)["provinces"][index("Baharya")]["farmers"] == 4


def test_the_block_example_two_pyramids_and_a_double() -> None:
    """Memphis has 2 blocks, Mendes a pyramid and a block; 3 blocks (6 gold) make a pyramid in each, and
    Mendes' two pyramids become a double."""
    state = _buying(["Memphis", "Mendes"])
    state = with_province(state, "Memphis", owner=RED, blocks=2)
    state = with_province(state, "Mendes", owner=RED, blocks=1, pyramids=1)
    start = state = phase(state, "buy", (RED,), blocks=15 - 3, pyramids=14)
    state, _ = play(state, RED, {"type": "buy_block", "province": "Memphis"})
    state, _ = play(state, RED, {"type": "buy_block", "province": "Mendes"})
    state, _ = play(state, RED, {"type": "buy_block", "province": "Mendes"})
    assert _spent(start, state) == 6
    memphis, mendes = state.provinces[index("Memphis")], state.provinces[index("Mendes")]
    assert (memphis.blocks, memphis.pyramids, memphis.doubles) == (0, 1, 0)
    assert (mendes.blocks, mendes.pyramids, mendes.doubles) == (0, 0, 1)
    assert state.piece_totals()[:3] == start.piece_totals()[:3]


def test_order_cards_then_farmers_then_blocks() -> None:
    state = _buying(["Memphis"])
    state, _ = play(state, RED, {"type": "buy_farmer", "province": "Memphis"})
    with pytest.raises(RuleError):
        play(state, RED, {"type": "buy_card"})
    state, _ = play(state, RED, {"type": "buy_block", "province": "Memphis"})
    with pytest.raises(RuleError):
        play(state, RED, {"type": "buy_farmer", "province": "Memphis"})


def test_the_card_limit_is_the_highest_of_ones_provinces() -> None:
    """Buto and Mendes: limit 0. Memphis, Amarna and Avaris: 3, Memphis's."""
    state = _buying(["Buto", "Mendes"])
    with pytest.raises(RuleError):
        play(state, RED, {"type": "buy_card"})
    state = start = _buying(["Memphis", "Amarna", "Avaris"])
    for _ in range(3):
        state, _ = play(state, RED, {"type": "buy_card"})
    with pytest.raises(RuleError):
        play(state, RED, {"type": "buy_card"})
    assert _spent(start, state) == 6 and len(player(state, RED).powers) == 3


def test_a_power_card_sells_for_one_gold() -> None:
    state = start = _buying(["Memphis"], powers=(cards.FARMER_BONUS,))
    state, _ = play(state, RED, {"type": "sell", "card": cards.FARMER_BONUS})
    assert _spent(start, state) == -1 and state.discard[-1] == cards.FARMER_BONUS


def test_free_farmer_goes_on_flat_land_beyond_the_farm_spaces() -> None:
    state = _buying(["Berenike"], powers=(cards.FREE_FARMER,))
    state, _ = play(state, RED, {"type": "free_farmer", "province": "Berenike"})
    assert state.provinces[index("Berenike")].flat_farmers == 1 and player(state, RED).powers == ()


def test_master_builder_makes_a_pyramid_from_two_blocks() -> None:
    state = _buying(["Abu"], powers=(cards.MASTER_BUILDER,))
    with pytest.raises(RuleError):
        play(state, RED, {"type": "master_builder", "province": "Abu"})
    for _ in range(2):
        state, _ = play(state, RED, {"type": "buy_block", "province": "Abu"})
    state, _ = play(state, RED, {"type": "master_builder", "province": "Abu"})
    abu = state.provinces[index("Abu")]
    assert (abu.blocks, abu.pyramids) == (0, 1)


def test_the_default_is_to_buy_nothing_and_the_turn_passes_clockwise() -> None:
    state = _buying(["Abu"])
    assert RULES.default_order(state, RED) == {"type": "done"}
    state, _ = play(state, RED, {"type": "done"})
    assert state.queue == (1, 2) and [wait.seat for wait in RULES.waits(state)] == [1]
