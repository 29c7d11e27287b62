"""The seeded generator every game draws from: SplitMix64 over a 64-bit word kept in the game state.

A game keeps the word in an `rng: int` field of its frozen state and never shows it (it predicts every
future draw). `seeded(seed)` gives a new game's word; each draw returns the next word with its value, so
the state stays a plain value and a replay from the same seed and orders draws the same:

    word = seeded(seed)                  # State(..., rng=word)
    word, value = below(word, 6)         # 0 <= value < 6

Games usually draw through `kit.tx.Tx` (`randbelow`, `shuffle`, `choice`, `weighted`), which stores the
new word for them. `below` takes another `Step` only to replay games begun on a game's older generator.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

MASK64 = (1 << 64) - 1
Step = Callable[[int], tuple[int, int]]  # word -> (next word, 64-bit output)
RandBelow = Callable[[int], int]  # n -> an integer in [0, n), e.g. `Tx.randbelow`
T = TypeVar("T")


def splitmix64(word: int) -> tuple[int, int]:
    """One SplitMix64 step: the next word and a 64-bit output."""
    word = (word + 0x9E3779B97F4A7C15) & MASK64
    out = word
    out = ((out ^ (out >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    out = ((out ^ (out >> 27)) * 0x94D049BB133111EB) & MASK64
    return word, out ^ (out >> 31)


def seeded(seed: int) -> int:
    """A new game's word from any integer seed."""
    word, _ = splitmix64(seed & MASK64)
    return word


def below(word: int, n: int, step: Step = splitmix64) -> tuple[int, int]:
    """The next word and an unbiased integer in [0, n): outputs past the last whole multiple of n are
    drawn again."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        word, value = step(word)
        if value < limit:
            return word, value % n


def shuffled(items: Iterable[T], randbelow: RandBelow) -> tuple[T, ...]:
    """`items` in a random order (Fisher-Yates, from the end), each swap drawn from `randbelow`; pure rule
    functions take the callable so that the caller's `Tx` keeps the generator's word."""
    order = list(items)
    for i in range(len(order) - 1, 0, -1):
        j = randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)
