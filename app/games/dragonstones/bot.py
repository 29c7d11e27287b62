"""A greedy Dragonstones player: it values each card for itself and bids by that value, then uses each
power to its best.

It reads only what its seat may know: its own screen and bid, the public stones, points and fairy gold,
the revealed bids, the cards still to come as a set (`view`'s "remaining", never the pile's order), and
its own `legal_for`. Values are in fairy gold, the coin that comes back every round.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.dragonstones.auction import check_bid
from app.games.dragonstones.model import COLOURS, State, Stones
from app.games.dragonstones.orders import (
    BidOrder,
    BuyOrder,
    ColourOrder,
    CopyOrder,
    DoppelgangerOrder,
    DrawOrder,
    Legal,
    NecromancerOrder,
    OrderModel,
    PayOrder,
    RobOrder,
    StealOrder,
    TakeOrder,
)
from app.games.dragonstones.phases import legal_for
from app.games.dragonstones.powers import SILVER_PER_STONE, check_buy
from app.games.kit.legal import awaited

POINT = 6.0  # a point, in fairy gold
STONE = 1.5
GOLD = 1.2  # common gold is spent for good when bid
SILVER = 0.4
POINT_CARDS = frozenset(
    {"sorcerer", "enchanter", "magician", "enchantress", "apprentice", "charlatan", "necromancer"}
)
COPIERS = frozenset({"ghost", "imp"})  # they use the power of another card: one they choose
FLAT_VALUES = {
    "witch": 0.3,
    "thief": STONE,
    "alchemist": 3 * GOLD,
    "ancient_dragon": STONE + 0.5,
    "brigand": 2.0,
    "doppelganger": 3.0,
    "two_headed_dragon": 2 * STONE,
    "rainbow_dragon": 2 * STONE,
    "fairy": 1.5,
    "gnome": 2 * GOLD + 2 * SILVER,
    "goblin": 2.0,
    "merchant": 1.0,
    "dwarf_4": 4 * SILVER,
    "dwarf_5": 5 * SILVER,
    "goldsmith": 2.0,
    "troll": 1.0,
}


def bot_order(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    legal = awaited(legal_for(state, seat))
    decide = DECISIONS.get(legal.prompt)
    return decide(state, seat, legal, rng) if decide else _best_choice(state, seat, legal, rng)


# --- what a card is worth to the seat -------------------------------------------------------------------


def card_value(state: State, seat: int, card: str) -> float:
    player = state.players[seat]
    stones = player.stones
    value = _value(state, stones, card)
    if card in POINT_CARDS and value >= POINT and player.points + 1 >= state.points_to_win:
        value *= 4  # the winning point
    return value


def _value(state: State, stones: Stones, card: str, copies: bool = True) -> float:
    if card.endswith("_dragon") and card.split("_")[0] in COLOURS:
        return STONE + 0.3 * min(stones.get(card.split("_")[0]), 3)
    if card == "sorcerer":
        return 2 * POINT if max(stones.as_dict().values()) >= 4 else GOLD
    if card == "enchanter":
        return POINT if all(stones.get(c) for c in COLOURS) else 3 * SILVER
    if card == "magician":
        return POINT if stones.total() >= 4 else 3 * SILVER
    if card == "enchantress":
        return 2 * POINT if stones.total() >= 5 else 1.5
    if card == "apprentice":
        return POINT if max(stones.as_dict().values()) >= 2 else 0.0
    if card == "charlatan":
        return max(POINT - STONE * stones.total(), 0.5)
    if card == "necromancer":
        return POINT / 2
    if card in COPIERS:  # the best card it may copy, itself judged without its own copies
        if not copies:
            return 1.0
        cards = state.played if card == "ghost" else set(state.pile)
        return max((_value(state, stones, c, copies=False) for c in cards if c != card), default=0.0)
    return FLAT_VALUES.get(card, 1.0)


# --- bids -----------------------------------------------------------------------------------------------


def _bid(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    limits = legal.limits or {}
    card = legal.card
    value = card_value(state, seat, card)
    if limits["cursed"] and _curse(state, seat, card, value):
        return {"type": "bid", "cursed": True}
    left = len(state.pile) + 1  # this auction and those still to come this round
    fairy_share = max(limits["fairy"] * 2 // left, 1)
    want = int(value * (0.7 + 0.6 * rng.random()) + rng.random())  # noise: equal bids tie, and ties void
    amulet = limits["amulet"] and value >= 2 * POINT
    if amulet:
        want = (want + 1) // 2
    fairy = min(limits["fairy"], want, fairy_share if value < POINT else want)
    gold = min(limits["gold"], want - fairy) if value >= POINT else 0
    order = {"type": "bid", "fairy": fairy, "gold": gold, "amulet": amulet and fairy + gold > 0}
    check_bid(limits, BidOrder.model_validate(order))
    return order


def _curse(state: State, seat: int, card: str, value: float) -> bool:
    """Bewitch a card that may win the game for someone else and is worth little to the seat."""
    if value >= POINT or card not in POINT_CARDS:
        return False
    return any(
        player.points + 1 >= state.points_to_win
        for other, player in enumerate(state.players)
        if other != seat
    )


def _tiebreak(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    limits = legal.limits or {}
    value = card_value(state, seat, legal.card)
    wanted = max(int(value / (3 * SILVER) * (0.5 + rng.random()) + rng.random()), int(value >= 1))
    silver = min(limits["silver"], wanted)
    amulet = bool(limits["amulet"]) and value >= 2 * POINT and silver > 0
    return {"type": "tiebreak", "silver": silver, "amulet": amulet}


# --- powers ---------------------------------------------------------------------------------------------


def _best_choice(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    """The choice of highest worth to the seat (a little noise breaks ties)."""
    scored = [
        (_worth(state, seat, choice.order) + rng.random() * 1e-3, index)
        for index, choice in enumerate(legal.choices)
    ]
    _, best = max(scored)
    return legal.choices[best].order.model_dump(mode="json")


def _worth(state: State, seat: int, order: OrderModel) -> float:
    stones = state.players[seat].stones
    if isinstance(order, PayOrder):
        paid = Stones.from_dict(order.stones)
        points = 2 if legal_card(state) in ("sorcerer", "enchantress") else 1
        return points * POINT - _stones_worth(paid, stones)
    if isinstance(order, TakeOrder):
        return 1.0
    if isinstance(order, StealOrder):
        if order.colour:
            return STONE + 0.3 * stones.get(order.colour)
        return 1.0 if order.take_coin else 0.0
    if isinstance(order, RobOrder):
        return _victim_rank(state, seat, order.victim)
    if isinstance(order, ColourOrder):
        return _colour_worth(state, seat, order.colour)
    if isinstance(order, CopyOrder):
        return _value(state, stones, order.character)
    if isinstance(order, DoppelgangerOrder):
        return 1.0 if order.use == (card_value(state, seat, state.auction.card) >= 2 * STONE) else 0.0
    if isinstance(order, NecromancerOrder):
        return 1.0 if order.use else 0.0
    if isinstance(order, DrawOrder):
        return _draw_worth(state)
    return 0.0


def legal_card(state: State) -> str:
    return state.todo[0] if state.todo else state.auction.card


def _stones_worth(paid: Stones, held: Stones) -> float:
    """What paying these stones costs: a stone from a colour kept in numbers costs more (sets)."""
    left = held.minus(paid)
    return (
        STONE * paid.total()
        - 0.2 * sum(1 for c in COLOURS if left.get(c))
        - 0.1 * max(left.as_dict().values())
    )


def _victim_rank(state: State, seat: int, victim: int) -> float:
    """Rob the leader (points, then stones), the next seat first on a tie."""
    player = state.players[victim]
    distance = (victim - seat) % len(state.players)
    return player.points * 10 + player.stones.total() - distance * 0.01


def _colour_worth(state: State, seat: int, colour: str) -> float:
    card = legal_card(state)
    mine = state.players[seat].stones.get(colour)
    if card == "troll":  # everybody loses that colour: lose little, others much
        others = sum(p.stones.get(colour) for s, p in enumerate(state.players) if s != seat)
        return others - len(state.players) * mine
    if card == "rainbow_dragon":  # the colour that ends the draw: the rarest in the bag
        return -state.bank_stones.get(colour)
    return mine  # Ancient Dragon, Apprentice: towards (or from) the largest set


def _draw_worth(state: State) -> float:
    """Draw on while a stone more is worth the risk of losing all drawn."""
    rainbow = state.rainbow
    if rainbow is None or not rainbow.bag.total():
        return 0.0
    risk = rainbow.bag.get(rainbow.colour) / rainbow.bag.total()
    return 1.0 if (1 - risk) > risk * (rainbow.drawn.total() + 0.5) else -1.0


def _buy(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    """Merchant: up to two stones of the colours the seat holds most, paid in silver, then gold."""
    limits = legal.limits or {}
    bank = dict(limits["stones"])
    purse = dict(limits["pay"])
    held = state.players[seat].stones.as_dict()
    stones = dict.fromkeys(COLOURS, 0)
    pay = dict.fromkeys(purse, 0)
    for _ in range(2):
        colours = sorted((c for c in COLOURS if bank[c] > stones[c]), key=lambda c: -held[c] - stones[c])
        if not colours:
            break
        if purse["silver"] - pay["silver"] >= SILVER_PER_STONE:
            pay["silver"] += SILVER_PER_STONE
        elif purse["gold"] > pay["gold"]:
            pay["gold"] += 1
        else:
            break
        stones[colours[0]] += 1
    order = BuyOrder.model_validate({"type": "buy", "stones": stones, "pay": pay})
    check_buy(limits, order)
    return order.model_dump(mode="json")


Decision = Callable[[State, int, Legal, random.Random], dict[str, Any]]
DECISIONS: dict[str, Decision] = {"bid": _bid, "tiebreak": _tiebreak, "merchant": _buy}
