"""One order's work in progress: the newest state, the events so far, and the seeded bag.

States are frozen: every change builds a new value, so the state the caller passed in is never touched.
The generator is xorshift64* over a 64-bit word kept in `State.rng`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.games.contract import Event
from app.games.tigris.board import COLOURS, NAMES
from app.games.tigris.model import Counts, Player, State, evolve, one, plus

MASK64 = (1 << 64) - 1


def seed_word(seed: int) -> int:
    """A non-zero generator state from any integer seed."""
    word = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
    return word or 0x2545F4914F6CDD1D


def step(word: int) -> tuple[int, int]:
    """The next generator state and a 64-bit output."""
    word ^= word >> 12
    word ^= (word << 25) & MASK64
    word ^= word >> 27
    return word, (word * 0x2545F4914F6CDD1D) & MASK64


class Tx:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def set(self, **changes: Any) -> None:
        self.state = evolve(self.state, **changes)

    def emit(self, kind: str, /, to: Iterable[int] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, data, frozenset(to) if to is not None else None))

    def player(self, seat: int) -> Player:
        return self.state.players[seat]

    def update_player(self, seat: int, **changes: Any) -> None:
        self.state = self.state.with_player(seat, evolve(self.state.players[seat], **changes))

    def randbelow(self, n: int) -> int:
        """An unbiased integer in [0, n)."""
        limit = (1 << 64) - (1 << 64) % n
        word = self.state.rng
        while True:
            word, value = step(word)
            if value < limit:
                self.set(rng=word)
                return value % n

    def draw(self, count: int) -> Counts:
        """`count` tiles at random from the bag (which must hold that many)."""
        drawn: Counts = (0, 0, 0, 0)
        bag = self.state.bag
        for _ in range(count):
            index = self.randbelow(sum(bag))
            for colour in range(4):
                if index < bag[colour]:
                    bag = (*bag[:colour], bag[colour] - 1, *bag[colour + 1 :])  # type: ignore[assignment]
                    drawn = plus(drawn, one(colour))
                    break
                index -= bag[colour]
        self.set(bag=bag)
        return drawn

    def score(self, seat: int, colour: int, points: int, reason: str, **data: Any) -> None:
        """Victory points go behind the screen: the event is the scorer's own unless scoring is open."""
        if points <= 0:
            return
        player = self.player(seat)
        self.update_player(seat, points=plus(player.points, one(colour, points)))
        to = None if self.state.open_scoring else (seat,)
        self.emit("scored", to=to, seat=seat, colour=COLOURS[colour], points=points, reason=reason, **data)


def counts_json(counts: Counts) -> dict[str, int]:
    return {COLOURS[colour]: count for colour, count in enumerate(counts) if count}


def names(squares: Iterable[int]) -> list[str]:
    return [NAMES[sq] for sq in squares]
