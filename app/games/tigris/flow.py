"""Setup, and everything that happens without a decision: the steps that follow an action (conflicts,
monument, treasures), the end of an action, the end of a turn (monument points, refills, the end of the
game), and the next turn.

`advance` runs after every order and stops at the next question (see phases.py), in this order:
  1. a conflict whose supports are in is resolved;
  2. wars still pending at the junction: none left -> the junction marker goes; one -> it starts;
     several -> the placer chooses which (phase "war_order");
  3. after a tile action, a 2x2 square it completed may carry a monument (phase "monument");
  4. a kingdom with two treasures or more and a trader: its owner takes all but one (phase "treasure" when
     there is a choice);
  5. the action is over: the second action, or the end of the turn.
"""

from __future__ import annotations

from app.games.tigris import conflicts
from app.games.tigris.actions import hand_short, return_orphans
from app.games.tigris.board import (
    ACTIONS_PER_TURN,
    CATASTROPHES_PER_PLAYER,
    COLOURS,
    CORNERS,
    GREEN,
    HAND_SIZE,
    MONUMENT_IDS,
    MONUMENTS,
    NAMES,
    RED,
    START_TEMPLES,
    TILE_CODES,
    TILES_PER_COLOUR,
    TREASURES_TO_END,
    block,
    blocks_with,
    start_board,
)
from app.games.tigris.kingdoms import regions
from app.games.tigris.model import NO_TILES, OFF, Player, State, minus, one, plus
from app.games.tigris.scoring import final_results
from app.games.tigris.tx import Tx, counts_json, first_word, names


def new_game(players: int, seed: int, english: bool, open_scoring: bool, rng_version: int) -> State:
    bag = minus(TILES_PER_COLOUR, one(RED, len(START_TEMPLES)))
    state = State(
        players=tuple(Player(hand=NO_TILES, catastrophes=CATASTROPHES_PER_PLAYER) for _ in range(players)),
        board=start_board(),
        treasures=START_TEMPLES,
        monuments=(OFF,) * len(MONUMENTS),
        bag=bag,
        discarded=0,
        rng=first_word(seed, rng_version),
        english=english,
        open_scoring=open_scoring,
        rng_version=rng_version,
    )
    tx = Tx(state)
    for seat in range(players):
        tx.update_player(seat, hand=tx.draw(HAND_SIZE))
    return tx.state


def advance(tx: Tx) -> None:
    """Carry the game on until somebody must decide something (or the game is over)."""
    while tx.state.phase != "over":
        state = tx.state
        conflict = state.conflict
        if conflict is not None:
            if conflict.defender_support == OFF:
                tx.set(phase="support")
                return
            conflicts.resolve(tx)
            continue
        if state.wars:
            remaining = conflicts.still_at_war(state)
            dropped = [colour for colour in state.wars if colour not in remaining]
            if dropped:
                tx.emit("wars_ended", colours=[COLOURS[colour] for colour in dropped], reason="split")
                tx.set(wars=tuple(remaining))
            if len(remaining) == 1:
                conflicts.start_war(tx, remaining[0])
            elif remaining:
                tx.set(phase="war_order")
                return
            continue
        if state.junction != OFF:
            tx.emit("junction_removed", square=NAMES[state.junction])
            tx.set(junction=OFF)
            continue
        if state.placed != OFF:
            if monument_options(state):
                tx.set(phase="monument")
                return
            tx.set(placed=OFF)
            continue
        due = treasure_due(state)
        if due is not None:
            seat, _, allowed = due
            if len(allowed) > 1:
                tx.set(phase="treasure")
                return
            take_treasures(tx, seat, allowed[0])
            continue
        end_action(tx)
        return


# --- monuments -----------------------------------------------------------------------------------------


def monument_options(state: State) -> list[tuple[int, int]]:
    """(top-left square, monument index) for each monument the placed tile now allows."""
    sq = state.placed
    code = state.board[sq] if sq != OFF else "."
    if code not in TILE_CODES:
        return []
    colour = TILE_CODES.index(code)
    free = [index for index, pair in enumerate(MONUMENTS) if state.monuments[index] == OFF and colour in pair]
    if not free:
        return []
    board = state.board
    return [
        (top_left, index)
        for top_left in blocks_with(sq)
        if all(board[part] == code for part in block(top_left))
        for index in free
    ]


def build_monument(tx: Tx, seat: int, top_left: int, index: int) -> None:
    state = tx.state
    board = list(state.board)
    for part in block(top_left):
        board[part] = "d"
    monuments = list(state.monuments)
    monuments[index] = top_left
    tx.set(board="".join(board), monuments=tuple(monuments), placed=OFF)
    tx.emit("monument_built", seat=seat, monument=MONUMENT_IDS[index], square=NAMES[top_left])
    return_orphans(tx)


def decline_monument(tx: Tx, seat: int) -> None:
    squares = sorted({top_left for top_left, _ in monument_options(tx.state)})
    tx.set(placed=OFF)
    tx.emit("monument_declined", seat=seat, squares=names(squares))


# --- treasures -----------------------------------------------------------------------------------------


def treasure_due(state: State) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
    """The next kingdom whose trader collects: (the trader's owner, its treasures, those he may leave).

    He takes all but one, and must take the corner treasures when he can: the one left is a non-corner
    one whenever the kingdom holds one. Should two kingdoms qualify, the owner first in turn order from the
    active player collects first.
    """
    if len(state.treasures) < 2:
        return None
    found = regions(state)
    by_group: dict[int, tuple[int, ...]] = {}
    for sq in state.treasures:
        by_group[found.label[sq]] = (*by_group.get(found.label[sq], ()), sq)
    count = len(state.players)
    best: tuple[int, int, tuple[int, ...]] | None = None
    for group, squares in by_group.items():
        trader = found.leader_of(group, GREEN) if len(squares) > 1 else None
        if trader is None:
            continue
        seat = trader // 4
        rank = (seat - state.active) % count
        if best is None or rank < best[0]:
            best = (rank, seat, squares)
    if best is None:
        return None
    _, seat, squares = best
    inland = tuple(sq for sq in squares if sq not in CORNERS)
    return seat, squares, inland or squares


def take_treasures(tx: Tx, seat: int, leave: int) -> None:
    due = treasure_due(tx.state)
    assert due is not None and leave in due[2]
    taken = [sq for sq in due[1] if sq != leave]
    tx.set(treasures=tuple(sq for sq in tx.state.treasures if sq not in taken))
    tx.update_player(seat, treasures=tx.player(seat).treasures + len(taken))
    tx.emit("treasures_taken", seat=seat, squares=names(taken), left=NAMES[leave])


# --- the end of an action, of a turn, of the game --------------------------------------------------------


def end_action(tx: Tx) -> None:
    left = tx.state.actions_left - 1
    if left > 0:
        tx.set(actions_left=left, phase="action")
    else:
        end_turn(tx)


def end_turn(tx: Tx) -> None:
    """Monument points for the active player, refills (the active player first, then clockwise), the end
    of the game, or the next player's turn."""
    state = tx.state
    active, count = state.active, len(state.players)
    monument_points(tx, active)
    for step in range(count):
        seat = (active + step) % count
        short = hand_short(tx.player(seat).hand)
        if short <= 0:
            continue
        if sum(tx.state.bag) < short:
            tx.emit("bag_empty", seat=seat, needed=short, bag=sum(tx.state.bag))
            end_game(tx, "bag")
            return
        drawn = tx.draw(short)
        tx.update_player(seat, hand=plus(tx.player(seat).hand, drawn))
        tx.emit("refilled", seat=seat, count=short)
        tx.emit("drew", to=(seat,), seat=seat, tiles=counts_json(drawn))
    if len(tx.state.treasures) <= TREASURES_TO_END:
        end_game(tx, "treasures")
        return
    following = (active + 1) % count
    tx.set(active=following, actions_left=ACTIONS_PER_TURN, turn=state.turn + 1, phase="action")
    tx.emit("turn_started", seat=following, turn=state.turn + 1)


def monument_points(tx: Tx, seat: int) -> None:
    """1 point of a leader's colour for each monument of that colour in the leader's kingdom (the king
    scores black monuments only: no stand-in here)."""
    state = tx.state
    built = [(index, top_left) for index, top_left in enumerate(state.monuments) if top_left != OFF]
    if not built:
        return
    found = regions(state)
    for colour, sq in enumerate(state.players[seat].leaders):
        if sq == OFF:
            continue
        for index, top_left in built:
            if colour in MONUMENTS[index] and found.label[top_left] == found.label[sq]:
                tx.score(seat, colour, 1, "monument", monument=MONUMENT_IDS[index])


def end_game(tx: Tx, reason: str) -> None:
    tx.set(phase="over", end=reason, conflict=None)
    tx.emit("game_ended", reason=reason, results=final_results(tx.state))
