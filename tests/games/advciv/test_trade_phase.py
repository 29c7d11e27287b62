"""Phase 10 played on the state (§28, §29.61, site F-I, F-R): who is in the market and awaited, offers with
their lies, "Don't Care" and "Unspecified" slots, calamities passed on, the embargo and the clock's order
that ends it, "done" and coming back, the close, crossing acceptances, and who is told what."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from app.games.advciv import RULES, AdvcivOptions, flow, trading
from app.games.advciv.market import DONT_CARE, UNSPECIFIED
from app.games.advciv.model import NOBODY, State, conserved
from app.games.advciv.orders import DoneOrder
from app.games.advciv.tx import Tx
from app.games.contract import Event, RuleError
from app.games.kit.model import evolve
from tests.games.advciv.helpers import NATIONS_3, begin, blank, deal, units, waited

AFRICA, CRETE, THRACE = 0, 1, 2  # the market's order is the A.S.T. order: Africa, Thrace, Crete
EMBARGO_OVER = dict(RULES.clock_order)


def on_board(players: int = 3) -> State:
    """A blank game with a few tokens of every seat (so that the map is never empty)."""
    state = blank(players)
    for seat, area in zip(range(3), ("tunisia", "knossos", "thrace"), strict=True):
        state = units(state, seat, {area: 2})
    return state


def dealt(hands: Mapping[int, list[str]], state: State | None = None) -> State:
    state = on_board() if state is None else state
    for seat, cards in hands.items():
        state = deal(state, seat, cards)
    return state


def opened(hands: Mapping[int, list[str]], state: State | None = None) -> State:
    """Phase 10 begun after phase 9 on these hands (the embargo on)."""
    return begin(dealt(hands, state), "trade")


STANDARD = {
    AFRICA: ["salt", "salt", "ochre", "hides", "superstition"],
    CRETE: ["grain", "grain", "iron", "papyrus", "slave_revolt"],
    THRACE: ["wine", "cloth", "oil", "timber"],
}


def send(state: State, seat: int, order: Mapping[str, Any]) -> tuple[State, list[Event]]:
    outcome = RULES.apply(state, seat, order)
    assert conserved(outcome.state)
    return outcome.state, outcome.events


def refused(state: State, seat: int, order: Mapping[str, Any]) -> str:
    """The RuleError's code; the state is unchanged (its dump equal before and after)."""
    before = json.dumps(RULES.dump(state), sort_keys=True)
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, seat, order)
    assert json.dumps(RULES.dump(state), sort_keys=True) == before
    return caught.value.code


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]


def offer(to: int, cards: list[str], expects: list[str], said: list[str] | None = None) -> dict[str, Any]:
    return {"type": "offer", "to": to, "cards": cards, "said": said or [], "expects": expects}


def accept(offer_id: int, cards: list[str], said: list[str] | None = None) -> dict[str, Any]:
    return {"type": "accept", "offer": offer_id, "cards": cards, "said": said or []}


def lifted(state: State) -> State:
    state, _ = send(state, AFRICA, EMBARGO_OVER)
    assert state.market is not None and not state.market.embargo
    return state


def last_offer(state: State) -> int:
    assert state.market is not None
    return state.market.offers[-1].id


# --- opening and waits --------------------------------------------------------------------------------


def test_28_3_the_market_opens_after_phase_9_to_the_seats_with_3_cards() -> None:
    state = dealt({AFRICA: ["salt", "salt", "ochre"], CRETE: ["grain", "iron"], THRACE: ["wine"] * 3})
    tx = Tx(state)
    flow.begin_trade_cards(tx)  # nobody can buy stack-9 cards: the draws, then the market
    flow.advance(tx)
    after = tx.state
    assert after.phase == "trade" and after.market is not None and after.market.embargo
    (opening,) = kinds(tx.events, "market_opened")
    drawn = [len(hand) for hand in after.hands]
    able = [seat for seat in flow.ast_order(after) if drawn[seat] >= 3]
    assert opening.data["seats"] == able == list(after.order)
    assert waited(after) == able
    for wait in RULES.waits(after):
        assert wait.market and wait.simultaneous and not wait.first_in_phase  # the market's window, no 1.5x
        assert wait.phase == "trade"


def test_28_3_a_seat_with_fewer_than_3_cards_is_not_awaited_and_cannot_be_offered_to() -> None:
    state = opened({AFRICA: ["salt", "salt", "ochre"], CRETE: ["grain", "iron"], THRACE: ["wine"] * 3})
    assert waited(state) == [AFRICA, THRACE] and state.order == (AFRICA, THRACE)
    assert RULES.view(state, CRETE)["market"]["can_trade"] is False
    assert refused(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain"] * 3)) == (
        "partner_too_few_cards"
    )
    assert refused(state, CRETE, offer(AFRICA, ["grain", "iron"], ["salt"] * 3)) == "trade_too_small"
    assert refused(state, CRETE, {"type": "done"}) == "wrong_order"  # not in the market, nothing to leave


def test_28_3_fewer_than_two_traders_no_market() -> None:
    state = dealt({AFRICA: ["salt", "salt", "ochre"], CRETE: ["grain", "iron"], THRACE: ["wine"]})
    tx = Tx(state)
    flow.begin_trade(tx)
    (skipped,) = kinds(tx.events, "market_skipped")
    assert skipped.data["seats"] == [AFRICA]
    assert tx.state.market is None and tx.state.phase == "calamity"


# --- offers -------------------------------------------------------------------------------------------


def test_28_3_an_offer_needs_3_cards_each_way_and_two_true_cards() -> None:
    state = opened(STANDARD)
    assert refused(state, AFRICA, offer(CRETE, ["salt", "salt"], ["grain"] * 3)) == "trade_too_small"
    assert refused(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain"] * 2)) == "trade_too_small"
    two_lies = offer(CRETE, ["salt", "ochre", "hides"], ["grain"] * 3, said=["salt", "gold", "gold"])
    assert refused(state, AFRICA, two_lies) == "trade_too_many_lies"
    one_lie = offer(CRETE, ["salt", "ochre", "hides"], ["grain"] * 3, said=["salt", "ochre", "gold"])
    after, _ = send(state, AFRICA, one_lie)
    assert after.market is not None and len(after.market.offers) == 1
    four = offer(
        CRETE, ["salt", "salt", "ochre", "hides"], ["grain"] * 3, said=["salt", "salt", "gold", "gold"]
    )
    assert send(state, AFRICA, four)[0].market is not None  # 2 lies out of 4: two true cards remain


def test_29_2_a_non_tradable_calamity_cannot_be_offered_nor_given() -> None:
    state = opened({AFRICA: ["salt", "salt", "famine"], CRETE: ["grain", "grain", "iron"]})
    order = offer(CRETE, ["salt", "salt", "famine"], ["grain", "grain", DONT_CARE], said=["salt"] * 3)
    assert refused(state, AFRICA, order) == "calamity_not_tradable"
    state, _ = send(state, CRETE, offer(AFRICA, ["grain", "grain", "iron"], ["salt", "salt", DONT_CARE]))
    assert refused(state, AFRICA, accept(last_offer(state), ["salt", "salt", "famine"])) == (
        "calamity_not_tradable"
    )
    assert refused(state, AFRICA, offer(CRETE, ["salt", "salt", "salt"], ["grain"] * 3)) == (
        "trade_cards_unavailable"
    )


def test_f_r5_dont_care_takes_salt_a_calamity_said_grain_and_a_calamity() -> None:
    """The site's example: expecting Salt, Grain, Don't Care, one may receive "Salt, Calamity (said to be
    Grain), Calamity"; the tradable calamities passed on name their trader in phase 11 (§29.61)."""
    hands = {
        AFRICA: ["ochre", "hides", "salt", "papyrus"],
        CRETE: ["salt", "superstition", "slave_revolt", "iron"],
    }
    state = lifted(opened(hands))
    state, _ = send(state, AFRICA, offer(CRETE, ["ochre", "hides", "salt"], ["salt", "grain", DONT_CARE]))
    answer = accept(
        last_offer(state), ["salt", "superstition", "slave_revolt"], said=["salt", "grain", "slave_revolt"]
    )
    state, events = send(state, CRETE, answer)
    assert Counter(state.hands[AFRICA]) == Counter(["papyrus", "salt", "superstition", "slave_revolt"])
    assert Counter(state.hands[CRETE]) == Counter(["iron", "ochre", "hides", "salt"])
    (announced,) = kinds(events, "trade_announced")
    assert announced.data["said"] == [["hides", "ochre", "salt"], ["grain", "salt", "slave_revolt"]]
    state, events = _close(state)
    (revealed,) = kinds(events, "calamities_revealed")
    queue = {(item["card"], item["seat"]): item["traded_by"] for item in revealed.data["calamities"]}
    assert queue == {("superstition", AFRICA): CRETE, ("slave_revolt", AFRICA): CRETE}
    resolved = {event.data["card"]: event.data["traded_by"] for event in kinds(events, "calamity_resolved")}
    assert resolved == {"superstition": CRETE, "slave_revolt": CRETE}


def test_29_61_the_trader_of_a_calamity_is_its_trader_in_phase_11() -> None:
    state = lifted(opened(STANDARD))
    given = offer(AFRICA, ["grain", "grain", "slave_revolt"], ["salt", "salt", DONT_CARE])
    state, _ = send(state, CRETE, given)
    state, _ = send(state, AFRICA, accept(last_offer(state), ["salt", "salt", "ochre"]))
    assert "slave_revolt" in state.hands[AFRICA]
    tx = Tx(state)
    for seat in trading.in_market(state):
        trading.trade(tx, seat, DoneOrder(type="done"))
    assert trading.settle(tx)
    assert tx.state.traded == (("slave_revolt", CRETE),)
    flow.begin_calamities(tx)
    entries = {card: (victim, trader) for card, victim, trader in tx.state.calamities}
    assert entries == {"slave_revolt": (AFRICA, CRETE), "superstition": (AFRICA, NOBODY)}


def test_f_r5_unspecified_must_be_said_unspecified() -> None:
    state = lifted(opened(STANDARD))
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "iron", UNSPECIFIED]))
    offer_id = last_offer(state)
    assert refused(state, CRETE, accept(offer_id, ["grain", "iron", "papyrus"])) == "trade_not_as_expected"
    said_grain = accept(offer_id, ["grain", "iron", "grain"], said=["grain", "iron", "grain"])
    assert refused(state, CRETE, said_grain) == "trade_not_as_expected"
    right = accept(offer_id, ["grain", "iron", "slave_revolt"], said=["grain", "iron", UNSPECIFIED])
    state, events = send(state, CRETE, right)
    (announced,) = kinds(events, "trade_announced")
    assert announced.data["said"][1] == ["grain", "iron", UNSPECIFIED]
    assert "slave_revolt" in state.hands[AFRICA]


def test_f_r5_named_slots_need_cards_said_to_be_them() -> None:
    state = lifted(opened(STANDARD))
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "iron", DONT_CARE]))
    offer_id = last_offer(state)
    assert refused(state, CRETE, accept(offer_id, ["grain", "grain", "papyrus"])) == "trade_not_as_expected"
    assert refused(state, CRETE, accept(offer_id, ["grain", "iron"])) == "trade_not_as_expected"
    lie_iron = accept(offer_id, ["grain", "grain", "papyrus"], said=["grain", "iron", "papyrus"])
    state, _ = send(state, CRETE, lie_iron)  # one lie: allowed, and Africa gets a second Grain, not Iron
    assert Counter(state.hands[AFRICA])["grain"] == 2 and "iron" not in state.hands[AFRICA]


# --- the embargo and the close -------------------------------------------------------------------------


def test_f_i1_an_acceptance_during_the_embargo_waits_and_the_clock_carries_them_out_in_order() -> None:
    state = opened(STANDARD | {CRETE: [*STANDARD[CRETE], "timber"]})
    hands = state.hands
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE]))
    first = last_offer(state)
    state, _ = send(state, THRACE, offer(CRETE, ["wine", "cloth", "oil"], ["iron", "papyrus", DONT_CARE]))
    second = last_offer(state)
    state, events = send(state, CRETE, accept(second, ["iron", "papyrus", "slave_revolt"]))
    (agreed,) = kinds(events, "trade_agreed")
    assert agreed.to == frozenset({THRACE, CRETE}) and not kinds(events, "trade_announced")
    assert state.hands == hands
    assert (
        refused(state, CRETE, accept(first, ["grain", "grain", "slave_revolt"])) == "trade_cards_unavailable"
    )
    state, events = send(state, CRETE, accept(first, ["grain", "grain", "timber"]))
    assert state.hands == hands and len(kinds(events, "trade_agreed")) == 1
    assert state.market is not None and [trade.id for trade in state.market.agreed] == [second, first]
    state, events = send(state, THRACE, EMBARGO_OVER)  # the clock's order, sent for any seat
    announced = kinds(events, "trade_announced")
    assert [event.data["seats"] for event in announced] == [[THRACE, CRETE], [AFRICA, CRETE]]
    assert kinds(events, "embargo_lifted")[0].data["trades"] == 2
    assert Counter(state.hands[CRETE]) == Counter(["wine", "cloth", "oil", "salt", "salt", "ochre"])
    assert state.market is not None and not state.market.embargo and not state.market.agreed


def test_f_i2_after_the_embargo_an_acceptance_is_carried_out_at_once() -> None:
    state = lifted(opened(STANDARD))
    assert refused(state, AFRICA, EMBARGO_OVER) == "embargo_over"
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE]))
    state, events = send(state, CRETE, accept(last_offer(state), ["grain", "grain", "papyrus"]))
    assert not kinds(events, "trade_agreed") and len(kinds(events, "trade_announced")) == 1
    assert Counter(state.hands[AFRICA]) == Counter(["hides", "superstition", "grain", "grain", "papyrus"])


def test_the_clock_s_order_is_accepted_from_a_seat_outside_the_market_only_during_the_trade_phase() -> None:
    state = opened({AFRICA: ["salt", "salt", "ochre"], CRETE: ["grain"] * 3, THRACE: ["wine"]})
    after, _ = send(state, THRACE, EMBARGO_OVER)
    assert after.market is not None and not after.market.embargo
    assert RULES.clock_order == {"type": "embargo_over"}
    elsewhere = begin(on_board(), "tax")
    assert refused(elsewhere, AFRICA, EMBARGO_OVER) in ("not_awaited", "wrong_order")


def _close(state: State) -> tuple[State, list[Event]]:
    """Every seat still in the market says "done"; the events of the last one (the close)."""
    events: list[Event] = []
    while state.phase == "trade":
        state, events = send(state, waited(state)[0], {"type": "done"})
    return state, events


def test_f_i3_when_every_seat_is_done_agreed_trades_execute_offers_lapse_and_phase_11_begins() -> None:
    state = opened(STANDARD)
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE]))
    state, _ = send(state, CRETE, accept(last_offer(state), ["grain", "grain", "papyrus"]))
    state, _ = send(
        state, THRACE, offer(AFRICA, ["wine", "cloth", "oil"], ["hides", "superstition", DONT_CARE])
    )
    state, _ = send(state, AFRICA, {"type": "done"})
    state, _ = send(state, THRACE, {"type": "done"})
    assert waited(state) == [CRETE]
    state, events = send(state, CRETE, {"type": "done"})
    assert state.phase != "trade" and state.market is None
    names = [event.kind for event in events]
    assert names.index("trade_announced") < names.index("market_closed") < names.index("calamities_revealed")
    (closed,) = kinds(events, "market_closed")
    assert closed.data["lapsed"] == 1  # Thrace's offer
    assert "wine" not in state.hands[AFRICA] and Counter(state.hands[THRACE]) == Counter(STANDARD[THRACE])
    assert Counter(state.hands[AFRICA])["grain"] == 2 or state.turn > 1  # (phase 12 may have spent them)


def test_f_r7_done_leaves_and_any_later_trade_order_brings_the_seat_back() -> None:
    state = opened(STANDARD)
    state, events = send(state, AFRICA, {"type": "done"})
    assert kinds(events, "market_left") and waited(state) == [THRACE, CRETE]
    assert refused(state, AFRICA, {"type": "done"}) == "wrong_order"
    assert RULES.view(state, AFRICA)["legal"]["prompt"] == "trade_left"
    state, events = send(
        state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE])
    )
    (back,) = kinds(events, "market_reentered")
    assert back.data["seat"] == AFRICA and waited(state) == [AFRICA, THRACE, CRETE]
    state, _ = send(state, CRETE, {"type": "done"})
    state, events = send(state, CRETE, {"type": "decline", "offer": last_offer(state)})
    assert kinds(events, "market_reentered") and CRETE in waited(state)


CROSSING = {
    AFRICA: ["salt", "salt", "ochre", "hides", "timber", "papyrus"],
    CRETE: ["grain", "grain", "iron", "wine", "cloth", "oil"],
}


@pytest.mark.parametrize("embargo", [True, False])
def test_28_1_crossing_acceptances_never_duplicate_or_lose_a_card(embargo: bool) -> None:
    """Africa and Crete each make the other an offer; Africa accepts Crete's, then Crete Africa's: neither
    acceptance may use cards promised in the other seat's offer or already given, whether the first
    trade waits for the embargo or is carried out at once."""
    state = opened(CROSSING)
    if not embargo:
        state = lifted(state)
    total = Counter(card for hand in state.hands for card in hand)
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", DONT_CARE, DONT_CARE]))
    africa_offer = last_offer(state)
    state, _ = send(state, CRETE, offer(AFRICA, ["grain", "grain", "iron"], ["hides", "timber", DONT_CARE]))
    crete_offer = last_offer(state)
    # Africa's salt is promised in its own offer
    assert (
        refused(state, AFRICA, accept(crete_offer, ["hides", "timber", "salt"])) == "trade_cards_unavailable"
    )
    state, _ = send(state, AFRICA, accept(crete_offer, ["hides", "timber", "papyrus"]))
    # Crete's grain is promised to the trade just agreed, or already given
    assert (
        refused(state, CRETE, accept(africa_offer, ["grain", "wine", "cloth"])) == "trade_cards_unavailable"
    )
    state, _ = send(
        state, CRETE, accept(africa_offer, ["wine", "cloth", "oil"], said=["grain", "cloth", "oil"])
    )
    if embargo:
        assert state.hands == opened(CROSSING).hands
        state, _ = send(state, CRETE, EMBARGO_OVER)
    assert Counter(state.hands[AFRICA]) == Counter(["grain", "grain", "iron", "wine", "cloth", "oil"])
    assert Counter(state.hands[CRETE]) == Counter(["hides", "timber", "papyrus", "salt", "salt", "ochre"])
    assert Counter(card for hand in state.hands for card in hand) == total


def test_rule_errors_leave_the_state_unchanged() -> None:
    state = opened(STANDARD)
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE]))
    offer_id = last_offer(state)
    bad: list[tuple[int, dict[str, Any], str]] = [
        (AFRICA, offer(AFRICA, ["salt", "hides", "superstition"], ["grain"] * 3), "trade_partner"),
        (AFRICA, offer(7, ["salt", "hides", "superstition"], ["grain"] * 3), "trade_partner"),
        (AFRICA, offer(CRETE, ["hides", "superstition", "gold"], ["grain"] * 3), "trade_cards_unavailable"),
        (AFRICA, offer(CRETE, ["hides", "superstition", "salt"], ["nothing"] * 3), "unknown_trade_card"),
        (AFRICA, offer(CRETE, ["hides", "superstition", "salt"], ["famine"] * 3), "unknown_trade_card"),
        (AFRICA, accept(offer_id, ["hides", "superstition", "salt"]), "offer_not_to_you"),
        (THRACE, {"type": "decline", "offer": offer_id}, "no_such_offer"),  # as if unknown
        (CRETE, {"type": "withdraw", "offer": offer_id}, "not_your_offer"),
        (CRETE, {"type": "decline", "offer": 99}, "no_such_offer"),
        (CRETE, accept(offer_id, ["grain", "grain", "grain"]), "trade_cards_unavailable"),
        (CRETE, {"type": "buy"}, "wrong_order"),
    ]
    for seat, order, code in bad:
        assert refused(state, seat, order) == code, order


def test_a_counter_closes_the_first_offer_and_goes_back_to_its_author() -> None:
    state = lifted(opened(STANDARD))
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE]))
    first = last_offer(state)
    countered = {
        "type": "counter",
        "offer": first,
        "cards": ["grain", "iron", "papyrus"],
        "said": [],
        "expects": ["salt", "salt", "hides"],
    }
    state, events = send(state, CRETE, countered)
    assert kinds(events, "offer_closed")[0].data["reason"] == "countered"
    assert state.market is not None and [o.id for o in state.market.offers] == [first + 1]
    state, _ = send(state, AFRICA, accept(first + 1, ["salt", "salt", "hides"]))
    assert Counter(state.hands[CRETE])["salt"] == 2


# --- who is told what ---------------------------------------------------------------------------------


def test_f_r4_an_offer_goes_to_its_two_seats_with_the_said_cards_only() -> None:
    state = opened(STANDARD)
    lie = offer(CRETE, ["salt", "salt", "superstition"], ["grain", "grain", DONT_CARE], said=["salt"] * 3)
    state, events = send(state, AFRICA, lie)
    (made,) = kinds(events, "offer_made")
    assert made.to == frozenset({AFRICA, CRETE})
    assert made.data["said"] == ["salt", "salt", "salt"] and "superstition" not in json.dumps(made.data)
    partner = RULES.view(state, CRETE)["market"]
    assert partner["incoming"][0]["said"] == ["salt", "salt", "salt"]
    assert "superstition" not in json.dumps(partner)
    author = RULES.view(state, AFRICA)["market"]
    assert author["outgoing"][0]["cards"] == ["salt", "salt", "superstition"]
    assert "superstition" not in author["available"] and author["available"] == ["hides", "ochre"]
    third = RULES.view(state, THRACE)["market"]
    assert third["incoming"] == [] and third["outgoing"] == [] and "salt" not in json.dumps(third)
    spectator = RULES.view(state, None)["market"]
    assert set(spectator) == {"embargo", "traders", "in_market"}


@pytest.mark.parametrize("mailed", [True, False])
def test_f_r8_the_announcement_is_public_and_says_what_was_said_the_cards_go_to_their_seat(
    mailed: bool,
) -> None:
    options = AdvcivOptions(draft=NATIONS_3, announce_trades=mailed)
    assert RULES.new_game(options, 3, 1).trade_mail is mailed
    state = lifted(opened(STANDARD, evolve(on_board(), trade_mail=mailed)))
    lie = offer(CRETE, ["salt", "salt", "superstition"], ["grain", "grain", DONT_CARE], said=["salt"] * 3)
    state, _ = send(state, AFRICA, lie)
    state, events = send(state, CRETE, accept(last_offer(state), ["grain", "grain", "papyrus"]))
    (announced,) = kinds(events, "trade_announced")
    assert announced.to is None and announced.mail is mailed
    assert announced.data == {"seats": [AFRICA, CRETE], "said": [["salt"] * 3, ["grain", "grain", "papyrus"]]}
    received = {event.data["seat"]: event for event in kinds(events, "cards_received")}
    assert received[CRETE].to == frozenset({CRETE}) and received[AFRICA].to == frozenset({AFRICA})
    assert received[CRETE].data["cards"] == ["salt", "salt", "superstition"]
    assert received[AFRICA].data["cards"] == ["grain", "grain", "papyrus"]
    for event in events:  # the lie's real card: to its giver, and to its taker once received
        if event.to is None or THRACE in event.to:
            assert "superstition" not in json.dumps(event.data), event


def _answer(state: State, seat: int, order: Mapping[str, Any]) -> tuple[str, str]:
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, seat, order)
    return caught.value.code, caught.value.template


def test_a_third_seat_cannot_tell_an_open_offer_between_others_from_a_closed_or_unknown_one() -> None:
    state = opened(STANDARD)
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE]))
    closed = last_offer(state)
    state, _ = send(state, CRETE, {"type": "decline", "offer": closed})
    state, _ = send(state, AFRICA, offer(CRETE, ["salt", "salt", "ochre"], ["grain", "grain", DONT_CARE]))
    between_others = last_offer(state)
    thrace_side = {"cards": ["wine", "cloth", "oil"], "said": []}
    answers = {
        (kind, offer_id): _answer(state, THRACE, {"type": kind, "offer": offer_id, **extra})
        for offer_id in (between_others, closed, 99)
        for kind, extra in [
            ("decline", {}),
            ("withdraw", {}),
            ("accept", thrace_side),
            ("counter", {**thrace_side, "expects": ["grain"] * 3}),
        ]
    }
    assert set(answers.values()) == {("no_such_offer", "That offer is no longer open.")}
