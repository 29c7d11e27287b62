"""Conflict (§24): the trigger, token removal, city attacks, spoils, barbarians, pirates and the order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.advciv.cards import AGRICULTURE, ENGINEERING, METALWORKING, MILITARY
from app.games.advciv.conflict import (
    BARBARIANS,
    PIRATES,
    Force,
    Need,
    Pending,
    conflict_order,
    in_conflict,
    pillage_limit,
    resolve,
)

AREA = 17
METAL = frozenset({METALWORKING})
ENG = frozenset({ENGINEERING})


def left(*forces: Force, limit: int) -> dict[str, int]:
    return dict(resolve(AREA, forces, limit).tokens)


# --- §24.1 when a conflict happens ----------------------------------------------------------------------


def test_24_1_within_the_limit_nations_coexist() -> None:
    assert not in_conflict([Force("egypt", 2), Force("crete", 1)], limit=3)
    assert in_conflict([Force("egypt", 2), Force("crete", 2)], limit=3)


def test_24_1_one_nation_over_its_limit_is_no_conflict() -> None:
    assert not in_conflict([Force("egypt", 6)], limit=2)
    assert not in_conflict([Force("egypt", 3, city=True), Force("crete", 0)], limit=2)


def test_24_1_a_city_makes_the_area_full() -> None:
    assert in_conflict([Force("egypt", city=True), Force("crete", 1)], limit=5)


# --- §24.2 token against token --------------------------------------------------------------------------


def test_24_21_fewest_remove_first_then_in_turn_until_within_the_limit() -> None:
    result = resolve(AREA, [Force("egypt", 3), Force("crete", 5)], limit=4)
    assert result.steps == (("egypt",), ("crete",), ("egypt",), ("crete",))
    assert dict(result.tokens) == {"egypt": 1, "crete": 3}  # coexistence
    assert dict(result.losses) == {"egypt": 2, "crete": 2}
    assert result.city is None and not result.city_destroyed and result.pending == ()


def test_24_21_the_fight_stops_when_one_nation_is_left() -> None:
    assert left(Force("egypt", 1), Force("crete", 4), limit=2) == {"crete": 4}


def test_24_22_equal_forces_remove_together_a_limit_1_area_ends_empty() -> None:
    result = resolve(AREA, [Force("egypt", 1), Force("crete", 1)], limit=1)
    assert result.tokens == () and result.steps == (("egypt", "crete"),)
    assert left(Force("egypt", 3), Force("crete", 3), limit=4) == {"egypt": 2, "crete": 2}


def test_24_23_three_nations_remove_in_ascending_strength() -> None:
    result = resolve(AREA, [Force("asia", 3), Force("egypt", 1), Force("crete", 2)], limit=3)
    assert result.steps == (("egypt",), ("crete",), ("asia",))
    assert dict(result.tokens) == {"asia": 2, "crete": 1}


def test_24_23_equal_forces_among_three_remove_together() -> None:
    result = resolve(AREA, [Force("asia", 4), Force("egypt", 2), Force("crete", 2)], limit=2)
    assert result.steps == (("egypt", "crete"), ("asia",), ("egypt", "crete"))
    assert dict(result.tokens) == {"asia": 3}


def test_24_24_metalworking_removes_after_non_holders_whatever_the_numbers() -> None:
    assert left(Force("egypt", 1), Force("crete", 2), limit=1) == {"crete": 2}
    assert left(Force("egypt", 1, cards=METAL), Force("crete", 2), limit=1) == {"crete": 1}
    assert left(Force("egypt", 1, cards=METAL), Force("crete", 1), limit=1) == {"egypt": 1}


def test_24_24_between_metalworking_holders_it_cancels_out() -> None:
    assert left(Force("egypt", 1, cards=METAL), Force("crete", 1, cards=METAL), limit=1) == {}


def test_24_2_agriculture_and_military_do_not_apply_in_conflict() -> None:
    plain = left(Force("egypt", 3), Force("crete", 3), limit=4)
    farmers = left(Force("egypt", 3, cards=frozenset({AGRICULTURE, MILITARY})), Force("crete", 3), limit=4)
    assert farmers == plain == {"egypt": 2, "crete": 2}


# --- §24.3, §24.4 cities ---------------------------------------------------------------------------------


def test_24_31_fewer_than_7_attackers_are_removed_and_the_city_stands() -> None:
    result = resolve(AREA, [Force("egypt", city=True, stock=20), Force("crete", 6)], limit=3)
    assert result.city == "egypt" and result.tokens == () and not result.city_destroyed
    assert dict(result.losses) == {"crete": 6}
    assert result.pending == () and result.needs == ()


def test_24_4_city_attack_needs_7_tokens_and_the_city_becomes_6_tokens() -> None:
    result = resolve(AREA, [Force("egypt", city=True, stock=20), Force("crete", 7, stock=0)], limit=3)
    assert result.city is None and result.attacker == "crete" and result.replacement == 6
    # the 6 replacement tokens and the 7 attackers fight as in any area, fewest first
    assert dict(result.tokens) == {"crete": 2, "egypt": 1}
    assert dict(result.losses) == {"crete": 5, "egypt": 5}


def test_24_51_check_8_card_and_pillage_are_due_even_if_coexistence_follows() -> None:
    result = resolve(AREA, [Force("egypt", city=True, stock=20), Force("crete", 7, stock=0)], limit=3)
    assert result.needs == (Need("card_taken", "crete", "egypt", AREA),)
    # the attacker's 5 lost tokens are back in its stock: the maximum pillage, 3, is the default
    assert result.pending == (Pending("pillage", "crete", AREA, (0, 1, 2, 3), 3),)


def test_24_32_a_short_stock_replaces_the_city_with_what_it_has() -> None:
    result = resolve(AREA, [Force("egypt", city=True, stock=2), Force("crete", 7)], limit=3)
    assert result.replacement == 2 and result.attacker == "crete"
    assert dict(result.tokens) == {"crete": 6}  # 1–7, 1–6, 0–6
    empty = resolve(AREA, [Force("egypt", city=True, stock=0), Force("crete", 7)], limit=3)
    assert empty.replacement == 0 and dict(empty.tokens) == {"crete": 7} and empty.city_destroyed


def test_24_35_engineering_attacker_needs_6_and_the_city_becomes_5() -> None:
    result = resolve(AREA, [Force("egypt", city=True, stock=20), Force("crete", 6, cards=ENG)], limit=2)
    assert result.attacker == "crete" and result.replacement == 5


def test_24_35_engineering_defender_needs_8_and_the_city_becomes_7() -> None:
    held = resolve(AREA, [Force("egypt", city=True, cards=ENG, stock=20), Force("crete", 7)], limit=2)
    assert held.city == "egypt" and held.tokens == ()
    taken = resolve(AREA, [Force("egypt", city=True, cards=ENG, stock=20), Force("crete", 8)], limit=2)
    assert taken.attacker == "crete" and taken.replacement == 7


def test_24_35_both_holding_engineering_cancel_out() -> None:
    forces = [Force("egypt", city=True, cards=ENG, stock=20), Force("crete", 7, cards=ENG)]
    result = resolve(AREA, forces, limit=2)
    assert result.attacker == "crete" and result.replacement == 6


def test_24_33_two_attackers_fight_each_other_to_the_last_then_the_survivor_may_attack() -> None:
    # 4 against 8: the smaller removes first, no coexistence in a city's area; 5 left are too few
    weak = resolve(AREA, [Force("egypt", city=True, stock=20), Force("asia", 4), Force("crete", 8)], limit=5)
    assert weak.city == "egypt" and weak.tokens == () and weak.attacker is None
    assert dict(weak.losses) == {"asia": 4, "crete": 8}
    # 2 against 10: 9 survive and attack the city
    strong = resolve(
        AREA, [Force("egypt", city=True, stock=20), Force("asia", 2), Force("crete", 10)], limit=5
    )
    assert strong.attacker == "crete" and strong.steps[:3] == (("asia",), ("crete",), ("asia",))


def test_24_41_defending_tokens_are_fought_before_the_city() -> None:
    result = resolve(AREA, [Force("egypt", 2, city=True, stock=20), Force("crete", 7)], limit=2)
    # egypt removes first (2 < 7): 1–7, 1–6, 0–6; six attackers are too few
    assert result.city == "egypt" and result.tokens == ()
    assert dict(result.losses) == {"egypt": 2, "crete": 7}


def test_24_41_defenders_removed_first_return_to_stock_for_the_replacement() -> None:
    result = resolve(AREA, [Force("egypt", 1, city=True, stock=3), Force("crete", 9)], limit=2)
    assert result.attacker == "crete" and result.replacement == 4  # 3 in stock + the defender lost


def test_24_41_surviving_defenders_keep_the_city() -> None:
    result = resolve(AREA, [Force("egypt", 5, city=True), Force("crete", 3)], limit=2)
    assert result.city == "egypt" and dict(result.tokens) == {"egypt": 3}


def test_24_34_a_pirate_city_is_fought_by_unused_tokens_then_removed_pillage_but_no_card() -> None:
    result = resolve(AREA, [Force(PIRATES, city=True), Force("crete", 7, stock=10)], limit=5)
    assert result.attacker == "crete" and result.replacement == 6
    assert result.left(PIRATES) == 0 and result.city is None
    assert result.needs == ()
    assert result.pending == (Pending("pillage", "crete", AREA, (0, 1, 2, 3), 3),)


def test_24_53_barbarians_destroy_a_city_without_card_or_pillage_and_engineering_defends() -> None:
    # check file O2: the defender's Engineering applies; 15 barbarians need 8 and the city becomes 7
    result = resolve(AREA, [Force("egypt", city=True, cards=ENG, stock=20), Force(BARBARIANS, 15)], limit=2)
    assert result.attacker == BARBARIANS and result.replacement == 7
    assert result.pending == () and result.needs == ()
    repelled = resolve(AREA, [Force("egypt", city=True, cards=ENG, stock=20), Force(BARBARIANS, 7)], limit=2)
    assert repelled.city == "egypt" and repelled.tokens == ()


def test_30_5242_barbarians_never_use_cards() -> None:
    eng_barbarians = Force(BARBARIANS, 7, cards=ENG | METAL)
    result = resolve(AREA, [Force("egypt", city=True, cards=ENG, stock=20), eng_barbarians], limit=2)
    assert result.city == "egypt"  # still 8 needed against Engineering
    # no Metalworking: one against one remove together
    assert left(Force(BARBARIANS, 1, cards=METAL), Force("egypt", 1), limit=1) == {}


def test_24_2_barbarians_fight_tokens_as_a_nation_without_cards() -> None:
    # Metalworking: the 5 barbarians remove first, in turn with egypt's 3, until egypt has none
    assert left(Force(BARBARIANS, 5), Force("egypt", 3, cards=METAL), limit=2) == {BARBARIANS: 2}
    assert left(Force(BARBARIANS, 5), Force("egypt", 3), limit=2) == {BARBARIANS: 3}


def test_24_52_pillage_is_at_most_3_and_at_most_the_stock() -> None:
    assert [pillage_limit(stock) for stock in (0, 1, 2, 3, 9)] == [0, 1, 2, 3, 3]
    # no tokens lost and 1 in stock: 0 or 1
    result = resolve(AREA, [Force("egypt", city=True, stock=0), Force("crete", 7, stock=1)], limit=9)
    assert result.pending == (Pending("pillage", "crete", AREA, (0, 1), 1),)
    broke = resolve(AREA, [Force("egypt", city=True, stock=0), Force("crete", 7, stock=0)], limit=9)
    assert broke.pending == () and broke.needs == (Need("card_taken", "crete", "egypt", AREA),)


# --- the site's order -----------------------------------------------------------------------------------


def test_site_conflict_order_barbarians_and_pirates_then_tokens_then_cities_by_defenders() -> None:
    conflicts = {
        1: [Force("egypt", city=True), Force("crete", 9)],  # undefended city, 9 attackers
        2: [Force("egypt", 2, city=True), Force("crete", 7)],  # 2 defenders
        3: [Force("egypt", 3), Force("crete", 3)],  # no city
        4: [Force("asia", 1, city=True), Force("crete", 12)],  # 1 defender, 12 attackers
        5: [Force("asia", 1, city=True), Force("crete", 8)],  # 1 defender, 8 attackers
        6: [Force(PIRATES, city=True), Force("egypt", 7)],
        7: [Force("egypt", city=True), Force("crete", 12)],  # undefended, 12 attackers
        8: [Force(BARBARIANS, 4), Force("asia", 2)],
    }
    assert conflict_order(conflicts) == (6, 8, 3, 2, 4, 5, 7, 1)


def test_site_conflict_order_breaks_ties_by_the_drawn_rank() -> None:
    conflicts = {3: [Force("egypt", 3), Force("crete", 3)], 9: [Force("asia", 2), Force("crete", 2)]}
    assert conflict_order(conflicts) == (3, 9)
    assert conflict_order(conflicts, tie_rank={3: 1, 9: 0}) == (9, 3)


# --- properties -----------------------------------------------------------------------------------------

NATIONS = ("egypt", "crete", "asia", BARBARIANS)
force_lists = st.lists(
    st.builds(
        Force,
        nation=st.sampled_from(NATIONS),
        tokens=st.integers(0, 12),
        cards=st.sets(st.sampled_from([METALWORKING, ENGINEERING])).map(frozenset),
        stock=st.integers(0, 10),
    ),
    min_size=2,
    max_size=4,
    unique_by=lambda force: force.nation,
)


@settings(max_examples=200, deadline=None)
@given(forces=force_lists, limit=st.integers(1, 5), with_city=st.booleans())
def test_24_every_fight_conserves_tokens_and_ends_as_the_rules_allow(
    forces: list[Force], limit: int, with_city: bool
) -> None:
    if with_city and forces[0].nation != BARBARIANS:
        forces[0] = Force(forces[0].nation, forces[0].tokens, True, forces[0].cards, forces[0].stock)
    result = resolve(AREA, forces, limit)
    for force in forces:
        before = force.tokens + (result.replacement if force.city else 0)
        assert result.left(force.nation) + result.lost(force.nation) == before
    nations_left = len(result.tokens)
    if result.city is None:
        assert nations_left <= 1 or sum(count for _, count in result.tokens) <= limit
    else:
        assert all(nation == result.city for nation, _ in result.tokens)
    if not in_conflict(forces, limit):
        return
    # no side removes more than one token beyond any other present at the end
    removed = [result.lost(force.nation) for force in forces if result.left(force.nation)]
    assert not removed or max(removed) - min(removed) <= 1 or result.city_destroyed
