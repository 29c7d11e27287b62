"""The seat draft's map: every nation on offer with its start areas in its colour on the board for the
game's player count, the nations already chosen marked with their player (pre-selections stay secret)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.advciv.board import BOARD
from app.services.play.draft import DraftRow, DraftView
from app.web.games.advciv.map import AREA_NAMES, geometry, ink_on, play_box, printed_board, view_box_text


@dataclass(frozen=True)
class StartArea:
    key: str
    name: str  # as printed on the board
    path: str  # SVG path data


@dataclass(frozen=True)
class DraftNation:
    """A nation on offer, where it starts, and who took it (None: still free)."""

    key: str
    fill: str
    ink: str  # text colour readable on `fill`
    areas: tuple[StartArea, ...]
    x: float  # where its label goes: the middle of its start areas' label points
    y: float
    seat: int | None
    player: str | None
    mine: bool


def draft_map(view: DraftView) -> dict[str, Any]:
    """What templates/games/advciv/draft_map.html draws; nothing for a viewer who may not see the draft."""
    if not view.visible:
        return {}
    players = view.game.players
    takers = {row.choice: row for row in view.rows if row.choice is not None}
    offered = sorted({*takers, *view.free}, key=lambda key: BOARD.nation_info[key].ast_order)
    starts = BOARD.layout(players).start_areas
    return {
        "view_box": view_box_text(),
        "play_box": play_box(players),
        "printed": printed_board(players),
        "nations": [_nation(key, starts.get(key, ()), takers.get(key), view.seat) for key in offered],
    }


def _nation(key: str, starts: tuple[int, ...], taker: DraftRow | None, viewer: int | None) -> DraftNation:
    drawing = geometry()
    keys = [BOARD.areas[index].key for index in starts]
    areas = tuple(StartArea(k, AREA_NAMES[k], drawing.paths[k]) for k in keys if k in drawing.paths)
    points = [drawing.labels[area.key] for area in areas]
    x = sum(p[0] for p in points) / len(points) if points else 0.0
    y = sum(p[1] for p in points) / len(points) if points else 0.0
    fill = BOARD.nation_info[key].colour
    seat = taker.seat if taker is not None else None
    return DraftNation(
        key=key,
        fill=fill,
        ink=ink_on(fill),
        areas=areas,
        x=round(x, 1),
        y=round(y, 1),
        seat=seat,
        player=taker.player if taker is not None else None,
        mine=seat is not None and seat == viewer,
    )
