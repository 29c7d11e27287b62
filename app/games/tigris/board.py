"""The fixed data of Tigris & Euphrates: the standard board, the tiles, the leaders and the monuments.

Provenance. The French rules give none of the map data (the board is a picture in the rulebook). The
coordinates below are those of the standard board of the published game, as written down in the project's
rules research: three independent public implementations (BoardGameArena's, "cubenations" and a Python
one) carry identical data, and the project checked them against one another by script. Only facts are
kept: the board size, the river squares, the ten starting temples with their treasures and which four of
those are the "corner" treasures. The tile split (57/36/30/30) and the monument pairs (the six pairs of
the four colours) come from the same research; the rulebook only gives the totals (153 tiles, six
two-coloured monuments).

Squares are numbered `y * WIDTH + x` with x = 0..15 left to right and y = 0..10 top to bottom, and named
like the published game's coordinates: a letter A-P for x, then y + 1 ("E1" is x=4, y=0).
"""

from __future__ import annotations

WIDTH = 16
HEIGHT = 11
SIZE = WIDTH * HEIGHT

# The four colours, in the engine's fixed order. A tile of each colour is a civilization building and each
# colour has a leader: red temples and the priest, blue farms and the farmer, green markets and the
# trader, black settlements and the king.
COLOURS: tuple[str, ...] = ("red", "blue", "green", "black")
RED, BLUE, GREEN, BLACK = range(4)
TILE_CODES = "rbgk"  # the board string's code of a face-up tile, by colour index
LEADERS: tuple[str, ...] = ("priest", "farmer", "trader", "king")
# The dynasties, by seat (the French text's arc, buffle, poterie and lion).
DYNASTIES: tuple[str, ...] = ("archer", "bull", "urn", "lion")

TILES_PER_COLOUR: tuple[int, int, int, int] = (57, 36, 30, 30)  # 153 in all
HAND_SIZE = 6
CATASTROPHES_PER_PLAYER = 2
ACTIONS_PER_TURN = 2
TREASURES_TO_END = 2  # the game ends after a turn that leaves at most this many treasures on the board

# The six monuments: every pair of two different colours, by colour index.
MONUMENTS: tuple[tuple[int, int], ...] = (
    (RED, BLUE),
    (RED, GREEN),
    (RED, BLACK),
    (BLUE, GREEN),
    (BLUE, BLACK),
    (GREEN, BLACK),
)
MONUMENT_IDS: tuple[str, ...] = tuple(f"{COLOURS[a]}-{COLOURS[b]}" for a, b in MONUMENTS)

_RIVERS_XY: tuple[tuple[int, int], ...] = (
    (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (12, 0),
    (4, 1), (12, 1),
    (3, 2), (4, 2), (12, 2), (13, 2),
    (0, 3), (1, 3), (2, 3), (3, 3), (13, 3), (14, 3), (15, 3),
    (14, 4), (15, 4),
    (14, 5),
    (0, 6), (1, 6), (2, 6), (3, 6), (12, 6), (13, 6), (14, 6),
    (3, 7), (4, 7), (5, 7), (6, 7), (12, 7),
    (6, 8), (7, 8), (8, 8), (9, 8), (10, 8), (11, 8), (12, 8),
)  # fmt: skip
_TEMPLES_XY: tuple[tuple[int, int], ...] = (
    (10, 0), (1, 1), (15, 1), (5, 2), (13, 4), (8, 6), (1, 7), (14, 8), (5, 9), (10, 10),
)  # fmt: skip
_CORNERS_XY: tuple[tuple[int, int], ...] = ((1, 1), (15, 1), (1, 7), (14, 8))


def square(x: int, y: int) -> int:
    return y * WIDTH + x


def name(sq: int) -> str:
    """The square's coordinate as players write it: "E1"."""
    return f"{chr(ord('A') + sq % WIDTH)}{sq // WIDTH + 1}"


def parse(label: str) -> int:
    """The square named `label` ("e1" or "E1"); ValueError when there is no such square."""
    text = label.strip().upper()
    if len(text) < 2 or not "A" <= text[0] <= chr(ord("A") + WIDTH - 1) or not text[1:].isdigit():
        raise ValueError(label)
    y = int(text[1:]) - 1
    if not 0 <= y < HEIGHT or text[1] == "0":
        raise ValueError(label)
    return square(ord(text[0]) - ord("A"), y)


RIVERS: frozenset[int] = frozenset(square(x, y) for x, y in _RIVERS_XY)
START_TEMPLES: tuple[int, ...] = tuple(sorted(square(x, y) for x, y in _TEMPLES_XY))
CORNERS: frozenset[int] = frozenset(square(x, y) for x, y in _CORNERS_XY)
NAMES: tuple[str, ...] = tuple(name(sq) for sq in range(SIZE))


def _neighbours(sq: int) -> tuple[int, ...]:
    x, y = sq % WIDTH, sq // WIDTH
    around = ((x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1))
    return tuple(square(a, b) for a, b in around if 0 <= a < WIDTH and 0 <= b < HEIGHT)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(sq) for sq in range(SIZE))


def blocks_with(sq: int) -> tuple[int, ...]:
    """The top-left squares of the 2x2 blocks that contain `sq`."""
    x, y = sq % WIDTH, sq // WIDTH
    return tuple(
        square(a, b) for b in (y - 1, y) for a in (x - 1, x) if 0 <= a < WIDTH - 1 and 0 <= b < HEIGHT - 1
    )


def block(top_left: int) -> tuple[int, int, int, int]:
    return (top_left, top_left + 1, top_left + WIDTH, top_left + WIDTH + 1)


def start_board() -> str:
    """The board string at the start: a face-up temple on each starting square, all else empty."""
    cells = ["."] * SIZE
    for sq in START_TEMPLES:
        cells[sq] = TILE_CODES[RED]
    return "".join(cells)
