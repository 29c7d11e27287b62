"""The state of an Amun-Re game: frozen values, so an order copies only what it changes.

Pieces and cards are tracked by where they are (a hand, an offering, a province, the bank, the supply), so
that their totals never change: `gold_total`, `piece_totals` and `power_total` are what the tests check.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.amunre.cards import NO_GOLD, Gold, plus, value
from app.games.kit.model import added

BLOCKS = 15
PYRAMIDS = 15
DOUBLES = 15
FARMERS = 45
ROUNDS = 6
SCORING_ROUNDS = (3, 6)
# The rules of new games (see `State.rules_version`). 1: the rewards after the first two go clockwise from
# the Pharaoh, Dakhla's 12 gold is paid in full, a bid short of gold waits for its bidder to choose the
# power cards sold.
RULES_VERSION = 1


@dataclass(frozen=True)
class Offering:
    gold: Gold = NO_GOLD
    minus_three: bool = False
    powers: tuple[str, ...] = ()  # power cards mixed in (each worth 1 gold)
    adjust: bool = False  # an Offering Adjustment card played with it

    @property
    def amount(self) -> int:
        return value(self.gold) + len(self.powers) - (3 if self.minus_three else 0)


@dataclass(frozen=True)
class Player:
    gold: Gold
    minus_three: bool = True  # holds the "-3" card
    powers: tuple[str, ...] = ()  # sorted
    points: int = 0
    outbid_from: int | None = None  # province index he was just outbid on (auction)
    blockade: bool = False  # played Bid Blockade in this auction
    bought: str = ""  # this buying turn: "", "cards", "farmers" or "blocks" (the last kind bought)
    bought_count: int = 0  # items of that kind bought this turn: the next one costs one more
    offering: Offering | None = None  # sealed until every seat has offered


@dataclass(frozen=True)
class Province:
    owner: int | None = None
    blocks: int = 0
    pyramids: int = 0
    doubles: int = 0
    farmers: int = 0  # bought farmers, on farm spaces
    flat_farmers: int = 0  # Free Farmer farmers, on flat land
    free_cards: tuple[str, ...] = ()  # face down until its buyer takes them
    free_gold: Gold = NO_GOLD
    eight_gold: bool = False  # this round's income cards
    harvest_increase: int = 0
    in_play: bool = True  # False for a province not taken in the Old Kingdom, in the New one
    free_gold_due: int = added(0)  # free gold the bank could not lay out in cards: paid to the buyer

    @property
    def pyramid_count(self) -> int:
        return self.pyramids + 2 * self.doubles


@dataclass(frozen=True)
class Bid:
    seat: int
    step: int  # index on the bid track


@dataclass(frozen=True)
class ScoreLine:
    seat: int
    pyramids: int = 0
    sets: int = 0
    sides: int = 0
    temples: int = 0
    bonus: int = 0
    gold: int = 0

    @property
    def total(self) -> int:
        return self.pyramids + self.sets + self.sides + self.temples + self.bonus + self.gold


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    provinces: tuple[Province, ...]
    bank: Gold
    minus_three_out: int  # "-3" cards out of the game (fewer than 5 players)
    deck: tuple[str, ...]  # hidden power-card deck
    discard: tuple[str, ...]  # face up
    province_deck: tuple[int, ...]  # hidden
    used: tuple[int, ...]  # provinces revealed in this kingdom
    rng: int  # the generator's word (see kit.rng); never shown
    round: int
    pharaoh: int
    phase: str  # auction, buy, offering, adjust, reward, income, bonus, over
    temple: int = 0  # 0: left of the track
    revealed: tuple[int, ...] = ()  # this round's provinces, in draw order
    bids: tuple[Bid | None, ...] = ()  # by revealed position
    queue: tuple[int, ...] = ()  # seats to act, the first one now
    blocks: int = BLOCKS  # the supply
    pyramids: int = PYRAMIDS
    doubles: int = DOUBLES
    farmers: int = FARMERS
    offerings: tuple[Offering | None, ...] = ()  # the last revealed offerings, by seat
    total: int | None = None  # the last offering total, adjustments included
    scores: tuple[tuple[ScoreLine, ...], ...] = ()  # one table per scoring
    # 0: the rules games were begun on before `RULES_VERSION` 1 (a state stored without the field), so
    # that their replays stay equal; new games take `RULES_VERSION`
    rules_version: int = added(0)

    def owned(self, seat: int) -> tuple[int, ...]:
        return tuple(index for index, province in enumerate(self.provinces) if province.owner == seat)

    def gold_total(self) -> Gold:
        total = self.bank
        for player in self.players:
            total = plus(total, player.gold)
            if player.offering is not None:
                total = plus(total, player.offering.gold)
        for province in self.provinces:
            total = plus(total, province.free_gold)
        return total

    def minus_three_total(self) -> int:
        held = sum(p.minus_three or bool(p.offering and p.offering.minus_three) for p in self.players)
        return held + self.minus_three_out

    def power_total(self) -> int:
        cards = len(self.deck) + len(self.discard)
        for player in self.players:
            cards += len(player.powers)
            if player.offering is not None:
                cards += len(player.offering.powers) + player.offering.adjust
        return cards + sum(len(province.free_cards) for province in self.provinces)

    def piece_totals(self) -> tuple[int, int, int, int]:
        """(blocks, pyramids, double pyramids, farmers), supply and board together."""
        return (
            self.blocks + sum(p.blocks for p in self.provinces),
            self.pyramids + sum(p.pyramids for p in self.provinces),
            self.doubles + sum(p.doubles for p in self.provinces),
            self.farmers + sum(p.farmers + p.flat_farmers for p in self.provinces),
        )
