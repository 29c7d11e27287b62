"""Sealed auctions: bids, the reveal, the silver tie-break, and the Doppelganger offer to the winner.

Every bid is spent, win or lose: fairy gold goes in front of the screen until the round ends; common gold,
silver, the cursed coin and the amulet go to the bank.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from app.games.contract import RuleError
from app.games.dragonstones.characters import name
from app.games.dragonstones.model import Bid, Coins, State, TieBid
from app.games.dragonstones.orders import (
    BidOrder,
    DoppelgangerOrder,
    Legal,
    OrderModel,
    RebidOrder,
    TiebreakOrder,
)
from app.games.dragonstones.tx import Tx
from app.games.kit.legal import Choice

EMPTY_FIST = BidOrder(type="bid")
NO_SILVER = TiebreakOrder(type="tiebreak")

# --- what a seat may bid ------------------------------------------------------------------------------


def bid_legal(state: State, seat: int) -> Legal:
    limits = _bid_limits(state.players[seat].screen)
    return Legal("bid", "bid", ("bid",), EMPTY_FIST, card=state.auction.card, limits=limits)


def _bid_limits(coins: Coins) -> dict[str, Any]:
    return {"fairy": coins.fairy, "gold": coins.gold, "cursed": coins.cursed > 0, "amulet": coins.amulet > 0}


def rebid_legal(state: State, seat: int) -> Legal | None:
    """A sealed bid may be changed as long as someone has still to bid (the reveal comes with the last
    bid): within the coins behind the screen and those already in the fist."""
    auction = state.auction
    bid = auction.bids[seat] if state.phase == "bid" and 0 <= seat < len(auction.bids) else None
    if bid is None or auction.revealed:
        return None
    limits = _bid_limits(state.players[seat].screen.plus(bid.coins()))
    current = RebidOrder(type="rebid", fairy=bid.fairy, gold=bid.gold, cursed=bid.cursed, amulet=bid.amulet)
    return Legal("rebid", "rebid", ("rebid",), current, card=auction.card, limits=limits)


def tiebreak_legal(state: State, seat: int) -> Legal:
    screen = state.players[seat].screen
    limits = {"silver": screen.silver, "amulet": screen.amulet > 0}
    card = state.auction.card
    return Legal("tiebreak", "tiebreak", ("tiebreak",), NO_SILVER, card=card, limits=limits)


def doppelganger_legal(state: State, seat: int) -> Legal:
    card = state.auction.card
    choices = (
        Choice(
            DoppelgangerOrder(type="doppelganger", use=True),
            f"Play the Doppelganger: use the {name(card)} twice",
        ),
        Choice(DoppelgangerOrder(type="doppelganger", use=False), "Keep the Doppelganger for later"),
    )
    return Legal(
        "power:doppelganger", "doppelganger", ("doppelganger",), choices[1].order, choices, card=card
    )


# one sentence per coin, so that each language names it in its own words
SHORT_OF = {
    "fairy": "You have only %(count)s fairy gold behind your screen.",
    "gold": "You have only %(count)s common gold behind your screen.",
    "silver": "You have only %(count)s silver behind your screen.",
}


def _at_most(limits: dict[str, Any], field: str, asked: int) -> None:
    if asked > limits[field]:
        raise RuleError("not_enough_coins", SHORT_OF[field], field, params={"count": limits[field]})


def _token(limits: dict[str, Any], field: str, asked: bool) -> None:
    if not asked or limits[field]:
        return
    if field == "cursed":
        raise RuleError("no_cursed_coin", "You have no cursed coin to bid.", field)
    raise RuleError("no_amulet", "You have no amulet to bid.", field)


def check_bid(limits: dict[str, Any], order: OrderModel) -> None:
    assert isinstance(order, BidOrder)
    _at_most(limits, "fairy", order.fairy)
    _at_most(limits, "gold", order.gold)
    _token(limits, "cursed", order.cursed)
    _token(limits, "amulet", order.amulet)


def check_rebid(limits: dict[str, Any], order: OrderModel) -> None:
    assert isinstance(order, RebidOrder)
    check_bid(limits, order)


def check_tiebreak(limits: dict[str, Any], order: OrderModel) -> None:
    assert isinstance(order, TiebreakOrder)
    _at_most(limits, "silver", order.silver)
    _token(limits, "amulet", order.amulet)


def sample_bid(limits: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.3:
        return {"type": "bid"}
    return {
        "type": "bid",
        "fairy": rng.randint(0, limits["fairy"]),
        "gold": rng.randint(0, limits["gold"]),
        "cursed": limits["cursed"] and rng.random() < 0.25,
        "amulet": limits["amulet"] and rng.random() < 0.3,
    }


def sample_tiebreak(limits: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    return {
        "type": "tiebreak",
        "silver": rng.randint(0, limits["silver"]),
        "amulet": limits["amulet"] and rng.random() < 0.3,
    }


# --- handling the bids --------------------------------------------------------------------------------


def _into_fist(tx: Tx, seat: int, coins: Coins) -> None:
    tx.update_player(seat, screen=tx.player(seat).screen.minus(coins))


def handle_bid(tx: Tx, seat: int, order: OrderModel) -> None:
    assert isinstance(order, BidOrder)
    bid = Bid(order.fairy, order.gold, order.cursed, order.amulet)
    _into_fist(tx, seat, bid.coins())
    auction = tx.state.auction
    bids = (*auction.bids[:seat], bid, *auction.bids[seat + 1 :])
    tx.set(auction=replace(auction, bids=bids))
    tx.emit("bid_placed", seat=seat, card=auction.card, tiebreak=False)
    tx.emit("bid_sent", to={seat}, seat=seat, **_bid_json(bid))
    if all(b is not None for b in bids):
        _reveal(tx)


def handle_rebid(tx: Tx, seat: int, order: OrderModel) -> None:
    """The first bid's coins back behind the screen, then the new bid in the fist; only its seat is told
    (the others see no change: the seat has bid either way)."""
    assert isinstance(order, RebidOrder)
    auction = tx.state.auction
    old = auction.bids[seat]
    assert old is not None
    tx.update_player(seat, screen=tx.player(seat).screen.plus(old.coins()))
    bid = Bid(order.fairy, order.gold, order.cursed, order.amulet)
    _into_fist(tx, seat, bid.coins())
    tx.set(auction=replace(auction, bids=(*auction.bids[:seat], bid, *auction.bids[seat + 1 :])))
    tx.emit("bid_changed", to={seat}, seat=seat, **_bid_json(bid))


def handle_tiebreak(tx: Tx, seat: int, order: OrderModel) -> None:
    assert isinstance(order, TiebreakOrder)
    tiebid = TieBid(order.silver, order.amulet)
    _into_fist(tx, seat, tiebid.coins())
    auction = tx.state.auction
    tiebids = (*auction.tiebids[:seat], tiebid, *auction.tiebids[seat + 1 :])
    tx.set(auction=replace(auction, tiebids=tiebids))
    tx.emit("bid_placed", seat=seat, card=auction.card, tiebreak=True)
    tx.emit("bid_sent", to={seat}, seat=seat, silver=tiebid.silver, amulet=tiebid.amulet, value=tiebid.value)
    if all(tiebids[s] is not None for s in auction.tied):
        _reveal_tiebreak(tx)


def handle_doppelganger(tx: Tx, seat: int, order: OrderModel) -> None:
    assert isinstance(order, DoppelgangerOrder)
    card = tx.state.auction.card
    if order.use:
        tx.set(doppelganger=None, used=(*tx.state.used, "doppelganger"), todo=(card, card))
        tx.emit("doppelganger_played", seat=seat, card=card)
    tx.set(phase="power")


def _bid_json(bid: Bid) -> dict[str, Any]:
    return {
        "fairy": bid.fairy,
        "gold": bid.gold,
        "cursed": bid.cursed,
        "amulet": bid.amulet,
        "value": bid.value,
    }


def revealed_bids(state: State) -> list[dict[str, Any]]:
    return [{"seat": seat, **_bid_json(bid)} for seat, bid in enumerate(state.auction.bids) if bid]


def revealed_tiebids(state: State) -> list[dict[str, Any]]:
    auction = state.auction
    return [
        {"seat": seat, "silver": tiebid.silver, "amulet": tiebid.amulet, "value": tiebid.value}
        for seat in auction.tied
        if (tiebid := auction.tiebids[seat])
    ]


def _reveal(tx: Tx) -> None:
    state = tx.state
    bids = [bid or Bid() for bid in state.auction.bids]
    bank = state.bank
    for seat, bid in enumerate(bids):
        player = tx.player(seat)
        tx.update_player(seat, front_fairy=player.front_fairy + bid.fairy)
        bank = bank.plus(replace(bid.coins(), fairy=0))
    tx.set(bank=bank, auction=replace(state.auction, revealed=True))
    tx.emit("bids_revealed", card=state.auction.card, bids=revealed_bids(tx.state))
    cursers = [seat for seat, bid in enumerate(bids) if bid.cursed]
    best = max(bid.value for bid in bids)
    top = [seat for seat, bid in enumerate(bids) if bid.value == best]
    if cursers:
        _close(tx, "bewitched", seats=cursers)
    elif best == 0:
        _close(tx, "no_bids")
    elif len(top) == 1:
        _win(tx, top[0])
    else:
        tiebids: tuple[TieBid | None, ...] = (None,) * len(bids)
        tx.set(phase="tiebreak", auction=replace(tx.state.auction, tied=tuple(top), tiebids=tiebids))
        tx.emit("tiebreak_opened", card=state.auction.card, seats=top)


def _reveal_tiebreak(tx: Tx) -> None:
    auction = tx.state.auction
    tiebids = {seat: auction.tiebids[seat] or TieBid() for seat in auction.tied}
    bank = tx.state.bank
    for tiebid in tiebids.values():
        bank = bank.plus(tiebid.coins())
    tx.set(bank=bank)
    tx.emit("tiebreak_revealed", card=auction.card, bids=revealed_tiebids(tx.state))
    best = max(tiebid.value for tiebid in tiebids.values())
    top = [seat for seat, tiebid in tiebids.items() if tiebid.value == best]
    if len(top) == 1:
        _win(tx, top[0])
    else:
        _close(tx, "tie", seats=top)


def _close(tx: Tx, outcome: str, seats: list[int] | None = None) -> None:
    """An auction with no power to use: the flow moves on to the next card."""
    card = tx.state.auction.card
    tx.set(auction=replace(tx.state.auction, outcome=outcome), phase="power", todo=())
    if outcome == "bewitched":
        tx.emit("auction_bewitched", card=card, seats=seats or [])
    else:
        tx.emit("auction_void", card=card, reason=outcome, seats=seats or [])


def _win(tx: Tx, seat: int) -> None:
    card = tx.state.auction.card
    tx.set(auction=replace(tx.state.auction, outcome="won", winner=seat), todo=(card,))
    tx.emit("auction_won", card=card, seat=seat)
    offer = tx.state.doppelganger == seat and card != "necromancer"
    tx.set(phase="doppelganger" if offer else "power")
