"""The one place legality comes from: `legal_for(state, seat)`.

`waits`, `apply` (through `check`), `default_order`, `sample_order` and the view's `legal` part all read
the `Legal` it returns, so they cannot disagree.

Phases (`state.phase`):
  bid           every seat without a bid is awaited (sealed, simultaneous); a seat that has bid may
                change its bid (`auction.rebid_legal`, an order the game does not wait for) until the last bid
                comes, which reveals them all
  tiebreak      the tied seats bid silver (sealed, simultaneous)
  doppelganger  the winner, who holds the Doppelganger, may play it
  power         the winner uses the next power of `state.todo` (Wait phase "power:<card>")
  over          somebody has won
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.contract import RuleError
from app.games.dragonstones.auction import (
    bid_legal,
    check_bid,
    check_rebid,
    check_tiebreak,
    doppelganger_legal,
    handle_bid,
    handle_doppelganger,
    handle_rebid,
    handle_tiebreak,
    sample_bid,
    sample_tiebreak,
    tiebreak_legal,
)
from app.games.dragonstones.model import State
from app.games.dragonstones.orders import (
    ColourOrder,
    CopyOrder,
    Legal,
    OrderModel,
    PayOrder,
    RebidOrder,
    RobOrder,
    StealOrder,
)
from app.games.dragonstones.powers import POWERS, check_buy, run_power, sample_buy
from app.games.dragonstones.tx import Tx

LimitCheck = Callable[[dict[str, Any], OrderModel], None]
LimitSampler = Callable[[dict[str, Any], random.Random], dict[str, Any]]

LIMIT_CHECKS: dict[str, LimitCheck] = {
    "bid": check_bid,
    "rebid": check_rebid,
    "tiebreak": check_tiebreak,
    "buy": check_buy,
}
LIMIT_SAMPLERS: dict[str, LimitSampler] = {"bid": sample_bid, "tiebreak": sample_tiebreak, "buy": sample_buy}
HANDLERS: dict[str, Callable[[Tx, int, OrderModel], None]] = {
    "bid": handle_bid,
    "tiebreak": handle_tiebreak,
    "doppelganger": handle_doppelganger,
    "power": run_power,
}


def legal_for(state: State, seat: int) -> Legal | None:
    """What `seat` may do now, or None when the game does not wait on it."""
    auction = state.auction
    if state.winner is not None or not 0 <= seat < len(state.players):
        return None
    if state.phase == "bid":
        return bid_legal(state, seat) if auction.bids[seat] is None else None
    if state.phase == "tiebreak":
        awaited = seat in auction.tied and auction.tiebids[seat] is None
        return tiebreak_legal(state, seat) if awaited else None
    if seat != auction.winner:
        return None
    if state.phase == "doppelganger":
        return doppelganger_legal(state, seat)
    if state.phase == "power" and state.todo:
        return POWERS[state.todo[0]].options(state, seat)
    return None


def check(legal: Legal, order: OrderModel) -> None:
    """Raise RuleError unless `order` is one of the things `legal` allows."""
    if order.type not in legal.types:
        wanted = " or ".join(legal.types)
        raise RuleError(
            "wrong_order",
            "Now you must send a %(wanted)s order, not %(sent)s.",
            "type",
            params={"wanted": wanted, "sent": order.type},
        )
    if legal.limits is not None:
        LIMIT_CHECKS[order.type](legal.limits, order)
        return
    if not legal.offers(order):
        raise _mismatch(legal, order)


def _mismatch(legal: Legal, order: OrderModel) -> RuleError:
    if isinstance(order, StealOrder | RobOrder):
        victims = {getattr(choice.order, "victim", None) for choice in legal.choices}
        if order.victim not in victims:
            return RuleError("invalid_victim", "You may not rob that player now.", "victim")
        return RuleError(
            "invalid_colour", "That player has no stone of that colour, or must give a stone.", "colour"
        )
    if isinstance(order, ColourOrder):
        return RuleError(
            "invalid_colour", "You may not choose %(colour)s now.", "colour", params={"colour": order.colour}
        )
    if isinstance(order, CopyOrder):
        return RuleError(
            "invalid_character",
            "You may not use the power of %(character)s now.",
            "character",
            params={"character": repr(order.character)},
        )
    if isinstance(order, PayOrder):
        return RuleError("invalid_payment", "You cannot pay these stones for this power.", "stones")
    return RuleError("illegal_choice", "That choice is not allowed now.")


def handle(tx: Tx, seat: int, order: OrderModel) -> None:
    if isinstance(order, RebidOrder):
        handle_rebid(tx, seat, order)
        return
    HANDLERS[tx.state.phase](tx, seat, order)


def sample(legal: Legal, rng: random.Random) -> dict[str, Any]:
    if legal.limits is not None:
        return LIMIT_SAMPLERS[legal.types[0]](legal.limits, rng)
    return legal.random_choice(rng)
