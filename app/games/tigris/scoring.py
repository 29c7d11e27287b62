"""The final score: each player's weakest colour, treasures counting as points of any colour, ties broken
by the second weakest colour, then the third, then the fourth (still equal: a shared place)."""

from __future__ import annotations

from typing import Any

from app.games.tigris.board import COLOURS
from app.games.tigris.model import Counts, State


def allocate(points: Counts, treasures: int) -> Counts:
    """Each treasure on the weakest colour so far. This greedy filling gives the best sorted vector."""
    values = list(points)
    for _ in range(treasures):
        weakest = values.index(min(values))
        values[weakest] += 1
    return (values[0], values[1], values[2], values[3])


def ladder(points: Counts, treasures: int) -> tuple[int, ...]:
    """What players are compared on: the colours from the weakest up."""
    return tuple(sorted(allocate(points, treasures)))


def places(ladders: list[tuple[int, ...]]) -> list[int]:
    """1 + the number of players strictly ahead."""
    return [1 + sum(1 for other in ladders if other > mine) for mine in ladders]


def final_results(state: State) -> list[dict[str, Any]]:
    ladders = [ladder(player.points, player.treasures) for player in state.players]
    ranks = places(ladders)
    results = []
    for seat, player in enumerate(state.players):
        final = allocate(player.points, player.treasures)
        results.append(
            {
                "seat": seat,
                "place": ranks[seat],
                "score": ladders[seat][0],
                "points": dict(zip(COLOURS, player.points, strict=True)),
                "treasures": player.treasures,
                "final": dict(zip(COLOURS, final, strict=True)),
            }
        )
    return results
