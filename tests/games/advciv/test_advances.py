"""Phase 12, civilization advances (§31, §32, site F-T): prices, the cart and its payment, the hand
limit, the site's default at timeout, with the rulebook's worked numbers."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.advciv import advances as adv
from app.games.advciv import cards as c
from app.games.advciv import trade_cards as tc
from app.games.advciv.advances import Holder
from app.games.contract import RuleError

NONE: frozenset[str] = frozenset()


def holder(
    *hand: str, owned: frozenset[str] = NONE, treasury: int = 0, frozen: tuple[str, ...] = ()
) -> Holder:
    return Holder(owned, tuple(hand), treasury, frozen)


def refused(code: str, *args: object, **kwargs: object) -> None:
    with pytest.raises(RuleError) as caught:
        adv.checkout(*args, **kwargs)  # type: ignore[arg-type]
    assert caught.value.code == code


def test_31_58_mysticism_grain_papyrus_hides_and_ten_treasury_buy_music() -> None:
    """The rulebook's example: 5 credits + 45 in cards (36 Grain, 8 Papyrus, 1 Hides) + 10 treasury = 60."""
    buyer = holder(
        "grain", "grain", "grain", "papyrus", "papyrus", "hides", owned=frozenset({c.MYSTICISM}), treasury=10
    )
    assert adv.price(buyer.owned, c.MUSIC) == adv.Price(c.MUSIC, 60, 5, 55)
    done = adv.checkout(buyer, [c.MUSIC], buyer.hand)
    assert (done.payment.cards_value, done.treasury_spent, done.hand) == (45, 10, ())
    assert done.owned == {c.MYSTICISM, c.MUSIC}
    refused("cart_unaffordable", Holder(buyer.owned, buyer.hand, 9), [c.MUSIC], buyer.hand)


def test_28_51_31_31_three_grain_pay_36() -> None:
    paid = adv.payment(holder("grain", "grain", "grain", treasury=9), [c.POTTERY], ["grain"] * 3)
    assert (paid.cards_value, paid.treasury) == (36, 9)


def test_28_53_mining_raises_three_bronze_from_54_to_96_once() -> None:
    miner = holder(
        "bronze", "bronze", "bronze", "gems", "gems", owned=frozenset({c.ENGINEERING, c.MINING}), treasury=500
    )
    paid = adv.payment(miner, [c.LAW], ["bronze"] * 3 + ["gems"] * 2)
    assert paid.cards_value == 96 + 32 and paid.mining_used  # not also the Gems (72)
    assert adv.payment(miner, [c.LAW], ["gems", "gems", "bronze"]).cards_value == 72 + 6


def test_32_261_mining_three_iron_count_as_four_within_the_printed_limit() -> None:
    miner = holder(*["iron"] * 3, owned=frozenset({c.ENGINEERING, c.MINING}), treasury=500)
    assert adv.payment(miner, [c.LAW], miner.hand).cards_value == 32
    full = holder(*["gold"] * 5, owned=frozenset({c.ENGINEERING, c.MINING}), treasury=500)
    paid = adv.payment(full, [c.LAW], full.hand)
    assert paid.cards_value == 225 and not paid.mining_used  # 5 Gold is the largest set printed


def test_31_54_astronomy_credits_coinage_and_medicine_in_one_cart() -> None:
    owned = frozenset({c.ASTRONOMY})
    assert adv.cart_price(owned, [c.COINAGE, c.MEDICINE]) == (110 - 20) + (140 - 20)


def test_31_53_credits_of_cards_bought_this_turn_do_not_count() -> None:
    assert adv.cart_price(NONE, [c.ASTRONOMY, c.COINAGE]) == 80 + 110


def test_31_56_every_credit_counts_compulsorily() -> None:
    owned = frozenset({c.POTTERY, c.CLOTH_MAKING, c.METALWORKING, c.AGRICULTURE})
    assert adv.price(owned, c.MILITARY).due == 180 - 20
    many = frozenset({c.MYSTICISM, c.DEISM, c.ENLIGHTENMENT, c.MATHEMATICS, c.ENGINEERING, c.ASTRONOMY})
    assert adv.price(many, c.THEOLOGY) == adv.Price(c.THEOLOGY, 250, 15 + 15 + 15 + 25 + 20 + 20, 140)
    arts = frozenset({c.MATHEMATICS, c.MUSIC, c.DRAMA_POETRY, c.ARCHITECTURE, c.LITERACY})
    assert adv.price(arts, c.MYSTICISM) == adv.Price(c.MYSTICISM, 50, 25, 25)
    assert adv.price(frozenset({c.DRAMA_POETRY, c.MUSIC, c.ARCHITECTURE}), c.MYSTICISM).due == 35


def test_31_57_a_card_fully_credited_costs_nothing() -> None:
    owned = frozenset({c.LITERACY, c.ARCHITECTURE, c.DRAMA_POETRY, c.MUSIC, c.MATHEMATICS})
    assert adv.price(owned, c.LAW).due == 170 - (25 + 15 + 5 + 5 + 5)
    credited = frozenset({c.ENGINEERING, c.POTTERY, c.CLOTH_MAKING, c.METALWORKING, c.AGRICULTURE})
    assert adv.price(credited, c.ROADBUILDING).due == 140 - 50
    sciences = frozenset({c.ASTRONOMY, c.COINAGE, c.MEDICINE, c.ENGINEERING})
    assert adv.price(sciences, c.MATHEMATICS).due == 230 - 80
    crafts = frozenset(
        {c.CLOTH_MAKING, c.METALWORKING, c.AGRICULTURE, c.ENGINEERING, c.ROADBUILDING, c.MINING}
    )
    assert adv.price(crafts, c.POTTERY) == adv.Price(c.POTTERY, 45, 60, 0)  # the 15 over are lost
    done = adv.checkout(Holder(crafts, (), 0), [c.POTTERY])
    assert done.bought == (c.POTTERY,) and done.treasury_spent == 0
    mystic = frozenset({c.MYSTICISM, c.DEISM, c.ENLIGHTENMENT})
    assert adv.price(mystic, c.MONOTHEISM).due == 220 - 45


def test_31_58_f_t3_cards_overpay_without_change_treasury_never_does() -> None:
    buyer = holder(*["gold"] * 3, treasury=50)
    done = adv.checkout(buyer, [c.POTTERY], buyer.hand)  # 81 for a 45 card: no change
    assert (done.payment.cards_value, done.treasury_spent) == (81, 0)
    topped = adv.checkout(holder("salt", "salt", treasury=50), [c.POTTERY], ["salt", "salt"])
    assert topped.treasury_spent == 45 - 12  # only what the cards leave owing
    assert adv.checkout(holder(treasury=50), [c.POTTERY]).treasury_spent == 45


def test_31_61_31_62_each_card_once_prerequisites_from_an_earlier_turn() -> None:
    rich = holder(treasury=1000)
    refused("civ_card_prerequisite", rich, [c.ENGINEERING, c.ROADBUILDING])
    refused("civ_card_prerequisite", rich, [c.DEMOCRACY])
    refused("civ_card_owned", Holder(frozenset({c.LAW}), (), 1000), [c.LAW])
    refused("civ_card_twice", rich, [c.LAW, c.LAW])
    refused("unknown_civ_card", rich, ["writing"])
    assert (
        adv.checkout(Holder(frozenset({c.LAW}), (), 1000), [c.DEMOCRACY, c.PHILOSOPHY]).treasury_spent == 440
    )


def test_f_t1_shop_shows_every_price_and_why_a_card_cannot_be_bought() -> None:
    lines = {line.price.card: line for line in adv.shop(frozenset({c.ENGINEERING, c.ASTRONOMY}))}
    assert len(lines) == 24
    assert lines[c.ENGINEERING].refusal == "civ_card_owned"
    assert lines[c.THEOLOGY].refusal == "civ_card_prerequisite"
    assert lines[c.MINING].refusal is None and lines[c.MINING].price.due == 180 - 10
    assert lines[c.MATHEMATICS].price == adv.Price(c.MATHEMATICS, 230, 40, 190)


def test_31_2_payment_refusals_name_the_problem() -> None:
    buyer = holder("salt", "salt", "famine", treasury=100)
    refused("card_not_in_hand", buyer, [c.POTTERY], ["grain"])
    refused("card_not_in_hand", buyer, [c.POTTERY], ["salt", "salt", "salt"])
    refused("calamity_in_payment", buyer, [c.POTTERY], ["famine"])
    refused("nothing_to_pay", buyer, [], ["salt"])
    refused("calamity_in_payment", buyer, [], [], ["famine"])


def test_30_312_grain_shown_against_famine_cannot_pay() -> None:
    buyer = holder("grain", "grain", "grain", treasury=100, frozen=("grain",))
    refused("card_not_spendable", buyer, [c.POTTERY], ["grain"] * 3)
    assert adv.checkout(buyer, [c.POTTERY], ["grain"] * 2).payment.cards_value == 16
    kept = adv.checkout(buyer, [], [], ["grain"])  # it may still be discarded
    assert kept.hand == ("grain", "grain")


def test_31_71_hand_limit_of_8_with_its_discard() -> None:
    hand = ("ochre",) * 7 + ("hides",) * 3
    refused("hand_over_limit", holder(*hand), [])
    done = adv.checkout(holder(*hand), [], [], ["hides", "hides"])
    assert len(done.hand) == 8 and done.returned == ("hides", "hides")
    assert len(adv.checkout(holder(*hand), [], [], ["ochre"] * 4, hand_limit=6).hand) == 6
    refused("card_not_in_hand", holder(*hand), [], [], ["gold", "gold"])


def test_31_81_spent_and_discarded_cards_go_back_under_their_stacks() -> None:
    hand = ("grain",) * 3 + ("ochre",) * 8
    done = adv.checkout(holder(*hand, treasury=9), [c.POTTERY], ["grain"] * 3, ["ochre"], hand_limit=7)
    deck = tuple(() for _ in range(tc.STACKS))
    returned = tc.return_cards(deck, done.returned, lambda n: 0)
    assert Counter(card for stack in returned for card in stack) == Counter(["grain"] * 3 + ["ochre"])
    assert returned[3] == ("grain",) * 3 and returned[0] == ("ochre",)


def test_f_t6_default_buys_nothing_within_the_limit() -> None:
    assert adv.default_plan(holder(*["salt"] * 8, treasury=100)) == adv.Plan()


def test_f_t6_default_tops_the_excess_up_with_treasury_only_when_needed() -> None:
    hand = ("gold",) * 4 + ("salt",) * 4 + ("ochre", "hides", "iron")  # 11 cards, 3 over
    plan = adv.default_plan(holder(*hand, treasury=5))
    # the three single cards leave; worth 1 + 1 + 2 = 4, even with the treasury's 5 they buy nothing
    assert plan.cart == () and plan.spend == () and sorted(plan.discard) == ["hides", "iron", "ochre"]
    rich = adv.default_plan(holder(*hand, treasury=44, owned=frozenset({c.CLOTH_MAKING})))
    assert rich.cart == (c.POTTERY,) and rich.discard == ()  # 45 - 10 = 35 <= 4 + 44
    done = adv.checkout(holder(*hand, treasury=44, owned=frozenset({c.CLOTH_MAKING})), rich.cart, rich.spend)
    assert len(done.hand) == 8 and done.treasury_spent == 35 - 4


def test_f_t6_default_spends_the_excess_on_the_dearest_card_it_pays_alone() -> None:
    hand = ("ivory",) * 4 + ("gold",) * 5 + ("bronze",) * 2  # 3 over: 2 Bronze and 1 Ivory lose least
    owned = frozenset({c.CLOTH_MAKING, c.METALWORKING, c.AGRICULTURE})
    plan = adv.default_plan(holder(*hand, owned=owned, treasury=100))
    assert Counter(plan.spend) == Counter({"bronze": 2, "ivory": 1})  # worth 24 + 9 = 33
    assert plan.cart == (c.POTTERY,)  # 45 - 30 = 15, the dearest of what 33 pays alone
    done = adv.checkout(holder(*hand, owned=owned, treasury=100), plan.cart, plan.spend)
    assert done.treasury_spent == 0 and len(done.hand) == 8


def test_f_t6_default_without_any_affordable_card_discards_the_excess() -> None:
    plan = adv.default_plan(holder(*["ochre"] * 9 + ["hides"] * 2))
    assert plan.cart == () and plan.spend == ()
    assert Counter(plan.discard) == Counter({"hides": 2, "ochre": 1})  # keeps 8 Ochre (64) over 7 + 1


def test_f_t6_default_prefers_a_card_the_cards_pay_alone() -> None:
    hand = ("grain",) * 6 + ("salt",) * 5  # 3 over: the 3 cheapest to lose are Salt (48 → 3)
    plan = adv.default_plan(holder(*hand, treasury=500))
    assert Counter(plan.spend) == Counter({"salt": 3})  # worth 27: no card alone; the cheapest, helped
    assert plan.cart == (c.POTTERY,)  # 45 (Cloth Making ties on price and value: catalogue order)
    owned = frozenset({c.MYSTICISM, c.DRAMA_POETRY, c.ARCHITECTURE})
    paid_alone = adv.default_plan(holder(*hand, treasury=500, owned=owned))
    assert paid_alone.cart == (c.MUSIC,)  # 60 - 15 = 45 ties with Pottery: the dearer printed value
    assert adv.default_plan(holder(*hand, owned=owned)).discard == ("salt",) * 3  # no treasury to help


def test_f_t6_default_discards_frozen_grain_and_spends_the_rest() -> None:
    hand = ("grain",) + ("gold",) * 5 + ("ivory",) * 4  # 10 cards: 2 over
    plan = adv.default_plan(holder(*hand, frozen=("grain",)))
    assert "grain" in plan.discard and "grain" not in plan.spend
    two = ("grain", "grain") + ("gold",) * 5 + ("ivory",) * 2  # 1 over: a Grain, and one of them is free
    plan = adv.default_plan(holder(*two, treasury=100, frozen=("grain",)))
    assert plan == adv.Plan((c.POTTERY,), ("grain",), ())


def test_f_t6_least_loss_keeps_the_dearest_sets() -> None:
    """Greedy would drop the single Iron (loss 2) then a Hides (loss 3): dropping both Hides loses 4."""
    assert Counter(adv.least_loss(("hides", "hides", "iron"), 2)) == Counter({"hides": 2})
    assert adv.least_loss(("gold", "treachery", "ochre"), 1) == ("treachery",)


def test_32_effects_of_phases_9_to_12_are_listed_with_their_sections() -> None:
    assert {(e.card, e.phase) for e in adv.EFFECTS} >= {(c.MINING, 12), (c.POTTERY, 12), (c.MINING, 13)}
    assert all(e.section and e.effect for e in adv.EFFECTS)
    prerequisite_rows = {e.card for e in adv.EFFECTS if e.section == "31.62"}
    assert prerequisite_rows == {card.requires for card in c.CIV_CARDS.values() if card.requires}


# --- properties ---------------------------------------------------------------------------------------

COMMODITY_KEYS = sorted(tc.COMMODITIES)
hands = st.lists(st.sampled_from(COMMODITY_KEYS), max_size=14)
owned_cards = st.frozensets(st.sampled_from(sorted(c.CIV_CARDS)), max_size=8)


@settings(max_examples=150, deadline=None)
@given(
    hand=hands,
    owned=owned_cards,
    treasury=st.integers(0, 120),
    cart=st.lists(st.sampled_from(sorted(c.CIV_CARDS)), max_size=3),
    data=st.data(),
)
def test_31_41_payment_never_overspends_and_conserves_cards(
    hand: list[str], owned: frozenset[str], treasury: int, cart: list[str], data: st.DataObject
) -> None:
    spend = data.draw(st.lists(st.sampled_from(hand), max_size=len(hand)) if hand else st.just([]))
    buyer = Holder(owned, tuple(hand), treasury)
    try:
        done = adv.checkout(buyer, cart, spend, hand_limit=99)
    except RuleError:
        return
    paid = done.payment
    assert 0 <= paid.treasury <= treasury
    assert paid.cards_value + paid.treasury >= paid.price
    assert paid.treasury == max(0, paid.price - paid.cards_value)  # the treasury only pays what is owed
    assert Counter(done.hand) + Counter(done.returned) == Counter(hand)


@settings(max_examples=100, deadline=None)
@given(hand=hands, owned=owned_cards, treasury=st.integers(0, 300), limit=st.integers(4, 8))
def test_f_t6_default_is_always_legal_and_reaches_the_limit(
    hand: list[str], owned: frozenset[str], treasury: int, limit: int
) -> None:
    frozen = tuple(card for card in hand if card == "grain")[:1]
    buyer = Holder(owned, tuple(hand), treasury, frozen)
    plan = adv.default_plan(buyer, limit)
    done = adv.checkout(buyer, plan.cart, plan.spend, plan.discard, hand_limit=limit)
    assert len(done.hand) == min(len(hand), limit)
    assert len(plan.cart) <= 1 and (plan.cart or not plan.spend)


def test_f_t2_the_quote_shows_prices_credits_and_what_the_treasury_still_owes() -> None:
    buyer = holder("grain", "grain", "grain", "gold", owned=frozenset({c.MYSTICISM}), treasury=30)
    shown = adv.quote(buyer, [c.MUSIC, c.DEISM], ["grain", "grain", "grain"])
    assert shown.lines == (adv.Price(c.MUSIC, 60, 5, 55), adv.Price(c.DEISM, 80, 15, 65))
    assert (shown.price, shown.cards_value, shown.treasury, shown.lost) == (120, 36, 84, 0)
    over = adv.quote(buyer, [c.MUSIC], ["grain", "grain", "grain", "gold"])
    assert (over.treasury, over.lost) == (10, 0)
    gold = holder("gold", "gold", "gold")
    assert adv.quote(gold, [c.POTTERY], gold.hand).lost == 81 - 45  # no change (§31.58)


@settings(max_examples=100, deadline=None)
@given(
    hand=hands,
    owned=owned_cards,
    treasury=st.integers(0, 300),
    limit=st.integers(4, 8),
    seed=st.integers(0, 2**32),
)
def test_31_random_play_plans_are_legal_checkouts(
    hand: list[str], owned: frozenset[str], treasury: int, limit: int, seed: int
) -> None:
    frozen = tuple(card for card in hand if card == "grain")[:1]
    buyer = Holder(owned, tuple(hand), treasury, frozen)
    plan = adv.random_plan(buyer, random.Random(seed).randrange, limit)
    done = adv.checkout(buyer, plan.cart, plan.spend, plan.discard, hand_limit=limit)
    assert len(done.hand) <= limit and done.treasury_spent <= treasury


def test_31_random_play_plans_sometimes_buy_and_always_reach_the_limit() -> None:
    buyer = holder(*["salt"] * 6 + ["gold"] * 4 + ["ochre"] * 2, treasury=40)
    plans = [adv.random_plan(buyer, random.Random(seed).randrange) for seed in range(40)]
    assert any(plan.cart for plan in plans) and any(not plan.cart for plan in plans)
    for plan in plans:
        assert len(adv.checkout(buyer, plan.cart, plan.spend, plan.discard).hand) <= adv.HAND_LIMIT
