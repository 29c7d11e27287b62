"""Phase 5 on the state: the moves a seat has entered (secret until finalised), checked as one set by
`movement.plan_moves`, and carried out when its turn comes in the acting order.

A move is stored as a flat tuple of ints: a land move `(0, origin, destination, tokens, via)` (`via` the
first area of a Roadbuilding move, or -1); a voyage `(1, ship's area, area, land, board, area, land,
board, ...)`, one triple per stop (tokens set down, then tokens boarding).
"""

from __future__ import annotations

from typing import Any

from app.games.advciv import movement
from app.games.advciv.board import BOARD
from app.games.advciv.cards import road_movement
from app.games.advciv.model import NOBODY, Move, State
from app.games.advciv.tables import KEYS
from app.games.contract import RuleError
from app.games.kit.model import memo

LAND_MOVE, VOYAGE = 0, 1


def land_move(origin: int, destination: int, tokens: int, via: int | None) -> Move:
    return (LAND_MOVE, origin, destination, tokens, NOBODY if via is None else via)


def voyage(ship: int, stops: list[tuple[int, int, int]]) -> Move:
    return (VOYAGE, ship, *(value for stop in stops for value in stop))


def to_movement(move: Move) -> movement.Move:
    if move[0] == LAND_MOVE:
        _, origin, destination, tokens, via = move
        return movement.LandMove(origin, destination, tokens, None if via == NOBODY else via)
    stops = tuple(
        movement.Stop(move[index], move[index + 1], move[index + 2]) for index in range(2, len(move), 3)
    )
    return movement.Voyage(move[1], stops)


def to_json(move: Move) -> dict[str, Any]:
    if move[0] == LAND_MOVE:
        _, origin, destination, tokens, via = move
        found: dict[str, Any] = {
            "type": "move",
            "origin": KEYS[origin],
            "to": KEYS[destination],
            "tokens": tokens,
        }
        if via != NOBODY:
            found["via"] = KEYS[via]
        return found
    stops = [
        {"area": KEYS[move[index]], "land": move[index + 1], "board": move[index + 2]}
        for index in range(2, len(move), 3)
    ]
    return {"type": "sail", "ship": KEYS[move[1]], "stops": stops}


def areas_of(move: Move) -> tuple[int, ...]:
    if move[0] == LAND_MOVE:
        return tuple(area for area in (*move[1:3], move[4]) if area != NOBODY)
    return (move[1], *move[2::3])


def blocked(state: State, seat: int) -> frozenset[int]:
    """Areas a Roadbuilding move may not cross: another player's units, barbarians or a pirate city stand
    there (§23.31)."""

    def compute() -> frozenset[int]:
        found = {area for area, owner in enumerate(state.cities) if owner not in (NOBODY, seat)}
        found |= state.foreign()
        for other, nation in enumerate(state.players):
            if other != seat:
                found.update(nation.occupied())
        return frozenset(found)

    return memo(state, ("blocked", seat), compute)


def plan(state: State, seat: int, moves: tuple[Move, ...]) -> movement.Plan:
    """Check the seat's whole set of moves as the board stands now; RuleError if it is not legal."""
    for move in moves:
        for area in areas_of(move):
            if not state.in_play[area]:
                raise RuleError(
                    "not_in_play",
                    "%(area)s is not in play with this number of players.",
                    params={"area": BOARD.areas[area].name},
                )
    nation = state.players[seat]
    tokens = {area: nation.tokens[area] for area in nation.occupied()}
    roads = blocked(state, seat) if road_movement(nation.cards) else frozenset()  # only roads ask
    return movement.plan_moves(
        BOARD, tokens, nation.ships, [to_movement(move) for move in moves], nation.cards, roads
    )


def still_legal(state: State, seat: int) -> tuple[tuple[Move, ...], movement.Plan]:
    """The seat's moves that are still legal at its turn, in the order entered, and where they leave
    everything: one that became illegal (a road crossing an area entered since) is dropped, the others
    stand."""
    moves = state.moves[seat]
    try:
        return moves, plan(state, seat, moves)
    except RuleError:
        pass
    kept: tuple[Move, ...] = ()
    found = plan(state, seat, kept)
    for move in moves:
        try:
            found = plan(state, seat, (*kept, move))
        except RuleError:
            continue
        kept = (*kept, move)
    return kept, found
