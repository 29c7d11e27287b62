"""Phase 12 played on the state (§31, site F-T): who is awaited, the checkout paid with sets and treasury,
the hand limit and its discard, the default at timeout, Pottery's frozen Grain, Mining's extra card, the
cards spent going back under the stacks, and who is told what."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from app.games.advciv import RULES
from app.games.advciv import cards as c
from app.games.advciv.model import State, conserved, final_score
from app.games.advciv.trade_cards import FULL_DECK
from app.games.contract import RuleError
from app.games.kit.model import evolve
from tests.games.advciv.helpers import begin, blank, deal, units, waited

AFRICA, CRETE, THRACE = 0, 1, 2


def position(
    hands: Mapping[int, list[str]], treasury: Mapping[int, int] | None = None, **changes: Any
) -> State:
    state = blank()
    for seat, area in zip(range(3), ("tunisia", "knossos", "thrace"), strict=True):
        state = units(state, seat, {area: 2}, treasury=(treasury or {}).get(seat, 0))
    for seat, cards in hands.items():
        state = deal(state, seat, cards)
    return evolve(state, **changes) if changes else state


def after_calamities(state: State) -> State:
    """Phase 11 begun and ended on this position (nothing to resolve): phase 12 follows."""
    return begin(state, "calamity")


def buy(cart: list[str], spend: list[str], discard: list[str] | None = None) -> dict[str, Any]:
    return {"type": "buy", "cart": cart, "spend": spend, "discard": discard or []}


def refused(state: State, seat: int, order: Mapping[str, Any]) -> str:
    before = json.dumps(RULES.dump(state), sort_keys=True)
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, seat, order)
    assert json.dumps(RULES.dump(state), sort_keys=True) == before
    return caught.value.code


def test_31_phase_12_follows_phase_11_for_the_seats_that_can_buy_or_hold_too_many_cards() -> None:
    state = after_calamities(
        position(
            {AFRICA: ["grain"] * 3, CRETE: ["ochre"] * 5 + ["hides"] * 4, THRACE: ["salt"] * 2}, {AFRICA: 9}
        )
    )
    assert state.phase == "advances" and waited(state) == [AFRICA, CRETE]  # Thrace can do nothing
    assert all(wait.simultaneous and not wait.market for wait in RULES.waits(state))
    shop = {line["card"]: line for line in RULES.view(state, AFRICA)["legal"]["context"]["shop"]}
    assert shop[c.POTTERY]["due"] == 45 and shop[c.POTTERY]["refusal"] is None
    assert RULES.view(state, THRACE)["legal"] is None


def test_31_58_f_t3_sets_at_count_squared_times_value_plus_treasury_without_change() -> None:
    state = after_calamities(
        position({AFRICA: ["grain"] * 3, CRETE: ["ochre"] * 5 + ["hides"] * 4}, {AFRICA: 20})
    )
    stock = state.players[AFRICA].stock
    assert refused(state, AFRICA, buy([c.POTTERY], [])) == "cart_unaffordable"  # 45 > 20 in treasury
    assert refused(state, AFRICA, buy([c.POTTERY, c.MYSTICISM], ["grain"] * 3)) == "cart_unaffordable"
    outcome = RULES.apply(state, AFRICA, buy([c.POTTERY], ["grain"] * 3))  # 36 from Grain, 9 from treasury
    after = outcome.state
    nation = after.players[AFRICA]
    assert c.POTTERY in nation.cards and nation.treasury == 11 and nation.stock == stock + 9
    assert after.hands[AFRICA] == () and Counter(after.discard) == Counter(["grain"] * 3)
    (bought,) = [e for e in outcome.events if e.kind == "advances_bought"]
    assert bought.to is None and bought.data["cards"] == [c.POTTERY] and bought.data["treasury"] == 9
    (paid,) = [e for e in outcome.events if e.kind == "cards_paid"]
    assert paid.to == frozenset({AFRICA}) and paid.data["spent"] == ["grain"] * 3
    assert "grain" not in json.dumps(bought.data)
    assert conserved(after)


def test_31_56_credits_apply_and_the_treasury_never_pays_more_than_owed() -> None:
    state = position({AFRICA: ["grain"] * 3}, {AFRICA: 40})
    state = units(state, AFRICA, {"tunisia": 2}, cards=[c.POTTERY], treasury=40)
    state = after_calamities(state)
    shop = {line["card"]: line for line in RULES.view(state, AFRICA)["legal"]["context"]["shop"]}
    assert shop[c.POTTERY]["refusal"] == "civ_card_owned"
    credited = [card for card, line in shop.items() if line["credit"] and line["refusal"] is None]
    assert credited
    card = credited[0]
    due = shop[card]["due"]
    after = RULES.apply(state, AFRICA, buy([card], [])).state if due <= 40 else state
    if due <= 40:
        assert after.players[AFRICA].treasury == 40 - due  # the credit off the printed cost


def test_31_71_the_hand_limit_option_and_its_discard() -> None:
    state = after_calamities(position({CRETE: ["ochre"] * 5 + ["hides"] * 4}, hand_limit=6))
    assert waited(state) == [CRETE]
    assert refused(state, CRETE, buy([], [], ["hides"])) == "hand_over_limit"
    after = RULES.apply(state, CRETE, buy([], [], ["hides", "hides", "ochre"])).state
    assert len(after.hands[CRETE]) == 6 and after.phase != "advances"
    assert RULES.new_game(RULES.Options(hand_limit=6), 3, 1).hand_limit == 6


def test_f_t6_the_default_at_timeout_is_legal_and_brings_the_hand_down_to_the_limit() -> None:
    hands = {AFRICA: ["grain"] * 5 + ["papyrus"] * 5, CRETE: ["ochre"] * 5 + ["hides"] * 5}
    state = after_calamities(position(hands, {AFRICA: 9}))
    for seat in waited(state):
        default = RULES.default_order(state, seat)
        after = RULES.apply(state, seat, default).state
        assert len(after.hands[seat]) <= 8 and conserved(after)
    crete = RULES.default_order(state, CRETE)
    assert crete["cart"] == [] and len(crete["discard"]) == 2  # nothing affordable: the excess discarded


def test_30_312_pottery_grain_shown_against_famine_this_turn_cannot_pay() -> None:
    state = position({AFRICA: ["grain"] * 4}, {AFRICA: 40}, grain_shown=(2, 0, 0))
    state = units(state, AFRICA, {"tunisia": 2}, cards=[c.POTTERY], treasury=40)
    state = after_calamities(state)
    assert RULES.view(state, AFRICA)["legal"]["context"]["frozen"] == ["grain", "grain"]
    assert refused(state, AFRICA, buy([c.MYSTICISM], ["grain"] * 3)) == "card_not_spendable"
    after = RULES.apply(state, AFRICA, buy([c.MYSTICISM], ["grain"] * 2)).state  # 16 + 34 from treasury
    assert after.players[AFRICA].treasury == 6 and after.hands[AFRICA] == ("grain", "grain")
    # without Pottery the shown Grain is not held back
    plain = after_calamities(position({AFRICA: ["grain"] * 4}, {AFRICA: 40}, grain_shown=(2, 0, 0)))
    assert RULES.view(plain, AFRICA)["legal"]["context"]["frozen"] == []


def test_32_261_mining_adds_a_card_when_paying_and_then_not_in_the_final_score() -> None:
    state = position({AFRICA: ["iron"] * 3 + ["gold"] * 3}, {AFRICA: 13}, last_turn=1)
    state = units(state, AFRICA, {"tunisia": 2}, cards=[c.ENGINEERING, c.MINING], treasury=13)
    state = after_calamities(state)
    before = final_score(state, AFRICA).trade_cards
    assert before == 18 + 144  # one card more in the Gold set, while Mining has not paid
    due = {line["card"]: line["due"] for line in RULES.view(state, AFRICA)["legal"]["context"]["shop"]}
    assert 18 < due[c.POTTERY] <= 32 + 13  # three Iron alone (18) would not pay it
    after = RULES.apply(state, AFRICA, buy([c.POTTERY], ["iron"] * 3)).state
    assert after.players[AFRICA].treasury == 13 - max(0, due[c.POTTERY] - 32)
    assert after.mining_used == (AFRICA,)
    assert after.phase == "over"
    assert final_score(after, AFRICA).trade_cards == 81  # three Gold as three, Mining used this turn
    assert RULES.view(after, AFRICA)["final"][AFRICA]["trade_cards"] == 81


def test_31_81_spent_and_discarded_cards_go_back_under_the_stacks_when_phase_12_ends() -> None:
    state = after_calamities(
        position({AFRICA: ["grain"] * 3, CRETE: ["ochre"] * 5 + ["hides"] * 4}, {AFRICA: 9})
    )
    state = RULES.apply(state, AFRICA, buy([c.POTTERY], ["grain"] * 3)).state
    assert Counter(state.discard) == Counter(["grain"] * 3) and state.phase == "advances"
    outcome = RULES.apply(state, CRETE, buy([], [], ["hides"]))
    after = outcome.state
    assert after.discard == () and after.phase != "advances" and after.turn == 2
    assert after.deck[3][-3:] == ("grain",) * 3 and after.deck[0][-1] == "hides"
    (returned,) = [e for e in outcome.events if e.kind == "cards_returned"]
    assert returned.data["cards"] == 4
    assert conserved(after) and sum(len(s) for s in after.deck) + sum(map(len, after.hands)) == sum(
        FULL_DECK.values()
    )


@pytest.mark.parametrize(
    ("needed", "cards"),
    [
        (c.ENGINEERING, ("roadbuilding", c.MINING)),
        ("law", ("democracy", "philosophy")),
        (c.ENLIGHTENMENT, (c.MONOTHEISM, "theology")),
    ],
)
def test_31_62_a_prerequisite_held_from_an_earlier_turn_opens_its_cards_in_the_shop(
    needed: str, cards: tuple[str, ...]
) -> None:
    def shop(held: list[str]) -> dict[str, Any]:
        state = position({AFRICA: ["grain"] * 3}, {AFRICA: 40})
        state = units(state, AFRICA, {"tunisia": 2}, cards=held, treasury=40)
        lines = RULES.view(after_calamities(state), AFRICA)["legal"]["context"]["shop"]
        return {line["card"]: line["refusal"] for line in lines}

    without, held = shop([]), shop([needed])
    for card in cards:
        assert without[card] == "civ_card_prerequisite" and held[card] is None
