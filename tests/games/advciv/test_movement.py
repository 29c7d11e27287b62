"""Movement (§23) on a small hand-made map, independent of the real one.

land:   a — b — c — e          (land boundaries)
water:  a ~ c (a strait), a ~ sea1 ~ c, sea1 ~ d ~ sea2 ~ h ~ g, sea1 ~ ocean ~ f
ocean is open sea; d, h, g and f are islands.

The two-coast rule (§23.57) has its own map, ISTHMUS, below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.advciv.board import BOARD as REAL
from app.games.advciv.cards import ASTRONOMY, CLOTH_MAKING, MILITARY, ROADBUILDING
from app.games.advciv.movement import (
    LandMove,
    Move,
    Plan,
    Stop,
    Voyage,
    acting_order,
    land_reach,
    plan_moves,
    road_reach,
    sea_distances,
    sea_reach,
    threatened,
)
from app.games.contract import RuleError


@dataclass(frozen=True)
class FixtureArea:
    key: str
    kind: str
    open_sea: bool = False

    @property
    def name(self) -> str:
        return self.key.upper()


@dataclass(frozen=True)
class FixtureBoard:
    areas: tuple[FixtureArea, ...]
    land_neighbours: tuple[frozenset[int], ...]
    coast_neighbours: tuple[frozenset[int], ...]
    coasts: Mapping[int, tuple[frozenset[int], ...]] = field(default_factory=lambda: MappingProxyType({}))


LAND = ("a", "b", "c", "e", "d", "h", "g", "f")
SEAS = ("sea1", "sea2")
KEYS = (*LAND, *SEAS, "ocean")
LAND_EDGES = (("a", "b"), ("b", "c"), ("c", "e"))
WATER_EDGES = (
    ("a", "c"),
    ("a", "sea1"),
    ("c", "sea1"),
    ("sea1", "d"),
    ("d", "sea2"),
    ("sea2", "h"),
    ("h", "g"),
    ("sea1", "ocean"),
    ("ocean", "f"),
)


def _neighbours(
    edges: tuple[tuple[str, str], ...], keys: tuple[str, ...] = KEYS
) -> tuple[frozenset[int], ...]:
    found: list[set[int]] = [set() for _ in keys]
    for one, two in edges:
        found[keys.index(one)].add(keys.index(two))
        found[keys.index(two)].add(keys.index(one))
    return tuple(frozenset(areas) for areas in found)


BOARD = FixtureBoard(
    areas=tuple(FixtureArea(key, "land" if key in LAND else "sea", open_sea=key == "ocean") for key in KEYS),
    land_neighbours=_neighbours(LAND_EDGES),
    coast_neighbours=_neighbours(WATER_EDGES),
)
A, B, C, E, D, H, G, F, SEA1, SEA2, OCEAN = range(len(KEYS))
NONE: frozenset[str] = frozenset()


def plan(
    tokens: dict[int, int],
    moves: list[Move],
    ships: tuple[int, ...] = (),
    cards: frozenset[str] = NONE,
    blocked: frozenset[int] = frozenset(),
    in_play: frozenset[int] | None = None,
) -> Plan:
    return plan_moves(BOARD, tokens, ships, moves, cards, blocked, in_play)


def refused(code: str, tokens: dict[int, int], moves: list[Move], **kwargs: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        plan(tokens, moves, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value


def keys(areas: frozenset[int]) -> set[str]:
    return {KEYS[area] for area in areas}


# --- by land ------------------------------------------------------------------------------------------


def test_23_3_a_token_crosses_one_land_boundary() -> None:
    assert keys(land_reach(BOARD, B)) == {"a", "c"}
    assert keys(land_reach(BOARD, A)) == {"b"}  # the strait to c is water only
    result = plan({B: 3}, [LandMove(B, C, 2)])
    assert result.tokens == {B: 1, C: 2} and result.entered == {C}


def test_23_3_a_token_never_crosses_an_all_water_boundary_or_into_the_sea() -> None:
    refused("not_adjacent", {A: 2}, [LandMove(A, C, 1)])
    refused("not_land", {A: 2}, [LandMove(A, SEA1, 1)])
    refused("unknown_area", {A: 2}, [LandMove(A, 99, 1)])
    refused("bad_count", {A: 2}, [LandMove(A, B, 0)])


def test_23_3_each_token_moves_once() -> None:
    refused("not_enough_tokens", {B: 3}, [LandMove(B, A, 2), LandMove(B, C, 2)])
    error = refused("not_enough_tokens", {A: 2}, [LandMove(A, B, 2), LandMove(B, C, 1)])
    assert error.field == "moves.1" and error.params == {"have": 0, "area": "B"}


def test_23_4_any_number_of_units_may_enter_an_area() -> None:
    result = plan({A: 9, C: 9}, [LandMove(A, B, 9), LandMove(C, B, 9)])
    assert result.tokens == {B: 18}


# --- Roadbuilding -------------------------------------------------------------------------------------


def test_23_31_roadbuilding_crosses_a_first_area_into_a_second() -> None:
    road = frozenset({ROADBUILDING})
    assert keys(road_reach(BOARD, A, frozenset())) == {"b", "c"}
    assert plan({A: 3}, [LandMove(A, C, 3, via=B)], cards=road).tokens == {C: 3}
    refused("no_roadbuilding", {A: 3}, [LandMove(A, C, 3, via=B)])
    refused("not_adjacent", {A: 3}, [LandMove(A, E, 3, via=B)], cards=road)
    refused("not_adjacent", {A: 3}, [LandMove(A, A, 3, via=B)], cards=road)


def test_23_31_the_first_area_must_hold_no_one_else() -> None:
    road = frozenset({ROADBUILDING})
    assert keys(road_reach(BOARD, A, frozenset({B}))) == {"b"}
    refused("road_blocked", {A: 3}, [LandMove(A, C, 3, via=B)], cards=road, blocked=frozenset({B}))


def test_23_31_roadbuilding_cannot_lead_onto_a_ship() -> None:
    road = frozenset({ROADBUILDING})
    moves: list[Move] = [LandMove(A, C, 2, via=B), Voyage(C, (Stop(C, board=2), Stop(D, land=2)))]
    refused("not_enough_tokens", {A: 2}, moves, ships=(C,), cards=road)


# --- by sea -------------------------------------------------------------------------------------------


def test_23_52_ships_cross_water_boundaries_up_to_4_areas() -> None:
    assert sea_distances(BOARD, A, astronomy=False) == {A: 0, C: 1, SEA1: 1, D: 2, SEA2: 3, H: 4}
    assert keys(sea_reach(BOARD, A, astronomy=False)) == {"c", "sea1", "d", "sea2", "h"}
    assert plan({A: 5}, [Voyage(A, (Stop(A, board=5), Stop(H, land=5)))], ships=(A,)).tokens == {H: 5}
    error = refused("ship_too_far", {A: 5}, [Voyage(A, (Stop(A, board=5), Stop(G, land=5)))], ships=(A,))
    assert error.params == {"area": "G", "steps": 4}


def test_23_53_cloth_making_adds_a_fifth_area() -> None:
    assert G in sea_reach(BOARD, A, astronomy=False, steps=5)
    cloth = frozenset({CLOTH_MAKING})
    result = plan({A: 5}, [Voyage(A, (Stop(A, board=5), Stop(G, land=5)))], ships=(A,), cards=cloth)
    assert result.tokens == {G: 5} and result.ships == (G,)


def test_23_54_open_sea_only_with_astronomy() -> None:
    assert OCEAN not in sea_reach(BOARD, A, astronomy=False)
    assert keys(sea_reach(BOARD, A, astronomy=True)) >= {"ocean", "f"}
    voyage: list[Move] = [Voyage(A, (Stop(A, board=1), Stop(F, land=1)))]
    refused("needs_astronomy", {A: 1}, voyage, ships=(A,))
    assert plan({A: 1}, voyage, ships=(A,), cards=frozenset({ASTRONOMY})).tokens == {F: 1}


def test_23_51_a_ship_carries_at_most_5_tokens() -> None:
    moves: list[Move] = [Voyage(A, (Stop(A, board=6), Stop(C, land=6)))]
    error = refused("ship_full", {A: 6}, moves, ships=(A,))
    assert error.params == {"most": 5}


def test_23_51_only_tokens_that_have_not_moved_board() -> None:
    moves: list[Move] = [LandMove(A, B, 2), Voyage(A, (Stop(A, board=2), Stop(C, land=2)))]
    refused("not_enough_tokens", {A: 3}, moves, ships=(A,))


def test_23_55_a_ship_may_end_at_sea_whoever_is_there() -> None:
    result = plan({}, [Voyage(A, (Stop(SEA1),))], ships=(A, C))
    assert result.ships == (C, SEA1) and result.tokens == {}


def test_23_56_a_ship_may_ferry_in_two_trips_across_a_strait() -> None:
    stops = (Stop(A, board=5), Stop(C, land=5), Stop(A, board=3), Stop(C, land=3))
    result = plan({A: 8}, [Voyage(A, stops)], ships=(A,))
    assert result.tokens == {C: 8} and result.ships == (C,)


def test_23_56_a_ship_takes_on_and_sets_down_along_its_way() -> None:
    # at c one token lands before c's three board: 2 + 3 - 1 = 4 aboard to d
    stops = (Stop(A, board=2), Stop(C, land=1, board=3), Stop(D, land=4))
    result = plan({A: 2, C: 3}, [Voyage(A, stops)], ships=(A,))
    assert result.tokens == {C: 1, D: 4} and result.entered == {C, D}


def test_23_56_retracing_counts_every_area_crossed() -> None:
    stops = (Stop(A, board=1), Stop(D), Stop(A), Stop(C, land=1))  # 2 + 2 + 1 areas
    refused("ship_too_far", {A: 1}, [Voyage(A, stops)], ships=(A,))


def test_23_56_no_token_stays_aboard_and_tokens_land_on_land() -> None:
    refused("tokens_aboard", {A: 2}, [Voyage(A, (Stop(A, board=2), Stop(C, land=1)))], ships=(A,))
    refused("land_at_sea", {A: 2}, [Voyage(A, (Stop(A, board=2), Stop(SEA1, land=2)))], ships=(A,))
    refused("not_aboard", {A: 2}, [Voyage(A, (Stop(C, land=1),))], ships=(A,))
    refused("empty_voyage", {A: 2}, [Voyage(A, ())], ships=(A,))


def test_23_56_a_token_travels_on_one_ship_only() -> None:
    moves: list[Move] = [
        Voyage(A, (Stop(A, board=2), Stop(C, land=2))),
        Voyage(C, (Stop(C, board=2), Stop(D, land=2))),
    ]
    refused("not_enough_tokens", {A: 2}, moves, ships=(A, C))


def test_23_5_a_ship_moves_once_and_only_one_s_own() -> None:
    refused("no_ship", {A: 1}, [Voyage(A, (Stop(SEA1),))], ships=(C,))
    refused("no_ship", {}, [Voyage(A, (Stop(SEA1),)), Voyage(A, (Stop(C),))], ships=(A,))
    result = plan({}, [Voyage(A, (Stop(SEA1),)), Voyage(A, (Stop(C),))], ships=(A, A))
    assert result.ships == (C, SEA1)


# --- §23.57 two-coast areas ----------------------------------------------------------------------------
#
# ISTHMUS: the land area "isthmus" (NECK) has a west coast (on the west sea and p) and an east coast
# (on the east sea and q); the long way round from one sea to the other passes the cape r.
#
#     p ~ west ~ r ~ east ~ q        (water boundaries)
#     p ~ isthmus ~ west | east ~ isthmus ~ q    (its two coasts)

ISTHMUS_KEYS = ("p", "isthmus", "q", "r", "west", "east")
P, NECK, Q, R, WEST, EAST = range(len(ISTHMUS_KEYS))
ISTHMUS_WATER = (
    ("p", "west"),
    ("p", "isthmus"),
    ("west", "isthmus"),
    ("isthmus", "east"),
    ("isthmus", "q"),
    ("east", "q"),
    ("west", "r"),
    ("r", "east"),
)
ISTHMUS = FixtureBoard(
    areas=tuple(FixtureArea(key, "sea" if key in ("west", "east") else "land") for key in ISTHMUS_KEYS),
    land_neighbours=tuple(frozenset() for _ in ISTHMUS_KEYS),
    coast_neighbours=_neighbours(ISTHMUS_WATER, ISTHMUS_KEYS),
    coasts=MappingProxyType({NECK: (frozenset({P, WEST}), frozenset({Q, EAST}))}),
)


def sail(start: int, *stops: Stop, cards: frozenset[str] = NONE) -> Plan:
    """One ship's voyage on ISTHMUS, with the tokens it boards standing where they board."""
    tokens = {stop.area: stop.board for stop in stops if stop.board}
    return plan_moves(ISTHMUS, tokens, (start,), [Voyage(start, stops)], cards)


def test_23_57_a_ship_leaves_a_two_coast_area_by_the_coast_it_entered() -> None:
    without_coasts = FixtureBoard(ISTHMUS.areas, ISTHMUS.land_neighbours, ISTHMUS.coast_neighbours)
    assert sea_distances(without_coasts, P, astronomy=False)[Q] == 2  # straight across the isthmus
    distances = sea_distances(ISTHMUS, P, astronomy=False)
    assert distances[NECK] == 1 and distances[Q] == 4  # round the cape: west, r, east, q
    assert sea_reach(ISTHMUS, P, astronomy=False, steps=2) == {WEST, NECK, R}
    assert sail(P, Stop(P, board=3), Stop(Q, land=3)).tokens == {Q: 3}


def test_23_57_a_ship_enters_from_either_coast_and_starts_from_either() -> None:
    assert sea_distances(ISTHMUS, P, astronomy=False)[NECK] == 1
    assert sea_distances(ISTHMUS, Q, astronomy=False)[NECK] == 1
    assert sea_reach(ISTHMUS, NECK, astronomy=False, steps=1) == {P, WEST, Q, EAST}


def test_23_57_a_stop_in_the_area_keeps_the_ship_on_its_coast() -> None:
    stops = (Stop(P, board=2), Stop(NECK, land=1), Stop(Q, land=1))  # 1 area, then 4 round the cape
    with pytest.raises(RuleError) as caught:
        sail(P, *stops)
    error = caught.value
    assert error.code == "other_coast"
    assert error.params == {"area": "Q"}
    result = sail(P, *stops, cards=frozenset({CLOTH_MAKING}))
    assert result.tokens == {NECK: 1, Q: 1} and result.ships == (Q,)
    back_west = sail(P, Stop(P, board=2), Stop(NECK, land=1), Stop(WEST), Stop(P, land=1))
    assert back_west.tokens == {NECK: 1, P: 1}


def test_23_57_on_the_real_board_a_coasts_entry_splits_an_area() -> None:
    keys = REAL.by_key
    delphi, corinth, chalkis = keys["delphi"], keys["corinth"], keys["chalkis"]
    east = frozenset(keys[k] for k in ("athens", "chalkis", "thessaly"))
    split = replace(REAL, coasts=MappingProxyType({delphi: (east, REAL.coast_neighbours[delphi] - east)}))
    assert sea_distances(REAL, corinth, astronomy=False)[chalkis] == 2  # across Delphi
    assert sea_distances(split, corinth, astronomy=False)[chalkis] > 2
    voyage = Voyage(corinth, (Stop(corinth, board=1), Stop(delphi), Stop(chalkis, land=1)))
    with pytest.raises(RuleError) as caught:
        plan_moves(split, {corinth: 1}, (corinth,), [voyage], NONE)
    assert caught.value.code == "other_coast"


# --- order and "Done unless threatened" ----------------------------------------------------------------


def test_23_21_military_holders_move_after_the_others_in_census_order() -> None:
    census = ("egypt", "crete", "asia", "thrace")
    cards = {"egypt": frozenset({MILITARY}), "asia": frozenset({MILITARY}), "crete": NONE}
    assert acting_order(census, cards) == ("crete", "thrace", "egypt", "asia")


def test_site_done_unless_threatened_someone_entered_where_i_stand_or_go() -> None:
    mine = plan({A: 2, C: 1}, [LandMove(A, B, 1)])
    held = frozenset({A, C})
    assert threatened(held, mine.entered, frozenset({C}))
    assert threatened(held, mine.entered, frozenset({B}))
    assert not threatened(held, mine.entered, frozenset({E}))


# --- §16 the map in play ------------------------------------------------------------------------------


def test_16_nothing_moves_outside_the_map_in_play() -> None:
    in_play = frozenset(range(len(KEYS))) - {C, SEA2}
    assert keys(land_reach(BOARD, B, in_play=in_play)) == {"a"}
    assert keys(sea_reach(BOARD, A, astronomy=False, in_play=in_play)) == {"sea1", "d"}
    error = refused("not_in_play", {B: 1}, [LandMove(B, C, 1)], in_play=in_play)
    assert error.params == {"area": "C"}  # refusals name areas as the map prints them
    refused(
        "ship_too_far", {A: 1}, [Voyage(A, (Stop(A, board=1), Stop(H, land=1)))], ships=(A,), in_play=in_play
    )


# --- on the real map ----------------------------------------------------------------------------------


def test_23_on_the_real_map_crete_reaches_the_mainland_only_by_ship() -> None:
    knossos, cyprus, aegean = REAL.by_key["knossos"], REAL.by_key["cyprus"], REAL.by_key["aegean_sea"]
    assert {REAL.areas[area].key for area in land_reach(REAL, knossos)} == {"phaestos"}
    reach = sea_reach(REAL, knossos, astronomy=False)
    assert cyprus in reach and REAL.by_key["athens"] in reach
    assert all(not REAL.areas[area].open_sea for area in reach)
    assert aegean in sea_reach(REAL, knossos, astronomy=True)
    voyage = Voyage(knossos, (Stop(knossos, board=5), Stop(cyprus, land=5)))
    result = plan_moves(REAL, {knossos: 6}, (knossos,), [voyage], NONE)
    assert result.tokens == {knossos: 1, cyprus: 5} and result.ships == (cyprus,)
    with pytest.raises(RuleError) as caught:
        plan_moves(REAL, {knossos: 1}, (knossos,), [Voyage(knossos, (Stop(aegean),))], NONE)
    assert caught.value.code == "needs_astronomy"


def test_23_on_the_real_map_every_reach_stays_on_its_own_kind_of_boundary() -> None:
    for area in REAL.land:
        assert all(REAL.areas[other].kind == "land" for other in land_reach(REAL, area))
        for other in sea_reach(REAL, area, astronomy=True, steps=1):
            assert area in sea_reach(REAL, other, astronomy=True, steps=1)
        if not REAL.coast_neighbours[area]:
            assert sea_reach(REAL, area, astronomy=True) == frozenset()


# --- properties -----------------------------------------------------------------------------------------

area_ids = st.sampled_from([A, B, C, D, SEA1]) | st.integers(-1, len(KEYS))
land_moves = st.builds(LandMove, area_ids, area_ids, st.integers(-1, 6), st.none() | area_ids)
voyages = st.builds(
    Voyage,
    area_ids,
    st.lists(st.builds(Stop, area_ids, st.integers(0, 6), st.integers(0, 6)), max_size=4).map(tuple),
)


@settings(max_examples=200, deadline=None)
@given(
    tokens=st.dictionaries(st.sampled_from([A, B, C, E, D]), st.integers(0, 8), max_size=5),
    ships=st.lists(st.sampled_from([A, C, D, SEA1]), max_size=4),
    moves=st.lists(land_moves | voyages, max_size=5),
    cards=st.sets(st.sampled_from([ROADBUILDING, ASTRONOMY, CLOTH_MAKING])).map(frozenset),
)
def test_23_any_set_of_moves_is_refused_with_a_code_or_conserves_tokens_and_ships(
    tokens: dict[int, int], ships: list[int], moves: list[Move], cards: frozenset[str]
) -> None:
    try:
        result = plan_moves(BOARD, tokens, tuple(ships), moves, cards)
    except RuleError as error:
        assert error.code and error.field and error.field.startswith("moves.")
        return
    assert sum(result.tokens.values()) == sum(tokens.values())
    assert len(result.ships) == len(ships)
    assert all(BOARD.areas[area].kind == "land" for area in result.tokens)
    assert result.entered <= set(result.tokens)  # a token that arrived cannot leave again
