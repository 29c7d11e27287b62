"""The one place legality comes from: `legal_for(state, seat)`.

`waits`, `apply` (through `check`), `default_order`, `sample_order` and the view's `legal` part all read
the `Legal` it returns, so they cannot disagree.

Phases (`state.phase`), each awaiting one seat:
  action     the active player: place or move a leader, withdraw one, place a tile, place a catastrophe,
             swap tiles, or pass (the rest of the turn). Default: pass.
  support    a conflict: the attacker commits support, then the defender. Default: no support.
  war_order  one tile started several wars: the placer picks the next one. Default: the first colour in
             the order red, blue, green, black.
  monument   the placed tile completed a 2x2 square of one colour: the placer builds a monument on it, or
             not. Default: no monument.
  treasure   a trader collects treasures: its owner chooses the one left. Default: the first allowed one
             in reading order.
  over       the game has ended.
"""

from __future__ import annotations

import random
from typing import Any

from app.games.contract import RuleError
from app.games.kit.legal import Choice
from app.games.kit.model import memo
from app.games.tigris import actions, conflicts, flow
from app.games.tigris.board import COLOURS, HAND_SIZE, LEADERS, MONUMENT_IDS, NAMES, NEIGHBOURS
from app.games.tigris.kingdoms import LINKING
from app.games.tigris.model import OFF, State
from app.games.tigris.orders import (
    CatastropheOrder,
    LeaderOrder,
    Legal,
    MonumentOrder,
    OrderModel,
    PassOrder,
    SupportOrder,
    SwapOrder,
    TileOrder,
    TreasureOrder,
    WarOrder,
    WithdrawOrder,
    square_of,
)
from app.games.tigris.tx import Tx

ACTION_TYPES = ("leader", "withdraw", "tile", "catastrophe", "swap", "pass")
PLACEMENTS = ("leader", "tile", "catastrophe")


def legal_for(state: State, seat: int) -> Legal | None:
    """What `seat` may do now, or None when the game does not wait on it."""
    if not 0 <= seat < len(state.players):
        return None
    return memo(state, ("legal", seat), lambda: _legal(state, seat))


def awaited(state: State) -> int | None:
    """The one seat the game waits on (None when it is over)."""
    phase = state.phase
    if phase in ("action", "war_order", "monument"):
        return state.active
    if phase == "support" and state.conflict is not None:
        return state.conflict.waiting_on()
    if phase == "treasure":
        due = flow.treasure_due(state)
        return due[0] if due else None
    return None


def _legal(state: State, seat: int) -> Legal | None:
    if awaited(state) != seat:
        return None
    phase = state.phase
    if phase == "action":
        return _action(state, seat)
    if phase == "support":
        return _support(state, seat)
    if phase == "war_order":
        return _war_order(state)
    if phase == "monument":
        return _monument(state)
    return _treasure(state)


def _war_order(state: State) -> Legal:
    sides = [conflicts.war_sides(state, colour) for colour in sorted(state.wars)]
    context = {
        "wars": [
            {
                "colour": COLOURS[war.colour],
                "attacker": war.attacker,
                "defender": war.defender,
                "attacker_strength": war.attacker_base,
                "defender_strength": war.defender_base,
            }
            for war in sides
        ]
    }
    choices = tuple(
        Choice(
            WarOrder(type="war", colour=COLOURS[war.colour]),
            f"Resolve the war of {LEADERS[war.colour]}s first",
        )
        for war in sides
    )
    return Legal("war_order", "war_order", ("war",), choices[0].order, choices, context=context)


def _treasure(state: State) -> Legal:
    due = flow.treasure_due(state)
    assert due is not None
    choices = tuple(
        Choice(TreasureOrder(type="treasure", leave=NAMES[sq]), f"Leave the treasure on {NAMES[sq]}")
        for sq in due[2]
    )
    context = {"treasures": [NAMES[sq] for sq in due[1]]}
    return Legal("treasure", "treasure", ("treasure",), choices[0].order, choices, context=context)


def _action(state: State, seat: int) -> Legal:
    player = state.players[seat]
    targets = actions.targets(state, seat)
    withdraw = tuple(colour for colour in range(4) if player.leaders[colour] != OFF)
    swap = player.hand if sum(player.hand) else None
    types = ["leader"]  # even with nowhere to go now: a refused placement then says why
    if sum(player.hand):
        types.append("tile")
    if player.catastrophes:
        types.append("catastrophe")
    if withdraw:
        types.append("withdraw")
    if swap:
        types.append("swap")
    types.append("pass")
    default = PassOrder(type="pass", timeout=True)
    choices: tuple[Choice[OrderModel], ...] = (
        *(
            Choice(
                WithdrawOrder(type="withdraw", colour=COLOURS[colour]), f"Take back your {LEADERS[colour]}"
            )
            for colour in withdraw
        ),
        Choice(PassOrder(type="pass"), "End your turn"),
    )
    prompt = "action" if state.actions_left > 1 else "action_last"
    context = {"actions_left": state.actions_left}
    return Legal(
        "action",
        prompt,
        tuple(sorted(types, key=ACTION_TYPES.index)),
        default,
        choices,
        targets=targets,
        withdraw=withdraw,
        swap=swap,
        context=context,
    )


def _support(state: State, seat: int) -> Legal:
    conflict = state.conflict
    assert conflict is not None
    role = "attacker" if seat == conflict.attacker and conflict.attacker_support == OFF else "defender"
    allowed = conflicts.support_allowed(state, seat)
    colour = COLOURS[conflict.colour]
    choices = tuple(
        Choice(
            SupportOrder(type="support", count=count),
            f"Add {count} {colour} tiles" if count else "No support",
        )
        for count in allowed
    )
    context = {
        "kind": conflict.kind,
        "colour": colour,
        "role": role,
        "attacker": conflict.attacker,
        "defender": conflict.defender,
        "attacker_strength": conflict.attacker_base,
        "defender_strength": conflict.defender_base,
        "attacker_support": conflict.attacker_support if conflict.attacker_support != OFF else None,
        "held": state.players[seat].hand[conflict.colour],
    }
    return Legal("support", f"support_{role}", ("support",), choices[0].order, choices, context=context)


def _monument(state: State) -> Legal:
    options = flow.monument_options(state)
    choices = (
        *(
            Choice(
                MonumentOrder(type="monument", square=NAMES[top_left], monument=MONUMENT_IDS[index]),
                f"Build the {MONUMENT_IDS[index]} monument on {NAMES[top_left]}",
            )
            for top_left, index in options
        ),
        Choice(MonumentOrder(type="monument"), "Build no monument"),
    )
    squares = sorted({NAMES[top_left] for top_left, _ in options})
    return Legal(
        "monument", "monument", ("monument",), choices[-1].order, choices, context={"squares": squares}
    )


# --- checking -----------------------------------------------------------------------------------------


def check(state: State, seat: int, legal: Legal, order: OrderModel) -> None:
    """Raise RuleError unless `order` is one of the things `legal` allows."""
    if order.type not in legal.types:
        raise RuleError("wrong_order", "That kind of order is not possible now.", "type")
    if legal.phase != "action":
        if not legal.offers(order):
            raise _mismatch(order)
        return
    if isinstance(order, LeaderOrder | TileOrder | CatastropheOrder):
        sq = square_of(order)
        colour = COLOURS.index(order.colour) if not isinstance(order, CatastropheOrder) else None
        key = actions.piece(order.type, colour)
        if sq not in legal.targets.get(key, frozenset()):
            raise actions.why_not(state, seat, order.type, colour or 0, sq)
    elif isinstance(order, WithdrawOrder):
        if COLOURS.index(order.colour) not in legal.withdraw:
            raise RuleError("not_on_board", "That leader is not on the board.", "colour")
    elif isinstance(order, SwapOrder):
        _check_swap(legal, order)


def _check_swap(legal: Legal, order: SwapOrder) -> None:
    total = sum(order.tiles.values())
    if not 1 <= total <= HAND_SIZE:
        raise RuleError("swap_count", "Swap between 1 and 6 tiles.", "tiles")
    held = legal.swap or (0, 0, 0, 0)
    if any(count > held[COLOURS.index(colour)] for colour, count in order.tiles.items()):
        raise RuleError("no_such_tile", "You do not hold those tiles.", "tiles")


def _mismatch(order: OrderModel) -> RuleError:
    if isinstance(order, SupportOrder):
        return RuleError("invalid_support", "You may not add that many tiles now.", "count")
    if isinstance(order, WarOrder):
        return RuleError("invalid_war", "There is no such war to resolve now.", "colour")
    if isinstance(order, MonumentOrder):
        return RuleError("invalid_monument", "That monument cannot be built there.", "monument")
    if isinstance(order, TreasureOrder):
        return RuleError("invalid_treasure", "You may not leave that treasure.", "leave")
    return RuleError("illegal_choice", "That choice is not allowed now.")


# --- doing --------------------------------------------------------------------------------------------


def handle(tx: Tx, seat: int, order: OrderModel) -> None:
    """Carry out a checked order, then everything that follows until the next question."""
    if isinstance(order, LeaderOrder):
        colour = COLOURS.index(order.colour)
        sq = square_of(order)
        defender = actions.place_leader(tx, seat, colour, sq)
        if defender is not None:
            conflicts.start_revolt(tx, seat, colour, sq, defender)
    elif isinstance(order, WithdrawOrder):
        actions.withdraw(tx, seat, COLOURS.index(order.colour))
    elif isinstance(order, TileOrder):
        actions.place_tile(tx, seat, COLOURS.index(order.colour), square_of(order))
    elif isinstance(order, CatastropheOrder):
        actions.catastrophe(tx, seat, square_of(order))
    elif isinstance(order, SwapOrder):
        tiles = order.tiles
        counts = (tiles.get("red", 0), tiles.get("blue", 0), tiles.get("green", 0), tiles.get("black", 0))
        if not actions.swap(tx, seat, counts):
            flow.end_game(tx, "bag")
            return
    elif isinstance(order, PassOrder):
        tx.emit("passed", seat=seat, actions_left=tx.state.actions_left, timeout=order.timeout)
        flow.end_turn(tx)
        return
    elif isinstance(order, SupportOrder):
        conflicts.commit_support(tx, seat, order.count)
    elif isinstance(order, WarOrder):
        conflicts.start_war(tx, COLOURS.index(order.colour))
    elif isinstance(order, MonumentOrder):
        if order.square is None or order.monument is None:
            flow.decline_monument(tx, seat)
        else:
            flow.build_monument(tx, seat, square_of(order), MONUMENT_IDS.index(order.monument))
    elif isinstance(order, TreasureOrder):
        flow.take_treasures(tx, seat, square_of(order, "leave"))
    flow.advance(tx)


# --- random play (fuzzing, benchmarks) -------------------------------------------------------------------

WEIGHTS = {"tile": 10.0, "leader": 4.0, "catastrophe": 0.3, "withdraw": 0.4, "swap": 0.8, "pass": 0.2}


def sample(state: State, legal: Legal, rng: random.Random) -> dict[str, Any]:
    """A random legal order: placements weighted towards tiles, and towards squares beside the others."""
    if legal.phase != "action":
        return legal.random_choice(rng)
    placeable = {key.split(":")[0] for key in legal.targets}
    kinds = [kind for kind in legal.types if kind not in PLACEMENTS or kind in placeable]
    kind = rng.choices(kinds, weights=[WEIGHTS[kind] for kind in kinds])[0]
    if kind in PLACEMENTS:
        key = rng.choice(sorted(key for key in legal.targets if key.split(":")[0] == kind))
        squares = sorted(legal.targets[key])
        board, leader_at = state.board, state.leader_at()
        busy = [sq for sq in squares if any(board[n] in LINKING or n in leader_at for n in NEIGHBOURS[sq])]
        sq = rng.choice(busy if busy and rng.random() < 0.8 else squares)
        order: dict[str, Any] = {"type": kind, "square": NAMES[sq]}
        if ":" in key:
            order["colour"] = key.split(":")[1]
        return order
    if kind == "withdraw":
        return {"type": "withdraw", "colour": COLOURS[rng.choice(legal.withdraw)]}
    if kind == "swap":
        held = legal.swap or (0, 0, 0, 0)
        tiles = [colour for colour in range(4) for _ in range(held[colour])]
        chosen = [colour for colour in tiles if rng.random() < 0.5] or [rng.choice(tiles)]
        return {"type": "swap", "tiles": {COLOURS[c]: chosen.count(c) for c in set(chosen)}}
    return {"type": "pass"}
