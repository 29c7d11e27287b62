"""Set-up (§15, §16) through the platform's draft, and hidden information: moves entered and not
finalised (and a tax rate chosen) are secret to their seat in the view and the events."""

from __future__ import annotations

import json
import random

import pytest

from app.games.advciv import RULES, AdvcivOptions
from app.games.advciv.model import State, conserved
from app.games.advciv.trade_cards import FULL_DECK
from app.games.kit.model import evolve, replaced
from tests.games.advciv.helpers import begin, blank, random_play, units

AFRICA, CRETE, THRACE = 0, 1, 2
PRIVATE_EVENTS = {"move_entered", "move_undone", "tax_rate_chosen", "threatened"}


TOKENS = [(2, 55), (3, 47), (4, 55), (5, 47), (6, 55), (7, 55), (8, 47)]


@pytest.mark.parametrize(("players", "tokens"), TOKENS)
def test_16_nations_and_tokens_by_player_count(players: int, tokens: int) -> None:
    nations = RULES.draft_choices(AdvcivOptions(), players)
    assert len(nations) > players - 1 and len(nations) <= 9
    state = RULES.new_game(AdvcivOptions(), players, 1)
    assert all(nation.token_total == tokens and nation.treasury == 0 for nation in state.players)
    assert all(state.cities_in_stock(seat) == 9 and not state.players[seat].ships for seat in range(players))
    if players == 4:
        assert nations == ["asia", "assyria", "babylon", "egypt"]
    if players == 2:
        assert nations == ["africa", "italy", "illyria", "thrace"]


def test_15_3_the_draft_gives_each_seat_its_nation_and_the_start_token_goes_in_pick_order() -> None:
    draft = {0: "crete", 1: "thrace", 2: "africa"}
    state = RULES.new_game(AdvcivOptions(draft=draft), 3, 7)
    assert [nation.nation for nation in state.players] == ["crete", "thrace", "africa"]
    assert state.phase == "start" and [wait.seat for wait in RULES.waits(state)] == [0]
    assert RULES.waits(state)[0].first_in_phase
    choices = [choice["order"]["area"] for choice in RULES.view(state, 0)["legal"]["choices"]]
    assert choices == ["knossos", "phaestos"]
    state = RULES.apply(state, 0, {"type": "start", "area": "phaestos"}).state
    # Thrace has a single start area: placed at once; then Africa chooses
    assert state.players[1].board_tokens() == 1 and [wait.seat for wait in RULES.waits(state)] == [2]
    assert state.players[0].stock == 46


def test_15_3_a_draft_of_unavailable_nations_is_refused() -> None:
    with pytest.raises(ValueError):
        RULES.new_game(AdvcivOptions(draft={0: "egypt", 1: "crete", 2: "africa"}), 3, 1)


def _others_blurred(state: State, seat: int | None) -> State:
    """The same state with every other seat's secrets changed: its moves entered and its tax rate."""
    moves, rates = list(state.moves), list(state.rates)
    for other in range(len(state.players)):
        if other == seat:
            continue
        if moves and not moves[other] and state.phase == "move":
            moves[other] = ((0, 0, 0, 9, -1),)
        elif moves:
            moves[other] = ()
        if rates and state.phase == "tax" and rates[other]:
            rates[other] = 3 if rates[other] != 3 else 1
    return evolve(state, moves=tuple(moves), rates=tuple(rates))


def test_27_4_moves_entered_are_in_no_other_seats_view_or_events() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state = RULES.new_game(RULES.Options(), 3 + seed, seed)
        for _, _, outcome in random_play(state, rng, 300):
            for event in outcome.events:
                if event.kind in PRIVATE_EVENTS:
                    assert event.to == frozenset({event.data["seat"]})
            state = outcome.state
            for viewer in [None, *range(len(state.players))]:
                shown = json.dumps(RULES.view(state, viewer), sort_keys=True)
                assert shown == json.dumps(RULES.view(_others_blurred(state, viewer), viewer), sort_keys=True)


def test_a_leak_would_be_caught() -> None:
    state = units(blank(), AFRICA, {"tunisia": 3})
    state = begin(state, "move")
    move = {"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 1}
    state = RULES.apply(state, AFRICA, move).state
    own = json.dumps(RULES.view(state, AFRICA), sort_keys=True)
    assert own != json.dumps(RULES.view(_others_blurred(state, CRETE), AFRICA), sort_keys=True)
    assert replaced(state.moves, AFRICA, ()) != state.moves


CARD_EVENTS = {"cards_drawn", "gold_chosen"}
# public from the reveal on; a trade's announcement is what was SAID, public by design (site F-R8)
REVEALED = {"calamities_revealed", "calamity_answered", "calamity_resolved", "trade_announced"}


def _hands_blurred(state: State, seat: int | None, rng: random.Random) -> State:
    """The same state with every other seat's hand (the calamities it holds included) swapped card for
    card with cards of the stacks, and each stack shuffled: every hand's and stack's size kept."""
    deck = [list(stack) for stack in state.deck]
    hands = [list(hand) for hand in state.hands]
    for other, hand in enumerate(hands):
        if other == seat:
            continue
        for index in range(len(hand)):
            stacks = [number for number, stack in enumerate(deck) if stack]
            if not stacks:
                break
            number = rng.choice(stacks)
            place = rng.randrange(len(deck[number]))
            hand[index], deck[number][place] = deck[number][place], hand[index]
    for stack in deck:
        rng.shuffle(stack)
    return evolve(state, deck=tuple(map(tuple, deck)), hands=tuple(map(tuple, hands)))


@pytest.mark.parametrize("seed", range(3))
def test_27_4_hands_held_calamities_and_the_stacks_are_in_no_other_seats_view_or_events(seed: int) -> None:
    """Random games begun with cities and calamities in hand: whatever another seat holds, and the order of
    the stacks, change nothing in a seat's or a spectator's view; the cards drawn and the purchases
    chosen go to their seat only."""
    from tests.games.advciv.test_properties import rich_start

    rng = random.Random(seed)
    players = 3 + 2 * seed
    state = begin(rich_start(blank(players), rng, calamities=4), "tax")
    seen = {"hand": 0, "calamity": 0}
    for step, (_, _, outcome) in enumerate(random_play(state, rng, 200)):
        for event in outcome.events:
            if event.kind in CARD_EVENTS:
                assert event.to == frozenset({event.data["seat"]})
            if event.kind == "card_received":
                assert event.to == frozenset({event.data["attacker"], event.data["victim"]})
            if event.to is None and event.kind not in REVEALED:
                told = json.dumps(event.data)
                assert not any(f'"{card}"' in told for card in FULL_DECK), event
        state = outcome.state
        if step % 3 and state.phase not in ("gold", "calamity", "calamity_support"):
            continue
        for viewer in [None, *range(len(state.players))]:
            shown = RULES.view(state, viewer)
            seen["hand"] += bool(shown["trade"]["hand"] and shown["trade"]["hand"]["cards"])
            seen["calamity"] += bool(shown["calamity"])
            blurred = RULES.view(_hands_blurred(state, viewer, rng), viewer)
            assert json.dumps(shown, sort_keys=True) == json.dumps(blurred, sort_keys=True), (
                viewer,
                state.phase,
            )
    assert seen["hand"] and seen["calamity"]  # the check saw hands and a calamity phase


def test_a_hand_leak_would_be_caught() -> None:
    from tests.games.advciv.helpers import deal

    state = deal(blank(), CRETE, ["ochre", "famine"])
    rng = random.Random(1)
    assert RULES.view(state, CRETE) != RULES.view(_hands_blurred(state, AFRICA, rng), CRETE)
    assert RULES.view(state, AFRICA) == RULES.view(_hands_blurred(state, AFRICA, rng), AFRICA)


def test_a_game_stored_before_trade_cards_loads_with_a_deck_and_empty_hands() -> None:
    stored = RULES.dump(blank())
    for name in ("deck", "hands", "discard", "traded", "calamities", "steps", "asked", "unsupporting"):
        stored.pop(name)
    for name in ("barbarians", "pirates", "options"):
        stored.pop(name)
    stored["card_draws"] = []  # a field of those days, now gone
    state = RULES.load(stored)
    assert conserved(state) and state.hands == ((), (), ()) and len(state.deck) == 9
    assert RULES.load(stored) == state  # the same deck each time
