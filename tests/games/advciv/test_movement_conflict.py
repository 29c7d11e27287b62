"""Phases 5 and 6 on the game: moves entered at once and in secret, finalised in the acting order
("Done", "Done unless threatened", the timeout default), then the conflicts in the site's order with the
pillage choice (§23, §24)."""

from __future__ import annotations

import json

import pytest

from app.games.advciv import RULES
from app.games.advciv.model import State
from app.games.contract import Event, RuleError
from tests.games.advciv.helpers import begin, blank, city, deal, play, tokens, units, waited

AFRICA, CRETE, THRACE = 0, 1, 2


def _moving() -> State:
    state = blank()
    state = units(state, AFRICA, {"tunisia": 3, "sahara": 1})
    state = units(state, CRETE, {"knossos": 2})
    state = units(state, THRACE, {"scythia": 5})
    return begin(state, "move")


def test_23_every_seat_with_pieces_enters_moves_at_once() -> None:
    state = _moving()
    waits = RULES.waits(state)
    assert state.phase == "move" and {wait.seat for wait in waits} == {AFRICA, CRETE, THRACE}
    assert all(wait.simultaneous for wait in waits)
    assert [wait.seat for wait in waits if wait.first_in_phase] == [THRACE]  # most tokens: first in order


def test_23_moves_entered_are_secret_until_finalised_in_every_channel() -> None:
    state = _moving()
    outcome = RULES.apply(state, AFRICA, {"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2})
    state = outcome.state
    assert all(event.to == frozenset({AFRICA}) for event in outcome.events if event.kind == "move_entered")
    mine = RULES.view(state, AFRICA)
    assert mine["my_moves"] == [{"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2}]
    for other in (CRETE, THRACE, None):
        text = json.dumps(RULES.view(state, other))
        assert "numidia" not in text and RULES.view(state, other)["my_moves"] == []
    assert tokens(state, AFRICA, "numidia") == 0  # not on the map yet


def test_23_moves_are_finalised_in_census_order_and_then_public() -> None:
    state = _moving()
    assert state.order == (THRACE, AFRICA, CRETE)  # 5, 4 and 2 tokens
    state = play(state, AFRICA, {"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2})
    state = play(state, AFRICA, {"type": "done"})
    state = play(state, CRETE, {"type": "done"})
    assert tokens(state, AFRICA, "numidia") == 0  # Thrace comes first
    outcome = RULES.apply(state, THRACE, {"type": "done"})
    finalised = [event for event in outcome.events if event.kind == "moves_finalised"]
    assert [event.data["seat"] for event in finalised] == [THRACE, AFRICA, CRETE]
    assert all(event.to is None for event in finalised)
    assert finalised[1].data["moves"] == [{"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2}]
    assert outcome.state.phase != "move"


def test_23_a_token_moves_once_and_only_next_door() -> None:
    state = _moving()
    state = play(state, AFRICA, {"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2})
    with pytest.raises(RuleError) as caught:
        play(state, AFRICA, {"type": "move", "origin": "tunisia", "to": "sahara", "tokens": 2})
    assert caught.value.code == "not_enough_tokens"
    with pytest.raises(RuleError) as caught:
        play(state, AFRICA, {"type": "move", "origin": "sahara", "to": "carthago", "tokens": 1})
    assert caught.value.code == "not_adjacent"


def test_23_undo_and_reopen_until_finalised() -> None:
    state = _moving()
    state = play(state, AFRICA, {"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2})
    state = play(state, AFRICA, {"type": "undo"})
    assert state.moves[AFRICA] == ()
    state = play(state, AFRICA, {"type": "done"})
    assert AFRICA not in waited(state)
    state = play(state, AFRICA, {"type": "reopen"})
    assert AFRICA in waited(state)


def test_23_done_unless_threatened_waits_when_someone_entered_the_players_areas() -> None:
    state = _moving()
    state = units(state, THRACE, {"scythia": 5, "numidia": 6})  # Thrace moves first, into Tunisia
    state = begin(state, "move")
    state = play(state, AFRICA, {"type": "done", "unless_threatened": True})
    state = play(state, CRETE, {"type": "done", "unless_threatened": True})
    state = play(state, THRACE, {"type": "move", "origin": "numidia", "to": "tunisia", "tokens": 6})
    state = play(state, THRACE, {"type": "done"})
    assert state.order == (THRACE, AFRICA, CRETE)
    # Crete was not threatened, but its turn comes after Africa's, which was: Africa decides now
    assert waited(state) == [AFRICA] and RULES.view(state, AFRICA)["legal"]["prompt"] == "move_threatened"
    state = play(state, AFRICA, {"type": "move", "origin": "tunisia", "to": "sahara", "tokens": 3})
    outcome = RULES.apply(state, AFRICA, {"type": "done", "unless_threatened": True})
    finalised = [event.data for event in outcome.events if event.kind == "moves_finalised"]
    assert [data["seat"] for data in finalised] == [AFRICA, CRETE]
    assert finalised[0]["moves"] == [{"type": "move", "origin": "tunisia", "to": "sahara", "tokens": 3}]


def test_23_site_default_finalises_the_moves_entered() -> None:
    state = _moving()
    state = play(state, AFRICA, {"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2})
    events: list[Event] = []
    for seat in (AFRICA, CRETE, THRACE):
        outcome = RULES.apply(state, seat, RULES.default_order(state, seat))
        state, events = outcome.state, events + outcome.events
    finalised = {e.data["seat"]: e.data["moves"] for e in events if e.kind == "moves_finalised"}
    assert finalised == {
        THRACE: [],
        AFRICA: [{"type": "move", "origin": "tunisia", "to": "numidia", "tokens": 2}],
        CRETE: [],
    }


def test_24_conflict_and_city_attack_leave_the_pillage_to_the_attacker_default_the_most() -> None:
    state = blank()
    state = units(state, AFRICA, {"numidia": 8})
    state = deal(units(state, CRETE, {}, cities=["carthago"], stock=10), CRETE, ["salt"])
    state = begin(state, "move")
    state = play(state, AFRICA, {"type": "move", "origin": "numidia", "to": "carthago", "tokens": 8})
    moved = RULES.apply(state, AFRICA, {"type": "done"})
    state = moved.state
    assert state.phase == "conflict" and waited(state) == [AFRICA]
    assert city(state, "carthago") == -1
    assert RULES.default_order(state, AFRICA) == {"type": "pillage", "tokens": 3}
    assert [c["order"]["tokens"] for c in RULES.view(state, AFRICA)["legal"]["choices"]] == [0, 1, 2, 3]
    before = state.players[AFRICA]
    outcome = RULES.apply(state, AFRICA, {"type": "pillage", "tokens": 2})
    pillaged = [event.data for event in outcome.events if event.kind == "pillaged"]
    assert pillaged == [{"seat": AFRICA, "tokens": 2}]
    assert outcome.state.players[AFRICA].treasury == before.treasury + 2
    # §24.51: the attacker draws a card of the victim's hand at once; only the two see which
    assert state.hands[AFRICA] == ("salt",) and state.hands[CRETE] == ()
    (received,) = [event for event in moved.events if event.kind == "card_received"]
    assert received.to == frozenset({AFRICA, CRETE}) and received.data["card"] == "salt"
    assert [event.data for event in moved.events if event.kind == "card_taken"] == [
        {"attacker": AFRICA, "victim": CRETE}
    ]
    # the city's owner is mailed the news of its loss, and no one else
    (fought,) = [event for event in moved.events if event.kind == "conflict"]
    assert (fought.to, fought.mail_to, fought.news) == (None, frozenset({CRETE}), "city_lost")


def test_24_too_few_attackers_are_removed_and_the_city_stands() -> None:
    state = blank()
    state = units(state, AFRICA, {"numidia": 6})
    state = units(state, CRETE, {}, cities=["carthago"])
    state = begin(state, "move")
    state = play(state, AFRICA, {"type": "move", "origin": "numidia", "to": "carthago", "tokens": 6})
    state = play(state, AFRICA, {"type": "done"})
    assert city(state, "carthago") == CRETE and tokens(state, AFRICA, "carthago") == 0
