"""A sealed offering hides even how many cards it holds: until the offerings are revealed, the others see
each hand's size as it was before the offering; the seat itself sees its own real hand."""

from __future__ import annotations

from typing import Any

from app.games.amunre import RULES, cards
from app.games.amunre.model import State
from tests.games.amunre.helpers import game, gold, owning, phase, play, with_player

RED, BLUE, BLACK, WHITE = range(4)
FIVE_TWO_TWO = {"type": "offer", "gold": {"5": 1, "2": 2}}  # three cards
MINUS = {"type": "offer", "minus_three": True}


def _offering() -> State:
    state = owning(game(4), {RED: ["Memphis"], BLUE: ["Abu"], BLACK: ["Thebes"], WHITE: ["Edfu"]})
    for seat in range(4):
        state = with_player(state, seat, gold=gold(5, 2, 2, 1, 1, 1, 1, 1), powers=())
    state = with_player(state, BLACK, powers=(cards.OFFERING_ADJUSTMENT, cards.FARMER_BONUS))
    return phase(state, "offering")


def _hands(state: State, viewer: int | None) -> list[int]:
    players: list[dict[str, Any]] = RULES.view(state, viewer)["players"]
    return [player["cards_in_hand"] for player in players]


def test_the_others_see_the_hand_as_it_was_before_the_offering() -> None:
    state = _offering()
    before = _hands(state, None)
    state, _ = play(state, RED, FIVE_TWO_TWO)
    three_cards = {"type": "offer", "gold": {"1": 1}, "powers": {cards.FARMER_BONUS: 1}, "adjust": True}
    state, _ = play(state, BLACK, three_cards)
    for viewer in (BLUE, WHITE, None):
        assert _hands(state, viewer) == before
    assert RULES.seat_summary(state, RED)["Cards in hand"] == before[RED]
    # Each offering seat still sees its own hand as it is.
    assert _hands(state, RED) == [before[RED] - 3, *before[1:]]
    assert _hands(state, BLACK)[BLACK] == before[BLACK] - 3
    assert _hands(state, BLACK)[RED] == before[RED]


def test_once_revealed_the_hands_show_what_is_left() -> None:
    state = _offering()
    before = _hands(state, None)
    state, _ = play(state, RED, FIVE_TWO_TWO)
    state, _ = play(state, BLUE, MINUS)
    state, _ = play(state, BLACK, MINUS)
    state, _ = play(state, WHITE, MINUS)
    assert state.phase == "reward"  # revealed; the "-3" seats got gold back
    assert _hands(state, BLUE)[RED] == before[RED] - 3
