"""The state of a Tigris & Euphrates game: small frozen values, so that an order copies only what changes.

The board is one string of `board.SIZE` characters, one per square:
  "."            empty (a leader may stand there: leaders are kept with their owners)
  "r" "b" "g" "k" a face-up tile: red temple, blue farm, green market, black settlement
  "d"            a face-down tile under a monument (it still links, it has no colour any more)
  "x"            a catastrophe
Counts by colour (hands, points, the bag) are 4-tuples in the order of `board.COLOURS`. A square that
holds nothing is -1 (a leader in front of its owner's screen, an available monument, no junction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.kit.model import evolve, from_json, memo, replaced, to_json

Counts = tuple[int, int, int, int]
NO_TILES: Counts = (0, 0, 0, 0)
OFF = -1  # "not on the board"
RNG_VERSION = 1  # the generator of new games (see `State.rng_version`)


def plus(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def minus(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def one(colour: int, count: int = 1) -> Counts:
    counts = [0, 0, 0, 0]
    counts[colour] = count
    return (counts[0], counts[1], counts[2], counts[3])


@dataclass(frozen=True)
class Player:
    hand: Counts  # tiles behind the screen, by colour
    points: Counts = NO_TILES  # victory points behind the screen, by colour
    treasures: int = 0  # behind the screen too
    catastrophes: int = 2  # in front of the screen
    leaders: Counts = (OFF, OFF, OFF, OFF)  # the square of each leader, by colour; OFF in front of the screen


@dataclass(frozen=True)
class Conflict:
    """A revolt (a leader placed in a kingdom with a leader of its colour) or a war (two kingdoms joined)."""

    kind: str  # "revolt" or "war"
    colour: int
    attacker: int  # seats
    defender: int
    attacker_square: int  # the two leaders
    defender_square: int
    attacker_base: int  # strength on the board
    defender_base: int
    attacker_support: int = OFF  # tiles committed from the hand; OFF until committed
    defender_support: int = OFF

    def waiting_on(self) -> int:
        return self.attacker if self.attacker_support == OFF else self.defender

    def pending_support(self) -> int:
        return max(self.attacker_support, 0) + max(self.defender_support, 0)


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    board: str
    treasures: tuple[int, ...]  # squares holding a treasure, in order
    monuments: tuple[int, ...]  # each monument's top-left square (board.MONUMENTS order), OFF if available
    bag: Counts
    discarded: int  # tiles out of the game (swaps, supports, war losses, catastrophes); a public count
    rng: int  # the generator's word; never shown
    english: bool  # the "English variant" of support
    open_scoring: bool
    active: int = 0
    actions_left: int = 2
    turn: int = 1
    phase: str = "action"  # see phases.py
    conflict: Conflict | None = None
    junction: int = OFF  # the unification marker's square while wars are pending
    wars: tuple[int, ...] = ()  # colours still at war through the junction
    placed: int = OFF  # the tile placed by the current action, until its monument step is over
    end: str = ""  # why the game ended: "treasures" or "bag"; "" while it goes on
    rng_version: int = 0  # 0: xorshift64* (games begun before kit.rng; see tx.py), 1: kit.rng

    def leader_at(self) -> dict[int, int]:
        """Square -> leader code (seat * 4 + colour) for every leader on the board."""

        def compute() -> dict[int, int]:
            found = {}
            for seat, player in enumerate(self.players):
                for colour, sq in enumerate(player.leaders):
                    if sq != OFF:
                        found[sq] = seat * 4 + colour
            return found

        return memo(self, "leader_at", compute)

    def with_player(self, seat: int, player: Player) -> State:
        return evolve(self, players=replaced(self.players, seat, player))

    def tiles_on_board(self) -> int:
        board = self.board
        return len(board) - board.count(".") - board.count("x")

    def tile_total(self) -> int:
        """Every civilization tile wherever it is: must always be 153."""
        held = sum(sum(player.hand) for player in self.players)
        support = self.conflict.pending_support() if self.conflict else 0
        return sum(self.bag) + held + self.tiles_on_board() + self.discarded + support


def dump(state: State) -> dict[str, Any]:
    data: dict[str, Any] = to_json(state)
    return data


def load(data: dict[str, Any]) -> State:
    """A dumped state; fields added since (with their defaults) are absent from older dumps."""
    state: State = from_json(State, data)
    return state
