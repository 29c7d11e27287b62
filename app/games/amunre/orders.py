"""The orders a player may send, and the `Legal` description of what a seat may do now.

Orders are flat JSON objects tagged by `type`, so that an HTML form can post them. Provinces and cards are
named by their name and card key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, NonNegativeInt, TypeAdapter, field_validator

from app.games import contract
from app.games.kit import legal

GoldKey = Literal["1", "2", "5", "10", "20"]


class _OrderBase(contract.FormOrder):
    """Every Amun-Re order."""


class BidOrder(_OrderBase):
    """Put the bidding block on a province's bid track; maybe with Bid Blockade, or Outbid in the Same
    Province (to bid again where one was just outbid)."""

    type: Literal["bid"]
    province: str
    amount: NonNegativeInt
    blockade: bool = False
    same_province: bool = False


class BuyCardOrder(_OrderBase):
    """Buy one more power card this turn (the n-th costs n gold, so n cards cost n(n+1)/2)."""

    type: Literal["buy_card"]


class BuyFarmerOrder(_OrderBase):
    type: Literal["buy_farmer"]
    province: str


class BuyBlockOrder(_OrderBase):
    type: Literal["buy_block"]
    province: str


class FreeFarmerOrder(_OrderBase):
    """Play Free Farmer: a farmer on the flat land of one of one's provinces."""

    type: Literal["free_farmer"]
    province: str


class MasterBuilderOrder(_OrderBase):
    """Play Master Builder: 2 blocks in the province become a pyramid."""

    type: Literal["master_builder"]
    province: str


class SellOrder(_OrderBase):
    """Sell a power card to the bank for 1 gold."""

    type: Literal["sell"]
    card: str


class PayBidOrder(_OrderBase):
    """A bid the bidder's gold cannot pay: the power cards he sells for it, 1 gold each, by kind
    (`powers.master_builder=1`), exactly as many as the gold lacking."""

    type: Literal["pay_bid"]
    powers: dict[str, NonNegativeInt] = Field(default_factory=dict)

    @field_validator("powers")
    @classmethod
    def _no_zeros(cls, counts: dict[str, int]) -> dict[str, int]:
        return {name: count for name, count in counts.items() if count}


class DoneOrder(_OrderBase):
    """End one's buying turn, income or bonus plays."""

    type: Literal["done"]


class OfferOrder(_OrderBase):
    """The sealed offering: gold cards by value (`gold.5=1`), or the "-3" card alone; power cards may be
    mixed with gold (1 gold each); an Offering Adjustment card may go with either."""

    type: Literal["offer"]
    gold: dict[GoldKey, NonNegativeInt] = Field(default_factory=dict)
    minus_three: bool = False
    powers: dict[str, NonNegativeInt] = Field(default_factory=dict)
    adjust: bool = False

    @field_validator("gold", "powers")
    @classmethod
    def _no_zeros(cls, counts: dict[str, int]) -> dict[str, int]:
        return {name: count for name, count in counts.items() if count}


class AdjustOrder(_OrderBase):
    """Offering Adjustment: move the offering total up (`up` true) or down by 3, or leave it as it is
    (`up` left out)."""

    type: Literal["adjust"]
    up: bool | None = None


class RewardOrder(_OrderBase):
    """One reward item: a power card, or a farmer or a block on one of one's provinces."""

    type: Literal["reward"]
    item: Literal["card", "farmer", "block"]
    province: str | None = None


class IncomeCardOrder(_OrderBase):
    """Play 8 Gold or Harvest Increase on one of one's provinces before collecting income."""

    type: Literal["income_card"]
    card: str
    province: str


class BonusOrder(_OrderBase):
    """Play a bonus card at scoring (3 points; its condition holds)."""

    type: Literal["bonus"]
    card: str


OrderModel = (
    BidOrder
    | BuyCardOrder
    | BuyFarmerOrder
    | BuyBlockOrder
    | FreeFarmerOrder
    | MasterBuilderOrder
    | SellOrder
    | PayBidOrder
    | DoneOrder
    | OfferOrder
    | AdjustOrder
    | RewardOrder
    | IncomeCardOrder
    | BonusOrder
)
Order = Annotated[OrderModel, Field(discriminator="type")]
ORDER_ADAPTER: TypeAdapter[OrderModel] = TypeAdapter(Order)


def parse_order(data: Mapping[str, Any]) -> OrderModel:
    return contract.parse_order(ORDER_ADAPTER, data)


@dataclass(frozen=True, kw_only=True)
class Legal(legal.Legal[OrderModel]):
    """What one awaited seat may do: a list of choices, or (the offering) free fields within `limits`."""

    limits: dict[str, Any] | None = None
