"""Revolts (internal conflicts) and wars (external conflicts): who fights, their strengths, the supports
allowed, and the outcome.

A revolt is fought with the temples beside each leader; a war with the tiles of its colour in each
leader's initial kingdom (the junction square separating them). The attacker commits support first, then
the defender; a tie goes to the defender.
"""

from __future__ import annotations

from app.games.kit.model import evolve
from app.games.tigris.actions import EMPTY, return_leader, return_orphans
from app.games.tigris.board import COLOURS, LEADERS, NAMES, NEIGHBOURS, RED, TILE_CODES
from app.games.tigris.kingdoms import initial_regions, regions, temples_next_to
from app.games.tigris.model import OFF, Conflict, State, minus, one
from app.games.tigris.tx import Tx, names


def start_revolt(tx: Tx, attacker: int, colour: int, sq: int, defender: int) -> None:
    board = tx.state.board
    other = tx.player(defender).leaders[colour]
    conflict = Conflict(
        kind="revolt",
        colour=colour,
        attacker=attacker,
        defender=defender,
        attacker_square=sq,
        defender_square=other,
        attacker_base=temples_next_to(board, sq),
        defender_base=temples_next_to(board, other),
    )
    _start(tx, conflict)


def still_at_war(state: State) -> list[int]:
    """The pending war colours whose two leaders still share a kingdom."""
    found = regions(state)
    remaining = []
    for colour in state.wars:
        for group_leaders in found.leaders:
            if sum(1 for code in group_leaders if code % 4 == colour) > 1:
                remaining.append(colour)
                break
    return remaining


def war_sides(state: State, colour: int) -> Conflict:
    """The war of `colour` at the junction: attacker, defender and their strengths as the board stands."""
    found = regions(state)
    group = found.label[state.junction]
    codes = [code for code in found.leaders[group] if code % 4 == colour]
    assert len(codes) == 2, (colour, codes)
    seats = [code // 4 for code in codes]
    attacker = war_attacker(state.active, seats, len(state.players))
    defender = seats[1] if seats[0] == attacker else seats[0]
    attacker_square = state.players[attacker].leaders[colour]
    defender_square = state.players[defender].leaders[colour]
    initial = initial_regions(state)
    code = TILE_CODES[colour]
    return Conflict(
        kind="war",
        colour=colour,
        attacker=attacker,
        defender=defender,
        attacker_square=attacker_square,
        defender_square=defender_square,
        attacker_base=initial.count(state.board, initial.label[attacker_square], code),
        defender_base=initial.count(state.board, initial.label[defender_square], code),
    )


def war_attacker(placer: int, seats: list[int], count: int) -> int:
    """The placer if one of the two leaders is his, else the first of their owners clockwise after him."""
    if placer in seats:
        return placer
    return next((placer + step) % count for step in range(1, count) if (placer + step) % count in seats)


def start_war(tx: Tx, colour: int) -> None:
    tx.set(wars=tuple(c for c in tx.state.wars if c != colour))
    _start(tx, war_sides(tx.state, colour))


def _start(tx: Tx, conflict: Conflict) -> None:
    tx.set(conflict=conflict, phase="support")
    tx.emit(
        "conflict_started",
        kind=conflict.kind,
        colour=COLOURS[conflict.colour],
        leader=LEADERS[conflict.colour],
        attacker=conflict.attacker,
        defender=conflict.defender,
        attacker_square=NAMES[conflict.attacker_square],
        defender_square=NAMES[conflict.defender_square],
        attacker_strength=conflict.attacker_base,
        defender_strength=conflict.defender_base,
    )


def support_allowed(state: State, seat: int) -> list[int]:
    """The numbers of tiles `seat` may commit now (0 is always allowed).

    English variant: the attacker only an amount that beats the defender's strength; the defender only
    exactly what ties the attacker's total (which wins).
    """
    conflict = state.conflict
    assert conflict is not None
    held = state.players[seat].hand[conflict.colour]
    if not state.english:
        return list(range(held + 1))
    if seat == conflict.attacker and conflict.attacker_support == OFF:
        return [0, *(n for n in range(1, held + 1) if conflict.attacker_base + n > conflict.defender_base)]
    need = conflict.attacker_base + conflict.attacker_support - conflict.defender_base
    return [0, need] if 0 < need <= held else [0]


def commit_support(tx: Tx, seat: int, count: int) -> None:
    """The support goes in front of the screen: public from now on."""
    conflict = tx.state.conflict
    assert conflict is not None
    player = tx.player(seat)
    tx.update_player(seat, hand=minus(player.hand, one(conflict.colour, count)))
    role = "attacker" if conflict.attacker_support == OFF else "defender"
    if role == "attacker":
        conflict = evolve(conflict, attacker_support=count)
    else:
        conflict = evolve(conflict, defender_support=count)
    tx.set(conflict=conflict)
    tx.emit("support", seat=seat, role=role, colour=COLOURS[conflict.colour], count=count)


def resolve(tx: Tx) -> None:
    """Both supports are in: the loser's leader goes home, and in a war the loser's supporters go too."""
    state = tx.state
    conflict = state.conflict
    assert conflict is not None
    attack = conflict.attacker_base + conflict.attacker_support
    defence = conflict.defender_base + conflict.defender_support
    attacker_wins = attack > defence
    winner, loser = (
        (conflict.attacker, conflict.defender) if attacker_wins else (conflict.defender, conflict.attacker)
    )
    loser_square = conflict.defender_square if attacker_wins else conflict.attacker_square
    removed = _losers_supporters(state, conflict, loser_square) if conflict.kind == "war" else []
    board = list(state.board)
    for sq in removed:
        board[sq] = EMPTY
    tx.set(
        board="".join(board),
        discarded=state.discarded + len(removed) + conflict.pending_support(),
        conflict=None,
    )
    tx.emit(
        "conflict_resolved",
        kind=conflict.kind,
        colour=COLOURS[conflict.colour],
        winner=winner,
        loser=loser,
        attacker_total=attack,
        defender_total=defence,
        removed=names(removed),
    )
    return_leader(tx, loser * 4 + conflict.colour, conflict.kind)
    if conflict.kind == "revolt":
        tx.score(winner, RED, 1, "revolt")
    else:
        tx.score(winner, conflict.colour, 1 + len(removed), "war", removed=len(removed))
        if removed and conflict.colour == RED:
            return_orphans(tx)


def _losers_supporters(state: State, conflict: Conflict, loser_square: int) -> list[int]:
    """The loser's tiles of the war's colour in his initial kingdom. After a war of priests, temples with a
    treasure, or beside a leader who took no part in the war, stay."""
    initial = initial_regions(state)
    code = TILE_CODES[conflict.colour]
    board, treasures = state.board, set(state.treasures)
    bystanders = set(state.leader_at()) - {conflict.attacker_square, conflict.defender_square}
    removed = []
    for sq in sorted(initial.members[initial.label[loser_square]]):
        if board[sq] != code:
            continue
        if conflict.colour == RED and (sq in treasures or any(near in bystanders for near in NEIGHBOURS[sq])):
            continue
        removed.append(sq)
    return removed
