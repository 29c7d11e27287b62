"""What one seat (or a spectator) may see.

Public: stones, points, fairy gold in front of the screens, the bank, the round's specials, the cards
already played and the multiset of cards still to come, who has bid, bids once revealed, the Doppelganger
holder. Private to its owner: the coins behind the screen and the bid in the fist. Never shown: the order
of the pile, the special deck, the bag contents and the generator state.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from app.games.dragonstones.auction import rebid_legal, revealed_bids, revealed_tiebids
from app.games.dragonstones.characters import BASE_PILE, CHARACTERS, ORDER, WITCH, canonical, name
from app.games.dragonstones.model import State
from app.games.dragonstones.orders import Legal
from app.games.dragonstones.phases import legal_for

PROMPTS: dict[str, str] = {
    "bid": "Bid for the {card}: fairy gold and common gold, maybe the cursed coin and an amulet.",
    "tiebreak": "Tie for the {card}: bid silver (an amulet doubles it).",
    "doppelganger": "You won the {card}: play the Doppelganger to use its power twice?",
    "sorcerer": "Sorcerer: pay 4 stones of one colour for 2 points, or take 1 common gold.",
    "enchanter": "Enchanter: pay one stone of each colour for 1 point, or take 3 silver.",
    "magician": "Magician: pay 4 stones of any colours for 1 point, or take 3 silver.",
    "enchantress": "Enchantress: pay 5 stones of any colours for 2 points, or take 1 fairy gold.",
    "thief": "Thief: choose whom to rob among the second-highest bidders.",
    "brigand": "Brigand: name the player who gives you all his common gold and silver.",
    "ancient_dragon": "Ancient Dragon: choose the colour of the stone you take.",
    "apprentice": "Apprentice: choose the colour of the two stones you pay for 1 point.",
    "troll": "Troll: name the colour everybody returns to the bank.",
    "rainbow_colour": "Rainbow Dragon: name a colour; drawing it will lose every stone drawn.",
    "rainbow_draw": "Rainbow Dragon: draw another stone, or stop and keep what you drew.",
    "ghost": "Ghost: choose a character already auctioned this round and use its power.",
    "imp": "Imp: choose a character still to come and use its power.",
    "merchant": "Merchant: buy stones from the bank at 1 gold or 3 silver each.",
    "necromancer": "Necromancer: give the bank the coins you bid (fairy gold too) for 1 point?",
    "wait": "Waiting for other players.",
    "rebid": "Change your bid for the {card} before the last player bids.",
    "bid_sent": "Your bid is in; waiting for the others. You may change it until the last bid comes.",
    "game_over": "The game is over.",
    "spectator": "You are watching.",
}


def view(state: State, seat: int | None) -> dict[str, Any]:
    me = seat if seat is not None and 0 <= seat < len(state.players) else None
    return {
        "round": state.round,
        "points_to_win": state.points_to_win,
        "phase": state.phase,
        "winner": state.winner,
        "players": [_public_player(state, s) for s in range(len(state.players))],
        "me": _private(state, me) if me is not None else None,
        "bank": {"coins": state.bank.as_dict(), "stones": state.bank_stones.as_dict()},
        "cards": _cards(state),
        "auction": _auction(state),
        "power": _power(state),
        "waiting_for": [s for s in range(len(state.players)) if legal_for(state, s)],
        "legal": _legal(state, me),
        "rebid": legal_json(rebid) if me is not None and (rebid := rebid_legal(state, me)) else None,
        "characters": _characters(state),
    }


def _characters(state: State) -> dict[str, dict[str, Any]]:
    """Names and texts of the characters of this round (the Witch, the base cards and the specials)."""
    cards = canonical([WITCH, *BASE_PILE, *state.specials, *state.played, *state.todo])
    return {card: asdict(CHARACTERS[card]) for card in cards}


def _has_bid(state: State, seat: int) -> bool | None:
    auction = state.auction
    if state.phase == "bid":
        return auction.bids[seat] is not None
    if state.phase == "tiebreak" and seat in auction.tied:
        return auction.tiebids[seat] is not None
    return None


def _public_player(state: State, seat: int) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "seat": seat,
        "points": player.points,
        "stones": player.stones.as_dict(),
        "front_fairy": player.front_fairy,
        "doppelganger": state.doppelganger == seat,
        "has_bid": _has_bid(state, seat),
    }


def _private(state: State, seat: int) -> dict[str, Any]:
    auction = state.auction
    bid = auction.bids[seat] if not auction.revealed else None
    tiebid = auction.tiebids[seat] if state.phase == "tiebreak" and seat in auction.tied else None
    return {
        "seat": seat,
        "screen": state.players[seat].screen.as_dict(),
        "bid": {"fairy": bid.fairy, "gold": bid.gold, "cursed": bid.cursed, "amulet": bid.amulet}
        if bid
        else None,
        "tiebid": {"silver": tiebid.silver, "amulet": tiebid.amulet} if tiebid else None,
    }


def _cards(state: State) -> dict[str, Any]:
    return {
        "specials": list(state.specials),
        "played": list(state.played),
        "remaining": sorted(state.pile, key=ORDER.__getitem__),
        "pile_size": len(state.pile),
        "deck_size": len(state.deck),
        "used_size": len(state.used),
    }


def _auction(state: State) -> dict[str, Any]:
    auction = state.auction
    return {
        "card": auction.card,
        "number": auction.number,
        "tied": list(auction.tied),
        "bids": revealed_bids(state) if auction.revealed else None,
        "tiebids": revealed_tiebids(state) if auction.tied and auction.outcome else None,
        "outcome": auction.outcome or None,
        "winner": auction.winner,
    }


def _power(state: State) -> dict[str, Any] | None:
    if state.phase not in ("doppelganger", "power") or state.auction.winner is None:
        return None
    rainbow = state.rainbow
    return {
        "seat": state.auction.winner,
        "card": state.todo[0] if state.todo else None,
        "queue": list(state.todo),
        "rainbow": {
            "colour": rainbow.colour,
            "drawn": rainbow.drawn.as_dict(),
            "bag_size": rainbow.bag.total(),
        }
        if rainbow
        else None,
    }


def legal_json(legal: Legal) -> dict[str, Any]:
    text = PROMPTS[legal.prompt].format(card=name(legal.card))
    return {**legal.to_json(), "text": text, "card": legal.card, "limits": legal.limits}


def _legal(state: State, seat: int | None) -> dict[str, Any]:
    legal = legal_for(state, seat) if seat is not None else None
    if legal is not None:
        return legal_json(legal)
    if state.winner is not None:
        prompt = "game_over"
    elif seat is None:
        prompt = "spectator"
    elif _has_bid(state, seat):
        prompt = "bid_sent"
    else:
        prompt = "wait"
    return {
        "phase": None,
        "prompt": prompt,
        "text": PROMPTS[prompt],
        "card": None,
        "orders": [],
        "choices": [],
        "limits": None,
        "default": None,
    }
