"""Integrity of the Advanced Civilization map data: counts, boundaries, nations, A.S.T. and reduced maps."""

from __future__ import annotations

import logging
import re
from collections import Counter

import pytest
from starlette.testclient import TestClient

from app.games.advciv.board import (
    AST_FINISH,
    BOARD,
    EPOCHS,
    PANELS,
    board_report,
    polygons,
    read_coasts,
)
from app.main import create_app
from app.settings import Settings

LAND = [BOARD.areas[i] for i in BOARD.land]
SEAS = [BOARD.areas[i] for i in BOARD.seas]
NINE_NATIONS = ("africa", "italy", "illyria", "thrace", "crete", "asia", "assyria", "babylon", "egypt")


def test_counts_of_land_and_sea_areas() -> None:
    assert len(LAND) == 149
    assert len(SEAS) == 9
    assert all(area.kind == "land" for area in LAND) and all(area.kind == "sea" for area in SEAS)
    assert [area.index for area in BOARD.areas] == list(range(158))
    assert len(BOARD.by_key) == 158 and all(BOARD.area(a.key) is a for a in BOARD.areas)


def test_keys_are_stable_slugs() -> None:
    assert all(re.fullmatch(r"[a-z][a-z_]*[a-z]", area.key) for area in BOARD.areas)


def test_population_limits_in_range_and_as_documented() -> None:
    assert all(1 <= area.population <= 5 for area in LAND)
    assert all(area.population == 0 for area in SEAS)
    assert Counter(area.population for area in LAND) == {1: 61, 2: 49, 3: 30, 4: 6, 5: 3}
    assert sum(area.population for area in LAND) == 288


def test_city_sites_flood_plains_and_volcanoes_as_documented() -> None:
    assert sum(area.city_site for area in LAND) == 61
    assert sum(area.white_site for area in LAND) == 8
    assert sum(area.flood_plain for area in LAND) == 19
    # 4.43: white sites are the ones on flood plains.
    assert all(area.flood_plain for area in LAND if area.white_site)
    assert all(area.city_site for area in LAND if area.white_site)
    # 4.41: the Aegean volcano covers one area, the Sicilian and the Italian ones two each.
    volcanic = {"thera", "milazzo", "syracus", "campania", "neapolis"}
    assert {area.key for area in LAND if area.volcano} == volcanic
    assert not any(area.city_site or area.flood_plain or area.volcano for area in SEAS)


def test_every_sea_area_is_an_open_sea() -> None:
    # 4.23: an area that contains only blue is open sea; all nine sea areas are all blue.
    assert all(area.open_sea for area in SEAS)
    assert not any(area.open_sea for area in LAND)


@pytest.mark.parametrize("graph", ["land_neighbours", "coast_neighbours"])
def test_adjacency_is_symmetric_and_irreflexive(graph: str) -> None:
    neighbours = getattr(BOARD, graph)
    assert len(neighbours) == len(BOARD.areas)
    for index, around in enumerate(neighbours):
        assert index not in around
        for other in around:
            assert index in neighbours[other], (BOARD.areas[index].key, BOARD.areas[other].key)


def test_land_boundaries_join_land_areas_only() -> None:
    assert all(not BOARD.land_neighbours[sea.index] for sea in SEAS)
    assert all(BOARD.areas[i].kind == "land" for area in LAND for i in BOARD.land_neighbours[area.index])


def test_every_area_is_reachable() -> None:
    both = [BOARD.land_neighbours[i] | BOARD.coast_neighbours[i] for i in range(len(BOARD.areas))]
    reached, frontier = {0}, [0]
    while frontier:
        for other in both[frontier.pop()]:
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    assert reached == set(range(len(BOARD.areas)))


def test_every_land_area_has_a_boundary_and_coasts_match_water_boundaries() -> None:
    for area in LAND:
        assert BOARD.land_neighbours[area.index] or BOARD.coast_neighbours[area.index], area.key
        assert area.coastal == bool(BOARD.coast_neighbours[area.index])
    assert sum(area.coastal for area in LAND) == 107
    assert all(area.coastal and BOARD.coast_neighbours[area.index] for area in SEAS)


def test_settled_discrepancies() -> None:
    # docs/advciv.md, "Map data": the values kept where the two transcriptions disagree.
    population = {"corduba": 1, "new_carthage": 1, "west_mauretania": 1, "western_desert": 1, "siwa": 2}
    assert {key: BOARD.area(key).population for key in population} == population
    assert not BOARD.area("mesopotamia").city_site
    assert BOARD.area("parthia").city_site and not BOARD.area("parthia").white_site
    assert not BOARD.area("narbo").city_site
    assert BOARD.area("gaul").flood_plain
    # Across the Red Sea: water boundaries, not land ones; Caucasus and Media meet only on the Caspian.
    midian, ptolemais, sinai = (BOARD.by_key[k] for k in ("midian", "ptolemais", "sinai"))
    assert ptolemais in BOARD.coast_neighbours[midian] and ptolemais in BOARD.coast_neighbours[sinai]
    assert ptolemais not in BOARD.land_neighbours[midian] | BOARD.land_neighbours[sinai]
    caucasus, media, caspian = (BOARD.by_key[k] for k in ("caucasus", "media", "caspian_sea"))
    assert media not in BOARD.land_neighbours[caucasus] | BOARD.coast_neighbours[caucasus]
    assert caspian in BOARD.coast_neighbours[caucasus] & BOARD.coast_neighbours[media]
    lesser_armenia = BOARD.by_key["lesser_armenia"]
    assert not any(BOARD.by_key[k] in BOARD.coast_neighbours[lesser_armenia] for k in ("jericho", "siwa"))
    # Both sources misspell Byzantium; the key stays as stored games know it.
    assert BOARD.area("bycantinum").name == "Byzantium"


def test_nations_in_ast_order_with_their_start_areas() -> None:
    assert BOARD.nations == tuple(key if key != "italy" else "iberia" for key in NINE_NATIONS)
    orders = [BOARD.nation_info[key].ast_order for key in BOARD.nations]
    assert orders == list(range(1, 10))
    for key, starts in BOARD.start_areas.items():
        assert starts, key
        assert all(BOARD.areas[i].kind == "land" and key in BOARD.areas[i].start_of for i in starts)
    # 15.3: every nation but Thrace has a choice of start area.
    assert [key for key, starts in BOARD.start_areas.items() if len(starts) == 1] == ["thrace"]
    assert BOARD.start_areas["crete"] == tuple(sorted(BOARD.by_key[k] for k in ("knossos", "phaestos")))
    colours = [info.colour for key, info in BOARD.nation_info.items() if key != "italy"]
    assert len(set(colours)) == 9 and all(re.fullmatch(r"#[0-9a-f]{6}", c) for c in colours)


def test_ast_tracks_complete_for_every_nation() -> None:
    assert set(BOARD.ast) == set(BOARD.nation_info)
    for key, track in BOARD.ast.items():
        starts = track.epoch_starts
        assert len(starts) == len(EPOCHS) and starts[0] == 1, key
        assert list(starts) == sorted(set(starts)) and starts[-1] < AST_FINISH, key
        # One threshold per Late Iron space, up to the last numbered space before the finish.
        assert len(track.late_iron_points) == AST_FINISH - starts[-1], key
        assert list(track.late_iron_points) == sorted(track.late_iron_points), key
        assert track.epoch(0) == 0 and track.epoch(AST_FINISH) == 4
        assert [track.epoch(space) for space in starts] == [0, 1, 2, 3, 4]
        assert track.epoch(starts[1] - 1) == 0
        assert track.points_to_enter(starts[-1]) == track.late_iron_points[0]
        assert track.points_to_enter(starts[-1] - 1) is None and track.points_to_enter(AST_FINISH) is None
    assert BOARD.ast["egypt"].epoch_starts == (1, 4, 7, 10, 13)
    assert BOARD.ast["babylon"].late_iron_points == (1600, 1900)
    italy, iberia = BOARD.ast["italy"], BOARD.ast["iberia"]
    assert (italy.epoch_starts, italy.late_iron_points) == (iberia.epoch_starts, iberia.late_iron_points)


def test_every_area_has_a_panel_or_candidates() -> None:
    for area in BOARD.areas:
        assert area.panels and set(area.panels) <= set(PANELS), area.key
        if area.kind == "land" and area.panel is not None:
            assert area.panels == (area.panel,)
    unknown = [a.key for a in LAND if a.panel is None]
    assert tuple(unknown) == BOARD.unknown_panels
    assert {a.key for a in LAND if a.panel == "W"} >= {"baetica", "corduba", "lusitania", "cirta"}


@pytest.mark.parametrize("players", range(2, 9))
def test_a_default_map_for_every_player_count(players: int) -> None:
    layout = BOARD.layout(players)
    assert layout.players == players and layout.complete
    assert layout.tokens == (47 if players in (3, 5, 8) else 55)
    assert len(layout.nations) >= players
    assert BOARD.nations_for_players(players) == layout.nations
    assert BOARD.panels_for_players is not None and BOARD.panels_for_players[players] == layout.panels
    for nation, starts in layout.start_areas.items():
        assert starts and set(starts) <= layout.areas, nation
    # The map in play is one piece: every area in play is reachable from every other one.
    reached, frontier = set(), [min(layout.areas)]
    while frontier:
        index = frontier.pop()
        if index in reached:
            continue
        reached.add(index)
        frontier.extend((BOARD.land_neighbours[index] | BOARD.coast_neighbours[index]) & layout.areas)
    assert reached == layout.areas


def test_nations_by_player_count_follow_rule_16() -> None:
    assert BOARD.nations_for_players(8) == BOARD.nations
    assert BOARD.nations_for_players(4) == ("asia", "assyria", "babylon", "egypt")
    assert BOARD.layout(4, "west").nations == ("africa", "iberia", "illyria", "thrace", "crete")
    assert BOARD.nations_for_players(3) == ("africa", "italy", "illyria", "thrace", "crete")
    assert BOARD.nations_for_players(2) == ("africa", "italy", "illyria", "thrace")
    assert not BOARD.layout(2).island_city_sites and BOARD.layout(3).island_city_sites
    # Without the Western Extension Africa keeps its start areas on the original board only.
    assert BOARD.layout(3).start_areas["africa"] == tuple(
        sorted(BOARD.by_key[k] for k in ("sahara", "tripolitania", "tunisia"))
    )
    # Babylon starts on the easternmost panel, which six players with the Western Extension leave out.
    assert "babylon" not in BOARD.nations_for_players(6)
    assert "babylon" in BOARD.layout(6, "original_four").nations


def test_full_map_has_every_area_and_reduced_maps_fewer() -> None:
    assert BOARD.layout(8).areas == frozenset(range(158)) == BOARD.layout(7).areas
    assert len(BOARD.layout(4).areas) < len(BOARD.layout(5).areas) < len(BOARD.layout(6).areas) < 158
    east, west = BOARD.layout(4, "east").areas, BOARD.layout(4, "west").areas
    crossing = {a.index for a in SEAS if a.dashed_side == "both"}
    assert east & west == crossing
    with pytest.raises(KeyError):
        BOARD.layout(4, "nowhere")


def test_board_report_names_the_unknown_panels() -> None:
    report = board_report()
    if BOARD.unknown_panels:
        assert str(len(BOARD.unknown_panels)) in report[0] and BOARD.unknown_panels[0] in report[0]
        layouts = [layout for options in BOARD.layouts.values() for layout in options]
        incomplete = [f"({layout.key})" for layout in layouts if not layout.complete]
        assert all(any(name in line for line in report) for name in incomplete)
    else:
        assert not any("panel" in line for line in report)


def test_board_report_says_when_no_two_coast_area_is_given() -> None:
    said = [line for line in board_report() if "coasts.json" in line]
    assert len(said) == (0 if BOARD.coasts else 1)


def test_23_57_the_coasts_file_is_checked_against_the_water_boundaries() -> None:
    keys = BOARD.by_key
    water = {"athens", "central_mediterranean", "chalkis", "corinth", "epirus", "ithaka", "thessaly"}
    assert {BOARD.areas[i].key for i in BOARD.coast_neighbours[keys["delphi"]]} == water
    east, west = ["athens", "chalkis", "thessaly"], ["central_mediterranean", "corinth", "epirus", "ithaka"]
    coasts = read_coasts({"delphi": [east, [*west, "athens"]]}, keys, BOARD.coast_neighbours)
    assert coasts[keys["delphi"]] == (
        frozenset(keys[k] for k in east),
        frozenset(keys[k] for k in [*west, "athens"]),
    )
    for bad, complaint in (
        ({"nowhere": [east, west]}, "no area"),
        ({"delphi": [east, [*west, "sparta"]]}, "no water boundary with sparta"),
        ({"delphi": [east + west]}, "two coasts"),
        ({"delphi": [east, []]}, "two coasts"),
        ({"delphi": [east, west[:-1]]}, "every water neighbour"),
    ):
        with pytest.raises(ValueError, match=complaint):
            read_coasts(bad, keys, BOARD.coast_neighbours)


NUMBER = r"-?\d+(?:\.\d+)?"
PATH = re.compile(rf"^M\s*{NUMBER},{NUMBER}(?:\s+L?\s*{NUMBER},{NUMBER})+\s*Z$")


def test_polygons_for_every_area_parse_and_lie_in_the_view_box() -> None:
    drawing = polygons()
    x0, y0, width, height = drawing["view_box"]
    assert set(drawing["areas"]) == set(BOARD.by_key)
    for key, shape in drawing["areas"].items():
        for ring in shape["d"].split("Z")[:-1]:
            assert PATH.match(ring.strip() + "Z"), key
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", shape["d"])]
        xs, ys = numbers[0::2], numbers[1::2]
        assert len(xs) == len(ys) >= 3, key
        assert x0 <= min(xs) and max(xs) <= x0 + width and y0 <= min(ys) and max(ys) <= y0 + height, key
        lx, ly = shape["label"]
        assert x0 <= lx <= x0 + width and y0 <= ly <= y0 + height, key


def test_flood_plains_and_islands_derived_from_the_boundaries() -> None:
    plains = {frozenset(BOARD.areas[i].key for i in plain) for plain in BOARD.flood_plains}
    assert frozenset({"alexandria", "fayum", "memphis", "tanis", "upper_egypt"}) in plains  # the Nile
    assert frozenset({"danube", "moesia", "thyras"}) in plains
    assert len(plains) == 4 and sum(map(len, plains)) == 19
    islands = {area.key for area in LAND if area.island}
    assert {"knossos", "phaestos", "cyprus", "thera", "sardinia", "syracus", "britannia"} <= islands
    assert not islands & {"roma", "athens", "tanis", "scythia", "lusitania"}
    assert all(
        BOARD.areas[i].island for area in LAND if area.island for i in BOARD.land_neighbours[area.index]
    )


def test_the_server_logs_the_board_report_at_start_up(
    settings: Settings, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = ["Advanced Civilization: board panel unknown for 1 area (troy)."]
    monkeypatch.setattr("app.main.advciv_board_report", lambda: report)
    caplog.set_level(logging.INFO, logger="app.main")
    with TestClient(create_app(settings)):
        pass
    said = [r for r in caplog.records if r.name == "app.main" and report[0] in r.getMessage()]
    assert len(said) == 1 and said[0].levelno == logging.INFO  # once, plainly: not a broken install
    assert "nothing is broken" in said[0].getMessage()
