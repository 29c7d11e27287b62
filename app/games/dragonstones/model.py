"""The state of a Dragonstones game: frozen values, so an order copies only what it changes.

Coins are tracked by location (behind a screen, in front of it, in a fist, in the bank), never as a
per-player balance to restore: fairy gold that leaves a player is gone for good.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from app.games.kit.model import evolve, replaced

COLOURS: tuple[str, ...] = ("red", "blue", "yellow")
COIN_TYPES: tuple[str, ...] = ("fairy", "gold", "silver", "cursed", "amulet")
STONES_PER_COLOUR = 12


class _Counts:
    """Named non-negative counts with element-wise arithmetic."""

    NAMES: ClassVar[tuple[str, ...]]

    def get(self, name: str) -> int:
        value: int = getattr(self, name)
        return value

    def as_dict(self) -> dict[str, int]:
        return {name: self.get(name) for name in self.NAMES}

    def nonzero(self) -> dict[str, int]:
        return {name: value for name, value in self.as_dict().items() if value}

    def total(self) -> int:
        return sum(self.get(name) for name in self.NAMES)

    def plus(self, other: Self) -> Self:
        return type(self)(*(self.get(name) + other.get(name) for name in self.NAMES))

    def minus(self, other: Self) -> Self:
        return type(self)(*(self.get(name) - other.get(name) for name in self.NAMES))

    def capped(self, limit: Self) -> Self:
        return type(self)(*(min(self.get(name), limit.get(name)) for name in self.NAMES))

    @classmethod
    def of(cls, name: str, count: int = 1) -> Self:
        return cls(**{name: count})

    @classmethod
    def from_dict(cls, counts: Mapping[Any, int]) -> Self:
        return cls(**counts)


@dataclass(frozen=True)
class Coins(_Counts):
    NAMES: ClassVar[tuple[str, ...]] = COIN_TYPES
    fairy: int = 0
    gold: int = 0  # common gold ("or vulgaire")
    silver: int = 0
    cursed: int = 0
    amulet: int = 0


@dataclass(frozen=True)
class Stones(_Counts):
    NAMES: ClassVar[tuple[str, ...]] = COLOURS
    red: int = 0
    blue: int = 0
    yellow: int = 0


NO_COINS = Coins()
NO_STONES = Stones()
COIN_SUPPLY = Coins(fairy=60, gold=15, silver=40, cursed=2, amulet=2)
STONE_SUPPLY = Stones(STONES_PER_COLOUR, STONES_PER_COLOUR, STONES_PER_COLOUR)
START_COINS = Coins(fairy=8, gold=2, silver=5)


@dataclass(frozen=True)
class Player:
    screen: Coins  # hidden coins, available to bid or pay
    stones: Stones = Stones()
    front_fairy: int = 0  # fairy gold bid this round, back behind the screen at the end of the round
    points: int = 0


@dataclass(frozen=True)
class Bid:
    fairy: int = 0
    gold: int = 0
    cursed: bool = False
    amulet: bool = False

    @property
    def value(self) -> int:
        return (self.fairy + self.gold) * (2 if self.amulet else 1)

    def coins(self) -> Coins:
        return Coins(fairy=self.fairy, gold=self.gold, cursed=int(self.cursed), amulet=int(self.amulet))


@dataclass(frozen=True)
class TieBid:
    silver: int = 0
    amulet: bool = False

    @property
    def value(self) -> int:
        return self.silver * (2 if self.amulet else 1)

    def coins(self) -> Coins:
        return Coins(silver=self.silver, amulet=int(self.amulet))


@dataclass(frozen=True)
class Auction:
    card: str
    number: int  # 1 for the Witch, then 2, 3... within the round
    bids: tuple[Bid | None, ...]  # by seat; None until that seat has bid
    revealed: bool = False
    tied: tuple[int, ...] = ()  # seats in the silver tie-break, if any
    tiebids: tuple[TieBid | None, ...] = ()  # by seat, for the tied seats
    outcome: str = ""  # "", "won", "bewitched", "no_bids", "tie"
    winner: int | None = None
    necromancer_used: bool = False  # the coins bid can be given to the Necromancer only once

    def fist_coins(self) -> Coins:
        """Coins held in closed fists, not yet revealed."""
        total = Coins()
        if not self.revealed:
            for bid in self.bids:
                total = total.plus(bid.coins()) if bid else total
        elif self.tied and not self.outcome:
            for tiebid in self.tiebids:
                total = total.plus(tiebid.coins()) if tiebid else total
        return total


@dataclass(frozen=True)
class Rainbow:
    colour: str  # the named colour: drawing it loses everything
    bag: Stones
    drawn: Stones = Stones()


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    bank: Coins
    bank_stones: Stones
    points_to_win: int
    rng: int  # the generator's word (see kit.rng); never shown in a view
    round: int
    specials: tuple[str, ...]  # the two specials of the round, public
    pile: tuple[str, ...]  # hidden order of the cards still to auction
    played: tuple[str, ...]  # cards auctioned (or used up by Goblin/Imp) this round, in order
    deck: tuple[str, ...]  # hidden special deck
    used: tuple[str, ...]  # discarded specials, reshuffled when the deck runs out
    doppelganger: int | None  # seat holding the Doppelganger card face up
    phase: str
    auction: Auction
    todo: tuple[str, ...] = ()  # powers the auction winner still has to use, first one next
    rainbow: Rainbow | None = None
    winner: int | None = None

    def with_player(self, seat: int, player: Player) -> State:
        return evolve(self, players=replaced(self.players, seat, player))

    def coin_total(self) -> Coins:
        total = self.bank.plus(self.auction.fist_coins())
        for player in self.players:
            total = total.plus(player.screen).plus(Coins(fairy=player.front_fairy))
        return total

    def stone_total(self) -> Stones:
        total = self.bank_stones
        if self.rainbow:
            total = total.plus(self.rainbow.bag).plus(self.rainbow.drawn)
        for player in self.players:
            total = total.plus(player.stones)
        return total
