"""A greedy Tigris & Euphrates player: each action takes the placement worth most now, judged square by
square from the board, with its weakest colours weighing most (the final score is the weakest colour).

It places its leaders beside temples where their colour grows, lays tiles that score for its own leaders,
starts only the conflicts it expects to win, supports a conflict just enough, builds monuments where its
leaders stand, and swaps a hand that has nothing to do. It reads only what its seat may know: the public
board, its own hand and points, and its own `legal_for` (never the bag, other hands or points).
"""

from __future__ import annotations

import random
from typing import Any

from app.games.kit.legal import awaited
from app.games.kit.model import memo
from app.games.tigris.board import (
    BLACK,
    BLUE,
    COLOURS,
    HEIGHT,
    MONUMENT_IDS,
    MONUMENTS,
    NAMES,
    NEIGHBOURS,
    RED,
    SIZE,
    TILE_CODES,
    WIDTH,
    block,
)
from app.games.tigris.kingdoms import Regions, regions, temples_next_to
from app.games.tigris.model import OFF, State
from app.games.tigris.orders import Legal, MonumentOrder, SupportOrder, WarOrder
from app.games.tigris.phases import legal_for

GIVEN_AWAY = -0.3  # a tile that scores for another seat's leader
GROWTH = 0.1  # a tile that grows a kingdom without scoring
MONUMENT_BLOCK = 1.5
LEADER_BASE = 1.5
SWAP = 0.25
GUESSED_SUPPORT = 1  # the support the bot expects from a seat whose hand it cannot see


def bot_order(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    legal = awaited(legal_for(state, seat))
    if legal.phase == "action":
        return _action(state, seat, legal, rng)
    if legal.phase == "support":
        return _support(state, seat, legal)
    if legal.phase == "war_order":
        return _war_order(state, seat, legal)
    if legal.phase == "monument":
        return _monument(state, seat, legal, rng)
    return legal.default.model_dump(mode="json")  # treasure: the one left does not matter to the seat


# --- the action -----------------------------------------------------------------------------------------


Weights = tuple[float, ...]


def _weights(state: State, seat: int) -> Weights:
    """How much a point of each colour is worth: more for the colours behind."""
    points = state.players[seat].points
    top = max(points)
    return tuple(1.0 + 0.5 * (top - points[colour]) for colour in range(4))


def _action(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    weights = _weights(state, seat)
    found = regions(state)
    best: tuple[float, dict[str, Any]] = (0.0, {"type": "pass"})
    for key, squares in sorted(legal.targets.items()):
        kind, _, colour_name = key.partition(":")
        if kind == "catastrophe":
            continue
        colour = COLOURS.index(colour_name)
        if kind == "leader" and state.players[seat].leaders[colour] != OFF:
            continue  # a leader on the board stays where it is
        worth = _tile_worth if kind == "tile" else _leader_worth
        if kind == "tile":  # a tile away from every other tile or leader does nothing for the seat
            squares = squares & memo(state, "bot:beside_groups", lambda: _beside_groups(found))
        for sq in sorted(squares):
            value = worth(state, seat, found, colour, sq, weights) + rng.random() * 1e-3
            if value > best[0]:
                best = (value, {"type": kind, "colour": colour_name, "square": NAMES[sq]})
    if best[0] < SWAP and legal.swap is not None and _can_swap(state, seat):
        return _swap(state, seat, legal.swap)
    return best[1]


def _beside_groups(found: Regions) -> frozenset[int]:
    return frozenset(near for sq, group in enumerate(found.label) if group != -1 for near in NEIGHBOURS[sq])


def _tile_worth(state: State, seat: int, found: Regions, colour: int, sq: int, weights: Weights) -> float:
    kingdoms = sorted(found.kingdoms_near(sq))
    monuments = memo(state, "bot:monument_squares", lambda: _monument_squares(state))
    value = MONUMENT_BLOCK if sq in monuments[colour] else 0.0
    if len(kingdoms) == 2:
        return value + _war_worth(state, seat, found, kingdoms, colour)
    if not kingdoms:
        return value + GROWTH
    scorer = found.leader_of(kingdoms[0], colour)
    if scorer is None:
        scorer = found.leader_of(kingdoms[0], BLACK)
    if scorer is None:
        return value + GROWTH
    return value + (weights[colour] if scorer // 4 == seat else GIVEN_AWAY)


def _war_worth(state: State, seat: int, found: Regions, kingdoms: list[int], colour: int) -> float:
    """Joining two kingdoms: the wars the seat takes part in, each won or lost on the tiles it can see."""
    value = 0.0
    hand = state.players[seat].hand
    for war_colour in range(4):
        leaders = [found.leader_of(kingdom, war_colour) for kingdom in kingdoms]
        if None in leaders:
            continue
        sides = [code // 4 for code in leaders if code is not None]
        if seat not in sides:
            continue
        mine = kingdoms[sides.index(seat)]
        theirs = kingdoms[1 - sides.index(seat)]
        code = TILE_CODES[war_colour]
        strength = found.count(state.board, mine, code) + hand[war_colour] - (war_colour == colour)
        against = found.count(state.board, theirs, code) + GUESSED_SUPPORT
        value += 1.0 + 0.3 * found.count(state.board, theirs, code) if strength > against else -2.0
    return value if value else GIVEN_AWAY


def _monument_squares(state: State) -> dict[int, frozenset[int]]:
    """By colour, the empty squares where a tile of that colour completes a 2x2 block of it, with a
    monument of that colour still free."""
    board = state.board
    found: dict[int, set[int]] = {colour: set() for colour in range(4)}
    free = {c for index, pair in enumerate(MONUMENTS) if state.monuments[index] == OFF for c in pair}
    for top_left in range(SIZE):
        if top_left % WIDTH == WIDTH - 1 or top_left // WIDTH == HEIGHT - 1 or top_left in state.declined:
            continue
        parts = [board[part] for part in block(top_left)]
        if parts.count(".") != 1:
            continue
        codes = {code for code in parts if code != "."}
        if len(codes) == 1 and (colour := TILE_CODES.find(codes.pop())) in free:
            found[colour].add(block(top_left)[parts.index(".")])
    return {colour: frozenset(squares) for colour, squares in found.items()}


def _leader_worth(state: State, seat: int, found: Regions, colour: int, sq: int, weights: Weights) -> float:
    kingdoms = found.kingdoms_near(sq)
    groups = found.groups_near(sq)
    code = TILE_CODES[colour]
    tiles = sum(found.count(state.board, group, code) for group in groups)
    if kingdoms:
        (kingdom,) = kingdoms
        rival = found.leader_of(kingdom, colour)
        if rival is not None:
            return _revolt_worth(state, seat, sq, rival)
    return weights[colour] * (LEADER_BASE + 0.2 * min(tiles, 8)) - (
        0.5 if colour == BLACK and kingdoms else 0
    )


def _revolt_worth(state: State, seat: int, sq: int, rival: int) -> float:
    """A revolt is fought with temples beside each leader, and red tiles from the hand."""
    rival_square = state.players[rival // 4].leaders[rival % 4]
    strength = temples_next_to(state.board, sq) + state.players[seat].hand[RED]
    against = temples_next_to(state.board, rival_square) + GUESSED_SUPPORT
    return 2.5 if strength > against else -3.0


def _can_swap(state: State, seat: int) -> bool:
    return sum(state.bag) >= sum(state.players[seat].hand) > 0  # the bag's size is public


def _swap(state: State, seat: int, held: tuple[int, int, int, int]) -> dict[str, Any]:
    """Swap the tiles of the colours none of the seat's leaders can use (all of them, if every colour has
    a leader)."""
    leaders = state.players[seat].leaders
    useless = {COLOURS[c]: held[c] for c in range(4) if held[c] and leaders[c] == OFF and c != BLUE}
    tiles = useless or {COLOURS[c]: held[c] for c in range(4) if held[c]}
    return {"type": "swap", "tiles": tiles}


# --- the other questions ------------------------------------------------------------------------------


def _support(state: State, seat: int, legal: Legal) -> dict[str, Any]:
    conflict = state.conflict
    assert conflict is not None
    allowed = sorted(_counts(legal))
    if seat == conflict.attacker and conflict.attacker_support == OFF:
        target = conflict.defender_base + GUESSED_SUPPORT
        winning = [n for n in allowed if conflict.attacker_base + n > target]
        if winning:
            return {"type": "support", "count": winning[0]}
        top = allowed[-1]
        count = top if conflict.attacker_base + top > conflict.defender_base else 0
        return {"type": "support", "count": count}
    need = conflict.attacker_base + max(conflict.attacker_support, 0) - conflict.defender_base
    enough = [n for n in allowed if n >= need]  # a tie wins for the defender
    return {"type": "support", "count": enough[0] if enough else 0}


def _counts(legal: Legal) -> list[int]:
    return [choice.order.count for choice in legal.choices if isinstance(choice.order, SupportOrder)]


def _war_order(state: State, seat: int, legal: Legal) -> dict[str, Any]:
    """The war the seat is likeliest to win first (a won war may end the others)."""

    def margin(war: dict[str, Any]) -> float:
        if seat == war["attacker"]:
            return war["attacker_strength"] - war["defender_strength"]
        if seat == war["defender"]:
            return war["defender_strength"] - war["attacker_strength"]
        return -100.0

    wars = legal.context["wars"]
    best = max(range(len(wars)), key=lambda index: (margin(wars[index]), -index))
    order = WarOrder(type="war", colour=wars[best]["colour"])
    assert legal.offers(order), "the war chosen is one the seat may declare"
    return order.model_dump(mode="json")


def _monument(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    """A monument whose colours the seat's leaders in that kingdom score; none when they score neither."""
    found = regions(state)
    leaders = state.players[seat].leaders
    best: tuple[float, dict[str, Any]] = (0.5, legal.default.model_dump(mode="json"))
    for choice in legal.choices:
        order = choice.order
        if not isinstance(order, MonumentOrder) or order.square is None or order.monument is None:
            continue
        top_left = NAMES.index(order.square)
        pair = MONUMENTS[MONUMENT_IDS.index(order.monument)]
        mine = sum(1 for c in pair if leaders[c] != OFF and found.label[leaders[c]] == found.label[top_left])
        value = mine + rng.random() * 1e-3
        if value > best[0]:
            best = (value, order.model_dump(mode="json"))
    return best[1]
