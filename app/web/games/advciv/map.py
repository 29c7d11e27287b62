"""The Advanced Civilization map in SVG: the printed board drawn once per process from the area polygons,
and the pieces of one view (tokens, cities, ships in nation colours) placed around each area's label."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape

from app.games.advciv.board import BOARD, Area, polygons
from app.games.advciv.tables import in_play
from app.services.play.play import WaitInfo
from app.web.games.advciv import cards as advciv_cards
from app.web.games.advciv import market as advciv_market

PIECE = 60  # the room of one piece, in map units (the board is about 3,000 wide, an area about 180)
GAP = 4
ROW_DROP = 48  # from the label point (the population circle) to the first row of pieces
PER_ROW = 3


@dataclass(frozen=True)
class Geometry:
    """The board's drawing: path data and label point per area key, in one coordinate frame."""

    view_box: tuple[float, float, float, float]
    paths: Mapping[str, str]
    labels: Mapping[str, tuple[float, float]]


@dataclass(frozen=True)
class Piece:
    """One marker on the map: a stack of tokens, a city or a ship of one nation in one area."""

    area: str
    kind: str  # "tokens", "city" or "ship"
    nation: str
    count: int  # tokens in the stack, ships of the nation in the area; 1 for a city
    fill: str
    ink: str  # text colour readable on `fill`
    x: float
    y: float
    mine: bool


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    drawing = polygons()
    x, y, width, height = (float(n) for n in drawing["view_box"])
    areas = drawing["areas"]
    return Geometry(
        view_box=(x, y, width, height),
        paths={key: area["d"] for key, area in areas.items()},
        labels={key: (float(area["label"][0]), float(area["label"][1])) for key, area in areas.items()},
    )


def view_box_text() -> str:
    return " ".join(f"{n:g}" for n in geometry().view_box)


@lru_cache(maxsize=8)
def printed_board(players: int) -> Markup:
    """The areas with their printed marks, the areas out of play for `players` players greyed; the same
    for every viewer and language (area names are the board's own, as printed)."""
    playing = in_play(players)
    drawing = geometry()
    shapes: list[str] = []
    marks: list[str] = []
    names: list[str] = []
    areas = sorted(BOARD.areas, key=lambda area: area.kind != "sea")  # seas below, so coasts draw on top
    for area in areas:
        path = drawing.paths.get(area.key)
        if path is None:
            continue
        classes = ["ac-area", area.kind]
        if area.flood_plain:
            classes.append("flood")
        if area.open_sea:
            classes.append("open")
        if not playing[area.index]:
            classes.append("out")
        shapes.append(
            f'<path class="{" ".join(classes)}" data-area="{escape(area.key)}" d="{escape(path)}">'
            f"<title>{escape(area.name)}</title></path>"
        )
        x, y = drawing.labels.get(area.key, (0.0, 0.0))
        marks.append(_marks(area, x, y, playing[area.index]))
        names.append(
            f'<text class="ac-name{"" if playing[area.index] else " out"}" data-area="{escape(area.key)}" '
            f'x="{x:g}" y="{y - 26:g}">'
            f"{escape(area.name)}</text>"
        )
    return Markup(
        '<g class="ac-areas">'
        + "".join(shapes)
        + '</g><g class="ac-marks" aria-hidden="true">'
        + "".join(marks)
        + '</g><g class="ac-names" aria-hidden="true">'
        + "".join(names)
        + "</g>"
    )


def _marks(area: Area, x: float, y: float, playing: bool) -> str:
    """The population limit in a circle, the city site (a square beside it) and the volcano (a triangle);
    faded on an area out of play."""
    parts: list[str] = [] if playing else ['<g class="out">']
    if area.kind == "land":
        parts.append(
            f'<g class="ac-limit" transform="translate({x:g} {y:g})"><circle r="17"/>'
            f'<text y="7">{area.population}</text></g>'
        )
    if area.city_site:
        white = " white" if area.white_site else ""
        parts.append(
            f'<rect class="ac-site{white}" data-area="{escape(area.key)}" x="{x + 21:g}" y="{y - 12:g}" '
            'width="24" height="24" rx="2"/>'
        )
    if area.volcano:
        parts.append(f'<path class="ac-volcano" d="M{x - 42:g} {y + 12:g} l14 -26 l14 26 z"/>')
    if not playing:
        parts.append("</g>")
    return "".join(parts)


def pieces(areas: Mapping[str, Any], colours: Mapping[str, str], mine: str | None) -> list[Piece]:
    """Every piece on the map, laid out in rows under the area's label point: cities first, then token
    stacks, then ships, each nation in the order of `colours`."""
    drawing = geometry()
    placed: list[Piece] = []
    order = list(colours)
    for key, units in areas.items():
        centre = drawing.labels.get(key)
        if centre is None:
            continue
        row = list(_pieces_of(units, order))
        for index, (kind, nation, count) in enumerate(row):
            x, y = _slot(centre, index, len(row))
            fill = colours.get(nation, "#777777")
            placed.append(Piece(key, kind, nation, count, fill, ink_on(fill), x, y, nation == mine))
    return placed


def _pieces_of(units: Mapping[str, Any], order: list[str]) -> Iterable[tuple[str, str, int]]:
    nations = units.get("units", {})
    ships = units.get("ships", {})
    ranked = sorted(set(nations) | set(ships), key=lambda n: order.index(n) if n in order else len(order))
    for nation in ranked:
        if nations.get(nation, {}).get("city"):
            yield "city", nation, 1
    for nation in ranked:
        tokens = nations.get(nation, {}).get("tokens", 0)
        if tokens:
            yield "tokens", nation, tokens
    for nation in ranked:
        if ships.get(nation):
            yield "ship", nation, ships[nation]


def _slot(centre: tuple[float, float], index: int, total: int) -> tuple[float, float]:
    row, column = divmod(index, PER_ROW)
    in_row = min(PER_ROW, total - row * PER_ROW)
    step = PIECE + GAP
    x = centre[0] - (in_row - 1) * step / 2 + column * step
    y = centre[1] + ROW_DROP + row * step
    return x, y


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on the colour `fill` ("#rrggbb")."""
    try:
        red, green, blue = (int(fill[i : i + 2], 16) / 255 for i in (1, 3, 5))
    except ValueError:
        return "#ffffff"
    luminance = 0.2126 * red**2.2 + 0.7152 * green**2.2 + 0.0722 * blue**2.2
    return "#111111" if luminance > 0.3 else "#ffffff"


PHASE_TRACK = (
    (1, "tax"),
    (2, "expand"),
    (3, "census"),
    (4, "ships"),
    (5, "move"),
    (6, "conflict"),
    (7, "build"),
    (8, "surplus"),
    (9, "gold"),
    (10, "trade"),
    (11, "calamity"),
    (12, "civ_cards"),
    (13, "ast"),
)
SKIPPED: frozenset[int] = frozenset()  # phases no game of this server plays
# The phases a rules phase code belongs to on the track (sub-steps light their phase up).
PHASE_OF = {"revolt": "tax", "support": "surplus", "calamity_support": "calamity", "advances": "civ_cards"}


# Barbarian tokens and pirate cities belong to no seat (§30.5, §30.9): drawn as two nations of their own.
OUTSIDERS = {"barbarians": "#3b3b3b", "pirates": "#6b2d5c"}


def _with_outsiders(board: Mapping[str, Any]) -> dict[str, Any]:
    """The view's areas with the barbarians' tokens and the pirate cities added as units."""
    areas = {key: dict(units) for key, units in board.get("areas", {}).items()}
    for key, tokens in board.get("barbarians", {}).items():
        place = areas.setdefault(key, {})
        place["units"] = {**place.get("units", {}), "barbarians": {"tokens": tokens}}
    for key in board.get("pirates", ()):
        place = areas.setdefault(key, {})
        place["units"] = {**place.get("units", {}), "pirates": {"city": True}}
    return areas


AREA_NAMES = {area.key: area.name for area in BOARD.areas}


def names_context(board: Mapping[str, Any]) -> dict[str, Any]:
    """What the game's name macros need (areas as printed, the nation of each seat): enough for a mail,
    which renders the log's events with the public view only."""
    return {
        "names": AREA_NAMES,
        "nations_by_seat": {row["seat"]: row for row in board.get("nations", ())},
    }


def page_context(
    board: Mapping[str, Any], seat: int | None, my_wait: WaitInfo | None, now: datetime
) -> dict[str, Any]:
    """The rules' view of one seat, laid out for the map page."""
    nations = list(board.get("nations", ()))
    colours = {row["nation"]: _colour(row) for row in nations}
    me = next((row["nation"] for row in nations if row.get("seat") == seat), None)
    drawing = geometry()
    moves = [_arrow(move, drawing) for move in board.get("my_moves", ())]
    phase = board.get("phase", "")
    legal = board.get("legal") or {}
    command = _command(legal)
    placed = pieces(_with_outsiders(board), {**colours, **OUTSIDERS}, me)
    return {
        **names_context(board),
        "view_box": view_box_text(),
        "printed": printed_board(len(nations)),
        "play_box": play_box(len(nations)),
        "pieces": placed,
        "moves": [move for move in moves if move is not None],
        "movable": frozenset(command.get("sources", {})) | frozenset(command.get("ships", {})),
        "phase": phase,
        "phase_codes": {phase, PHASE_OF.get(phase, phase)},
        "phase_track": PHASE_TRACK,
        "skipped": SKIPPED,
        "turn": board.get("turn", 1),
        "over": phase == "over",
        "awaited": tuple(board.get("awaiting", ())),
        "census": _census(nations, board.get("census_order", ()), colours),
        "ast": [_ast_row(row, colours[row["nation"]]) for row in nations],
        "ast_length": AST_SPACES,
        "epochs": EPOCHS,
        "command": command,
        "focus": _focus([piece for piece in placed if piece.mine], command),
        "cards": advciv_cards.hand_panel(board, seat),
        "calamity": advciv_cards.calamity_panel(board),
        "market": advciv_market.market_panel(board, seat),
        "advances": advciv_market.advances_panel(board, seat),
        "points": advciv_market.points_panel(board),
    }


FOCUS_MARGIN = 160
FOCUS_SMALLEST = 900


@lru_cache(maxsize=8)
def play_box(players: int) -> str:
    """The part of the map in play for `players` players, which a wide screen shows first."""
    playing = in_play(players)
    labels = geometry().labels
    points = [labels[area.key] for area in BOARD.areas if playing[area.index] and area.key in labels]
    return _box(points, 220, 0, clip=geometry().view_box) if points else ""


def _focus(mine: list[Piece], command: Mapping[str, Any]) -> str:
    """The part of the map a phone shows first: the viewer's pieces and where they may go."""
    labels = geometry().labels
    points = [(piece.x, piece.y) for piece in mine]
    for table in (command.get("sources", {}), command.get("ships", {})):
        for entry in table.values():
            points.extend(labels[key] for key in entry.get("to", ()) if key in labels)
    return _box(points, FOCUS_MARGIN, FOCUS_SMALLEST) if points else ""


def _box(
    points: list[tuple[float, float]],
    margin: float,
    smallest: float,
    clip: tuple[float, float, float, float] | None = None,
) -> str:
    """The box around `points` with `margin` on every side, at least `smallest` wide and high, inside
    `clip` when given."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    width = max(max(xs) - min(xs) + 2 * margin, smallest)
    height = max(max(ys) - min(ys) + 2 * margin, smallest)
    left = (max(xs) + min(xs) - width) / 2
    top = (max(ys) + min(ys) - height) / 2
    if clip is not None:
        right, bottom = min(left + width, clip[0] + clip[2]), min(top + height, clip[1] + clip[3])
        left, top = max(left, clip[0]), max(top, clip[1])
        width, height = right - left, bottom - top
    return f"{left:.0f} {top:.0f} {width:.0f} {height:.0f}"


def _arrow(move: Mapping[str, Any], drawing: Geometry) -> dict[str, Any] | None:
    """A move entered, as an arrow from where it leaves to where it ends (a voyage: its last stop)."""
    if move.get("type") == "sail":
        origin, to = move["ship"], move["stops"][-1]["area"]
        tokens = sum(stop.get("land", 0) for stop in move["stops"])
    else:
        origin, to, tokens = move["origin"], move["to"], move.get("tokens", 0)
    start, end = drawing.labels.get(origin), drawing.labels.get(to)
    if start is None or end is None:
        return None
    # stop short of the label points, so that the arrow does not cover the counts
    (x1, y1), (x2, y2) = _shorten(start, end, 22)
    return {**move, "x1": x1, "y1": y1, "x2": x2, "y2": y2, "tokens_moved": tokens}


def _shorten(
    start: tuple[float, float], end: tuple[float, float], by: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max((dx * dx + dy * dy) ** 0.5, 1.0)
    cut = min(by, length / 3) / length
    return (
        (round(start[0] + dx * cut, 1), round(start[1] + dy * cut, 1)),
        (round(end[0] - dx * cut, 1), round(end[1] - dy * cut, 1)),
    )


def _census(
    nations: list[Mapping[str, Any]], census_order: Iterable[int], colours: Mapping[str, str]
) -> list[dict[str, Any]]:
    rank = {seat: place for place, seat in enumerate(census_order, start=1)}
    rows = [
        {
            "seat": row["seat"],
            "nation": row["nation"],
            "fill": colours[row["nation"]],
            "rank": rank.get(row["seat"]),
            "census": row.get("census", 0),
            "on_map": row.get("tokens", 0),
            "stock": row.get("stock", 0),
            "treasury": row.get("treasury", 0),
            "cities": row.get("cities", 0),
            "cities_in_stock": row.get("cities_in_stock", 0),
            "ships": row.get("ships", 0),
            "ships_in_stock": row.get("ships_in_stock", 0),
        }
        for row in nations
    ]
    return sorted(rows, key=lambda row: (row["rank"] or 99, row["seat"]))


def _command(legal: Mapping[str, Any] | None) -> dict[str, Any]:
    """What the side panel offers the viewer, and how the map takes part: "move" (pick a stack, then a
    destination), "pick" (an area is one of the choices), "toggle" (areas checked on and off), "counts"
    (tokens placed area by area), "ships", or "choices" (buttons only)."""
    if not legal:
        return {"mode": "", "sources": {}, "ships": {}}
    phase, prompt = legal["phase"], legal["prompt"]
    context = legal.get("context") or {}
    default = legal.get("default") or {}
    command: dict[str, Any] = {
        "phase": phase,
        "prompt": prompt,
        "context": context,
        "choices": legal.get("choices", []),
        "orders": legal.get("orders", []),
        "default": default,
        "mode": "choices",
        "sources": {},
        "ships": {},
    }
    if phase == "move" and prompt != "move_done":
        tokens = context.get("tokens", {})
        load = context.get("ship_load", 5)
        command["mode"] = "move"
        roads = context.get("road", {})
        command["sources"] = {
            key: {
                "max": tokens.get(key, 0),
                "to": [*targets, *roads.get(key, {})],
                "via": roads.get(key, {}),
            }
            for key, targets in context.get("land", {}).items()
            if (targets or roads.get(key)) and tokens.get(key)
        }
        command["ships"] = {
            key: {
                "max": min(load, tokens.get(key, 0)),
                "to": targets,
                "sea": [to for to in targets if BOARD.area(to).kind == "sea"],
            }
            for key, targets in context.get("ships", {}).items()
            if targets
        }
        destinations = {to for entry in command["sources"].values() for to in entry["to"]}
        destinations |= {to for entry in command["ships"].values() for to in entry["to"]}
        command["all_destinations"] = sorted(destinations, key=lambda key: BOARD.area(key).name)
    elif phase in ("start", "support", "calamity_support"):
        command["mode"] = "pick"
    elif phase == "calamity":
        command |= advciv_cards.calamity_command(prompt, context, default)
    elif phase in ("build", "revolt"):
        offered = context.get("areas") if phase == "build" else context.get("cities")
        chosen = set(default.get("areas", ()))
        command["mode"] = "toggle"
        command["toggles"] = [{"area": key, "on": key in chosen} for key in offered or ()]
    elif phase == "expand":
        placed = default.get("areas", {})
        command["mode"] = "counts"
        command["counts"] = [
            {"area": key, "most": most, "value": placed.get(key, 0)}
            for key, most in context.get("most", {}).items()
        ]
    elif phase == "ships":
        command["mode"] = "ships"
    return command


def _colour(row: Mapping[str, Any]) -> str:
    """The nation's colour as "#rrggbb": the view's, else the board's."""
    colour = str(row.get("colour") or "")
    if not (colour.startswith("#") and len(colour) == 7):
        info = BOARD.nation_info.get(row["nation"])
        colour = info.colour if info else "#777777"
    return colour


AST_SPACES = 16
EPOCHS = ("stone", "early_bronze", "late_bronze", "early_iron", "late_iron")


def _ast_row(row: Mapping[str, Any], fill: str) -> dict[str, Any]:
    """One nation's row of the A.S.T.: its 16 spaces coloured by epoch, and where its marker stands."""
    track = BOARD.ast.get(row["nation"])
    position = int(row.get("ast", 0))
    spaces = [
        {"number": space, "epoch_index": (track.epoch(space) if track else 0) + 1}
        for space in range(AST_SPACES + 1)
    ]
    epoch = EPOCHS[track.epoch(position)] if track else EPOCHS[0]
    return {"nation": row["nation"], "fill": fill, "position": position, "spaces": spaces, "epoch": epoch}
