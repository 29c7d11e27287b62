"""Trade cards (§7–§9, §15.2, §27, §28.51, §29.7) and the site's deck options (F-F7 to F-F11)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.advciv import trade_cards as tc
from app.games.advciv.trade_cards import CALAMITIES, FULL_DECK, TradeCardOptions
from app.games.contract import RuleError


def rand(seed: int = 0) -> tc.RandBelow:
    return random.Random(seed).randrange


def empty_hands(players: int) -> tc.Hands:
    return ((),) * players


def test_8_1_eighteen_commodities_twelve_calamities_126_cards() -> None:
    assert len(tc.COMMODITIES) == 18 and len(CALAMITIES) == 12
    assert sum(FULL_DECK.values()) == 126
    deck = tc.build_deck(5, rand())
    assert [len(stack) for stack in deck] == [14, 17, 19, 17, 15, 12, 12, 10, 10]
    assert all(tc.stack_of(card) == number for number, stack in enumerate(deck, 1) for card in stack)
    assert {c.key for c in CALAMITIES.values() if not c.tradable} == {
        "volcano_earthquake",
        "famine",
        "civil_war",
        "flood",
    }


def test_8_1_face_value_is_the_stack_number() -> None:
    assert tc.COMMODITIES["ochre"].value == 1 and tc.COMMODITIES["ivory"].value == 9
    assert (tc.COMMODITIES["salt"].count, tc.COMMODITIES["dye"].count) == (9, 4)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_15_2_calamities_kept_out_of_the_first_draws(players: int) -> None:
    for seed in range(10):
        deck = tc.build_deck(players, rand(seed))
        assert not any(tc.is_calamity(card) for card in deck[0])  # stack 1 has none
        for stack in deck[1:]:
            assert not any(tc.is_calamity(card) for card in stack[:players])
            non_tradable = [c for c in stack if tc.is_calamity(c) and not CALAMITIES[c].tradable]
            if non_tradable:
                assert stack[-1] == non_tradable[0]  # at the very bottom


def test_15_2_tradable_calamity_shuffled_into_its_stack() -> None:
    places = {tc.build_deck(3, rand(seed))[5].index("epidemic") for seed in range(40)}
    assert len(places) > 3 and min(places) >= 3


def test_f_f10_calamity_shuffle_puts_the_non_tradable_one_in_the_bottom_three() -> None:
    options = TradeCardOptions(calamity_shuffle=True)
    depths = set()
    for seed in range(40):
        deck = tc.build_deck(4, rand(seed), options)
        depths.add(len(deck[2]) - deck[2].index("famine"))
    assert depths == {1, 2, 3}


def test_f_f_options_have_the_sites_defaults() -> None:
    options = TradeCardOptions()
    assert options.stack_counts_visible and not options.calamity_position_visible
    assert not options.hide_upcoming_calamities and not options.calamity_shuffle and not options.stoic
    with pytest.raises(ValueError):
        TradeCardOptions.model_validate({"no_such_option": True})


def test_f_f7_f_f8_what_players_see_of_the_stacks() -> None:
    deck = tc.build_deck(3, rand())
    shown = tc.public_stacks(deck)
    assert [view.cards for view in shown] == [len(stack) for stack in deck]
    assert all(view.calamity_depth is None for view in shown)
    hidden = tc.public_stacks(
        deck, TradeCardOptions(stack_counts_visible=False, calamity_position_visible=True)
    )
    assert all(view.cards is None for view in hidden)
    assert hidden[1].calamity_depth == (17,) and hidden[0].calamity_depth == ()


def test_f_f9_hiding_upcoming_calamities_shows_only_the_active_one() -> None:
    revealed = ["famine", "flood", "piracy"]
    assert tc.shown_calamities(revealed, 1) == ("famine", "flood", "piracy")
    assert tc.shown_calamities(revealed, 1, TradeCardOptions(hide_upcoming_calamities=True)) == ("flood",)


def test_27_1_fewest_cities_draw_first_ties_in_ast_order() -> None:
    assert tc.draw_order([3, 1, 3, 0], [4, 3, 1, 2]) == (3, 1, 2, 0)


def test_27_2_one_card_from_each_stack_up_to_the_number_of_cities() -> None:
    deck = tc.build_deck(3, rand())
    drawn = tc.draw(deck, empty_hands(3), [2, 0, 11], [1, 2, 3])
    assert drawn.hands[0] == (deck[0][0], deck[1][0])
    assert drawn.hands[1] == ()
    assert drawn.hands[2] == tuple(stack[0] if i >= 2 else stack[1] for i, stack in enumerate(deck))
    assert [seat for seat, _, _ in drawn.draws] == [0, 0] + [2] * 9


def test_27_21_an_empty_stack_gives_nothing() -> None:
    deck = tc.build_deck(3, rand())
    deck = (deck[0], (), *deck[2:])
    drawn = tc.draw(deck, empty_hands(2), [3, 3], [1, 2])
    assert [stack for _, stack, _ in drawn.draws] == [1, 3, 1, 3]


def test_27_51_stack_nine_bought_at_18_before_anyone_draws() -> None:
    deck = tc.build_deck(3, rand())
    bought = tc.buy_gold(deck, empty_hands(3), [0, 2, 0], [10, 40, 0], tc.draw_order([1, 5, 0], [1, 2, 3]))
    assert bought.spent == (0, 36, 0)
    assert bought.hands[1] == deck[8][:2]
    assert bought.deck[8] == deck[8][2:]
    with pytest.raises(RuleError) as refused:
        tc.buy_gold(deck, empty_hands(3), [1, 0, 0], [17, 0, 0], (0, 1, 2))
    assert refused.value.code == "gold_unaffordable"
    assert tc.gold_limit(40, deck) == 2 and tc.gold_limit(500, deck) == 10


def test_27_51_buyers_pay_only_for_the_cards_the_stack_still_holds() -> None:
    deck = tc.build_deck(3, rand())
    deck = (*deck[:8], deck[8][:3])
    bought = tc.buy_gold(deck, empty_hands(2), [2, 2], [36, 36], (1, 0))
    assert bought.spent == (18, 36) and bought.deck[8] == ()


def test_28_51_set_value_is_count_squared_times_face_value_capped_at_the_count() -> None:
    assert [tc.set_value("iron", n) for n in range(1, 9)] == [2, 8, 18, 32, 50, 72, 98, 128]
    assert tc.set_value("ivory", 4) == 144 and tc.set_value("ivory", 5) == 144
    # §31.58's example: three Grain, two Papyrus and one Hides make 45
    hand = ["grain", "grain", "grain", "papyrus", "papyrus", "hides", "famine"]
    assert tc.hand_value(hand) == 36 + 8 + 1


def test_32_261_mining_one_card_more_in_the_best_metal_set_within_the_printed_limit() -> None:
    assert tc.hand_value(["iron", "iron", "gold"], mining=True) == 8 + 36
    assert tc.hand_value(["ivory"] * 4, mining=True) == 144  # no metal: nothing
    assert tc.hand_value(["gold"] * 5, mining=True) == 225  # at the printed limit already


def test_29_7_calamities_and_spent_cards_go_back_under_their_stacks() -> None:
    deck = tc.build_deck(3, rand())
    stack3 = list(deck[2])
    for card in ("famine", "superstition", "salt", "salt"):
        stack3.remove(card)
    deck = (*deck[:2], tuple(stack3), *deck[3:])
    back = tc.return_cards(deck, ["salt", "famine", "hides", "superstition", "salt"], rand(1))
    assert back[2][: len(stack3)] == tuple(stack3)  # the stack's own cards stay on top
    assert sorted(back[2][len(stack3) : -1]) == ["salt", "salt", "superstition"]  # shuffled together
    assert back[2][-1] == "famine"  # the non-tradable one at the very bottom
    assert back[0][-1] == "hides" and back[0][:-1] == deck[0]
    orders = {
        tc.return_cards(deck, ["salt", "superstition", "salt"], rand(seed))[2][-3:] for seed in range(20)
    }
    assert len(orders) == 3


def test_29_7_returned_non_tradable_calamity_with_the_shuffle_option() -> None:
    deck = tc.build_deck(3, rand())
    stack3 = tuple(c for c in deck[2] if c != "famine")
    deck = (*deck[:2], stack3, *deck[3:])
    depths = {
        len(back[2]) - back[2].index("famine")
        for seed in range(30)
        for back in [tc.return_cards(deck, ["famine"], rand(seed), TradeCardOptions(calamity_shuffle=True))]
    }
    assert depths == {1, 2, 3}


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    turns=st.integers(1, 4),
    shuffle=st.booleans(),
)
def test_cards_are_conserved_through_builds_draws_buys_and_returns(
    players: int, seed: int, turns: int, shuffle: bool
) -> None:
    """Every card is in exactly one stack, hand or the discard, whatever the draws."""
    rng = random.Random(seed)
    options = TradeCardOptions(calamity_shuffle=shuffle)
    deck = tc.build_deck(players, rng.randrange, options)
    hands: tc.Hands = empty_hands(players)
    discard: list[str] = []
    assert tc.census(deck, hands, discard) == FULL_DECK
    for _ in range(turns):
        cities = [rng.randrange(0, 10) for _ in range(players)]
        ranks = rng.sample(range(1, players + 1), players)
        order = tc.draw_order(cities, ranks)
        treasury = [rng.randrange(0, 60) for _ in range(players)]
        wants = [rng.randrange(0, tc.gold_limit(t, deck) + 1) for t in treasury]
        bought = tc.buy_gold(deck, hands, wants, treasury, order)
        assert sum(bought.spent) == tc.GOLD_PRICE * sum(1 for _, stack, _ in bought.draws if stack == 9)
        drawn = tc.draw(bought.deck, bought.hands, cities, ranks)
        deck, hands = drawn.deck, drawn.hands
        assert tc.census(deck, hands, discard) == FULL_DECK
        # calamities and some commodities leave the hands for the discard, then go back under the stacks
        kept = []
        for hand in hands:
            keep = [c for c in hand if not tc.is_calamity(c) and rng.random() < 0.5]
            discard += list((Counter(hand) - Counter(keep)).elements())
            kept.append(tuple(keep))
        hands = tuple(kept)
        assert tc.census(deck, hands, discard) == FULL_DECK
        deck = tc.return_cards(deck, discard, rng.randrange, options)
        discard = []
        assert tc.census(deck, hands, discard) == FULL_DECK
        assert all(tc.stack_of(card) == n for n, stack in enumerate(deck, 1) for card in stack)
