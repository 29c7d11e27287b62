"""The orders a player may send, and `Legal`: what an awaited seat may do now.

Orders are flat JSON objects tagged by `type`; areas are named by their board key ("nile_delta"). Counts
by area are objects `{key: n}`. An empty form field means "the default".

  start    {"area"}                     place the start token in one of the nation's start areas
  tax      {"rate"}                     a Coinage holder's tax per city: 1, 2 or 3
  revolt   {"areas": [...]}             the beneficiary's choice of the cities that revolt, in order
  expand   {"areas": {key: n}}          short of stock: where the stock's tokens go (all of them)
  ships    {"keep", "keep_tokens", "build", "build_tokens"}
                                        ships kept and built per area, and the tokens of that area paying
                                        for them (the rest from treasury)
  move     {"origin", "to", "tokens", "via"}
                                        tokens by land (secret until finalised); `via` with Roadbuilding
  sail     {"ship", "stops": [{"area", "land", "board"}, ...]}
                                        a ship's voyage from its area (secret until finalised): at each
                                        stop tokens are set down, then tokens board
  undo     {"all"}                      take back the last move entered (or all)
  done     {"unless_threatened"}        finish entering moves
  reopen   {}                           take "done" back while the moves are not finalised
  pillage  {"tokens"}                   after destroying a city: stock tokens moved to treasury (0–3)
  build    {"areas": [...], "architecture"}
                                        the cities to build; at most one of them with Architecture
  reduce   {"area"}                     a city reduced for want of support
  gold     {"cards"}                    phase 9: stack-9 cards bought at 18 treasury each (secret until drawn)
  pick     {"picks": [name, ...]}       phase 11: the options chosen (cities, a site, a plain, a faction, a
                                        barbarian step, a Monotheism target), named as the view lists them
  lose     {"units": [{"area", "tokens", "city", "left"}], "grain"}
                                        phase 11: the units a calamity takes (or a Civil War faction): per
                                        area the tokens removed, whether the city goes, the tokens it leaves
                                        (a reduced city); the Grain cards shown (Pottery)
  assign   {"amounts": {seat: n}}       phase 11: unit points handed out to secondary victims
  offer    {"to", "cards", "said", "expects"}
                                        phase 10: trade cards offered to a seat (`said`: what each is said
                                        to be, empty for the truth), with the slots wanted back: card keys,
                                        "dont_care" or "unspecified"
  accept   {"offer", "cards", "said"}   phase 10: agree to an offer with one's own cards
  counter  {"offer", "cards", "said", "expects"}
                                        phase 10: answer an offer with one back (the first closes)
  decline  {"offer"}                    phase 10: turn an offer down
  withdraw {"offer"}                    phase 10: take one's own offer back
  done     {}                           phase 10: leave the market (coming back is any later trade order)
  embargo_over {}                       phase 10: the clock's, when the embargo ends (never a player's)
  buy      {"cart", "spend", "discard"} phase 12: civ cards bought, trade cards spent on them (the treasury
                                        pays the rest), trade cards discarded down to the hand limit
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, NonNegativeInt, TypeAdapter

from app.games import contract
from app.games.kit.legal import Choice as KitChoice
from app.games.kit.legal import Legal as KitLegal

AreaKey = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_\-]+$")]
Counts = dict[AreaKey, NonNegativeInt]


class StartOrder(contract.FormOrder):
    type: Literal["start"]
    area: AreaKey


class TaxOrder(contract.FormOrder):
    type: Literal["tax"]
    rate: int = Field(2, ge=1, le=3)


class RevoltOrder(contract.FormOrder):
    type: Literal["revolt"]
    areas: tuple[AreaKey, ...] = ()


class ExpandOrder(contract.FormOrder):
    type: Literal["expand"]
    areas: Counts = Field(default_factory=dict)


class ShipsOrder(contract.FormOrder):
    type: Literal["ships"]
    keep: Counts = Field(default_factory=dict)
    keep_tokens: Counts = Field(default_factory=dict)
    build: Counts = Field(default_factory=dict)
    build_tokens: Counts = Field(default_factory=dict)


class MoveOrder(contract.FormOrder):
    type: Literal["move"]
    origin: AreaKey
    to: AreaKey
    tokens: int = Field(1, ge=1, le=55)
    via: AreaKey | None = None  # Roadbuilding: the first land area crossed


class StopModel(contract.FormOrder):
    area: AreaKey
    land: int = Field(0, ge=0, le=5)  # tokens set down here, first
    board: int = Field(0, ge=0, le=5)  # tokens boarding here, then


class SailOrder(contract.FormOrder):
    type: Literal["sail"]
    ship: AreaKey  # the area of the ship that sails
    stops: tuple[StopModel, ...] = Field(min_length=1, max_length=12)


class UndoOrder(contract.FormOrder):
    type: Literal["undo"]
    all: bool = False


class DoneOrder(contract.FormOrder):
    type: Literal["done"]
    unless_threatened: bool = False


class ReopenOrder(contract.FormOrder):
    type: Literal["reopen"]


class PillageOrder(contract.FormOrder):
    type: Literal["pillage"]
    tokens: int = Field(3, ge=0, le=3)


class BuildOrder(contract.FormOrder):
    type: Literal["build"]
    areas: tuple[AreaKey, ...] = ()
    architecture: AreaKey | None = None


class ReduceOrder(contract.FormOrder):
    type: Literal["reduce"]
    area: AreaKey


class GoldOrder(contract.FormOrder):
    type: Literal["gold"]
    cards: int = Field(0, ge=0, le=10)


class PickOrder(contract.FormOrder):
    type: Literal["pick"]
    picks: tuple[Annotated[str, Field(min_length=1, max_length=64)], ...] = Field((), max_length=12)


class UnitModel(contract.FormOrder):
    area: AreaKey
    tokens: int = Field(0, ge=0, le=55)  # tokens removed
    city: bool = False  # the city goes
    left: int = Field(0, ge=0, le=5)  # tokens a reduced city leaves


class LoseOrder(contract.FormOrder):
    type: Literal["lose"]
    units: tuple[UnitModel, ...] = Field((), max_length=160)
    grain: int = Field(0, ge=0, le=8)


class AssignOrder(contract.FormOrder):
    type: Literal["assign"]
    amounts: dict[int, NonNegativeInt] = Field(default_factory=dict)


CardKey = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z_]+$")]
CardList = tuple[CardKey, ...]
OfferId = Annotated[int, Field(ge=1, le=1_000_000)]


class _Side(contract.FormOrder):
    """Trade cards given, and what each is said to be (empty: the truth)."""

    cards: CardList = Field((), max_length=40)
    said: CardList = Field((), max_length=40)


class OfferOrder(_Side):
    type: Literal["offer"]
    to: int = Field(ge=0, le=7)
    expects: CardList = Field((), max_length=40)


class AcceptOrder(_Side):
    type: Literal["accept"]
    offer: OfferId


class CounterOrder(_Side):
    type: Literal["counter"]
    offer: OfferId
    expects: CardList = Field((), max_length=40)


class DeclineOrder(contract.FormOrder):
    type: Literal["decline"]
    offer: OfferId


class WithdrawOrder(contract.FormOrder):
    type: Literal["withdraw"]
    offer: OfferId


class EmbargoOverOrder(contract.FormOrder):
    type: Literal["embargo_over"]


class BuyOrder(contract.FormOrder):
    type: Literal["buy"]
    cart: tuple[CardKey, ...] = Field((), max_length=24)
    spend: CardList = Field((), max_length=60)
    discard: CardList = Field((), max_length=60)


TradeOrder = OfferOrder | AcceptOrder | CounterOrder | DeclineOrder | WithdrawOrder
TRADE_ORDERS = frozenset({"offer", "accept", "counter", "decline", "withdraw"})
CLOCK_ORDER = {"type": "embargo_over"}

OrderModel = (
    StartOrder
    | TaxOrder
    | RevoltOrder
    | ExpandOrder
    | ShipsOrder
    | MoveOrder
    | SailOrder
    | UndoOrder
    | DoneOrder
    | ReopenOrder
    | PillageOrder
    | BuildOrder
    | ReduceOrder
    | GoldOrder
    | PickOrder
    | LoseOrder
    | AssignOrder
    | OfferOrder
    | AcceptOrder
    | CounterOrder
    | DeclineOrder
    | WithdrawOrder
    | EmbargoOverOrder
    | BuyOrder
)
Order = Annotated[OrderModel, Field(discriminator="type")]
ORDER_ADAPTER: TypeAdapter[OrderModel] = TypeAdapter(Order)

Legal = KitLegal[OrderModel]
Choice = KitChoice[OrderModel]


def parse_order(data: Mapping[str, Any]) -> OrderModel:
    return contract.parse_order(ORDER_ADAPTER, data)
