"""The board of Advanced Civilization: areas, boundaries, nations, A.S.T. tracks and the reduced maps.

Everything is read once, at import, from the JSON files in `data/` (their provenance is in
`data/PROVENANCE.md`, the decisions taken on the sources' disagreements in `docs/advciv.md`, "Map data").
Areas are numbered: the 149 land areas first, sorted by key, then the 9 sea areas, sorted by key. The
state refers to areas by that index; orders and views use the stable `key`.

Boundaries (rules 4.3): `land_neighbours` are the areas across a land boundary (a mixed land and water
boundary counts, 4.33), the only way tokens move by land. `coast_neighbours` are the areas a ship may
reach in one step: the land areas across a water boundary and the sea areas touching the area. Only an
area with a water boundary (a coastal land area, or a sea) can hold a ship. `coasts` splits the water
boundaries of the two-coast areas of Greece (23.57) into their coasts; the data file `coasts.json` is
empty until an operator reads them from a board (`board_report` says so at start-up).

The drawing data (SVG paths, label points, view box) is loaded only when `polygons()` is first called, so
that the rules never pay for it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

DATA = Path(__file__).with_name("data")

EPOCHS: tuple[str, ...] = ("stone", "early_bronze", "late_bronze", "early_iron", "late_iron")
PANELS: tuple[str, ...] = ("W", "1", "2", "3", "4")  # west to east; W is the Western Extension
WESTERN_EXTENSION = "W"
AST_FINISH = 16  # the finish space; 0 is the start arrow
AST_POINTS_PER_SPACE = 100
# A land-connected group of fewer areas is an island or island group (Crete, Sicily, Britain, ...); the two
# continents, Europe and Africa with Asia, are groups of fifty areas or more.
ISLAND_GROUP = 10

DashedSide = Literal["west", "east", "both"]


@dataclass(frozen=True, slots=True)
class Area:
    index: int  # position in BOARD.areas
    key: str  # stable slug, e.g. "upper_egypt"; used in orders, views and URLs
    name: str
    kind: Literal["land", "sea"]
    population: int  # population limit (4.5); 0 for sea areas
    city_site: bool  # a printed city site, black or white (4.43)
    white_site: bool  # the city site is white: on a flood plain, exposed to Flood
    flood_plain: bool  # any dark green in the area (4.42)
    volcano: bool  # touched by a volcano (4.41)
    open_sea: bool  # sea areas only: all blue (4.23), entered by ships only with Astronomy
    coastal: bool  # has a water boundary, so a ship may be in it
    island: bool  # a land area with no land route to the mainland (16.8)
    start_of: tuple[str, ...]  # nations whose start area this is (4.6)
    panel: str | None  # land: the panel its population limit is printed on (16.11); None if unknown or sea
    panels: tuple[str, ...]  # every panel it may lie on: a sea's extent, an unknown land area's candidates
    dashed_side: DashedSide  # side of the dashed white line (4.7); "both" for a sea the line crosses


@dataclass(frozen=True, slots=True)
class AstTrack:
    """One nation's row of the Archaeological Succession Table (rules 10, 33)."""

    nation: str
    epoch_starts: tuple[int, int, int, int, int]  # first space of each of EPOCHS
    late_iron_points: tuple[int, ...]  # civ-card points to enter each Late Iron space, in order (33.25)

    def epoch(self, space: int) -> int:
        """The index in EPOCHS of the epoch that `space` belongs to (the start arrow is in the Stone Age)."""
        return max(i for i, start in enumerate(self.epoch_starts) if start <= max(space, 1))

    def points_to_enter(self, space: int) -> int | None:
        """The civ-card points printed on a Late Iron space; None for any other space."""
        offset = space - self.epoch_starts[-1]
        return self.late_iron_points[offset] if 0 <= offset < len(self.late_iron_points) else None


@dataclass(frozen=True, slots=True)
class Nation:
    key: str
    name: str
    colour: str  # CSS colour of its pieces
    ast_order: int  # 1-9: its place in A.S.T. order and its census marker's number (17.4, 21.2)
    start_areas: tuple[int, ...]  # every area with its start border, whatever the map
    western_extension: bool | None  # True: only with the Western Extension; False: only without it


@dataclass(frozen=True, slots=True)
class Layout:
    """The map for one number of players (rules 16): what is in play, who may play, with how many tokens."""

    players: int
    key: str  # e.g. "full", "east"; unique among the layouts of one player count
    panels: frozenset[str]
    dashed_line: Literal["western_edge", "eastern_edge"] | None
    tokens: int  # tokens per player (16.2-16.8)
    areas: frozenset[int]  # areas in play
    nations: tuple[str, ...]  # nations that may be chosen, in A.S.T. order
    start_areas: Mapping[str, tuple[int, ...]]  # per nation, its start areas in play
    island_city_sites: bool  # False: island city sites are ignored (16.8)
    undetermined: tuple[str, ...]  # keys of areas whose panel is unknown and decides whether they are in play

    @property
    def complete(self) -> bool:
        return not self.undetermined


@dataclass(frozen=True)
class Board:
    areas: tuple[Area, ...]
    by_key: Mapping[str, int]
    land: tuple[int, ...]  # indices of land areas
    seas: tuple[int, ...]  # indices of sea areas
    land_neighbours: tuple[frozenset[int], ...]  # per area index: across a land (or mixed) boundary
    coast_neighbours: tuple[frozenset[int], ...]  # per area index: one ship step away
    coasts: Mapping[int, tuple[frozenset[int], ...]]  # per two-coast area (23.57): its coasts
    nations: tuple[str, ...]  # the nations of the full map, in A.S.T. order
    nation_info: Mapping[str, Nation]  # every nation, including Italy (played without the Western Extension)
    start_areas: Mapping[str, tuple[int, ...]]  # per nation of the full map
    ast: Mapping[str, AstTrack]  # per nation key (Italy and Iberia share a row)
    layouts: Mapping[int, tuple[Layout, ...]]  # per player count, the default first
    panels_for_players: Mapping[int, frozenset[str]] | None  # panels of each player count's default layout
    unknown_panels: tuple[str, ...]  # keys of land areas whose panel the data does not give
    flood_plains: tuple[frozenset[int], ...]  # the flood plains: flood-plain areas joined by land boundaries

    def area(self, key: str) -> Area:
        """The area named `key`; KeyError when there is none."""
        return self.areas[self.by_key[key]]

    def layout(self, players: int, key: str | None = None) -> Layout:
        """The map for `players` players: the default one, or the one named `key` (KeyError if none)."""
        for layout in self.layouts[players]:
            if key is None or layout.key == key:
                return layout
        raise KeyError(key)

    def nations_for_players(self, players: int) -> tuple[str, ...]:
        """The nations that may be chosen with `players` players on the default map (15.3, 16)."""
        return self.layout(players).nations


def _read(name: str) -> Any:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _frozen_map(items: Iterable[tuple[Any, Any]]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(items))


def _placement(
    panels_doc: Mapping[str, Any],
) -> tuple[dict[str, str], dict[str, tuple[str, ...]], dict[str, DashedSide]]:
    """Per area key: its known panel, the panels it may lie on, and its side of the dashed line."""
    known: dict[str, str] = {}
    extent: dict[str, tuple[str, ...]] = {}
    for panel, keys in panels_doc["land"].items():
        if panel == "unknown":
            continue
        for key in keys:
            known[key] = panel
            extent[key] = (panel,)
    for key, candidates in panels_doc["land"].get("unknown", {}).items():
        extent[key] = tuple(candidates)
    for key, spanned in panels_doc["sea"].items():
        extent[key] = tuple(spanned)
    east = panels_doc["east_of_dashed_line"]
    side: dict[str, DashedSide] = {key: "east" for key in east["land"] + east["sea"]}
    side.update({key: "both" for key in east["sea_crossing_the_line"]})
    return known, extent, side


def _load() -> Board:
    areas_doc = _read("areas.json")
    panels_doc = _read("panels.json")
    nations_doc = _read("nations.json")["nations"]
    land_rows, sea_rows = areas_doc["land"], areas_doc["sea"]
    rows = land_rows + sea_rows
    by_key = {row["key"]: i for i, row in enumerate(rows)}
    land_neighbours = tuple(frozenset(by_key[k] for k in row.get("land", ())) for row in rows)
    coast_neighbours = tuple(frozenset(by_key[k] for k in row["water"]) for row in rows)
    coasts = read_coasts(_read("coasts.json")["areas"], by_key, coast_neighbours)
    land_groups = _groups(list(range(len(land_rows))), land_neighbours)
    islands = {i for group in land_groups if len(group) < ISLAND_GROUP for i in group}
    known, extent, side = _placement(panels_doc)
    starts: dict[str, list[str]] = {}
    for nation in nations_doc:
        for key in nation["start_areas"]:
            starts.setdefault(key, []).append(nation["key"])

    areas = tuple(
        Area(
            index=i,
            key=row["key"],
            name=row["name"],
            kind="land" if i < len(land_rows) else "sea",
            population=row.get("pop", 0),
            city_site=row.get("city") is not None,
            white_site=row.get("city") == "white",
            flood_plain=row.get("flood", False),
            volcano=row.get("volcano", False),
            open_sea=row.get("open_sea", False),
            coastal=bool(row["water"]),
            island=i in islands,
            start_of=tuple(starts.get(row["key"], ())),
            panel=known.get(row["key"]),
            panels=extent[row["key"]],
            dashed_side=side.get(row["key"], "west"),
        )
        for i, row in enumerate(rows)
    )
    nation_info = {
        n["key"]: Nation(
            key=n["key"],
            name=n["name"],
            colour=n["colour"],
            ast_order=n["ast_order"],
            start_areas=tuple(sorted(by_key[k] for k in n["start_areas"])),
            western_extension=n.get("western_extension"),
        )
        for n in nations_doc
    }
    ast = {
        n["key"]: AstTrack(
            nation=n["key"],
            epoch_starts=(1, *(n["ast"][epoch] for epoch in EPOCHS[1:])),
            late_iron_points=tuple(n["ast"]["late_iron_points"]),
        )
        for n in nations_doc
    }
    layouts: dict[int, list[Layout]] = {}
    for spec in _read("layouts.json")["layouts"]:
        layouts.setdefault(spec["players"], []).append(_layout(spec, areas, nation_info))
    full = layouts[max(layouts)][0]
    return Board(
        areas=areas,
        by_key=MappingProxyType(by_key),
        land=tuple(range(len(land_rows))),
        seas=tuple(range(len(land_rows), len(rows))),
        land_neighbours=land_neighbours,
        coast_neighbours=coast_neighbours,
        coasts=coasts,
        nations=full.nations,
        nation_info=MappingProxyType(nation_info),
        start_areas=full.start_areas,
        ast=MappingProxyType(ast),
        layouts=_frozen_map((n, tuple(options)) for n, options in sorted(layouts.items())),
        panels_for_players=_frozen_map((n, options[0].panels) for n, options in sorted(layouts.items())),
        unknown_panels=tuple(a.key for a in areas if a.kind == "land" and a.panel is None),
        flood_plains=_groups([a.index for a in areas if a.flood_plain], land_neighbours),
    )


def read_coasts(
    doc: Mapping[str, list[list[str]]],
    by_key: Mapping[str, int],
    coast_neighbours: tuple[frozenset[int], ...],
) -> Mapping[int, tuple[frozenset[int], ...]]:
    """The two-coast areas (23.57), checked: each coast is a set of the area's water neighbours, an area
    has two coasts or more, and every water neighbour lies on one of them (or on both)."""
    coasts: dict[int, tuple[frozenset[int], ...]] = {}
    for key, sides in doc.items():
        if key not in by_key:
            raise ValueError(f"coasts.json: there is no area {key!r}")
        area = by_key[key]
        unknown = sorted({k for side in sides for k in side if by_key.get(k) not in coast_neighbours[area]})
        if unknown:
            raise ValueError(f"coasts.json: {key} has no water boundary with {', '.join(unknown)}")
        split = tuple(frozenset(by_key[k] for k in side) for side in sides)
        if len(split) < 2 or not all(split):
            raise ValueError(f"coasts.json: {key} needs two coasts or more, none empty")
        if frozenset().union(*split) != coast_neighbours[area]:
            raise ValueError(f"coasts.json: every water neighbour of {key} must lie on one of its coasts")
        coasts[area] = split
    return MappingProxyType(coasts)


def _groups(members: list[int], links: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...]:
    """The connected groups of `members` through `links`, each group ordered by its smallest index."""
    wanted = set(members)
    groups: list[frozenset[int]] = []
    for start in members:
        if any(start in group for group in groups):
            continue
        group, frontier = {start}, [start]
        while frontier:
            for other in links[frontier.pop()] & wanted:
                if other not in group:
                    group.add(other)
                    frontier.append(other)
        groups.append(frozenset(group))
    return tuple(groups)


def _in_play(area: Area, panels: frozenset[str], dashed_line: str | None) -> bool | None:
    """Whether the area is on the map; None when its unknown panel decides it."""
    if dashed_line == "western_edge" and area.dashed_side == "west":
        return False
    if dashed_line == "eastern_edge" and area.dashed_side == "east":
        return False
    if area.kind == "sea":
        return any(panel in panels for panel in area.panels)
    if area.panel is not None:
        return area.panel in panels
    inside = [panel in panels for panel in area.panels]
    return all(inside) or (False if not any(inside) else None)


def _layout(spec: Mapping[str, Any], areas: tuple[Area, ...], nations: Mapping[str, Nation]) -> Layout:
    panels = frozenset(spec["panels"])
    verdicts = {area.index: _in_play(area, panels, spec["dashed_line"]) for area in areas}
    in_play = frozenset(i for i, verdict in verdicts.items() if verdict)
    with_extension = WESTERN_EXTENSION in panels
    wanted = spec["nations"]
    candidates = sorted(
        (n for n in nations.values() if wanted == "all" or n.key in wanted),
        key=lambda n: n.ast_order,
    )
    start_areas = {
        n.key: tuple(i for i in n.start_areas if i in in_play)
        for n in candidates
        if n.western_extension in (None, with_extension)
    }
    playable = {key: starts for key, starts in start_areas.items() if starts}
    return Layout(
        players=spec["players"],
        key=spec["key"],
        panels=panels,
        dashed_line=spec["dashed_line"],
        tokens=spec["tokens"],
        areas=in_play,
        nations=tuple(playable),
        start_areas=MappingProxyType(playable),
        island_city_sites=spec.get("island_city_sites", True),
        undetermined=tuple(areas[i].key for i, verdict in verdicts.items() if verdict is None),
    )


BOARD: Board = _load()


def board_report() -> list[str]:
    """Facts about the board data worth logging at start-up: what an operator should complete."""
    lines = _panels_report()
    if not BOARD.coasts:
        lines.append(
            "Advanced Civilization: no two-coast areas given (23.57), so a ship may cross any area from "
            "coast to coast; list them in app/games/advciv/data/coasts.json."
        )
    return lines


def _panels_report() -> list[str]:
    if not BOARD.unknown_panels:
        return []
    affected = [
        f"{layout.players} players ({layout.key})"
        for options in BOARD.layouts.values()
        for layout in options
        if not layout.complete
    ]
    lines = [
        f"Advanced Civilization: board panel unknown for {len(BOARD.unknown_panels)} areas "
        f"({', '.join(BOARD.unknown_panels)}); complete app/games/advciv/data/panels.json."
    ]
    if affected:
        lines.append(
            "Advanced Civilization: these maps leave those areas out until then: " + "; ".join(affected) + "."
        )
    return lines


@cache
def polygons() -> Mapping[str, Any]:
    """The drawing of the map, in one coordinate frame: `view_box` [x, y, width, height], and per area key
    its SVG path data (`d`) and label point (`label`, [x, y])."""
    doc = _read("polygons.json")
    return MappingProxyType({"view_box": tuple(doc["view_box"]), "areas": MappingProxyType(doc["areas"])})
