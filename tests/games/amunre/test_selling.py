"""Rules 3.1, phase 3: "at any time, a player may discard a power card face up and take 1 gold from the
bank" — from a seat the game waits on or not, in every phase but the end, without changing any wait."""

from __future__ import annotations

import json

import pytest

from app.games.amunre import RULES, cards
from app.games.amunre.cards import value
from app.games.amunre.model import State
from app.games.amunre.phases import legal_for
from app.games.contract import RuleError
from tests.games.amunre.helpers import auction, game, gold, kinds, owning, phase, play, player, with_player

RED, BLUE, BLACK = range(3)


def _sell(card: str) -> dict[str, str]:
    return {"type": "sell", "card": card}


def _holding(state: State, seat: int, *powers: str) -> State:
    return with_player(state, seat, powers=tuple(sorted(powers)), gold=gold(5, 2, 1))


def test_a_seat_not_awaited_sells_during_the_auction_and_nothing_else_moves() -> None:
    state = auction(game(3), ["Buto", "Thebes", "Abu"], pharaoh=RED)
    state = _holding(state, BLUE, cards.FARMER_BONUS, cards.EIGHT_GOLD)
    assert legal_for(state, BLUE) is None  # the game waits on Red only
    after, _events = play(state, BLUE, _sell(cards.EIGHT_GOLD))
    assert value(player(after, BLUE).gold) == value(player(state, BLUE).gold) + 1
    assert player(after, BLUE).powers == (cards.FARMER_BONUS,) and after.discard[-1] == cards.EIGHT_GOLD
    assert RULES.waits(after) == RULES.waits(state)
    assert (after.phase, after.queue, after.bids) == (state.phase, state.queue, state.bids)
    assert legal_for(after, RED) == legal_for(state, RED)


def test_the_sale_is_public_and_the_change_is_private() -> None:
    state = _holding(auction(game(3), ["Buto", "Thebes", "Abu"]), BLACK, cards.FREE_FARMER)
    _after, events = play(state, BLACK, _sell(cards.FREE_FARMER))
    assert kinds(events) == ["card_sold", "gold_received"]
    sold, received = events
    assert sold.to is None and sold.data == {"seat": BLACK, "card": cards.FREE_FARMER}
    assert received.to == frozenset({BLACK}) and received.data["why"] == "sold"


def test_a_seat_sells_during_the_sealed_offering_before_and_after_offering() -> None:
    state = phase(owning(game(3), {RED: ["Abu"], BLUE: ["Edfu"], BLACK: ["Buto"]}), "offering")
    for seat in (RED, BLUE, BLACK):
        state = _holding(state, seat, cards.NILE_BONUS, cards.SIDE_BONUS)
    state, _ = play(state, RED, {"type": "offer", "gold": {"5": 1}})
    waits = RULES.waits(state)
    state, _ = play(state, RED, _sell(cards.NILE_BONUS))  # already offered: not awaited
    state, _ = play(state, BLUE, _sell(cards.SIDE_BONUS))  # still to offer: awaited
    assert RULES.waits(state) == waits and player(state, RED).offering is not None
    assert player(state, BLUE).offering is None
    assert RULES.view(state, BLUE)["legal"]["prompt"] == "offer"  # Blue's question is the same one
    assert RULES.view(state, BLUE)["me"]["gold_value"] == 9


def test_a_sale_can_open_a_choice_to_the_awaited_buyer_and_never_closes_one() -> None:
    """With the deck and the discard pile empty no card can be bought; a card sold by another seat lands
    on the discard pile, and the buyer may buy it: his old choices all stay."""
    state = owning(game(3), {RED: ["Memphis"]})
    state = with_player(state, RED, gold=gold(10), powers=())
    state = _holding(state, BLUE, cards.MASTER_BUILDER)
    state = phase(state, "buy", (RED, BLUE, BLACK), deck=(), discard=())
    before = legal_for(state, RED)
    assert before is not None and "buy_card" not in before.types
    after, _ = play(state, BLUE, _sell(cards.MASTER_BUILDER))
    now = legal_for(after, RED)
    assert now is not None and "buy_card" in now.types
    assert {c.order.key() for c in before.choices} <= {c.order.key() for c in now.choices}
    after, _ = play(after, RED, {"type": "buy_card"})
    assert player(after, RED).powers == (cards.MASTER_BUILDER,)


def test_the_buyer_sells_in_his_own_turn_and_keeps_buying() -> None:
    state = owning(game(3), {RED: ["Memphis"]})
    state = with_player(state, RED, gold=gold(1), powers=(cards.FARMER_BONUS,))
    state = phase(state, "buy", (RED, BLUE, BLACK))
    state, _ = play(state, RED, {"type": "buy_card"})
    assert value(player(state, RED).gold) == 0
    state, _ = play(state, RED, _sell(cards.FARMER_BONUS))
    assert state.queue[0] == RED and value(player(state, RED).gold) == 1


@pytest.mark.parametrize(
    ("card", "code"),
    [(cards.EIGHT_GOLD, "card_not_held"), ("nothing", "card_not_held")],
)
def test_selling_a_card_one_does_not_hold_is_refused_and_changes_nothing(card: str, code: str) -> None:
    state = _holding(auction(game(3), ["Buto", "Thebes", "Abu"]), BLUE, cards.FARMER_BONUS)
    before = json.dumps(RULES.dump(state), sort_keys=True)
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, BLUE, _sell(card))
    assert caught.value.code == code and caught.value.field == "card"
    assert json.dumps(RULES.dump(state), sort_keys=True) == before


def test_only_a_sale_is_accepted_from_a_seat_not_awaited() -> None:
    state = _holding(auction(game(3), ["Buto", "Thebes", "Abu"], pharaoh=RED), BLUE, cards.FARMER_BONUS)
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, BLUE, {"type": "bid", "province": "Buto", "amount": 0})
    assert caught.value.code == "not_awaited"
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, BLUE, {"type": "sell"})
    assert caught.value.code == "invalid_order"


def test_nothing_is_sold_once_the_game_is_over() -> None:
    state = _holding(phase(game(3), "over"), BLUE, cards.FARMER_BONUS)
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, BLUE, _sell(cards.FARMER_BONUS))
    assert caught.value.code == "game_over"


def test_the_view_offers_the_sales_to_the_holder_only() -> None:
    state = _holding(auction(game(3), ["Buto", "Thebes", "Abu"], pharaoh=RED), BLUE, cards.FARMER_BONUS)
    state = with_player(state, BLACK, powers=())
    mine = RULES.view(state, BLUE)["anytime"]
    assert [c["order"] for c in mine["choices"]] == [_sell(cards.FARMER_BONUS)]
    assert RULES.view(state, BLUE)["legal"]["phase"] is None  # not awaited, yet it may sell
    assert RULES.view(state, BLACK)["anytime"] is None and RULES.view(state, None)["anytime"] is None
    assert cards.FARMER_BONUS not in json.dumps(RULES.view(state, RED)["anytime"])


def test_the_buying_turn_lists_no_sale_among_its_choices() -> None:
    """One way to sell: the sale is the `anytime` order, not a choice of the buying turn."""
    state = owning(game(3), {RED: ["Memphis"]})
    state = phase(with_player(state, RED, powers=(cards.FARMER_BONUS,)), "buy", (RED, BLUE, BLACK))
    legal = legal_for(state, RED)
    assert legal is not None and "sell" not in legal.types
