"""Tables the rules read at every order, derived once from the board at import: population limits, city
sites, the water areas, the A.S.T. order and epochs, the nations and tokens by player count (§16)."""

from __future__ import annotations

from functools import cache
from typing import Final

from app.games.advciv.board import BOARD

AREAS: Final = len(BOARD.areas)
KEYS: Final = tuple(area.key for area in BOARD.areas)
INDEX: Final = BOARD.by_key
LIMITS: Final = tuple(area.population for area in BOARD.areas)
LAND: Final = tuple(area.kind == "land" for area in BOARD.areas)
# A water area (§4.22): any area a ship may be in, i.e. with a water boundary.
WATER: Final = tuple(bool(BOARD.coast_neighbours[index]) for index in range(AREAS))
LAND_NEIGHBOURS: Final = BOARD.land_neighbours
NATIONS: Final = tuple(BOARD.nations)  # A.S.T. order (§17.4): the order of every tie-break
AST_RANK: Final = {key: info.ast_order for key, info in BOARD.nation_info.items()}

# §33.2: cities needed to be in each epoch (Stone Age, Early Bronze, Late Bronze, Early Iron, Late Iron).
EPOCH_CITIES: Final = (0, 2, 3, 4, 5)
STONE, EARLY_BRONZE, LATE_BRONZE, EARLY_IRON, LATE_IRON = range(5)
FINISH: Final = 16  # the finish space (0 is the start arrow)


@cache
def in_play(players: int) -> tuple[bool, ...]:
    """Per area: whether it is in play with `players` players (§16.1, the board's default layout)."""
    areas = BOARD.layout(players).areas
    return tuple(index in areas for index in range(AREAS))


@cache
def city_sites(players: int) -> tuple[bool, ...]:
    """Per area: a city site in play; with 2 players island sites are ignored (§16.8)."""
    layout = BOARD.layout(players)
    return tuple(area.city_site and (layout.island_city_sites or not area.island) for area in BOARD.areas)


def nations_for(players: int) -> tuple[str, ...]:
    """The nations that may be chosen with `players` players (§16.12), in A.S.T. order."""
    return BOARD.layout(players).nations


def tokens_for(players: int) -> int:
    """Tokens per nation (§16.2–16.8): 47 with 8, 5 and 3 players, else 55."""
    return BOARD.layout(players).tokens


def start_areas(players: int, nation: str) -> tuple[int, ...]:
    return tuple(BOARD.layout(players).start_areas.get(nation, ()))


def epoch_of(nation: str, space: int) -> int:
    """The epoch (STONE … LATE_IRON) of an A.S.T. space of `nation`; the start arrow is the Stone Age."""
    return BOARD.ast[nation].epoch(space)


def late_iron_threshold(nation: str, space: int) -> int:
    """§33.25: the civ-card face value printed on a Late Iron space (0 on any other space)."""
    return BOARD.ast[nation].points_to_enter(space) or 0
