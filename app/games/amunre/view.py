"""What one seat (or a spectator) may see.

Public: the board (owners, blocks, pyramids, farmers, the temple marker), the bids, the points, the
scoring tables, the discard pile, how many cards each hand holds (a sealed offering's cards still counted
in it), who has offered, and the offerings once revealed. Private to its owner: the gold and power cards
in hand, and the sealed offering. Never shown: the decks' order, the face-down free cards on provinces and
the generator state.
"""

from __future__ import annotations

from typing import Any

from app.games.amunre import cards
from app.games.amunre.board import BOARD, GOLD_VALUES
from app.games.amunre.model import Offering, Player, State
from app.games.amunre.orders import Legal
from app.games.amunre.phases import TRACK, anytime_for, legal_for
from app.games.amunre.tx import farmers_in
from app.games.kit.model import to_json

PROMPTS: dict[str, str] = {
    "bid": "Place your bidding block on a province.",
    "buy": "Buy power cards, then farmers, then blocks; play Free Farmer or Master Builder.",
    "offer": 'Your sealed offering to Amun-Re: gold cards, or the "-3" card.',
    "pay": "Your gold cannot pay your bid: choose the power cards you sell (1 gold each).",
    "adjust": "Offering Adjustment: raise or lower the offering total by 3, or leave it as it is.",
    "reward": "Amun-Re rewards you: take an item.",
    "income": "Play 8 Gold or Harvest Increase, or collect your income.",
    "bonus": "Scoring: play your bonus cards whose condition holds.",
    "sell": "At any time, sell a power card for 1 gold.",
    "offered": "Your offering is in; waiting for the others.",
    "wait": "Waiting for other players.",
    "game_over": "The game is over.",
    "spectator": "You are watching.",
}


def view(state: State, seat: int | None) -> dict[str, Any]:
    me = seat if seat is not None and 0 <= seat < len(state.players) else None
    return {
        "round": state.round,
        "kingdom": "old" if state.round <= 3 else "new",
        "phase": state.phase,
        "pharaoh": state.pharaoh,
        "temple": state.temple,
        "offering_total": state.total,
        "track": list(TRACK),
        "provinces": [_province(state, index) for index in range(len(BOARD.provinces))],
        "auction": [
            {"province": BOARD.provinces[index].name, "bid": _bid(state, position)}
            for position, index in enumerate(state.revealed)
        ],
        "players": [_public_player(state, s, me) for s in range(len(state.players))],
        "me": _private(state, me) if me is not None else None,
        "offerings": [_offering(offering) for offering in state.offerings],
        "supply": {
            "blocks": state.blocks,
            "pyramids": state.pyramids,
            "doubles": state.doubles,
            "farmers": state.farmers,
        },
        "deck_size": len(state.deck),
        "discard": list(state.discard),
        "scores": [[{**to_json(line), "total": line.total} for line in table] for table in state.scores],
        "waiting_for": [s for s in range(len(state.players)) if legal_for(state, s)],
        "legal": _legal(state, me),
        "anytime": _anytime(state, me),
        "cards": cards.CARD_NAMES,
    }


def _bid(state: State, position: int) -> dict[str, int] | None:
    bid = state.bids[position]
    if bid is None:
        return None
    return {"seat": bid.seat, "amount": TRACK[bid.step], "blockade": state.players[bid.seat].blockade}


def _province(state: State, index: int) -> dict[str, Any]:
    data, province = BOARD.provinces[index], state.provinces[index]
    return {
        "name": data.name,
        "in_play": province.in_play,
        "owner": province.owner,
        "blocks": province.blocks,
        "pyramids": province.pyramids,
        "doubles": province.doubles,
        "farmers": farmers_in(state, index),
        "bought_farmers": province.farmers,
        "flat_farmers": province.flat_farmers,
        "free_cards": len(province.free_cards),
        "free_gold": cards.value(province.free_gold) + province.free_gold_due,
        "farm_spaces": data.farm_spaces,
        "printed_farmers": data.printed_farmers,
        "card_limit": data.card_limit,
        "temples": data.temples,
        "income": data.income,
        "camel_income": data.camel_income,
        "side": data.side,
        "egypt": data.egypt,
        "nile_bank": data.nile_bank,
    }


def _public_player(state: State, seat: int, viewer: int | None) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "seat": seat,
        "points": player.points,
        "cards_in_hand": hand_size(player) if seat == viewer else public_hand_size(player),
        "provinces": [BOARD.provinces[index].name for index in state.owned(seat)],
        "has_offered": player.offering is not None if state.phase == "offering" else None,
    }


def hand_size(player: Player) -> int:
    return sum(player.gold) + len(player.powers) + player.minus_three


def public_hand_size(player: Player) -> int:
    """A hand's size as the others see it: the cards of a sealed offering still count, as if in the hand,
    until the offerings are revealed (the rules let a seat hide even how many cards it offers)."""
    sealed = player.offering
    if sealed is None:
        return hand_size(player)
    return hand_size(player) + sum(sealed.gold) + len(sealed.powers) + sealed.minus_three + sealed.adjust


def _offering(offering: Offering | None) -> dict[str, Any] | None:
    if offering is None:
        return None
    return {
        "amount": offering.amount,
        "gold": {str(w): c for w, c in zip(GOLD_VALUES, offering.gold, strict=True) if c},
        "minus_three": offering.minus_three,
        "powers": list(offering.powers),
        "adjust": offering.adjust,
    }


def _private(state: State, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "seat": seat,
        "gold": {str(w): c for w, c in zip(GOLD_VALUES, player.gold, strict=True) if c},
        "gold_value": cards.value(player.gold),
        "minus_three": player.minus_three,
        "powers": list(player.powers),
        "offering": _offering(player.offering),
    }


def legal_json(legal: Legal) -> dict[str, Any]:
    return {**legal.to_json(), "text": PROMPTS[legal.prompt], "limits": legal.limits}


def _anytime(state: State, seat: int | None) -> dict[str, Any] | None:
    """The sales open to the viewer, awaited or not (`legal` is what the game waits on it for)."""
    legal = anytime_for(state, seat) if seat is not None else None
    return legal_json(legal) if legal is not None else None


def _legal(state: State, seat: int | None) -> dict[str, Any]:
    legal = legal_for(state, seat) if seat is not None else None
    if legal is not None:
        return legal_json(legal)
    if state.phase == "over":
        prompt = "game_over"
    elif seat is None:
        prompt = "spectator"
    elif state.phase == "offering" and state.players[seat].offering is not None:
        prompt = "offered"
    else:
        prompt = "wait"
    return {
        "phase": None,
        "prompt": prompt,
        "text": PROMPTS[prompt],
        "orders": [],
        "choices": [],
        "default": None,
    }
