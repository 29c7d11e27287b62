"""Phase 10 on the state (§28, site F-I, F-R): `market.py`'s offers and trades carried out on the hands,
with what each seat may learn of them.

Every seat holding at least 3 trade cards is in the market when it opens (`State.order`); the others
cannot trade (§28.3) and count as done. The clock owns the times: the market's close is every market
wait's deadline (the default there is "done"), and the platform sends the clock's `embargo_over` when the
embargo ends. When every seat has said "done", the market closes: trades agreed and still waiting are
carried out (they are binding), open offers lapse, and phase 11 begins.

What goes where: an offer's said cards and slots go to its two seats only (`offer_made`); its real cards
stay in its author's view. An executed trade is announced to everyone as what was SAID (`trade_announced`,
mailed unless the game turns it off); each of its two seats is told, alone, the cards it really received
(`cards_received`). Who is still in the market is public: the clock's close depends on it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from app.games.advciv import market as mk
from app.games.advciv import trade_cards as tc
from app.games.advciv.market import DONT_CARE, MIN_CARDS, UNSPECIFIED, Market, Side
from app.games.advciv.model import State
from app.games.advciv.orders import (
    AcceptOrder,
    CounterOrder,
    DeclineOrder,
    DoneOrder,
    EmbargoOverOrder,
    OfferOrder,
    WithdrawOrder,
)
from app.games.advciv.tx import Tx
from app.games.contract import RuleError


def traders(state: State, seats: Iterable[int]) -> tuple[int, ...]:
    """The seats of `seats` that hold enough cards to trade (§28.3)."""
    return tuple(seat for seat in seats if len(state.hands[seat]) >= MIN_CARDS)


def begin(tx: Tx, seats: Sequence[int]) -> bool:
    """Opens the market to the seats that can trade (in `seats`' order); False when fewer than two can,
    and there is no market this turn."""
    state = tx.state
    able = traders(state, seats)
    if len(able) < 2:
        tx.emit("market_skipped", seats=list(able))
        return False
    out = tuple(seat for seat in range(len(state.players)) if seat not in able)
    tx.set(phase="trade", market=Market(embargo=True, done=out), order=able, cursor=0, done=())
    tx.emit("market_opened", seats=list(able))
    return True


def in_market(state: State) -> list[int]:
    """The seats still trading, in the market's order."""
    market = state.market
    if market is None:
        return []
    return [seat for seat in state.order if seat not in market.done]


def market_of(state: State) -> Market:
    if state.phase != "trade" or state.market is None:
        raise RuleError("market_closed", "The trade market is closed.")
    return state.market


def trade(tx: Tx, seat: int, order: Any) -> None:
    """One trade order of `seat`: offer, accept, counter, decline, withdraw, done, or the clock's end of
    the embargo. RuleError (nothing changed) when it is not allowed."""
    state = tx.state
    market = market_of(state)
    was_done = seat in market.done
    if isinstance(order, OfferOrder):
        side = _side(seat, order.cards, order.said)
        _set_market(tx, mk.offer(market, state.hands, side, order.to, order.expects))
        _tell_offer(tx, tx.state.market)
    elif isinstance(order, CounterOrder):
        side = _side(seat, order.cards, order.said)
        answered = mk.find(market, order.offer, seat)
        _set_market(tx, mk.counter(market, state.hands, side, order.offer, order.expects))
        tx.emit("offer_closed", to=_pair(answered), id=order.offer, reason="countered")
        _tell_offer(tx, tx.state.market)
    elif isinstance(order, AcceptOrder):
        side = _side(seat, order.cards, order.said)
        answered = mk.find(market, order.offer, seat)
        after, hands, executed = mk.accept(market, state.hands, side, order.offer)
        _set_market(tx, after, hands)
        if not executed:
            tx.emit("trade_agreed", to=_pair(answered), id=order.offer, seats=list(_pair(answered)))
        _announce(tx, executed)
    elif isinstance(order, DeclineOrder | WithdrawOrder):
        answered = mk.find(market, order.offer, seat)
        close = mk.decline if isinstance(order, DeclineOrder) else mk.withdraw
        after = close(market, seat, order.offer)
        # an answer or a withdrawal is a trade order like any other: it brings a seat that left back (F-I4)
        _set_market(tx, replace(after, done=tuple(other for other in after.done if other != seat)))
        reason = "declined" if isinstance(order, DeclineOrder) else "withdrawn"
        tx.emit("offer_closed", to=_pair(answered), id=order.offer, reason=reason)
    elif isinstance(order, DoneOrder):
        _set_market(tx, mk.leave(market, seat))
        tx.emit("market_left", seat=seat)
    elif isinstance(order, EmbargoOverOrder):
        if not market.embargo:
            raise RuleError("embargo_over", "The embargo is already over.")
        after, hands, executed = mk.lift_embargo(market, state.hands)
        _set_market(tx, after, hands)
        tx.emit("embargo_lifted", trades=len(executed))
        _announce(tx, executed)
    now = tx.state.market
    if was_done and now is not None and seat not in now.done:
        tx.emit("market_reentered", seat=seat)


def settle(tx: Tx) -> bool:
    """Closes the market once every seat is done; False while some are still trading."""
    state = tx.state
    if in_market(state):
        return False
    market = state.market
    assert market is not None
    closed, hands, executed = mk.close(market, state.hands)
    tx.set(market=closed, hands=hands)
    _announce(tx, executed)
    tx.emit("market_closed", lapsed=len(market.offers))
    tx.set(market=None, traded=calamities_traded(closed, hands), order=(), done=())
    return True


def calamities_traded(market: Market, hands: tc.Hands) -> tuple[tuple[str, int], ...]:
    """(calamity, seat that traded it to its holder) for the tradable calamities held after trade (§29.61)."""
    return tuple(
        (held.card, held.traded_by)
        for held in mk.held_calamities(hands, market.passes)
        if held.traded_by is not None
    )


def _side(seat: int, cards: Sequence[str], said: Sequence[str]) -> Side:
    return Side(seat, tuple(cards), tuple(said) if said else tuple(cards))


def _pair(offer: mk.Offer) -> tuple[int, int]:
    return (offer.side.seat, offer.to)


def _set_market(tx: Tx, market: Market, hands: tc.Hands | None = None) -> None:
    if hands is None:
        tx.set(market=market)
    else:
        tx.set(market=market, hands=hands)


def _tell_offer(tx: Tx, market: Market | None) -> None:
    """The offer just made, to its two seats: what was said and what is wanted back, never the cards."""
    assert market is not None
    made = market.offers[-1]
    tx.emit(
        "offer_made",
        to=_pair(made),
        id=made.id,
        seat=made.side.seat,
        partner=made.to,
        said=list(made.side.said),
        expects=list(made.expects),
        answers=made.answers,
    )


def _announce(tx: Tx, executed: Iterable[mk.Executed]) -> None:
    mail = tx.state.trade_mail
    for done in executed:
        said = done.announcement
        tx.emit(
            "trade_announced",
            mail=mail,
            seats=list(said.seats),
            said=[list(said.said[0]), list(said.said[1])],
        )
        first, second = done.trade.first, done.trade.second
        for taker, giver in ((first, second), (second, first)):
            tx.emit(
                "cards_received",
                to=(taker.seat,),
                seat=taker.seat,
                partner=giver.seat,
                cards=sorted(giver.cards),
                given=sorted(taker.cards),
            )


# --- what a seat may see, and random play ----------------------------------------------------------------


def seen_by(state: State, seat: int | None) -> dict[str, Any] | None:
    """The market as `seat` may see it: public, whether the embargo is on and who is still in; to a
    seat, its own offers with their real cards, the offers made to it as said, its trades waiting for the
    embargo, and which of its cards are free to promise."""
    market = state.market
    if state.phase != "trade" or market is None:
        return None
    public: dict[str, Any] = {
        "embargo": market.embargo,
        "traders": list(state.order),
        "in_market": in_market(state),
    }
    if seat is None or not 0 <= seat < len(state.players):
        return public
    mine = [mk.offer_seen_by(found, seat) for found in market.offers]
    waiting = [
        {
            "id": trade.id,
            "partner": other.seat,
            "cards": list(own.cards),
            "said": list(own.said),
            "partner_said": list(other.said),
        }
        for trade in market.agreed
        for own, other in ((trade.first, trade.second), (trade.second, trade.first))
        if own.seat == seat
    ]
    return {
        **public,
        "outgoing": [_listed(o) for o in mine if o is not None and "cards" in o],
        "incoming": [_listed(o) for o in mine if o is not None and "from" in o],
        "agreed": waiting,
        "available": sorted(mk.available(market, state.hands, seat), key=_card_order),
        "can_trade": seat in state.order,
        "done": seat in market.done,
    }


def _listed(seen: dict[str, object]) -> dict[str, object]:
    return {key: list(value) if isinstance(value, tuple) else value for key, value in seen.items()}


def _card_order(card: str) -> tuple[int, str]:
    return (tc.stack_of(card), card)


def sample(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal trade order: answer an incoming offer, make one, or leave (fuzzers and benches)."""
    market = market_of(state)
    if seat in market.done or rng.random() < 0.3:
        return {"type": "done"}
    incoming = [found for found in market.offers if found.to == seat]
    if incoming and rng.random() < 0.7:
        found = rng.choice(incoming)
        answer = _answer(state, market, seat, found, rng)
        if answer is not None and rng.random() < 0.8:
            return {"type": "accept", "offer": found.id, **answer}
        return {"type": "decline", "offer": found.id}
    own = [found for found in market.offers if found.side.seat == seat]
    if own and rng.random() < 0.2:
        return {"type": "withdraw", "offer": rng.choice(own).id}
    made = _random_offer(state, market, seat, rng)
    return made if made is not None else {"type": "done"}


def _tradable(cards: Iterable[str]) -> list[str]:
    return [card for card in cards if not tc.is_calamity(card) or tc.CALAMITIES[card].tradable]


def _random_offer(state: State, market: Market, seat: int, rng: random.Random) -> dict[str, Any] | None:
    free = _tradable(mk.available(market, state.hands, seat))
    partners = [other for other in state.order if other != seat and len(state.hands[other]) >= MIN_CARDS]
    if len(free) < MIN_CARDS or not partners:
        return None
    cards = rng.sample(free, rng.randint(MIN_CARDS, min(len(free), MIN_CARDS + 1)))
    said = list(cards)
    if rng.random() < 0.4:  # one lie, about a card said to be a commodity
        said[rng.randrange(len(said))] = rng.choice(tc.COMMODITY_LIST).key
    wanted = rng.randint(MIN_CARDS, MIN_CARDS + 1)
    expects = [rng.choice(tc.COMMODITY_LIST).key for _ in range(2)]
    expects += [rng.choice((DONT_CARE, UNSPECIFIED)) for _ in range(wanted - 2)]
    return {"type": "offer", "to": rng.choice(partners), "cards": cards, "said": said, "expects": expects}


def _answer(
    state: State, market: Market, seat: int, found: mk.Offer, rng: random.Random
) -> dict[str, list[str]] | None:
    """Cards of `seat` that fill the offer's slots with at most all but two lies, or None."""
    free = _tradable(mk.available(market, state.hands, seat))
    if len(free) < len(found.expects):
        return None
    left = Counter(free)
    cards: list[str] = []
    said: list[str] = []
    for slot in sorted(found.expects, key=lambda slot: slot in (DONT_CARE, UNSPECIFIED)):
        if slot not in (DONT_CARE, UNSPECIFIED) and left[slot]:
            card = slot  # the truth where the hand allows it
        else:
            card = rng.choice(sorted(left.elements()))
        left[card] -= 1
        left = +left  # drops the cards used up
        cards.append(card)
        said.append(card if slot == DONT_CARE else slot)
    lies = sum(real != told for real, told in zip(cards, said, strict=True))
    if lies > len(cards) - mk.TRUE_CARDS:
        return None
    return {"cards": cards, "said": said}
