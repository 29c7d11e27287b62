"""The fixed data: the standard board, tiles, monuments, and the starting position."""

from __future__ import annotations

from app.games.tigris import RULES, TigrisOptions
from app.games.tigris.board import (
    CORNERS,
    HEIGHT,
    MONUMENT_IDS,
    NAMES,
    NEIGHBOURS,
    RIVERS,
    SIZE,
    START_TEMPLES,
    TILES_PER_COLOUR,
    WIDTH,
    blocks_with,
    name,
    parse,
)

# The standard board as drawn in the published game: "~" river, "T" temple with a treasure, "C" the same
# in one of the four corners.
MAP = """
....~~~~~.T.~...
.C..~.......~..C
...~~T......~~..
~~~~.........~~~
.............T~~
..............~.
~~~~....T...~~~.
.C.~~~~.....~...
......~~~~~~~.C.
.....T..........
..........T.....
"""


def test_the_board_matches_the_published_map() -> None:
    rows = MAP.split()
    assert (len(rows), len(rows[0])) == (HEIGHT, WIDTH) == (11, 16)
    drawn = {(x, y): char for y, row in enumerate(rows) for x, char in enumerate(row)}
    assert {y * WIDTH + x for (x, y), char in drawn.items() if char == "~"} == RIVERS
    assert {y * WIDTH + x for (x, y), char in drawn.items() if char in "TC"} == set(START_TEMPLES)
    assert {y * WIDTH + x for (x, y), char in drawn.items() if char == "C"} == CORNERS
    assert len(RIVERS) == 41 and len(START_TEMPLES) == 10 and len(CORNERS) == 4
    assert [NAMES[sq] for sq in sorted(CORNERS)] == ["B2", "P2", "B8", "O9"]
    assert sorted(NAMES[sq] for sq in START_TEMPLES) == sorted(
        ["K1", "B2", "P2", "F3", "N5", "I7", "B8", "O9", "F10", "K11"]
    )


def test_tiles_monuments_and_names() -> None:
    assert sum(TILES_PER_COLOUR) == 153 and TILES_PER_COLOUR == (57, 36, 30, 30)
    assert len(MONUMENT_IDS) == len(set(MONUMENT_IDS)) == 6
    assert all(parse(name(sq)) == sq for sq in range(SIZE))
    assert parse("e1") == 4 and NAMES[4] == "E1" and NAMES[SIZE - 1] == "P11"
    for bad in ("Q1", "A0", "A12", "", "1A", "AA"):
        try:
            parse(bad)
        except ValueError:
            continue
        raise AssertionError(bad)
    assert len(NEIGHBOURS[0]) == 2 and len(NEIGHBOURS[WIDTH + 1]) == 4
    assert blocks_with(0) == (0,) and len(blocks_with(WIDTH + 1)) == 4


def test_the_start() -> None:
    for players in (2, 3, 4):
        state = RULES.new_game(TigrisOptions(), players, seed=7)
        assert state.tile_total() == 153
        assert sum(state.bag) == 153 - 10 - 6 * players
        assert all(sum(player.hand) == 6 and player.catastrophes == 2 for player in state.players)
        assert state.board.count("r") == 10 and len(state.treasures) == 10
        assert state.active == 0 and state.actions_left == 2 and state.phase == "action"
    assert RULES.new_game(TigrisOptions(), 3, seed=7) == RULES.new_game(TigrisOptions(), 3, seed=7)
    assert RULES.new_game(TigrisOptions(), 3, seed=7) != RULES.new_game(TigrisOptions(), 3, seed=8)
