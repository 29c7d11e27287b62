"""The orders a player may send, and the `Legal` description of what an awaited seat may do now.

Orders are flat JSON objects tagged by `type`, with squares named like "E5" and colours by name, so that
an HTML form can post them (`tiles.red=2` for a swap). Pydantic's lax mode reads "3" as 3 and "on" as
true; an empty field means "the default".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    NonNegativeInt,
    TypeAdapter,
    field_validator,
)

from app.games import contract
from app.games.kit import legal
from app.games.tigris.board import MONUMENT_IDS, parse

Colour = Literal["red", "blue", "green", "black"]
MonumentId = Literal["red-blue", "red-green", "red-black", "blue-green", "blue-black", "green-black"]
assert set(MonumentId.__args__) == set(MONUMENT_IDS)  # type: ignore[attr-defined]

SQUARE_PATTERN = r"^[A-Pa-p]([1-9]|1[01])$"
Square = Annotated[str, Field(pattern=SQUARE_PATTERN, description='Column A-P and row 1-11, e.g. "E5".')]


class _OrderBase(contract.FormOrder):
    @field_validator("*", mode="after")
    @classmethod
    def _upper_squares(cls, value: Any, info: Any) -> Any:
        if info.field_name in {"square", "leave"} and isinstance(value, str):
            return value.upper()
        return value


class LeaderOrder(_OrderBase):
    """Place one of your leaders from in front of your screen, or move it from the board, to `square`."""

    type: Literal["leader"]
    colour: Colour
    square: Square


class WithdrawOrder(_OrderBase):
    """Take one of your leaders back from the board."""

    type: Literal["withdraw"]
    colour: Colour


class TileOrder(_OrderBase):
    """Place a civilization tile from your hand (blue on a river, the others off the rivers)."""

    type: Literal["tile"]
    colour: Colour
    square: Square


class CatastropheOrder(_OrderBase):
    """Place a catastrophe on an empty square or on a tile (which leaves the game)."""

    type: Literal["catastrophe"]
    square: Square


class SwapOrder(_OrderBase):
    """Discard 1 to 6 tiles from your hand and draw as many."""

    type: Literal["swap"]
    tiles: dict[Colour, NonNegativeInt] = Field(default_factory=dict)

    @field_validator("tiles")
    @classmethod
    def _no_zeros(cls, counts: dict[str, int]) -> dict[str, int]:
        return {colour: count for colour, count in counts.items() if count}


class PassOrder(_OrderBase):
    """End your turn without using the actions left. `timeout` marks the server's default."""

    type: Literal["pass"]
    timeout: bool = False

    def key(self) -> tuple[Any, ...]:
        return (self.type,)


class SupportOrder(_OrderBase):
    """In a conflict: how many tiles of the conflict's colour you add from your hand (0: none)."""

    type: Literal["support"]
    count: NonNegativeInt = 0


class WarOrder(_OrderBase):
    """When one tile starts several wars: the colour of the war to resolve next."""

    type: Literal["war"]
    colour: Colour


class MonumentOrder(_OrderBase):
    """Build `monument` on the 2x2 square whose top-left square is `square`; without them, build nothing."""

    type: Literal["monument"]
    square: Square | None = None
    monument: MonumentId | None = None


class TreasureOrder(_OrderBase):
    """When your trader collects treasures: the one treasure you leave on the board."""

    type: Literal["treasure"]
    leave: Square


OrderModel = (
    LeaderOrder
    | WithdrawOrder
    | TileOrder
    | CatastropheOrder
    | SwapOrder
    | PassOrder
    | SupportOrder
    | WarOrder
    | MonumentOrder
    | TreasureOrder
)
Order = Annotated[OrderModel, Field(discriminator="type")]
ORDER_ADAPTER: TypeAdapter[OrderModel] = TypeAdapter(Order)


def parse_order(data: Mapping[str, Any]) -> OrderModel:
    return contract.parse_order(ORDER_ADAPTER, data)


def square_of(order: OrderModel, name: str = "square") -> int:
    label: str = getattr(order, name)
    return parse(label)


@dataclass(frozen=True, kw_only=True)
class Legal(legal.Legal[OrderModel]):
    """What one awaited seat may do now.

    In the action phase: `targets` maps a piece ("tile:red", "leader:green", "catastrophe") to the squares it
    may go to, `withdraw` lists the colours of the leaders that may be taken back, `swap` gives the most
    tiles of each colour that may be discarded. In the other phases, `choices` lists every legal order.
    `context` holds the facts for the prompt (colour, roles, strengths).
    """

    targets: dict[str, frozenset[int]] = field(default_factory=dict)
    withdraw: tuple[int, ...] = ()
    swap: tuple[int, int, int, int] | None = None
