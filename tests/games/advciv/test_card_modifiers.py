"""The civ-card modifiers of phases 5 and 6 as the game applies them (Roadbuilding, Astronomy, Cloth
Making, Engineering, Metalworking); the others are tested with their phase."""

from __future__ import annotations

from typing import Any

from app.games.advciv import RULES
from app.games.advciv.model import State
from tests.games.advciv.helpers import begin, blank, city, play, units

AFRICA, CRETE, THRACE = 0, 1, 2


def _legal(state: State, seat: int) -> dict[str, Any]:
    context: dict[str, Any] = RULES.view(state, seat)["legal"]["context"]
    return context


def test_23_31_roadbuilding_moves_two_areas_through_one_free_of_others() -> None:
    state = units(blank(), AFRICA, {"sahara": 2}, cards=["roadbuilding"])
    state = begin(state, "move")
    road = _legal(state, AFRICA)["road"]
    assert road.get("sahara")
    to, via = next(iter(road["sahara"].items()))
    state = play(state, AFRICA, {"type": "move", "origin": "sahara", "to": to, "via": via, "tokens": 2})
    assert len(state.moves[AFRICA]) == 1
    plain = begin(units(blank(), AFRICA, {"sahara": 2}), "move")
    assert _legal(plain, AFRICA)["road"] == {}


def test_23_53_54_cloth_making_and_astronomy_widen_a_ships_reach() -> None:
    base = units(blank(), CRETE, {"knossos": 2}, ships=["knossos"])
    plain = _legal(begin(base, "move"), CRETE)["ships"]["knossos"]
    cloth = _legal(begin(units(base, CRETE, {"knossos": 2}, cards=["cloth_making"]), "move"), CRETE)
    stars = _legal(begin(units(base, CRETE, {"knossos": 2}, cards=["astronomy"]), "move"), CRETE)
    assert set(plain) < set(cloth["ships"]["knossos"])
    assert set(plain) < set(stars["ships"]["knossos"])
    assert "aegean_sea" not in plain and "aegean_sea" in stars["ships"]["knossos"]


def _attack(attacker_tokens: int, attacker_cards: list[str], defender_cards: list[str]) -> State:
    state = blank()
    state = units(state, AFRICA, {"numidia": attacker_tokens}, cards=attacker_cards)
    state = units(state, CRETE, {"knossos": 1}, cities=["carthago"], cards=defender_cards)
    state = begin(state, "move")
    move = {"type": "move", "origin": "numidia", "to": "carthago", "tokens": attacker_tokens}
    state = play(state, AFRICA, move)
    state = play(state, AFRICA, {"type": "done"})
    return play(state, CRETE, {"type": "done"}) if CRETE in [w.seat for w in RULES.waits(state)] else state


def test_24_35_engineering_attacks_a_city_with_6_and_defends_it_against_7() -> None:
    assert city(_attack(6, [], []), "carthago") == CRETE
    assert city(_attack(6, ["engineering"], []), "carthago") == -1
    assert city(_attack(7, [], ["engineering"]), "carthago") == CRETE
    assert city(_attack(7, [], []), "carthago") == -1


def test_24_24_metalworking_removes_after_the_non_holder() -> None:
    def fight(cards: list[str]) -> int:
        state = blank()
        state = units(state, AFRICA, {"numidia": 2}, cards=cards)
        state = units(state, CRETE, {"carthago": 2})  # limit 3: 4 tokens, 1 too many
        state = begin(state, "move")
        outcome = RULES.apply(
            state, AFRICA, {"type": "move", "origin": "numidia", "to": "carthago", "tokens": 2}
        )
        outcome = RULES.apply(outcome.state, AFRICA, {"type": "done"})
        outcome = RULES.apply(outcome.state, CRETE, {"type": "done"})
        (event,) = [event for event in outcome.events if event.kind == "conflict"]
        return int(event.data["losses"].get(str(AFRICA), 0))

    assert fight([]) == 1  # equal forces remove together
    assert fight(["metalworking"]) == 0  # Crete removes first and the area is within its limit
