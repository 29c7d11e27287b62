"""Phase 12, civilization advances (§31, §32): prices with credits, the cart and its payment, the hand
limit and its discard, and the site's default at timeout (F-T).

A buyer is a `Holder`: the civ cards it owned when the phase began (their credits and prerequisites are
the only ones that count, §31.53, §31.62), its trade-card hand (keys, as in `trade_cards`), its treasury
and the Grain cards it showed against Famine this turn (they may not pay, §30.312). `checkout` takes
one cart, the cards spent and the cards discarded, and answers a `Checkout` (or a `RuleError`, nothing
changed); the spent and discarded cards go to the discard pile, and later under their stacks
(`trade_cards.return_cards`, §31.81).

Payment (§31.2–31.58, F-T2, F-T3): the cart is priced card by card, each at its cost less every credit
of the cards owned (compulsory, never below 0); the trade cards spent are worth their sets
(`trade_cards.hand_value`, Mining's extra card included); the treasury pays exactly what the cards
leave owing, never more; no change is given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from app.games.advciv import cards as civ
from app.games.advciv import trade_cards as tc
from app.games.advciv.cards import CIV_CARDS, Cards, Effect
from app.games.contract import RuleError
from app.games.kit.rng import RandBelow, shuffled

HAND_LIMIT: Final = 8  # §31.71; the site's option F-F4 may change it

EFFECTS: Final[tuple[Effect, ...]] = (
    Effect(
        civ.MINING,
        12,
        "32.261",
        "Paying for civ cards: one card more in one Iron, Bronze, Silver, Gems or Gold set spent, within "
        "the commodity's count; once a turn.",
    ),
    Effect(
        civ.MINING,
        13,
        "32.261",
        "At the end of the game: the same extra card in the hand's score, unless it helped to pay that turn.",
    ),
    Effect(civ.POTTERY, 12, "30.312", "Grain cards shown against Famine this turn cannot pay for civ cards."),
    Effect(
        civ.ENGINEERING,
        12,
        "31.62",
        "Held from an earlier turn, lets its holder buy Roadbuilding and Mining.",
    ),
    Effect(civ.LAW, 12, "31.62", "Held from an earlier turn, lets its holder buy Democracy and Philosophy."),
    Effect(
        civ.ENLIGHTENMENT,
        12,
        "31.62",
        "Held from an earlier turn, lets its holder buy Monotheism and Theology.",
    ),
)


@dataclass(frozen=True, slots=True)
class Holder:
    owned: Cards  # civ cards held when the phase began
    hand: tuple[str, ...]  # trade cards
    treasury: int
    frozen: tuple[str, ...] = ()  # Grain shown against Famine this turn (§30.312): kept, never spent

    @property
    def mining(self) -> bool:
        return civ.MINING in self.owned


# --- prices -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Price:
    card: str
    cost: int  # the printed value
    credit: int  # every owned card's credit toward it
    due: int  # what is left to pay, never below 0 (§31.57)


@dataclass(frozen=True, slots=True)
class ShopLine:
    price: Price
    refusal: str | None  # None: may be bought now; else the refusal's code


def price(owned: Cards, card: str) -> Price:
    """§31.54–31.57: the card's cost less the credits of the cards owned, each applied once, compulsory;
    a card may cost 0, and surplus credit is lost."""
    cost = CIV_CARDS[card].cost
    credit = civ.credits_toward(owned, card)
    return Price(card, cost, credit, max(0, cost - credit))


def cart_price(owned: Cards, cart: Iterable[str]) -> int:
    """The cart's total: each card priced alone, so one credit counts toward every card it applies to
    (§31.54), and what exceeds one card's cost is not carried to another."""
    return quote(Holder(owned, (), 0), cart).price


@lru_cache(maxsize=4096)  # asked for every seat at every turn's purchases; holdings repeat
def shop(owned: Cards) -> tuple[ShopLine, ...]:
    """Every card of the catalogue with its price for this holder (the credits shown as one shops, F-T1)
    and why it cannot be bought, if it cannot."""
    return tuple(ShopLine(price(owned, card), _refusal(owned, card)) for card in CIV_CARDS)


def _refusal(owned: Cards, card: str) -> str | None:
    if card in owned:
        return "civ_card_owned"
    needed = CIV_CARDS[card].requires
    if needed is not None and needed not in owned:
        return "civ_card_prerequisite"
    return None


def check_cart(owned: Cards, cart: Sequence[str]) -> None:
    """§31.61, §31.62: known cards, each once, none already owned, each prerequisite owned from an
    earlier turn (bought in this same cart does not count)."""
    for card in cart:
        if card not in CIV_CARDS:
            raise RuleError(
                "unknown_civ_card", "There is no civilization card %(card)s.", "cart", {"card": card}
            )
    if len(set(cart)) != len(cart):
        raise RuleError("civ_card_twice", "A civilization card can be bought only once.", "cart")
    for card in cart:
        refusal = _refusal(owned, card)
        if refusal == "civ_card_owned":
            raise RuleError("civ_card_owned", "You already hold %(card)s.", "cart", {"card": card})
        if refusal == "civ_card_prerequisite":
            raise RuleError(
                "civ_card_prerequisite",
                "%(card)s needs %(needed)s, held from an earlier turn.",
                "cart",
                {"card": card, "needed": str(CIV_CARDS[card].requires)},
            )


# --- paying -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Quote:
    """A cart as one shops (F-T1, F-T2): each card's price after credits, what the cards put in the
    payment area are worth, and what the treasury would still owe."""

    lines: tuple[Price, ...]
    cards_value: int  # the sets spent (Mining included)
    mining_used: bool  # Mining raised a set spent: it is spent for the turn (§32.261)

    @property
    def price(self) -> int:
        """The cart after credits."""
        return sum(line.due for line in self.lines)

    @property
    def treasury(self) -> int:
        """What the cards leave owing: all the treasury may pay (F-T3), never more."""
        return max(0, self.price - self.cards_value)

    @property
    def lost(self) -> int:
        """What the cards pay over the price: no change is given (§31.58)."""
        return max(0, self.cards_value - self.price)


def quote(holder: Holder, cart: Iterable[str], spend: Sequence[str] = ()) -> Quote:
    """Prices `cart` for the holder with the cards `spend`, checking nothing (the shop page's running
    total; `payment` checks)."""
    value = tc.hand_value(spend, mining=holder.mining)
    mining_used = holder.mining and value > tc.hand_value(spend)
    return Quote(tuple(price(holder.owned, card) for card in cart), value, mining_used)


def payment(holder: Holder, cart: Sequence[str], spend: Sequence[str]) -> Quote:
    """Paying `cart` with the cards `spend`, the treasury paying the rest (F-T3: cards may overpay, the
    treasury only pays what is still owed). Refuses a cart the cards and treasury cannot pay."""
    check_cart(holder.owned, cart)
    spendable = _take(holder.hand, holder.frozen)
    if spendable is None:
        raise ValueError("frozen Grain cards not in the hand")
    _check_cards(spendable, spend, "spend", frozen=bool(holder.frozen))
    if spend and not cart:
        raise RuleError(
            "nothing_to_pay", "Cards can be spent only on civilization cards in the cart.", "spend"
        )
    paid = quote(holder, cart, spend)
    if paid.treasury > holder.treasury:
        raise RuleError(
            "cart_unaffordable",
            "The cart costs %(due)s: your cards give %(value)s and your treasury %(treasury)s.",
            "spend",
            {"due": paid.price, "value": paid.cards_value, "treasury": holder.treasury},
        )
    return paid


@dataclass(frozen=True, slots=True)
class Checkout:
    bought: tuple[str, ...]
    owned: Cards  # after the purchase
    hand: tuple[str, ...]  # the trade cards kept
    spent: tuple[str, ...]
    discarded: tuple[str, ...]
    payment: Quote

    @property
    def returned(self) -> tuple[str, ...]:
        """The cards that leave the hand, for the discard pile (§31.71, §31.81)."""
        return self.spent + self.discarded

    @property
    def treasury_spent(self) -> int:
        """Tokens that go from the treasury back to stock."""
        return self.payment.treasury


def checkout(
    holder: Holder,
    cart: Sequence[str],
    spend: Sequence[str] = (),
    discard: Sequence[str] = (),
    hand_limit: int = HAND_LIMIT,
) -> Checkout:
    """Phase 12 for one player: buy `cart` paying with `spend` (and the treasury for the rest), then
    discard `discard`; at most `hand_limit` trade cards may be kept (§31.71). Any cards may be
    discarded, the excess must be."""
    paid = payment(holder, cart, spend)
    after_spending = _take(holder.hand, spend)
    assert after_spending is not None  # checked by payment
    _check_cards(after_spending, discard, "discard")
    kept = _take(after_spending, discard)
    assert kept is not None
    if len(kept) > hand_limit:
        raise RuleError(
            "hand_over_limit",
            "You may keep at most %(limit)s trade cards: discard %(excess)s more.",
            "discard",
            {"limit": hand_limit, "excess": len(kept) - hand_limit},
        )
    return Checkout(tuple(cart), holder.owned | frozenset(cart), kept, tuple(spend), tuple(discard), paid)


def _check_cards(pile: Sequence[str], chosen: Sequence[str], field: str, *, frozen: bool = False) -> None:
    for card in chosen:
        if tc.is_calamity(card):
            raise RuleError("calamity_in_payment", "Calamities are neither spent nor discarded.", field)
    if _take(pile, chosen) is None:
        if frozen:
            raise RuleError(
                "card_not_spendable",
                "Those cards are not in your hand, or are Grain shown against Famine this turn.",
                field,
            )
        raise RuleError("card_not_in_hand", "Those cards are not all in your hand.", field)


def _take(pile: Sequence[str], cards: Iterable[str]) -> tuple[str, ...] | None:
    """`pile` without `cards` (each removed once, the rest in order), or None if one is missing."""
    left = list(pile)
    for card in cards:
        if card not in left:
            return None
        left.remove(card)
    return tuple(left)


# --- the site's default at timeout --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    cart: tuple[str, ...] = ()
    spend: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()


def default_plan(holder: Holder, hand_limit: int = HAND_LIMIT) -> Plan:
    """F-T6: "the minimum number of advancements will be purchased until the hand limit is 8 or lower".

    Nothing is bought by a hand within the limit. Otherwise the cards over the limit leave: those whose
    loss keeps the dearest hand (`least_loss`). They buy one civ card, the fewest that brings the hand
    down: the dearest the cards pay alone, else the cheapest they pay with the treasury's help; failing
    both (or with only frozen Grain leaving) they are discarded. Frozen Grain is discarded, never spent.
    """
    excess = len(holder.hand) - hand_limit
    if excess <= 0:
        return Plan()
    leaving = least_loss(holder.hand, excess)
    spend, discard = _split_frozen(holder, leaving)
    card = _default_card(holder, tc.hand_value(spend, mining=holder.mining)) if spend else None
    if card is None:
        return Plan(discard=leaving)
    return Plan((card,), spend, discard)


def random_plan(holder: Holder, randbelow: RandBelow, hand_limit: int = HAND_LIMIT) -> Plan:
    """A random legal checkout, for random play: half the time one card the holder can pay, paid with
    its free cards in a random order until they and the treasury cover it; then a random discard down
    to the limit."""
    free = _take(holder.hand, holder.frozen)
    assert free is not None
    order = shuffled((card for card in free if not tc.is_calamity(card)), randbelow)
    means = tc.hand_value(order, mining=holder.mining) + holder.treasury
    offers = [line.price for line in shop(holder.owned) if line.refusal is None and line.price.due <= means]
    cart: tuple[str, ...] = ()
    spend: list[str] = []
    if offers and randbelow(2):
        chosen = offers[randbelow(len(offers))]
        cart = (chosen.card,)
        for card in order:
            if tc.hand_value(spend, mining=holder.mining) + holder.treasury >= chosen.due:
                break
            spend.append(card)
    rest = _take(holder.hand, spend)
    assert rest is not None
    excess = max(0, len(rest) - hand_limit)
    return Plan(cart, tuple(spend), shuffled((c for c in rest if not tc.is_calamity(c)), randbelow)[:excess])


def _split_frozen(holder: Holder, leaving: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The leaving cards that may be spent, and the rest (frozen Grain), which is discarded. Grain cards
    are alike: a frozen one is discarded only when no free Grain is left to spend in its place."""
    free = Counter(holder.hand) - Counter(holder.frozen)
    spend: list[str] = []
    discard: list[str] = []
    for card in leaving:
        if free[card]:
            free[card] -= 1
            spend.append(card)
        else:
            discard.append(card)
    return tuple(spend), tuple(discard)


def _default_card(holder: Holder, value: int) -> str | None:
    offers = [line.price for line in shop(holder.owned) if line.refusal is None]
    paid_by_cards = [p for p in offers if p.due <= value]
    if paid_by_cards:
        return max(paid_by_cards, key=lambda p: (p.due, p.cost)).card
    helped = [p for p in offers if p.due <= value + holder.treasury]
    if helped:
        return min(helped, key=lambda p: (p.due, -p.cost)).card
    return None


def least_loss(hand: Sequence[str], count: int) -> tuple[str, ...]:
    """The `count` cards of `hand` whose removal keeps the kept sets worth most (§28.51), found over
    the commodities one by one (removing r of n cards of value v loses v·(n² − (n − r)²)). Calamities
    are worth nothing and go first. Ties are settled in one fixed order (stack, then key), so that a
    replay leaves the same cards."""
    calamities = [card for card in hand if tc.is_calamity(card)][:count]
    sets = Counter(card for card in hand if not tc.is_calamity(card))
    best = _spread(sorted(sets, key=lambda key: (tc.stack_of(key), key)), sets, count - len(calamities))
    return (*calamities, *(key for key, taken in best for _ in range(taken)))


def _spread(keys: Sequence[str], sets: Counter[str], count: int) -> tuple[tuple[str, int], ...]:
    """The cheapest way to take `count` cards from the sets (a knapsack over the commodities)."""
    table: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {0: (0, ())}
    for key in keys:
        held, value = sets[key], tc.COMMODITIES[key].value
        grown: dict[int, tuple[int, tuple[tuple[str, int], ...]]] = {}
        for taken, (loss, picks) in table.items():
            for r in range(0, min(held, count - taken) + 1):
                candidate = (
                    loss + value * (held * held - (held - r) ** 2),
                    (*picks, (key, r)) if r else picks,
                )
                if taken + r not in grown or candidate[0] < grown[taken + r][0]:
                    grown[taken + r] = candidate
        table = grown
    return table[count][1]
