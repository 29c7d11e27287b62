"""Phase 12 on the state (§31, site F-T): `advances.py`'s checkout carried out on the nations and hands.

Every seat that can buy a civ card or holds more trade cards than the hand limit checks out once, all at
once; the others have nothing to do. A checkout moves the treasury spent back to stock, adds the cards
bought (public), and sends the trade cards spent or discarded to the discard pile, which goes back under
the stacks with the turn's calamities when the phase ends (§29.7, §31.81). Which trade cards left a hand
is told to its seat alone; how many is public (hand sizes are, §27.4).
"""

from __future__ import annotations

import random
from typing import Any

from app.games.advciv import advances as adv
from app.games.advciv import cards as civ
from app.games.advciv import trade_cards as tc
from app.games.advciv.model import State
from app.games.advciv.orders import BuyOrder
from app.games.advciv.tx import Tx
from app.games.kit.model import replaced


def holder(state: State, seat: int) -> adv.Holder:
    nation = state.players[seat]
    hand = state.hands[seat]
    shown = min(state.grain_shown[seat] if state.grain_shown else 0, hand.count("grain"))
    if civ.POTTERY not in nation.cards:
        shown = 0
    return adv.Holder(nation.cards, hand, nation.treasury, frozen=("grain",) * shown)


def has_choice(state: State, seat: int) -> bool:
    """Whether the seat is asked: its hand is over the limit, or it can pay for some civ card."""
    buyer = holder(state, seat)
    if len(buyer.hand) > state.hand_limit:
        return True
    free = list(buyer.hand)
    for card in buyer.frozen:
        free.remove(card)
    means = tc.hand_value(free, mining=buyer.mining) + buyer.treasury
    return any(line.refusal is None and line.price.due <= means for line in adv.shop(buyer.owned))


def begin(tx: Tx) -> None:
    state = tx.state
    done = tuple(0 if has_choice(state, seat) else 1 for seat in range(len(state.players)))
    tx.set(phase="advances", done=done, order=(), cursor=0)


def buy(tx: Tx, seat: int, order: BuyOrder) -> None:
    """One seat's checkout (RuleError, nothing changed, if the cart, payment or discard is not allowed)."""
    state = tx.state
    paid = adv.checkout(holder(state, seat), order.cart, order.spend, order.discard, state.hand_limit)
    nation = state.players[seat]
    tx.update_player(
        seat,
        cards=paid.owned,
        treasury=nation.treasury - paid.treasury_spent,
        stock=nation.stock + paid.treasury_spent,
    )
    mining_used = state.mining_used
    if paid.payment.mining_used and seat not in mining_used:
        mining_used = tuple(sorted((*mining_used, seat)))
    tx.set(
        hands=replaced(state.hands, seat, paid.hand),
        discard=(*state.discard, *paid.returned),
        done=replaced(state.done, seat, 1),
        mining_used=mining_used,
    )
    tx.emit(
        "advances_bought",
        seat=seat,
        cards=list(paid.bought),
        treasury=paid.treasury_spent,
        spent=len(paid.spent),
        discarded=len(paid.discarded),
    )
    if paid.returned:
        tx.emit("cards_paid", to=(seat,), seat=seat, spent=list(paid.spent), discarded=list(paid.discarded))


def settle(tx: Tx) -> bool:
    return 0 not in tx.state.done


def default(state: State, seat: int) -> BuyOrder:
    """F-T6: the fewest civ cards that bring the hand down to the limit (`advances.default_plan`)."""
    plan = adv.default_plan(holder(state, seat), state.hand_limit)
    return BuyOrder(type="buy", cart=plan.cart, spend=plan.spend, discard=plan.discard)


def sample(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    plan = adv.random_plan(holder(state, seat), rng.randrange, state.hand_limit)
    return {"type": "buy", "cart": list(plan.cart), "spend": list(plan.spend), "discard": list(plan.discard)}


def context(state: State, seat: int) -> dict[str, Any]:
    """The shop as the seat sees it (F-T1): every card with its cost, the credits toward it, what is left
    to pay and why it cannot be bought; the hand, the frozen Grain, the treasury and the limit."""
    buyer = holder(state, seat)
    return {
        "shop": [
            {
                "card": line.price.card,
                "name": civ.CIV_CARDS[line.price.card].name,
                "groups": list(civ.CIV_CARDS[line.price.card].groups),
                "cost": line.price.cost,
                "credit": line.price.credit,
                "due": line.price.due,
                "refusal": line.refusal,
                "requires": civ.CIV_CARDS[line.price.card].requires,
            }
            for line in adv.shop(buyer.owned)
        ],
        "hand": sorted(buyer.hand, key=lambda card: (tc.stack_of(card), card)),
        "frozen": list(buyer.frozen),
        "treasury": buyer.treasury,
        "hand_limit": state.hand_limit,
        "mining": buyer.mining,
        "hand_value": tc.hand_value(buyer.hand, mining=buyer.mining),
    }
