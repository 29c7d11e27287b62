"""Phases 7, 8 and 13: city construction (§25), surplus removal and city support (§26), the A.S.T.
(§33); phases 9–12 skipped and said so."""

from __future__ import annotations

from typing import Any

import pytest

from app.games.advciv import RULES, flow
from app.games.advciv.model import State
from app.games.advciv.tables import INDEX, LIMITS
from app.games.advciv.tx import Tx
from app.games.contract import RuleError
from app.games.kit.model import evolve
from tests.games.advciv.helpers import begin, blank, city, play, set_field, tokens, units, waited

AFRICA, CRETE, THRACE = 0, 1, 2


def test_25_2_a_city_on_a_site_takes_6_tokens_off_a_site_12_and_building_is_a_choice() -> None:
    state = units(blank(), AFRICA, {"carthago": 6, "tunisia": 12, "numidia": 11, "sahara": 5})
    state = begin(state, "build")
    assert waited(state) == [AFRICA]
    assert RULES.view(state, AFRICA)["legal"]["context"]["areas"] == ["carthago", "tunisia"]
    with pytest.raises(RuleError) as caught:
        play(state, AFRICA, {"type": "build", "areas": ["numidia"]})
    assert caught.value.code == "cannot_build"
    assert caught.value.params == {"area": "Numidia"}  # named as the map prints it, not by its key
    built = play(state, AFRICA, {"type": "build", "areas": ["carthago"]})
    assert city(built, "carthago") == AFRICA and city(built, "tunisia") == -1
    assert play(state, AFRICA, {"type": "build", "areas": []}).cities.count(AFRICA) == 0


def test_25_site_default_builds_off_site_first_then_on_sites_up_to_support() -> None:
    # tokens left after the cities, as surplus removal leaves them: numidia 2 + sahara 1 = 3
    state = units(blank(), AFRICA, {"carthago": 6, "tunisia": 12, "numidia": 5, "sahara": 4})
    state = begin(state, "build")
    assert RULES.default_order(state, AFRICA) == {"type": "build", "areas": ["tunisia"], "architecture": None}
    more = {"carthago": 6, "tunisia": 12, "numidia": 5, "sahara": 4, "cyrene": 3, "libya": 1}
    richer = units(blank(), AFRICA, more)
    richer = begin(richer, "build")
    assert RULES.default_order(richer, AFRICA)["areas"] == ["tunisia", "carthago"]


def test_25_at_most_nine_cities() -> None:
    cities = ["knossos", "phaestos", "thera", "argos", "sparta", "corinth", "athens", "cyrene", "libya"]
    state = units(blank(), AFRICA, {"carthago": 6}, cities=cities)
    state = begin(state, "build")
    assert state.phase != "build"


def test_25_3_architecture_lets_treasury_pay_up_to_half_of_one_city() -> None:
    state = units(blank(), AFRICA, {"carthago": 3, "cyrene": 2}, cards=["architecture"], treasury=5)
    state = units(state, CRETE, {"knossos": 6})  # Crete's choice keeps the phase open
    state = begin(state, "build")
    legal = RULES.view(state, AFRICA)["legal"]["context"]
    assert legal["architecture"] == ["carthago"]  # cyrene: 2 tokens, less than half of 6
    state = play(state, AFRICA, {"type": "build", "areas": [], "architecture": "carthago"})
    assert city(state, "carthago") == AFRICA and state.players[AFRICA].treasury == 2


def _support(players_tokens: dict[str, int], cities: list[str], **extra: Any) -> State:
    state = units(blank(), AFRICA, players_tokens, cities=cities, **extra)
    state = units(state, CRETE, {}, cities=["knossos", "phaestos"])  # Crete's reductions keep the phase open
    return begin(state, "support")


def test_26_1_surplus_over_the_limit_goes_to_stock_and_a_city_area_keeps_no_tokens() -> None:
    state = _support({"tunisia": 5, "carthago": 2, "sahara": 1}, ["carthago"])
    assert (tokens(state, AFRICA, "tunisia"), tokens(state, AFRICA, "carthago")) == (2, 0)


def test_26_11_agriculture_adds_one_to_the_limit_where_the_holder_is_alone() -> None:
    state = units(blank(), AFRICA, {"tunisia": 5, "sahara": 3}, cards=["agriculture"])
    state = units(state, CRETE, {"sahara": 0})
    tx = Tx(state)
    flow.remove_surplus(tx)
    assert (tokens(tx.state, AFRICA, "tunisia"), tokens(tx.state, AFRICA, "sahara")) == (3, 2)


def test_26_3_a_player_short_of_support_reduces_a_city_of_its_choice() -> None:
    state = _support({"tunisia": 2, "sahara": 1}, ["carthago", "cyrene"])  # 3 tokens for 2 cities
    assert state.phase == "support" and waited(state) == [AFRICA, CRETE]
    choices = [choice["order"]["area"] for choice in RULES.view(state, AFRICA)["legal"]["choices"]]
    assert sorted(choices) == ["carthago", "cyrene"]
    state = play(state, AFRICA, {"type": "reduce", "area": "cyrene"})
    assert city(state, "cyrene") == -1 and city(state, "carthago") == AFRICA
    assert tokens(state, AFRICA, "cyrene") == 3 and AFRICA not in waited(state)  # 6 tokens for 1 city


def test_26_32_cities_built_this_turn_are_reduced_first() -> None:
    state = units(blank(), AFRICA, {"tunisia": 2, "sahara": 1}, cities=["carthago", "cyrene"])
    state = evolve(state, new_cities=(INDEX["cyrene"],))
    state = begin(state, "support")
    choices = [choice["order"]["area"] for choice in RULES.view(state, AFRICA)["legal"]["choices"]]
    assert choices == ["cyrene"]


def test_26_4_a_reduced_city_becomes_its_limit_in_tokens_plus_one_with_agriculture() -> None:
    state = units(blank(), AFRICA, {"sahara": 1}, cities=["carthago", "cyrene"], cards=["agriculture"])
    tx = Tx(state)
    flow.reduce_city(tx, INDEX["carthago"])
    assert tokens(tx.state, AFRICA, "carthago") == LIMITS[INDEX["carthago"]] + 1 == 4


def test_26_4_with_no_stock_a_reduced_city_is_eliminated() -> None:
    state = _support({"tunisia": 1}, ["carthago"], stock=0)
    state = play(state, AFRICA, {"type": "reduce", "area": "carthago"})
    assert city(state, "carthago") == -1 and tokens(state, AFRICA, "carthago") == 0


def test_26_site_default_reduces_a_random_city_among_those_allowed() -> None:
    state = _support({"tunisia": 2}, ["carthago", "cyrene"])
    default = RULES.default_order(state, AFRICA)
    assert default["type"] == "reduce" and default["area"] in ("carthago", "cyrene")


def _end_of_turn(state: State) -> State:
    tx = Tx(state)
    flow.move_ast(tx)
    return tx.state


def test_33_stone_age_markers_advance_every_turn_without_cities() -> None:
    state = _end_of_turn(units(blank(), AFRICA, {"sahara": 1}))
    assert state.players[AFRICA].ast == 1


def test_33_2_early_bronze_needs_two_cities() -> None:
    start = set_field(units(blank(), AFRICA, {}, cities=["carthago"]), AFRICA, ast=4)  # Africa: EB at 5
    assert _end_of_turn(start).players[AFRICA].ast == 4
    two = units(start, AFRICA, {}, cities=["carthago", "cyrene"])
    assert _end_of_turn(two).players[AFRICA].ast == 5


def test_33_2_late_bronze_needs_three_cities_and_three_distinct_colours() -> None:
    cities = ["carthago", "cyrene", "athens"]
    state = units(blank(), AFRICA, {}, cities=cities, cards=["engineering", "pottery"])
    state = set_field(state, AFRICA, ast=7)
    assert _end_of_turn(state).players[AFRICA].ast == 7  # crafts + sciences: 2 colours
    state = set_field(state, AFRICA, cards=frozenset({"engineering", "music"}))
    assert _end_of_turn(state).players[AFRICA].ast == 8


def test_33_3_too_few_cities_freezes_the_marker_within_its_epoch() -> None:
    state = set_field(units(blank(), AFRICA, {}, cities=["carthago"]), AFRICA, ast=5)
    assert _end_of_turn(state).players[AFRICA].ast == 5  # Early Bronze needs 2 cities


def test_33_4_no_cities_moves_the_marker_back_except_in_the_stone_age() -> None:
    state = set_field(units(blank(), AFRICA, {"sahara": 1}), AFRICA, ast=6)
    assert _end_of_turn(state).players[AFRICA].ast == 5
    stone = set_field(state, AFRICA, ast=3)
    assert _end_of_turn(stone).players[AFRICA].ast == 4


def test_33_25_late_iron_spaces_need_their_civ_card_points() -> None:
    five = ["carthago", "cyrene", "athens", "corinth", "argos"]
    cards = ["theology", "monotheism", "philosophy", "democracy", "law", "mathematics"]  # 1330
    state = set_field(units(blank(), AFRICA, {}, cities=five, cards=cards), AFRICA, ast=14)
    assert _end_of_turn(state).players[AFRICA].ast == 14  # space 15 needs 1600 for Africa
    richer = set_field(state, AFRICA, cards=frozenset({*cards, "medicine", "mining"}))  # 1650
    assert _end_of_turn(richer).players[AFRICA].ast == 15


def test_33_finish_ends_the_game_after_that_turn_with_public_scores() -> None:
    five = ["carthago", "cyrene", "athens", "corinth", "argos"]
    state = set_field(units(blank(), AFRICA, {}, cities=five), AFRICA, ast=16)
    tx = Tx(state)
    flow.end_turn(tx)
    assert tx.state.phase == "over" and RULES.waits(tx.state) == []
    standings = RULES.standings(tx.state)
    assert standings is not None and standings[0].seat == AFRICA and standings[0].score == 1600 + 250


def test_a_map_with_nothing_left_on_it_ends_the_game() -> None:
    state = blank()
    tx = Tx(state)
    flow.end_turn(tx)
    assert tx.state.phase == "over" and tx.state.end == "empty_map" and RULES.standings(tx.state) is not None
