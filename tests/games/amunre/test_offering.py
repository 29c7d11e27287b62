"""Rules 3.1, phase 4: the sealed, simultaneous offering, Offering Adjustment, the rewards and the
Pharaoh."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.amunre import RULES, cards
from app.games.amunre.cards import value
from app.games.amunre.model import State
from app.games.amunre.orders import AdjustOrder
from app.games.contract import RuleError
from tests.games.amunre.helpers import game, gold, kinds, owning, phase, play, player, with_player

RED, BLUE, BLACK, WHITE, GREEN = range(5)
MINUS = {"type": "offer", "minus_three": True}


def _offer(*values: int, **extra: Any) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for worth in values:
        counts[str(worth)] = counts.get(str(worth), 0) + 1
    return {"type": "offer", "gold": counts, **extra}


def _offering(players: int = 4, pharaoh: int = 0) -> State:
    state = owning(
        game(players),
        {seat: ["Memphis", "Abu", "Thebes", "Edfu", "Buto"][seat : seat + 1] for seat in range(players)},
    )
    for seat in range(players):
        state = with_player(state, seat, gold=gold(5, 2, 2, 1, 1, 1, 1, 1), powers=())
    return phase(state, "offering", pharaoh=pharaoh)


def test_every_seat_offers_at_once_and_the_offering_stays_sealed() -> None:
    state = _offering()
    waits = RULES.waits(state)
    assert [wait.seat for wait in waits] == [0, 1, 2, 3] and all(wait.simultaneous for wait in waits)
    state, events = play(state, RED, _offer(5, 2, 2))
    assert [wait.seat for wait in RULES.waits(state)] == [1, 2, 3]
    assert all(event.to is None for event in events) and kinds(events) == ["offered"]
    for seat in (BLUE, BLACK, WHITE, None):
        assert "offering" not in json.dumps(RULES.view(state, seat)["players"])
        assert RULES.view(state, seat)["offerings"] == []
    assert RULES.view(state, RED)["me"]["offering"]["amount"] == 9


def test_the_example_9_4_minus3_minus3_puts_the_temple_on_space_2() -> None:
    """Red 9, Blue 4, Black -3, White -3: the total 7 is in the 3-12 range, space 2; Red takes 3 items and
    becomes Pharaoh, Blue 2; Black and White take 3 gold each and no item."""
    state = _offering()
    before = [value(p.gold) for p in state.players]
    state, _ = play(state, RED, _offer(5, 2, 2))
    state, _ = play(state, BLUE, _offer(2, 1, 1))
    state, _ = play(state, BLACK, MINUS)
    state, events = play(state, WHITE, MINUS)
    assert state.total == 7 and state.temple == 2 and state.pharaoh == RED
    assert state.phase == "reward" and state.queue == (RED, RED, RED, BLUE, BLUE)
    after = [value(p.gold) for p in state.players]
    assert [b - a for b, a in zip(before, after, strict=True)] == [9, 4, -3, -3]
    assert player(state, BLACK).minus_three and player(state, WHITE).minus_three
    assert "offerings_revealed" in kinds(events)


def test_others_get_one_item_in_offering_order_ties_to_the_pharaoh_side() -> None:
    state = _offering(pharaoh=BLACK)
    for seat in range(4):
        state, _ = play(state, seat, _offer(1))
    assert state.queue == (BLACK, BLACK, BLACK, WHITE, WHITE, RED, BLUE)
    assert state.pharaoh == BLACK


def test_after_the_first_two_the_others_pick_clockwise_from_the_first_player() -> None:
    """The text: "tous les autres joueurs n'ayant pas joué leur carte -3 peuvent choisir 1 article
    (dans le sens horaire en partant du premier joueur)": not by the size of their offering."""
    state = _offering(players=5, pharaoh=BLACK)
    for seat, offered in enumerate([(1,), (5, 2, 2), (1, 1), (5, 1), (2, 2)]):
        state, _ = play(state, seat, _offer(*offered))
    assert state.queue == (BLUE, BLUE, BLUE, WHITE, WHITE, BLACK, GREEN, RED)
    assert state.pharaoh == BLUE


def test_the_minus_three_card_is_offered_alone() -> None:
    state = _offering()
    with pytest.raises(RuleError):
        play(state, RED, {"type": "offer", "minus_three": True, "gold": {"1": 1}})
    with pytest.raises(RuleError):
        play(state, RED, {"type": "offer"})  # an offering of nothing
    with pytest.raises(RuleError):
        play(state, RED, _offer(10))  # a card not held


def test_power_cards_in_an_offering_count_one_gold_each() -> None:
    state = _offering()
    state = with_player(state, RED, powers=(cards.FARMER_BONUS,))
    state, _ = play(state, RED, _offer(1, powers={cards.FARMER_BONUS: 1}))
    for seat in (BLUE, BLACK, WHITE):
        state, _ = play(state, seat, MINUS)
    offering = state.offerings[RED]
    assert offering is not None and offering.amount == 2
    assert state.total == 2 - 9 and cards.FARMER_BONUS in state.discard


def test_offering_adjustment_moves_the_total_not_the_rank() -> None:
    state = _offering()
    state = with_player(state, BLACK, powers=(cards.OFFERING_ADJUSTMENT,))
    state, _ = play(state, RED, _offer(5, 2, 2))
    state, _ = play(state, BLUE, _offer(2, 1, 1))
    state, _ = play(state, BLACK, {**MINUS, "adjust": True})
    state, _ = play(state, WHITE, MINUS)
    assert state.phase == "adjust" and [wait.seat for wait in RULES.waits(state)] == [BLACK]
    assert RULES.default_order(state, BLACK) == {"type": "adjust", "up": True}
    state, _ = play(state, BLACK, {"type": "adjust", "up": True})
    assert state.total == 10 and state.temple == 2 and state.queue[:3] == (RED, RED, RED)
    assert cards.OFFERING_ADJUSTMENT in state.discard


def test_offering_adjustment_may_leave_the_total_as_it_is() -> None:
    """The text: "chaque joueur qui a joué une carte Ajustement de l'offrande ... peut augmenter ou
    diminuer le montant total de l'offrande de 3 or": "peut", so he may also leave it."""
    state = _offering()
    state = with_player(state, BLACK, powers=(cards.OFFERING_ADJUSTMENT,))
    state, _ = play(state, RED, _offer(5, 2, 2))
    state, _ = play(state, BLUE, _offer(2, 1, 1))
    state, _ = play(state, BLACK, {**MINUS, "adjust": True})
    state, _ = play(state, WHITE, MINUS)
    legal = RULES.legal_for(state, BLACK)
    assert legal is not None and AdjustOrder(type="adjust") in [choice.order for choice in legal.choices]
    state, events = play(state, BLACK, {"type": "adjust"})
    assert state.total == 7 and state.temple == 2 and state.phase == "reward"
    adjusted = [event.data for event in events if event.kind == "offering_adjusted"]
    assert adjusted == [{"seat": BLACK, "up": None, "total": 7}]


def test_when_everyone_offers_minus_three_the_pharaoh_stays() -> None:
    state = _offering(pharaoh=BLUE)
    for seat in range(4):
        state, _ = play(state, seat, MINUS)
    assert state.pharaoh == BLUE and state.temple == 1 and state.queue[0] == BLUE  # the next round


def test_the_default_offering_is_a_one_gold_card_else_the_minus_three() -> None:
    state = _offering()
    assert RULES.default_order(state, RED)["gold"] == {"1": 1}
    state = with_player(state, RED, gold=gold(5))
    assert RULES.default_order(state, RED)["minus_three"] is True


def test_rewards_cards_farmers_and_blocks_ignore_the_card_limit() -> None:
    state = _offering()
    state, _ = play(state, RED, _offer(5, 2, 2))
    for seat in (BLUE, BLACK, WHITE):
        state, _ = play(state, seat, MINUS)
    assert RULES.default_order(state, RED) == {"type": "reward", "item": "card", "province": None}
    state, _ = play(state, RED, {"type": "reward", "item": "card"})
    state, _ = play(state, RED, {"type": "reward", "item": "farmer", "province": "Memphis"})
    state, _ = play(state, RED, {"type": "reward", "item": "block", "province": "Memphis"})
    with pytest.raises(RuleError):  # Free Farmer and Master Builder are not for this phase
        play(state, BLUE, {"type": "free_farmer", "province": "Abu"})
    memphis = RULES.view(state, None)["provinces"][4]
    assert (memphis["bought_farmers"], memphis["blocks"]) == (1, 1) and len(player(state, RED).powers) == 1
