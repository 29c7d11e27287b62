"""Territories and kingdoms, recomputed from the board whenever they are needed (and memoized per state).

Tiles (face up or down) and leaders on orthogonally adjacent squares form a territory; a territory with a
leader is a kingdom. Empty squares and catastrophes separate. For a war, the junction square separates
too, which gives each leader's "initial" kingdom; for a leader's move, the leader is lifted first.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.games.kit.model import memo
from app.games.tigris.board import NEIGHBOURS, RED, SIZE, TILE_CODES
from app.games.tigris.model import OFF, State

LINKING = frozenset("rbgkd")
TEMPLE = TILE_CODES[RED]


class Regions:
    """Connected groups of one board: `label[sq]` is the group of `sq` (or -1), with each group's squares
    and the leaders in it (leader codes: seat * 4 + colour)."""

    __slots__ = ("groups", "label", "leaders", "members")

    def __init__(self, board: str, leader_at: dict[int, int], skip: int = OFF) -> None:
        label = [-1] * SIZE
        members: list[list[int]] = []
        leaders: list[list[int]] = []
        for start in range(SIZE):
            if (
                label[start] != -1
                or start == skip
                or (board[start] not in LINKING and start not in leader_at)
            ):
                continue
            group = len(members)
            label[start] = group
            found = [start]
            stack = [start]
            while stack:
                here = stack.pop()
                for near in NEIGHBOURS[here]:
                    if label[near] == -1 and near != skip and (board[near] in LINKING or near in leader_at):
                        label[near] = group
                        found.append(near)
                        stack.append(near)
            members.append(found)
            leaders.append([leader_at[sq] for sq in found if sq in leader_at])
        self.label = label
        self.members = members
        self.leaders = leaders
        self.groups = len(members)

    def kingdoms_near(self, sq: int) -> set[int]:
        """The kingdoms (groups with a leader) next to `sq`."""
        label, leaders = self.label, self.leaders
        return {label[near] for near in NEIGHBOURS[sq] if label[near] != -1 and leaders[label[near]]}

    def groups_near(self, sq: int) -> set[int]:
        label = self.label
        return {label[near] for near in NEIGHBOURS[sq] if label[near] != -1}

    def leader_of(self, group: int, colour: int) -> int | None:
        """The code of the leader of `colour` in `group` (the first one, should there be two)."""
        for code in self.leaders[group]:
            if code % 4 == colour:
                return code
        return None

    def count(self, board: str, group: int, code: str) -> int:
        return sum(1 for sq in self.members[group] if board[sq] == code)


def regions(state: State) -> Regions:
    return memo(state, "regions", lambda: Regions(state.board, state.leader_at()))


def regions_without_leader(state: State, sq: int) -> Regions:
    """The regions with the leader on `sq` lifted (for a move)."""

    def compute() -> Regions:
        leader_at = dict(state.leader_at())
        leader_at.pop(sq, None)
        return Regions(state.board, leader_at)

    return memo(state, ("lifted", sq), compute)


def initial_regions(state: State) -> Regions:
    """The regions with the junction square left out: each side's kingdom as it was before the union."""
    return memo(state, "initial", lambda: Regions(state.board, state.leader_at(), skip=state.junction))


def temples_next_to(board: str, sq: int) -> int:
    return sum(1 for near in NEIGHBOURS[sq] if board[near] == TEMPLE)


def leader_squares(state: State, codes: Iterable[int]) -> list[int]:
    return [state.players[code // 4].leaders[code % 4] for code in codes]


def doubled_colours(state: State) -> list[int]:
    """Colours of which some kingdom holds two leaders (none, outside conflicts)."""
    found: set[int] = set()
    for group_leaders in regions(state).leaders:
        colours = [code % 4 for code in group_leaders]
        found.update(colour for colour in colours if colours.count(colour) > 1)
    return sorted(found)
