"""Phase 10, the trade market (§28, §29.3, site F-R), as pure values: offers, their answers, the
exchange, and what may be said of it.

A trade is two `Side`s, one per player, each of at least 3 cards (§28.3). A side is the cards really
given (`cards`, secret to its player) and what the player says each one is (`said`, what the partner
sees). At least two said cards must be true; the others may be anything, a tradable calamity included
("lies"). A card said to be `UNSPECIFIED` is a lie by definition (F-R5).

An `Offer` is one side, sent to one player with what the author `expects` back, slot by slot: a card
key, `DONT_CARE` (any card said to be anything) or `UNSPECIFIED` (a card said to be "unspecified", hence a
lie, so that the named slots are the two true cards: the site's advice). The partner answers it by
`accept` (its own side, whose said cards must fill the slots), `counter` (an offer back, the first one
closing) or `decline`; the author may `withdraw` it. The cards of an open offer or of a trade agreed
and waiting are reserved: no other offer may promise them, so that an agreed trade can always be
carried out and two crossing acceptances never give one card twice.

During the embargo (the first half of a time limit, `app.clock.market`) agreed trades wait; the phase
machine calls `lift_embargo` when the clock says it has ended and `close` when the market closes. The
clock owns the times; this module only knows whether the embargo is on.

`exchange` is the atomic step: both hands in, both hands out, or a `RuleError` and nothing changed.
`announcement` is the public message of a trade: what was SAID, never what was given (F-O4, F-R9).
Tradable calamities that change hands are recorded (`passes`), so that calamities know who traded
each to its holder (`held_calamities`, §29.61). Non-tradable calamities never leave their drawer (§29.2).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Final

from app.games.advciv import cards as civ
from app.games.advciv import trade_cards as tc
from app.games.advciv.calamities import Held
from app.games.advciv.trade_cards import Hands
from app.games.contract import N_, RuleError

DONT_CARE: Final = "dont_care"
UNSPECIFIED: Final = "unspecified"
MIN_CARDS: Final = 3  # §28.3: at least three cards each way
TRUE_CARDS: Final = 2  # §28.3: at least two of them truly named


@dataclass(frozen=True, slots=True)
class Side:
    seat: int
    cards: tuple[str, ...]  # what is really given: only `seat` ever sees it
    said: tuple[str, ...]  # what `seat` says each card is, in the same order

    @property
    def lies(self) -> int:
        return sum(real != said for real, said in zip(self.cards, self.said, strict=True))


@dataclass(frozen=True, slots=True)
class Offer:
    id: int
    side: Side
    to: int
    expects: tuple[str, ...]  # per card wanted back: a card key, DONT_CARE or UNSPECIFIED
    answers: int | None = None  # the offer this one counters


@dataclass(frozen=True, slots=True)
class Trade:
    id: int
    first: Side  # the offer's author
    second: Side  # the player who accepted it


@dataclass(frozen=True, slots=True)
class Pass:
    card: str  # a tradable calamity
    giver: int
    taker: int


@dataclass(frozen=True, slots=True)
class Announcement:
    """What every other player may learn of a trade: who, and the cards each SAID it gave (sorted)."""

    seats: tuple[int, int]
    said: tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Market:
    embargo: bool = True  # agreed trades wait until it is lifted
    offers: tuple[Offer, ...] = ()  # open offers
    agreed: tuple[Trade, ...] = ()  # agreed during the embargo, in the order agreed
    done: tuple[int, ...] = ()  # seats that said "Done" (F-R7), sorted; acting again brings one back
    passes: tuple[Pass, ...] = ()  # tradable calamities that changed hands, in order
    next_id: int = 1
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Executed:
    trade: Trade
    announcement: Announcement


def open_market(*, embargo: bool = True) -> Market:
    """A new market; without a time limit there is no embargo (`app.clock.market`)."""
    return Market(embargo=embargo)


# --- checking one side --------------------------------------------------------------------------------


def _check_said(key: str, field: str, *, slot: bool) -> None:
    allowed = key in tc.COMMODITIES or (key in tc.CALAMITIES and tc.CALAMITIES[key].tradable)
    if not (allowed or key == UNSPECIFIED or (slot and key == DONT_CARE)):
        raise RuleError("unknown_trade_card", "%(card)s cannot be named in a trade.", field, {"card": key})


def check_side(side: Side, available: Sequence[str]) -> None:
    """§28.3, §29.2, F-R5: at least 3 cards, each in `available` (the hand less the cards promised
    elsewhere), no non-tradable calamity, a said card for each, at most all but two of them lies."""
    if len(side.cards) < MIN_CARDS:
        raise RuleError(
            "trade_too_small", "A trade needs at least %(n)s cards each way.", "cards", {"n": MIN_CARDS}
        )
    if len(side.said) != len(side.cards):
        raise RuleError("trade_said_missing", "Say what each card you give is.", "said")
    for card in side.cards:
        if card in tc.CALAMITIES and not tc.CALAMITIES[card].tradable:
            raise RuleError("calamity_not_tradable", "%(card)s cannot be traded.", "cards", {"card": card})
    for said in side.said:
        _check_said(said, "said", slot=False)
    if not _contains(available, side.cards):
        raise RuleError(
            "trade_cards_unavailable", "Those cards are not all in your hand, or already promised.", "cards"
        )
    if side.lies > len(side.cards) - TRUE_CARDS:
        raise RuleError(
            "trade_too_many_lies",
            "At least %(n)s of the cards you give must be what you say.",
            "said",
            {"n": TRUE_CARDS},
        )


def satisfies(said: Sequence[str], expects: Sequence[str]) -> bool:
    """F-R5: the said cards fill the expected slots: as many cards; each named slot by a card said to
    be that one, each `UNSPECIFIED` slot by a card said "unspecified", `DONT_CARE` slots by the rest."""
    if len(said) != len(expects):
        return False
    wanted = Counter(slot for slot in expects if slot != DONT_CARE)
    offered = Counter(said)
    return all(offered[key] >= n for key, n in wanted.items())


def _contains(pile: Sequence[str], cards: Iterable[str]) -> bool:
    return not Counter(cards) - Counter(pile)


def reserved(market: Market, seat: int) -> Counter[str]:
    """The cards of `seat` promised in its open offers and its agreed, waiting trades."""
    promised: Counter[str] = Counter()
    for offer in market.offers:
        if offer.side.seat == seat:
            promised.update(offer.side.cards)
    for trade in market.agreed:
        for side in (trade.first, trade.second):
            if side.seat == seat:
                promised.update(side.cards)
    return promised


def available(market: Market, hands: Hands, seat: int) -> tuple[str, ...]:
    """The cards of the hand that no open offer or waiting trade has promised."""
    return tuple((Counter(hands[seat]) - reserved(market, seat)).elements())


# --- offers -------------------------------------------------------------------------------------------


def offer(
    market: Market, hands: Hands, side: Side, to: int, expects: Sequence[str], answers: int | None = None
) -> Market:
    """`side.seat` offers `side` to `to`, wanting `expects` back. The partner must hold at least 3
    cards (hand sizes are public, §27.4); what it holds is not looked at."""
    _check_open(market)
    if not 0 <= to < len(hands) or to == side.seat:
        raise RuleError("trade_partner", "Choose another player to trade with.", "to")
    if len(hands[to]) < MIN_CARDS:
        raise RuleError("partner_too_few_cards", "That player holds fewer than 3 trade cards.", "to")
    if len(expects) < MIN_CARDS:
        raise RuleError(
            "trade_too_small", "A trade needs at least %(n)s cards each way.", "expects", {"n": MIN_CARDS}
        )
    for slot in expects:
        _check_said(slot, "expects", slot=True)
    check_side(side, available(market, hands, side.seat))
    made = Offer(market.next_id, side, to, tuple(expects), answers)
    return _back(replace(market, offers=(*market.offers, made), next_id=market.next_id + 1), side.seat)


def withdraw(market: Market, seat: int, offer_id: int) -> Market:
    """The author takes an open offer back; its cards are free again."""
    found = find(market, offer_id, seat)
    if found.side.seat != seat:
        raise RuleError("not_your_offer", "Only its author can withdraw an offer.", "offer")
    return _without(market, offer_id)


def decline(market: Market, seat: int, offer_id: int) -> Market:
    """The partner turns an offer down; it closes."""
    found = find(market, offer_id, seat)
    if found.to != seat:
        raise RuleError("offer_not_to_you", "That offer was not made to you.", "offer")
    return _without(market, offer_id)


def counter(market: Market, hands: Hands, side: Side, offer_id: int, expects: Sequence[str]) -> Market:
    """The partner answers with an offer of its own back to the author; the first offer closes."""
    found = find(market, offer_id, side.seat)
    if found.to != side.seat:
        raise RuleError("offer_not_to_you", "That offer was not made to you.", "offer")
    return offer(_without(market, offer_id), hands, side, found.side.seat, expects, answers=offer_id)


def accept(
    market: Market, hands: Hands, side: Side, offer_id: int
) -> tuple[Market, Hands, tuple[Executed, ...]]:
    """The partner agrees to an offer with its own side, whose said cards fill the offer's slots. The
    trade is carried out at once, or after the embargo."""
    _check_open(market)
    found = find(market, offer_id, side.seat)
    if found.to != side.seat:
        raise RuleError("offer_not_to_you", "That offer was not made to you.", "offer")
    if not satisfies(side.said, found.expects):
        raise RuleError("trade_not_as_expected", "Your cards do not match what the offer asks for.", "said")
    check_side(side, available(market, hands, side.seat))
    trade = Trade(found.id, found.side, side)
    market = _back(_without(market, offer_id), side.seat)
    if market.embargo:
        return replace(market, agreed=(*market.agreed, trade)), hands, ()
    return _execute(market, hands, (trade,))


def leave(market: Market, seat: int) -> Market:
    """The player says "Done" (F-R7): it leaves the market for the clock; its offers stand."""
    return replace(market, done=tuple(sorted({*market.done, seat})))


def lift_embargo(market: Market, hands: Hands) -> tuple[Market, Hands, tuple[Executed, ...]]:
    """The embargo is over: the trades agreed meanwhile are carried out, in the order agreed."""
    return _execute(replace(market, embargo=False, agreed=()), hands, market.agreed)


def close(market: Market, hands: Hands) -> tuple[Market, Hands, tuple[Executed, ...]]:
    """The market closes: agreed trades are binding and carried out (even if every player left during
    the embargo); open offers lapse."""
    market, hands, executed = lift_embargo(market, hands)
    return replace(market, offers=(), closed=True), hands, executed


def _check_open(market: Market) -> None:
    if market.closed:
        raise RuleError("market_closed", "The trade market is closed.")


def find(market: Market, offer_id: int, seat: int) -> Offer:
    """The open offer `offer_id` that `seat` made or was made. Any other, open between two other seats,
    closed or unknown, is refused alike: a third seat must not learn which offers are open."""
    for found in market.offers:
        if found.id == offer_id and seat in (found.side.seat, found.to):
            return found
    raise RuleError("no_such_offer", "That offer is no longer open.", "offer")


def _without(market: Market, offer_id: int) -> Market:
    return replace(market, offers=tuple(o for o in market.offers if o.id != offer_id))


def _back(market: Market, seat: int) -> Market:
    if seat not in market.done:
        return market
    return replace(market, done=tuple(other for other in market.done if other != seat))


def _execute(
    market: Market, hands: Hands, trades: Iterable[Trade]
) -> tuple[Market, Hands, tuple[Executed, ...]]:
    executed: list[Executed] = []
    passes = list(market.passes)
    for trade in trades:
        hands = exchange(hands, trade)
        passes += calamity_passes(trade)
        executed.append(Executed(trade, announcement(trade)))
    return replace(market, passes=tuple(passes)), hands, tuple(executed)


# --- the exchange and what is said of it --------------------------------------------------------------


def exchange(hands: Hands, trade: Trade) -> Hands:
    """§28.1: both sides change hands at once, or neither does (a missing card is a RuleError)."""
    a, b = trade.first, trade.second
    if a.seat == b.seat or not _contains(hands[a.seat], a.cards) or not _contains(hands[b.seat], b.cards):
        raise RuleError(
            "trade_cards_unavailable", "Those cards are not all in your hand, or already promised."
        )
    new = list(hands)
    new[a.seat] = _moved(hands[a.seat], a.cards, b.cards)
    new[b.seat] = _moved(hands[b.seat], b.cards, a.cards)
    return tuple(new)


def _moved(hand: Sequence[str], given: Sequence[str], taken: Sequence[str]) -> tuple[str, ...]:
    left = list(hand)
    for card in given:
        left.remove(card)
    return (*left, *taken)


def calamity_passes(trade: Trade) -> tuple[Pass, ...]:
    """The tradable calamities that changed hands in a trade (really given, whatever was said)."""
    return tuple(
        Pass(card, side.seat, other.seat)
        for side, other in ((trade.first, trade.second), (trade.second, trade.first))
        for card in side.cards
        if tc.is_calamity(card)
    )


def held_calamities(hands: Hands, passes: Sequence[Pass]) -> tuple[Held, ...]:
    """At the end of trade (§29.3, §29.61): each calamity in a hand, its holder the primary victim and
    `traded_by` the last player who traded it to that holder (None: drawn and kept)."""
    last = {p.card: p for p in passes}
    return tuple(
        Held(card, seat, last[card].giver if card in last and last[card].taker == seat else None)
        for seat, hand in enumerate(hands)
        for card in hand
        if tc.is_calamity(card)
    )


def announcement(trade: Trade) -> Announcement:
    """F-O4: the public message of a trade, built from what each side SAID only."""
    return Announcement(
        (trade.first.seat, trade.second.seat),
        (tuple(sorted(trade.first.said)), tuple(sorted(trade.second.said))),
    )


# What was SAID, never what was given: one card of three may be a lie (§28.3).
ANNOUNCEMENT: Final = N_(
    "%(first)s says they gave %(first_cards)s to %(second)s, who says they gave %(second_cards)s in return."
)


def announcement_params(
    said: Announcement, names: Sequence[str], card_names: dict[str, str]
) -> dict[str, str]:
    """The parameters of `ANNOUNCEMENT` (a message the web layer translates): player names, and the said
    cards by name ("unspecified" for an unspecified card)."""
    first, second = said.seats

    def listed(keys: Sequence[str]) -> str:
        return ", ".join(card_names.get(key, key) for key in keys)

    return {
        "first": names[first],
        "second": names[second],
        "first_cards": listed(said.said[0]),
        "second_cards": listed(said.said[1]),
    }


def offer_seen_by(found: Offer, seat: int) -> dict[str, object] | None:
    """What `seat` may see of an offer: its author everything, its partner the said cards and the slots,
    anyone else nothing (§28.3: no trade detail goes further)."""
    if seat == found.side.seat:
        return {
            "id": found.id,
            "to": found.to,
            "cards": found.side.cards,
            "said": found.side.said,
            "expects": found.expects,
        }
    if seat == found.to:
        return {"id": found.id, "from": found.side.seat, "said": found.side.said, "expects": found.expects}
    return None


def shown_worth(hand: Sequence[str], held: civ.Cards) -> int:
    """The hand's worth on the trade page, with Mining's extra card where it adds most (§32.261)."""
    return tc.hand_value(hand, mining=civ.MINING in held)
