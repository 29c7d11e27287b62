"""Trade cards (§7–§9, §15.2, §27, §28.51, §29.7): the nine stacks, the deck's set-up, the draws of phase 9,
the value of a set, and the return of calamities and spent cards to the bottom of the stacks.

A card is its key (`"grain"`, `"famine"`): cards of one commodity are interchangeable. A `Deck` is the nine
stacks, stack 1 first, each a tuple of keys from the top card down. Hands are tuples of keys per seat; the
discard holds the cards set aside until they go back under the stacks (resolved or ignored calamities,
cards spent on civ cards or discarded over the hand limit). Every card is in exactly one stack, hand or the
discard (`census`).

Draws take the generator as `randbelow(n) -> int` (the game passes its `Tx.randbelow`), so that the deck
stays a plain value and a replay draws the same. The options of the site's game creation (F-F7 to F-F11)
are `TradeCardOptions`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pydantic import BaseModel, ConfigDict

from app.games.contract import RuleError
from app.games.kit.rng import RandBelow, shuffled

Deck = tuple[tuple[str, ...], ...]  # stacks 1–9, each from the top card down
Hands = tuple[tuple[str, ...], ...]  # per seat

STACKS: Final = 9
GOLD_STACK: Final = 9
GOLD_PRICE: Final = 18  # treasury tokens for one stack-9 card (§27.51)
SHUFFLE_DEPTH: Final = 2  # F-F10: the bottom cards shuffled with a non-tradable calamity


@dataclass(frozen=True, slots=True)
class Commodity:
    key: str
    name: str
    stack: int
    count: int  # cards in the game, also the largest set (§8.1, §28.51)

    @property
    def value(self) -> int:
        """The face value is the stack number (§8.1)."""
        return self.stack


@dataclass(frozen=True, slots=True)
class Calamity:
    key: str
    name: str
    stack: int
    tradable: bool
    section: str  # the rulebook paragraph of its effect


class TradeCardOptions(BaseModel):
    """The site's trade-card and calamity options (F-F7 to F-F11), each with its default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stack_counts_visible: bool = True  # F-F7: players see how many cards each stack holds
    calamity_position_visible: bool = False  # F-F8: players see how deep each non-tradable calamity lies
    hide_upcoming_calamities: bool = False  # F-F9: while calamities resolve, only the active one is shown
    calamity_shuffle: bool = False  # F-F10: a non-tradable calamity is shuffled into the bottom three cards
    stoic: bool = False  # F-F11: no cap of 2 calamities as primary victim a turn (§29.5)


def _load() -> tuple[tuple[Commodity, ...], tuple[Calamity, ...]]:
    data = json.loads(Path(__file__).with_name("data").joinpath("trade_cards.json").read_text("utf-8"))
    commodities = tuple(Commodity(**row) for row in data["commodities"])
    calamities = tuple(Calamity(**row) for row in data["calamities"])
    return commodities, calamities


COMMODITY_LIST, CALAMITY_LIST = _load()
COMMODITIES: Final[Mapping[str, Commodity]] = {c.key: c for c in COMMODITY_LIST}
CALAMITIES: Final[Mapping[str, Calamity]] = {c.key: c for c in CALAMITY_LIST}
FULL_DECK: Final[Counter[str]] = Counter(
    {**{c.key: c.count for c in COMMODITY_LIST}, **{c.key: 1 for c in CALAMITY_LIST}}
)
MINEABLE: Final = frozenset({"iron", "bronze", "silver", "gems", "gold"})  # §32.261


def stack_of(card: str) -> int:
    found = COMMODITIES.get(card) or CALAMITIES.get(card)
    if found is None:
        raise ValueError(f"no trade card {card!r}")
    return found.stack


def is_calamity(card: str) -> bool:
    return card in CALAMITIES


# --- the deck -----------------------------------------------------------------------------------------


def build_deck(players: int, randbelow: RandBelow, options: TradeCardOptions | None = None) -> Deck:
    """§15.2: each stack's commodities shuffled; in stacks 2–9, as many cards as players set aside from the
    top, the tradable calamity shuffled into the rest, the set-aside cards put back on top; the
    non-tradable calamity put at the bottom (with F-F10, into the bottom three). Stack 1 has no calamity."""
    chosen = options or TradeCardOptions()
    stacks: list[tuple[str, ...]] = []
    for stack in range(1, STACKS + 1):
        cards = shuffled(_commodity_cards(stack), randbelow)
        top, rest = cards[:players], cards[players:]
        tradable = [c.key for c in CALAMITY_LIST if c.stack == stack and c.tradable]
        if tradable:
            cards = top + shuffled((*rest, *tradable), randbelow)
        for calamity in (c.key for c in CALAMITY_LIST if c.stack == stack and not c.tradable):
            cards = _put_non_tradable(cards, calamity, randbelow, chosen)
        stacks.append(cards)
    return tuple(stacks)


def _commodity_cards(stack: int) -> list[str]:
    return [c.key for c in COMMODITY_LIST if c.stack == stack for _ in range(c.count)]


def _put_non_tradable(
    cards: tuple[str, ...], calamity: str, randbelow: RandBelow, options: TradeCardOptions
) -> tuple[str, ...]:
    """At the very bottom (§15.2, §29.7), or with F-F10 shuffled with the bottom two cards."""
    if not options.calamity_shuffle:
        return (*cards, calamity)
    keep, bottom = cards[: max(0, len(cards) - SHUFFLE_DEPTH)], cards[max(0, len(cards) - SHUFFLE_DEPTH) :]
    return keep + shuffled((*bottom, calamity), randbelow)


def census(deck: Deck, hands: Hands, discard: Sequence[str]) -> Counter[str]:
    """Every card of the game counted once, wherever it is: equal to `FULL_DECK` when none is lost."""
    counted: Counter[str] = Counter()
    for pile in (*deck, *hands, tuple(discard)):
        counted.update(pile)
    return counted


# --- phase 9: acquiring trade cards -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Drawn:
    deck: Deck
    hands: Hands
    draws: tuple[tuple[int, int, str], ...]  # (seat, stack, card) in the order drawn: secret to the seat
    spent: tuple[int, ...] = ()  # per seat, treasury paid for stack-9 cards


def draw_order(cities: Sequence[int], ast_rank: Sequence[int]) -> tuple[int, ...]:
    """§27.1: fewest cities first; equal counts in A.S.T. order (§17.4: it breaks every tie but
    conflict's). `cities` and `ast_rank` are per seat (rank 1 = first in A.S.T. order)."""
    return tuple(sorted(range(len(cities)), key=lambda seat: (cities[seat], ast_rank[seat])))


def draw(deck: Deck, hands: Hands, cities: Sequence[int], ast_rank: Sequence[int]) -> Drawn:
    """§27.1–27.21: in `draw_order`, a player with N cities takes the top card of stacks 1…min(N, 9); an
    empty stack gives nothing, with no other card in its place."""
    stacks, held = [list(s) for s in deck], [list(h) for h in hands]
    draws: list[tuple[int, int, str]] = []
    for seat in draw_order(cities, ast_rank):
        for stack in range(1, min(cities[seat], STACKS) + 1):
            if stacks[stack - 1]:
                card = stacks[stack - 1].pop(0)
                held[seat].append(card)
                draws.append((seat, stack, card))
    return Drawn(_tuples(stacks), _tuples(held), tuple(draws))


def gold_limit(treasury: int, deck: Deck) -> int:
    """The most stack-9 cards a player may ask for: what its treasury pays, no more than the stack holds."""
    return min(treasury // GOLD_PRICE, len(deck[GOLD_STACK - 1]))


def buy_gold(
    deck: Deck,
    hands: Hands,
    purchases: Sequence[int],
    treasury: Sequence[int],
    order: Sequence[int],
) -> Drawn:
    """§27.51: any player may buy stack-9 cards at 18 treasury each, drawn before anyone else draws.
    `purchases` and `treasury` are per seat; buyers draw in `order` (the draw order). The stack may run
    out under several buyers: a player pays only for the cards it receives."""
    for seat, wanted in enumerate(purchases):
        if wanted < 0 or wanted * GOLD_PRICE > treasury[seat]:
            raise RuleError(
                "gold_unaffordable",
                "Stack-9 cards cost %(price)s treasury each: %(wanted)s cards need more than you hold.",
                field="gold",
                params={"price": GOLD_PRICE, "wanted": wanted},
            )
    stacks, held = [list(s) for s in deck], [list(h) for h in hands]
    spent = [0] * len(hands)
    draws: list[tuple[int, int, str]] = []
    for seat in order:
        for _ in range(purchases[seat]):
            if not stacks[GOLD_STACK - 1]:
                break
            card = stacks[GOLD_STACK - 1].pop(0)
            held[seat].append(card)
            spent[seat] += GOLD_PRICE
            draws.append((seat, GOLD_STACK, card))
    return Drawn(_tuples(stacks), _tuples(held), tuple(draws), tuple(spent))


def _tuples(piles: Iterable[Iterable[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(pile) for pile in piles)


# --- what cards are worth -----------------------------------------------------------------------------


def set_value(commodity: str, cards: int) -> int:
    """§28.51: n² × face value, n at most the commodity's card count (§32.261: even with Mining)."""
    found = COMMODITIES[commodity]
    n = max(0, min(cards, found.count))
    return n * n * found.value


def hand_value(hand: Iterable[str], *, mining: bool = False) -> int:
    """§28.51, §32.261: the sum of the hand's sets (calamities count nothing); with Mining, one card more
    in the one set of Iron, Bronze, Silver, Gems or Gold where it adds most."""
    sets = Counter(card for card in hand if card in COMMODITIES)
    total = sum(set_value(key, n) for key, n in sets.items())
    if not mining:
        return total
    gains = [set_value(key, n + 1) - set_value(key, n) for key, n in sets.items() if key in MINEABLE]
    return total + max(gains, default=0)


# --- the end of the turn: cards back under the stacks ---------------------------------------------------


def return_cards(
    deck: Deck, discard: Sequence[str], randbelow: RandBelow, options: TradeCardOptions | None = None
) -> Deck:
    """§29.7, §31.81: after civ buying, per stack, the tradable calamities are shuffled with the returned
    commodity cards of that stack and placed under it; the non-tradable calamities then go at the very
    bottom (with F-F10, shuffled into the bottom three cards). The discard is empty afterwards."""
    chosen = options or TradeCardOptions()
    stacks = []
    for stack in range(1, STACKS + 1):
        cards = deck[stack - 1]
        mine = [card for card in discard if stack_of(card) == stack]
        under = [card for card in mine if not is_calamity(card) or CALAMITIES[card].tradable]
        cards = cards + shuffled(under, randbelow)
        for calamity in (card for card in mine if is_calamity(card) and not CALAMITIES[card].tradable):
            cards = _put_non_tradable(cards, calamity, randbelow, chosen)
        stacks.append(cards)
    return tuple(stacks)


# --- what players may see -----------------------------------------------------------------------------


def shown_calamities(
    revealed: Sequence[str], active: int, options: TradeCardOptions | None = None
) -> tuple[str, ...]:
    """F-F9: the calamities revealed after trade (in resolution order) that players see while the one at
    `active` resolves: all of them, or with the option only that one."""
    chosen = options or TradeCardOptions()
    if not chosen.hide_upcoming_calamities:
        return tuple(revealed)
    return tuple(revealed[active : active + 1])


@dataclass(frozen=True, slots=True)
class StackView:
    stack: int
    cards: int | None  # None when the counts are hidden (F-F7)
    calamity_depth: tuple[int, ...] | None  # F-F8: 1-based places of non-tradable calamities from the top


def public_stacks(deck: Deck, options: TradeCardOptions | None = None) -> tuple[StackView, ...]:
    """What every player sees of the stacks: counts (F-F7) and the depth of each non-tradable calamity
    (F-F8). Tradable calamities and commodities in a stack are never shown."""
    chosen = options or TradeCardOptions()
    views = []
    for stack, cards in enumerate(deck, start=1):
        depth = tuple(
            place
            for place, card in enumerate(cards, start=1)
            if is_calamity(card) and not CALAMITIES[card].tradable
        )
        views.append(
            StackView(
                stack,
                len(cards) if chosen.stack_counts_visible else None,
                depth if chosen.calamity_position_visible else None,
            )
        )
    return tuple(views)
