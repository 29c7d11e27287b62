"""The board of Amun-Re: the 15 provinces and the temple scale, read once from one JSON file.

The file is `data/board.json`, or the file named by the environment variable `OSTRACA_AMUNRE_BOARD`, so an
operator can correct the board without touching code. Every value in it is either `{"value", "source"}` or
`{"value", "reconstructed"}` (the constraint it was derived from), and may carry a `"doubt"` beside it
(what a source puts in question); `board_report()` says how many values are reconstructed and how many
are in doubt. Provinces are numbered in the file's order (north to south); the state refers to them by
that index, orders and views by their name.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path(__file__).with_name("data") / "board.json"
PATH_VARIABLE = "OSTRACA_AMUNRE_BOARD"
GOLD_VALUES: tuple[int, ...] = (1, 2, 5, 10, 20)
SPACES = 4  # the numbered temple spaces; 0 is the start, left of them


@dataclass(frozen=True, slots=True)
class Province:
    index: int
    name: str
    farm_spaces: int  # spaces for bought farmers
    printed_farmers: int
    card_limit: int  # the "cheese" symbols: power cards its owner may buy in a turn
    temples: int
    income: int  # gold every round
    camel_income: int  # gold when the temple marker is on a camel space
    side: str  # "east" or "west" of the Nile
    egypt: str  # "upper" or "lower"
    nile_bank: bool
    free_cards: int  # items placed on it when its card is revealed
    free_blocks: int
    free_gold: int


@dataclass(frozen=True, slots=True)
class Board:
    provinces: tuple[Province, ...]
    lowest_total: tuple[int, ...]  # per space 2..4, the lowest offering total that reaches it
    gold_per_farmer: tuple[int, ...]  # per space 1..4
    temple_points: tuple[int, ...]  # per space 1..4
    camel: tuple[bool, ...]  # per space 1..4
    start_gold: tuple[int, ...]  # gold cards dealt to each player, by value
    reconstructed: int  # how many values were reconstructed rather than read in a source
    values: int
    doubts: int = 0  # how many values carry a doubt

    def index(self, name: str) -> int:
        for province in self.provinces:
            if province.name == name:
                return province.index
        raise KeyError(name)

    def space_for(self, total: int) -> int:
        """The temple space (1..4) an offering total sends the marker to."""
        return 1 + sum(1 for lowest in self.lowest_total if total >= lowest)


class _Reader:
    """Unwraps `{value, source|reconstructed}` cells, counting them."""

    def __init__(self) -> None:
        self.values = 0
        self.reconstructed = 0
        self.doubts = 0

    def __call__(self, cell: dict[str, Any]) -> Any:
        if "source" not in cell and "reconstructed" not in cell:
            raise ValueError(f"board value without a source or 'reconstructed': {cell!r}")
        self.values += 1
        self.reconstructed += "reconstructed" in cell
        self.doubts += bool(cell.get("doubt"))
        return cell["value"]


def load(path: Path) -> Board:
    doc = json.loads(path.read_text(encoding="utf-8"))
    read = _Reader()
    provinces = tuple(
        Province(
            index=index,
            name=row["name"],
            farm_spaces=read(row["farm_spaces"]),
            printed_farmers=read(row["printed_farmers"]),
            card_limit=read(row["card_limit"]),
            temples=read(row["temples"]),
            income=read(row["income"]),
            camel_income=read(row["camel_income"]),
            side=read(row["side"]),
            egypt=read(row["egypt"]),
            nile_bank=read(row["nile_bank"]),
            free_cards=read(row["free_cards"]),
            free_blocks=read(row["free_blocks"]),
            free_gold=read(row["free_gold"]),
        )
        for index, row in enumerate(doc["provinces"])
    )
    scale = doc["temple_scale"]
    lowest = [read(cell) for cell in scale["lowest_total"]][1:]  # space 1 has no lower bound
    board = Board(
        provinces=provinces,
        lowest_total=tuple(lowest),
        gold_per_farmer=tuple(read(cell) for cell in scale["gold_per_farmer"]),
        temple_points=tuple(read(cell) for cell in scale["temple_points"]),
        camel=tuple(read(cell) for cell in scale["camel"]),
        start_gold=tuple(read(doc["start_gold"])),
        reconstructed=read.reconstructed,
        values=read.values,
        doubts=read.doubts,
    )
    _check(board)
    return board


def _check(board: Board) -> None:
    names = [province.name for province in board.provinces]
    if len(names) != 15 or len(set(names)) != 15:
        raise ValueError("the Amun-Re board needs 15 provinces with distinct names")
    if len(board.lowest_total) != SPACES - 1 or list(board.lowest_total) != sorted(board.lowest_total):
        raise ValueError("the temple scale needs 3 increasing lower bounds (spaces 2 to 4)")
    if len(board.start_gold) != len(GOLD_VALUES):
        raise ValueError("start_gold gives a count for each gold value 1, 2, 5, 10, 20")
    for province in board.provinces:
        if province.side not in ("east", "west") or province.egypt not in ("upper", "lower"):
            raise ValueError(f"{province.name}: side must be east/west and egypt upper/lower")


def board_path() -> Path:
    return Path(os.environ.get(PATH_VARIABLE) or DEFAULT_PATH)


BOARD = load(board_path())


def board_report() -> str:
    """One line for the start-up log."""
    return (
        f"Amun-Re: {BOARD.reconstructed} of {BOARD.values} board values are reconstructed, not sourced, "
        f"and {BOARD.doubts} in doubt ({board_path()}; see docs/amunre.md)."
    )
