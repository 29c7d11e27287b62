"""One order's work in progress, the seeded generator, and the moves to and from the bank.

`Tx` holds the newest state and the events so far. States are frozen, so the caller's state is never
touched: every change builds a new value.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.games.contract import Event
from app.games.dragonstones.model import COLOURS, NO_COINS, NO_STONES, Coins, Player, State, Stones, evolve

MASK64 = (1 << 64) - 1


def mix(seed: int) -> tuple[int, int]:
    """One SplitMix64 step: the next generator state and a 64-bit output."""
    seed = (seed + 0x9E3779B97F4A7C15) & MASK64
    z = seed
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return seed, z ^ (z >> 31)


def below(seed: int, n: int) -> tuple[int, int]:
    """An unbiased integer in [0, n) and the next generator state."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        seed, value = mix(seed)
        if value < limit:
            return seed, value % n


class Tx:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def set(self, **changes: Any) -> None:
        self.state = evolve(self.state, **changes)

    def emit(self, kind: str, to: Iterable[int] | None = None, **data: Any) -> None:
        self.events.append(Event(kind, data, frozenset(to) if to is not None else None))

    def player(self, seat: int) -> Player:
        return self.state.players[seat]

    def update_player(self, seat: int, **changes: Any) -> None:
        self.state = self.state.with_player(seat, evolve(self.state.players[seat], **changes))

    def randbelow(self, n: int) -> int:
        rng, value = below(self.state.rng, n)
        self.set(rng=rng)
        return value

    def shuffle(self, items: Sequence[str]) -> tuple[str, ...]:
        cards = list(items)
        for i in range(len(cards) - 1, 0, -1):
            j = self.randbelow(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return tuple(cards)

    def draw_stone(self, bag: Stones) -> str:
        """The colour of one stone drawn at random from `bag` (which must not be empty)."""
        index = self.randbelow(bag.total())
        for colour in COLOURS:
            if index < bag.get(colour):
                return colour
            index -= bag.get(colour)
        raise AssertionError("empty bag")


def gain(tx: Tx, seat: int, card: str, coins: Coins = NO_COINS, stones: Stones = NO_STONES) -> None:
    """Give what the bank still has of `coins` and `stones` (a short bank gives less, or nothing)."""
    state = tx.state
    got_coins = coins.capped(state.bank)
    got_stones = stones.capped(state.bank_stones)
    tx.set(bank=state.bank.minus(got_coins), bank_stones=state.bank_stones.minus(got_stones))
    player = tx.player(seat)
    tx.update_player(seat, screen=player.screen.plus(got_coins), stones=player.stones.plus(got_stones))
    if got_coins.total() or got_stones.total():
        tx.emit("gained", seat=seat, card=card, coins=got_coins.nonzero(), stones=got_stones.nonzero())
    else:
        tx.emit("no_effect", seat=seat, card=card, reason="bank_empty")


def pay_stones(tx: Tx, seat: int, card: str, stones: Stones) -> None:
    player = tx.player(seat)
    tx.update_player(seat, stones=player.stones.minus(stones))
    tx.set(bank_stones=tx.state.bank_stones.plus(stones))
    tx.emit("paid", seat=seat, card=card, coins={}, stones=stones.nonzero())


def score(tx: Tx, seat: int, card: str, points: int) -> None:
    """Score, and end the game at once when the target is reached (even in the middle of a power)."""
    total = tx.player(seat).points + points
    tx.update_player(seat, points=total)
    tx.emit("scored", seat=seat, card=card, points=points, total=total)
    if total >= tx.state.points_to_win:
        tx.set(winner=seat, phase="over", todo=())
        tx.emit("game_won", seat=seat, points=total)


def no_effect(tx: Tx, seat: int, card: str, reason: str) -> None:
    tx.emit("no_effect", seat=seat, card=card, reason=reason)
