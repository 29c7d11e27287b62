"""One order's work in progress (`kit.tx`), with the tiles drawn from the bag and the points scored.

Games begun before `State.rng_version` 1 draw from xorshift64*, the generator they were begun on, so
that their replays stay equal; newer games draw from `kit.rng`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.games.kit.rng import MASK64, seeded
from app.games.kit.tx import SeatedTx
from app.games.tigris.board import COLOURS, NAMES
from app.games.tigris.model import Counts, Player, State, minus, one, plus


def first_word(seed: int, rng_version: int) -> int:
    """A new game's generator word: `kit.rng.seeded`, or the first generator's non-zero word."""
    if rng_version:
        return seeded(seed)
    word = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & MASK64
    return word or 0x2545F4914F6CDD1D


def xorshift64star(word: int) -> tuple[int, int]:
    """The first generator's step: the next word and a 64-bit output."""
    word ^= word >> 12
    word ^= (word << 25) & MASK64
    word ^= word >> 27
    return word, (word * 0x2545F4914F6CDD1D) & MASK64


class Tx(SeatedTx[State, Player]):
    def step(self, word: int) -> tuple[int, int]:
        return super().step(word) if self.state.rng_version else xorshift64star(word)

    def draw(self, count: int) -> Counts:
        """`count` tiles at random from the bag (which must hold that many)."""
        drawn: Counts = (0, 0, 0, 0)
        bag = self.state.bag
        for _ in range(count):
            colour = self.weighted(bag)
            bag = minus(bag, one(colour))
            drawn = plus(drawn, one(colour))
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
