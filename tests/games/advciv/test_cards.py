"""The civ-card catalogue and every modifier of phases 1–8 and 13, named by rulebook section."""

from __future__ import annotations

from app.games.advciv import cards as c

NONE: frozenset[str] = frozenset()


def held(*keys: str) -> frozenset[str]:
    return frozenset(keys)


def test_32_catalogue_has_24_cards_worth_3190() -> None:
    assert len(c.CIV_CARDS) == 24
    assert sum(card.cost for card in c.CIV_CARDS.values()) == 3190
    two_groups = {key for key, card in c.CIV_CARDS.items() if len(card.groups) == 2}
    assert two_groups == {c.ENGINEERING, c.MATHEMATICS, c.LITERACY, c.MYSTICISM}
    requires = {key: card.requires for key, card in c.CIV_CARDS.items() if card.requires}
    assert requires == {
        c.ROADBUILDING: c.ENGINEERING,
        c.MINING: c.ENGINEERING,
        c.DEMOCRACY: c.LAW,
        c.PHILOSOPHY: c.LAW,
        c.MONOTHEISM: c.ENLIGHTENMENT,
        c.THEOLOGY: c.ENLIGHTENMENT,
    }
    assert all(set(card.groups) <= set(c.GROUPS) for card in c.CIV_CARDS.values())


def test_effects_table_names_known_cards_and_phases_1_to_8() -> None:
    assert {effect.card for effect in c.EFFECTS} == {
        c.COINAGE,
        c.DEMOCRACY,
        c.MILITARY,
        c.ROADBUILDING,
        c.CLOTH_MAKING,
        c.ASTRONOMY,
        c.METALWORKING,
        c.ENGINEERING,
        c.ARCHITECTURE,
        c.AGRICULTURE,
    }
    assert all(1 <= effect.phase <= 8 and effect.section for effect in c.EFFECTS)


def test_19_1_tax_is_2_per_city_19_2_coinage_chooses_1_2_or_3() -> None:
    assert c.tax_rates(NONE) == (2,)
    assert c.tax_rates(held(c.COINAGE)) == (1, 2, 3)


def test_19_2_coinage_timeout_rate_is_2_or_1_when_2_would_revolt() -> None:
    assert c.default_tax_rate(held(c.COINAGE), cities=3, stock=6) == 2
    assert c.default_tax_rate(held(c.COINAGE), cities=3, stock=5) == 1
    assert c.default_tax_rate(NONE, cities=3, stock=0) == 2
    assert c.default_tax_rate(held(c.COINAGE, c.DEMOCRACY), cities=3, stock=0) == 2


def test_19_34_democracy_never_revolts() -> None:
    assert c.immune_to_tax_revolt(held(c.DEMOCRACY))
    assert not c.immune_to_tax_revolt(held(c.COINAGE, c.LAW))


def test_22_1_ship_costs_two_units_in_any_mix() -> None:
    assert c.ship_cost_options(NONE) == ((2, 0), (1, 1), (0, 2))
    assert c.ship_cost_options(held(*c.CIV_CARDS)) == ((2, 0), (1, 1), (0, 2))


def test_22_11_23_21_military_builds_and_moves_last() -> None:
    assert c.acts_last(held(c.MILITARY))
    assert not c.acts_last(held(c.METALWORKING, c.ENGINEERING))


def test_23_31_roadbuilding_moves_two_areas() -> None:
    assert c.road_movement(held(c.ROADBUILDING))
    assert not c.road_movement(held(c.ENGINEERING))


def test_23_52_ships_cross_4_areas_23_53_cloth_making_5() -> None:
    assert c.ship_steps(NONE) == 4
    assert c.ship_steps(held(c.CLOTH_MAKING)) == 5


def test_23_54_only_astronomy_enters_open_sea() -> None:
    assert c.may_enter_open_sea(held(c.ASTRONOMY))
    assert not c.may_enter_open_sea(held(c.CLOTH_MAKING))


def test_24_24_metalworking_removes_last() -> None:
    assert c.removes_last(held(c.METALWORKING))
    assert not c.removes_last(held(c.MILITARY))


def test_24_31_city_attack_needs_7_tokens_24_35_engineering_6_or_8() -> None:
    eng = held(c.ENGINEERING)
    assert c.city_attack_tokens(NONE, NONE) == 7
    assert c.city_attack_tokens(eng, NONE) == 6
    assert c.city_attack_tokens(NONE, eng) == 8
    assert c.city_attack_tokens(eng, eng) == 7


def test_24_32_city_becomes_6_tokens_24_35_engineering_5_or_7() -> None:
    eng = held(c.ENGINEERING)
    assert c.city_replacement_tokens(NONE, NONE) == 6
    assert c.city_replacement_tokens(eng, NONE) == 5
    assert c.city_replacement_tokens(NONE, eng) == 7
    assert c.city_replacement_tokens(eng, eng) == 6


def test_24_military_changes_nothing_in_conflict() -> None:
    army = held(c.MILITARY)
    assert c.city_attack_tokens(army, NONE) == 7
    assert c.city_replacement_tokens(NONE, army) == 6
    assert not c.removes_last(army)


def test_25_3_architecture_pays_up_to_half_from_treasury_where_alone() -> None:
    arch = held(c.ARCHITECTURE)
    assert c.architecture_treasury(arch, cost=6, others_present=False) == 3
    assert c.architecture_treasury(arch, cost=12, others_present=False) == 6
    assert c.architecture_treasury(arch, cost=6, others_present=True) == 0
    assert c.architecture_treasury(NONE, cost=12, others_present=False) == 0


def test_26_11_agriculture_adds_one_only_where_alone() -> None:
    farm = held(c.AGRICULTURE)
    assert c.population_limit(2, farm, alone=True) == 3
    assert c.population_limit(2, farm, alone=False) == 2
    assert c.population_limit(2, NONE, alone=True) == 2
    assert c.agriculture_bonus(farm, alone=True) == 1


def test_33_23_distinct_colours_a_two_group_card_gives_both() -> None:
    assert c.groups_held(held(c.ENGINEERING, c.POTTERY)) == {c.CRAFTS, c.SCIENCES}
    assert len(c.groups_held(held(c.ENGINEERING, c.MYSTICISM))) == 4
    assert c.groups_held(NONE) == frozenset()


def test_33_25_face_value_counts_printed_costs() -> None:
    assert c.face_value(held(c.THEOLOGY, c.POTTERY)) == 295
    assert c.face_value(NONE) == 0
