"""The four actions of a turn (and passing): where each may go, and what each does on the board.

`targets` is the legality of placements; `phases.legal_for` wraps it, and every other part reads that.
The handlers assume a legal order. What follows an action (conflicts, monuments, treasures, the end of
the action) is `flow.advance`'s work.
"""

from __future__ import annotations

from app.games.contract import RuleError
from app.games.tigris.board import (
    BLACK,
    BLUE,
    COLOURS,
    HAND_SIZE,
    LEADERS,
    NAMES,
    RED,
    RIVERS,
    SIZE,
    TILE_CODES,
)
from app.games.tigris.kingdoms import Regions, regions, regions_without_leader, temples_next_to
from app.games.tigris.model import OFF, Counts, State, minus, one, plus
from app.games.tigris.tx import Tx, counts_json

EMPTY = "."
CATASTROPHE = "x"
DESTRUCTIBLE = frozenset(".rbgk")  # a catastrophe may go on an empty square or on a face-up tile


def piece(kind: str, colour: int | None = None) -> str:
    return kind if colour is None else f"{kind}:{COLOURS[colour]}"


def free_squares(state: State) -> list[int]:
    """Empty squares with no leader on them."""
    board, leader_at = state.board, state.leader_at()
    return [sq for sq in range(SIZE) if board[sq] == EMPTY and sq not in leader_at]


def targets(state: State, seat: int) -> dict[str, frozenset[int]]:
    """For each piece the seat may place now, the squares it may go to (pieces with none are left out)."""
    player = state.players[seat]
    found: dict[str, frozenset[int]] = {}
    free = free_squares(state)
    if sum(player.hand):
        land, river = tile_squares(state, free)
        for colour in range(4):
            if player.hand[colour]:
                found[piece("tile", colour)] = river if colour == BLUE else land
    board = state.board
    near_temple = [sq for sq in free if sq not in RIVERS and temples_next_to(board, sq)]
    for colour in range(4):
        squares = leader_squares(state, player.leaders[colour], near_temple)
        if squares:
            found[piece("leader", colour)] = squares
    if player.catastrophes:
        leader_at, treasures = state.leader_at(), set(state.treasures)
        found["catastrophe"] = frozenset(
            sq
            for sq in range(SIZE)
            if board[sq] in DESTRUCTIBLE and sq not in leader_at and sq not in treasures
        )
    return found


def tile_squares(state: State, free: list[int]) -> tuple[frozenset[int], frozenset[int]]:
    """Free land and river squares where a tile would not join more than two kingdoms."""
    found = regions(state)
    land: set[int] = set()
    river: set[int] = set()
    for sq in free:
        if len(found.kingdoms_near(sq)) <= 2:
            (river if sq in RIVERS else land).add(sq)
    return frozenset(land), frozenset(river)


def leader_squares(state: State, at: int, near_temple: list[int]) -> frozenset[int]:
    """Where a leader now at `at` (OFF: in front of the screen) may go: next to a temple, off the rivers,
    not joining two kingdoms, judged with the leader lifted from the board."""
    found = regions(state) if at == OFF else regions_without_leader(state, at)
    return frozenset(sq for sq in near_temple if sq != at and len(found.kingdoms_near(sq)) <= 1)


def why_not(state: State, seat: int, kind: str, colour: int, sq: int) -> RuleError:
    """Why a placement the targets refuse is illegal (the targets decide; this only explains)."""
    board, leader_at = state.board, state.leader_at()
    player = state.players[seat]
    if kind == "tile" and not player.hand[colour]:
        return RuleError("no_such_tile", "You have no tile of that colour.", "square")
    if kind == "catastrophe" and not player.catastrophes:
        return RuleError("no_catastrophe", "You have no catastrophe left.", "square")
    if kind == "catastrophe":
        if sq in state.treasures:
            return RuleError("treasure_square", "A catastrophe may not go on a treasure.", "square")
        if sq in leader_at:
            return RuleError("occupied", "A catastrophe may not go on a leader.", "square")
        if board[sq] == "d":
            return RuleError("monument_square", "A catastrophe may not go on a monument.", "square")
        return RuleError("occupied", "There is already a catastrophe there.", "square")
    if board[sq] != EMPTY or (sq in leader_at and not (kind == "leader" and sq == player.leaders[colour])):
        return RuleError("occupied", "That square is not empty.", "square")
    if kind == "tile":
        if colour == BLUE and sq not in RIVERS:
            return RuleError("blue_on_river", "Blue tiles go on rivers only.", "square")
        if colour != BLUE and sq in RIVERS:
            return RuleError("river_square", "Only blue tiles go on rivers.", "square")
        return RuleError("joins_three", "A tile may not join more than two kingdoms.", "square")
    if sq == player.leaders[colour]:
        return RuleError("same_square", "The leader is already there.", "square")
    if sq in RIVERS:
        return RuleError("river_square", "A leader may not stand on a river.", "square")
    if not temples_next_to(board, sq):
        return RuleError("no_temple", "A leader must stand next to a face-up temple.", "square")
    return RuleError("joins_two", "A leader may not join two kingdoms.", "square")


# --- handlers ------------------------------------------------------------------------------------------


def place_leader(tx: Tx, seat: int, colour: int, sq: int) -> int | None:
    """Place or move a leader. Returns the seat whose leader of that colour is already in the kingdom (the
    revolt's defender), if any."""
    player = tx.player(seat)
    origin = player.leaders[colour]
    leaders = list(player.leaders)
    leaders[colour] = sq
    tx.update_player(seat, leaders=tuple(leaders))
    tx.emit(
        "leader_placed",
        seat=seat,
        leader=LEADERS[colour],
        colour=COLOURS[colour],
        square=NAMES[sq],
        origin=NAMES[origin] if origin != OFF else None,
    )
    found = regions(tx.state)
    group = found.label[sq]
    for code in found.leaders[group]:
        if code % 4 == colour and code // 4 != seat:
            return code // 4
    return None


def withdraw(tx: Tx, seat: int, colour: int) -> None:
    player = tx.player(seat)
    origin = player.leaders[colour]
    leaders = list(player.leaders)
    leaders[colour] = OFF
    tx.update_player(seat, leaders=tuple(leaders))
    tx.emit(
        "leader_withdrawn", seat=seat, leader=LEADERS[colour], colour=COLOURS[colour], square=NAMES[origin]
    )


def place_tile(tx: Tx, seat: int, colour: int, sq: int) -> None:
    """Place a tile: score it, or join two kingdoms (wars are then pending at the junction)."""
    state = tx.state
    before = regions(state)
    kingdoms = sorted(before.kingdoms_near(sq))
    board = state.board
    player = tx.player(seat)
    tx.update_player(seat, hand=minus(player.hand, one(colour)))
    tx.set(board=board[:sq] + TILE_CODES[colour] + board[sq + 1 :], placed=sq)
    joins = len(kingdoms) == 2
    tx.emit("tile_placed", seat=seat, colour=COLOURS[colour], square=NAMES[sq], joins=joins)
    if joins:
        _join(tx, before, kingdoms[0], kingdoms[1], sq)
    elif kingdoms:
        code = before.leader_of(kingdoms[0], colour)
        if code is None:
            code = before.leader_of(kingdoms[0], BLACK)
        if code is not None:
            tx.score(code // 4, colour, 1, "tile", square=NAMES[sq])


def _join(tx: Tx, before: Regions, first: int, second: int, sq: int) -> None:
    at_war = [
        colour
        for colour in range(4)
        if before.leader_of(first, colour) is not None and before.leader_of(second, colour) is not None
    ]
    tx.emit("kingdoms_joined", square=NAMES[sq], wars=[COLOURS[colour] for colour in at_war])
    if at_war:
        tx.set(junction=sq, wars=tuple(at_war))


def catastrophe(tx: Tx, seat: int, sq: int) -> None:
    state = tx.state
    destroyed = state.board[sq]
    player = tx.player(seat)
    tx.update_player(seat, catastrophes=player.catastrophes - 1)
    lost = 1 if destroyed != EMPTY else 0
    tx.set(board=state.board[:sq] + CATASTROPHE + state.board[sq + 1 :], discarded=state.discarded + lost)
    tx.emit(
        "catastrophe",
        seat=seat,
        square=NAMES[sq],
        destroyed=COLOURS[TILE_CODES.index(destroyed)] if lost else None,
    )
    if destroyed == TILE_CODES[RED]:
        return_orphans(tx)


def swap(tx: Tx, seat: int, tiles: Counts) -> bool:
    """Discard and draw as many. False when the bag cannot give them (the game then ends at once)."""
    count = sum(tiles)
    if sum(tx.state.bag) < count:
        tx.emit("swap_refused", seat=seat, count=count, bag=sum(tx.state.bag))
        return False
    player = tx.player(seat)
    tx.set(discarded=tx.state.discarded + count)
    drawn = tx.draw(count)
    tx.update_player(seat, hand=plus(minus(player.hand, tiles), drawn))
    tx.emit("swapped", seat=seat, count=count)
    tx.emit("swapped_detail", to=(seat,), seat=seat, discarded=counts_json(tiles), drew=counts_json(drawn))
    return True


def return_orphans(tx: Tx) -> None:
    """Every leader left with no face-up temple beside it goes back to its owner at once."""
    board = tx.state.board
    for sq, code in sorted(tx.state.leader_at().items()):
        if not temples_next_to(board, sq):
            return_leader(tx, code, "no_temple")


def return_leader(tx: Tx, code: int, reason: str) -> None:
    seat, colour = divmod(code, 4)
    player = tx.player(seat)
    sq = player.leaders[colour]
    leaders = list(player.leaders)
    leaders[colour] = OFF
    tx.update_player(seat, leaders=tuple(leaders))
    tx.emit(
        "leader_returned",
        seat=seat,
        leader=LEADERS[colour],
        colour=COLOURS[colour],
        square=NAMES[sq],
        reason=reason,
    )


def hand_short(hand: Counts) -> int:
    return HAND_SIZE - sum(hand)
