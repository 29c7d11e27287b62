"""The orders a player may send, and the `Legal` description of what a seat may do now.

Orders are flat JSON objects tagged by `type`; their fields are scalars or flat dicts of scalars, so an
HTML form can post them (`stones.red=2`). Pydantic's lax mode turns "3" into 3 and "on" into True, and an
empty string means "use the default".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    NonNegativeInt,
    TypeAdapter,
)

from app.games import contract
from app.games.kit import legal

Colour = Literal["red", "blue", "yellow"]
PayCoin = Literal["gold", "fairy", "silver"]


class _OrderBase(contract.FormOrder):
    """Every Dragonstones order."""


class BidOrder(_OrderBase):
    """A sealed bid: fairy and common gold, optionally the cursed coin and an amulet (which doubles)."""

    type: Literal["bid"]
    fairy: NonNegativeInt = 0
    gold: NonNegativeInt = 0
    cursed: bool = False
    amulet: bool = False


class RebidOrder(BidOrder):
    """A sealed bid changed before the others have all bid: the coins of the first go back behind the
    screen and these go into the fist."""

    type: Literal["rebid"]  # type: ignore[assignment]


class TiebreakOrder(_OrderBase):
    """A sealed tie-break bid: silver only, optionally with an amulet."""

    type: Literal["tiebreak"]
    silver: NonNegativeInt = 0
    amulet: bool = False


class DoppelgangerOrder(_OrderBase):
    """Play the Doppelganger now (use the power twice) or keep it."""

    type: Literal["doppelganger"]
    use: bool = False


class PayOrder(_OrderBase):
    """Pay these stones for the power's points (Sorcerer, Enchanter, Magician, Enchantress)."""

    type: Literal["pay"]
    stones: contract.NonZeroCounts[Colour] = Field(default_factory=dict)


class TakeOrder(_OrderBase):
    """Take the power's coins instead of paying stones."""

    type: Literal["take"]


class StealOrder(_OrderBase):
    """Thief: a stone of `colour` from `victim`; with no colour, a coin if `take_coin`."""

    type: Literal["steal"]
    victim: NonNegativeInt
    colour: Colour | None = None
    take_coin: bool = True

    def key(self) -> tuple[Any, ...]:
        return (self.type, self.victim, self.colour, self.take_coin or self.colour is not None)


class RobOrder(_OrderBase):
    """Brigand: the player who hands over all his common gold and silver."""

    type: Literal["rob"]
    victim: NonNegativeInt


class ColourOrder(_OrderBase):
    """A colour: Ancient Dragon (take), Apprentice (pay two), Troll (everybody loses), Rainbow (named)."""

    type: Literal["colour"]
    colour: Colour


class DrawOrder(_OrderBase):
    """Rainbow Dragon: draw one more stone."""

    type: Literal["draw"]


class StopOrder(_OrderBase):
    """Rainbow Dragon: stop and keep the stones drawn."""

    type: Literal["stop"]


class CopyOrder(_OrderBase):
    """Ghost or Imp: the character whose power to use."""

    type: Literal["copy"]
    character: str


class BuyOrder(_OrderBase):
    """Merchant: stones bought from the bank and how they are paid (1 gold or 3 silver each)."""

    type: Literal["buy"]
    stones: contract.NonZeroCounts[Colour] = Field(default_factory=dict)
    pay: contract.NonZeroCounts[PayCoin] = Field(default_factory=dict)


class NecromancerOrder(_OrderBase):
    """Necromancer: give the bank the coins bid in this auction (fairy gold included) for 1 point."""

    type: Literal["necromancer"]
    use: bool = False


OrderModel = (
    BidOrder
    | RebidOrder
    | TiebreakOrder
    | DoppelgangerOrder
    | PayOrder
    | TakeOrder
    | StealOrder
    | RobOrder
    | ColourOrder
    | DrawOrder
    | StopOrder
    | CopyOrder
    | BuyOrder
    | NecromancerOrder
)
Order = Annotated[OrderModel, Field(discriminator="type")]
ORDER_ADAPTER: TypeAdapter[OrderModel] = TypeAdapter(Order)

parse_order = partial(contract.parse_order, ORDER_ADAPTER)


@dataclass(frozen=True, kw_only=True)
class Legal(legal.Legal[OrderModel]):
    """What one awaited seat may do now: either a short list of choices or free fields within limits."""

    card: str  # the character concerned
    limits: dict[str, Any] | None = None  # for bid, tiebreak and buy orders
