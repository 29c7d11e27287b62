"""Phases 9 and 11 played on the state: stack-9 purchases and draws (§27), the calamities revealed, capped,
resolved by whoever drew them through waits (§29, §30), the support checks (§29.8, §30.42), Monotheism
(§32.94) and the cards back under their stacks (§29.7); barbarians and pirate cities on the board."""

from __future__ import annotations

import random

import pytest

from app.games.advciv import RULES, flow
from app.games.advciv import calamities as cal
from app.games.advciv.model import State, conserved
from app.games.advciv.tables import INDEX
from app.games.advciv.trade_cards import CALAMITIES
from app.games.advciv.tx import Tx
from app.games.contract import RuleError
from app.games.kit.model import evolve
from tests.games.advciv.helpers import begin, blank, deal, play, tokens, units, waited
from tests.games.advciv.test_properties import rich_start

AFRICA, CRETE, THRACE = 0, 1, 2
FIVE = ["carthago", "cyrene", "athens", "corinth", "argos"]


def reveal(state: State) -> State:
    """Phase 11 begun on this position (after the draws), with whatever is automatic."""
    return revealed(state)[0]


def revealed(state: State) -> tuple[State, list[dict[str, object]]]:
    tx = Tx(state)
    flow.begin_calamities(tx)
    flow.advance(tx)
    return tx.state, [e.data for e in tx.events if e.kind == "calamity_resolved"]


def events(state: State, seat: int, order: dict[str, object], kind: str) -> list[dict[str, object]]:
    return [e.data for e in RULES.apply(state, seat, order).events if e.kind == kind]


# --- phase 9 -----------------------------------------------------------------------------------------


def test_27_51_only_seats_with_18_in_treasury_are_asked_and_bought_cards_come_first() -> None:
    state = units(blank(), AFRICA, {"numidia": 2}, cities=["carthago", "cyrene"], treasury=40)
    state = units(state, CRETE, {}, cities=["knossos"], treasury=17)
    state = begin(state, "gold")
    assert state.phase == "gold" and waited(state) == [AFRICA]
    assert RULES.waits(state)[0].simultaneous and RULES.waits(state)[0].first_in_phase
    assert [c["order"]["cards"] for c in RULES.view(state, AFRICA)["legal"]["choices"]] == [0, 1, 2]
    assert RULES.default_order(state, AFRICA) == {"type": "gold", "cards": 0}
    top9 = state.deck[8][:2]
    top1, second1, top2 = state.deck[0][0], state.deck[0][1], state.deck[1][0]
    outcome = RULES.apply(state, AFRICA, {"type": "gold", "cards": 2})
    after = outcome.state
    # Crete (1 city) draws before Africa (2 cities): the first card of stack 1 is Crete's
    assert after.hands[CRETE] == (top1,)
    assert after.hands[AFRICA] == (*top9, second1, top2)
    assert (
        after.players[AFRICA].treasury == 4
        and after.players[AFRICA].stock == state.players[AFRICA].stock + 36
    )
    drawn = {e.data["seat"]: e for e in outcome.events if e.kind == "cards_drawn"}
    assert drawn[AFRICA].to == frozenset({AFRICA}) and drawn[CRETE].to == frozenset({CRETE})
    (public,) = [e for e in outcome.events if e.kind == "trade_cards_drawn"]
    assert public.to is None and public.data["cards"] == [4, 1, 0] and public.data["bought"] == [2, 0, 0]
    assert conserved(after)


def test_27_21_an_empty_stack_gives_nothing_in_its_place() -> None:
    state = units(blank(), AFRICA, {}, cities=["carthago", "cyrene"])
    state = deal(state, THRACE, list(state.deck[1]))  # stack 2 emptied into Thrace's hand
    tx = Tx(state)
    flow.begin_trade_cards(tx)
    flow.advance(tx)
    assert len(tx.state.hands[AFRICA]) == 1 and tx.state.hands[AFRICA][0] == state.deck[0][0]


# --- phase 11: reveal, cap, order --------------------------------------------------------------------


@pytest.mark.parametrize(("stoic", "resolved"), [(False, 2), (True, 3)])
def test_29_5_at_most_two_as_primary_victim_unless_stoic(stoic: bool, resolved: int) -> None:
    state = units(blank(), AFRICA, {}, cities=FIVE)
    state = deal(state, AFRICA, ["superstition", "civil_disorder", "iconoclasm_heresy"])
    if stoic:
        state = evolve(state, options=(*state.options, "stoic"))
    tx = Tx(state)
    flow.begin_calamities(tx)
    (revealed,) = [e for e in tx.events if e.kind == "calamities_revealed"]
    assert revealed.to is None and revealed.data["count"] == resolved
    assert len(revealed.data["ignored"]) == 3 - resolved
    assert [card for card, _, _ in tx.state.calamities] == [
        card for card in cal.ORDER if card in {h["card"] for h in revealed.data["calamities"]}
    ]
    assert tx.state.hands[AFRICA] == () and len(tx.state.discard) == 3 and conserved(tx.state)


def finish_phase(state: State) -> tuple[State, list[dict[str, object]]]:
    """Every wait of phase 11 answered by default; the calamities resolved."""
    resolved = []
    while state.phase in ("calamity", "calamity_support"):
        wait = RULES.waits(state)[0]
        outcome = RULES.apply(state, wait.seat, RULES.default_order(state, wait.seat))
        resolved += [e.data for e in outcome.events if e.kind == "calamity_resolved"]
        state = outcome.state
    return state, resolved


def test_29_61_the_trader_recorded_is_never_a_secondary_victim() -> None:
    state = units(blank(), AFRICA, {"numidia": 2, "tunisia": 2}, cities=["carthago"])
    state = units(state, CRETE, {}, cities=["knossos", "phaestos"])
    state = units(state, THRACE, {}, cities=["athens", "corinth"])
    state = evolve(deal(state, AFRICA, ["epidemic"]), traded=(("epidemic", CRETE),))
    state = reveal(state)
    assert state.calamities[0] == ("epidemic", AFRICA, CRETE) and waited(state) == [AFRICA]
    state = play(state, AFRICA, RULES.default_order(state, AFRICA))
    assert waited(state) == [THRACE]  # the only eligible secondary victim takes the whole 10
    state, (resolved,) = finish_phase(state)
    assert resolved["traded_by"] == CRETE and str(CRETE) not in resolved["points"]  # type: ignore[operator]
    assert resolved["points"] == {str(AFRICA): 6, str(THRACE): 8}  # a token stays in every area hit


EAST = {0: "asia", 1: "assyria", 2: "babylon", 3: "egypt"}


def test_f_s3_timeout_a_famine_hand_out_goes_to_the_leaders() -> None:
    state = blank(4, EAST)
    state = units(state, 0, {"armenia": 3, "cappadocia": 1}, cities=["ankara", "gordium"])
    state = units(state, 1, {"assyria": 4}, cities=["niniveh", "carrhae"], treasury=9)
    state = units(state, 2, {"babylonia": 4}, cities=["babylon", "susa", "charax"])
    state = units(state, 3, {"cyrenaica": 2}, cities=["memphis", "tanis"])
    state = reveal(deal(state, 0, ["famine"]))
    assert waited(state) == [0] and RULES.waits(state)[0].first_in_phase
    view = RULES.view(state, 0)
    assert view["legal"]["prompt"] == "calamity_assign" and view["calamity"]["active"]["question"] == "assign"
    assert view["legal"]["context"]["due"] == 20
    # leaders by public score: Babylon (3 cities), then Assyria (2 cities and treasury), then Egypt
    assert RULES.default_order(state, 0) == {"type": "assign", "amounts": {"1": 8, "2": 8, "3": 4}}
    with pytest.raises(RuleError) as refused:
        RULES.apply(state, 0, {"type": "assign", "amounts": {1: 9, 2: 7, 3: 4}})
    assert refused.value.code == "assignment_cap"
    state = play(state, 0, {"type": "assign", "amounts": {1: 4, 2: 8, 3: 8}})
    assert not RULES.waits(state)[0].first_in_phase  # only the first seat asked in the phase
    assert waited(state) == [0] and RULES.view(state, 0)["legal"]["prompt"] == "calamity_lose"
    state = play(state, 0, RULES.default_order(state, 0))
    assert waited(state) == [1]  # the secondary victims then choose their units, in turn
    state, (resolved,) = finish_phase(state)
    assert resolved["points"] == {"0": 10, "1": 4, "2": 8, "3": 8}


def test_30_42_slave_revolt_checks_the_victims_support_at_once_and_until_the_phase_ends() -> None:
    eight = {"numidia": 2, "tunisia": 2, "thebes": 3, "sparta": 1, "knossos": 3, "phaestos": 2}
    state = units(blank(), AFRICA, eight, cities=["carthago", "cyrene"])
    state = reveal(deal(state, AFRICA, ["slave_revolt"]))
    assert state.phase == "calamity_support" and waited(state) == [AFRICA]
    assert state.unsupporting[AFRICA] == 13  # all 13 of its tokens (15, fewer on the board)
    state = play(state, AFRICA, {"type": "reduce", "area": "carthago"})  # 3 tokens: 16 - 13 support 1 city
    assert state.turn == 2 and state.unsupporting == (0, 0, 0)
    assert state.cities[INDEX["carthago"]] == -1 and state.cities[INDEX["cyrene"]] == AFRICA


def test_29_7_calamities_go_back_under_their_stacks_non_tradable_at_the_very_bottom() -> None:
    state = units(blank(), AFRICA, {}, cities=FIVE)
    state = deal(state, AFRICA, ["civil_war", "superstition"])
    state = reveal(state)
    while state.phase in ("calamity", "calamity_support"):
        (wait,) = RULES.waits(state)
        state = play(state, wait.seat, RULES.default_order(state, wait.seat))
    assert state.deck[3][-1] == "civil_war" and "superstition" in state.deck[2]
    assert state.discard == () and conserved(state)


def test_30_91_pirate_cities_stand_on_the_map_and_are_fought_like_cities() -> None:
    state = units(blank(), AFRICA, {"numidia": 8}, cities=["cyrene"])
    state = units(state, CRETE, {}, cities=["carthago", "knossos"])
    state = reveal(deal(state, CRETE, ["piracy"]))
    while state.phase == "calamity":
        (wait,) = RULES.waits(state)
        state = play(state, wait.seat, RULES.default_order(state, wait.seat))
    assert RULES.view(state, None)["pirates"] == ["carthago", "cyrene", "knossos"]
    assert state.cities[INDEX["carthago"]] == -1 and conserved(state)
    state = begin(state, "move")
    state = play(state, AFRICA, {"type": "move", "origin": "numidia", "to": "carthago", "tokens": 8})
    state = play(state, AFRICA, {"type": "done"})
    assert INDEX["carthago"] not in state.pirates and INDEX["cyrene"] in state.pirates
    assert state.phase == "conflict" and waited(state) == [AFRICA] and conserved(state)  # pillage, no card


def test_30_52_barbarians_stay_on_the_map_and_fight_tokens_that_move_in() -> None:
    state = units(blank(), AFRICA, {"numidia": 6})
    state = evolve(state, barbarians=((INDEX["carthago"], 3),))
    assert conserved(state)
    assert RULES.view(state, None)["barbarians"] == {"carthago": 3}
    state = begin(state, "move")
    state = play(state, AFRICA, {"type": "move", "origin": "numidia", "to": "carthago", "tokens": 6})
    state = play(state, AFRICA, {"type": "done"})
    assert state.barbarians == () and tokens(state, AFRICA, "carthago") > 0


@pytest.mark.parametrize("card", cal.ORDER)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_f_s3_every_calamity_played_through_its_waits_by_default(card: str, seed: int) -> None:
    """Each calamity on a board with cities everywhere: every wait's default is legal, the calamity is
    resolved in public, pieces and cards stay conserved, and its card goes back under its stack."""
    state = rich_start(blank(5), random.Random(seed), calamities=0)
    state, first = revealed(deal(state, seed % 5, [card]))
    state, resolved = finish_phase(state)
    resolved = first + resolved
    assert [r["card"] for r in resolved if r["card"] != cal.MONOTHEISM] == [card]
    assert conserved(state) and card in state.deck[CALAMITIES[card].stack - 1]
