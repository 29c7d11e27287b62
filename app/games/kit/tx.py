"""One order's work in progress: the newest state and the events so far.

States are frozen, so the state the caller passed in is never touched: every change builds a new value.
The state needs an `rng: int` field holding a `kit.rng` word (`rng=seeded(seed)` in `new_game`). A game
subclasses `Tx`, or `SeatedTx` when its state has a `players` tuple, with its own helpers:

    class Tx(SeatedTx[State, Player]):
        def score(self, seat: int, points: int) -> None: ...

and its `apply` runs:

    tx = Tx(state)
    tx.set(phase="power")                      # fields changed on the newest state
    tx.update_player(seat, points=3)           # SeatedTx: one player changed
    tx.emit("scored", to=(seat,), points=3)    # to=None: public; else only these seats see it
    deck = tx.shuffle(deck)                    # also randbelow(n), choice(items), weighted(counts):
    return Outcome(tx.state, tx.events)        # each draw moves `state.rng` on

A game that must replay games begun on an older generator overrides `step` for them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Generic, Protocol, TypeVar

from app.games.contract import Event
from app.games.kit import rng
from app.games.kit.model import evolve, replaced

T = TypeVar("T")
P_co = TypeVar("P_co", covariant=True)


class Seeded(Protocol):
    @property
    def rng(self) -> int: ...


class Seated(Seeded, Protocol[P_co]):
    @property
    def players(self) -> tuple[P_co, ...]: ...


S = TypeVar("S", bound=Seeded)
SS = TypeVar("SS", bound=Seated[Any])
P = TypeVar("P")


class Tx(Generic[S]):
    def __init__(self, state: S) -> None:
        self.state = state
        self.events: list[Event] = []

    def set(self, **changes: Any) -> None:
        self.state = evolve(self.state, **changes)

    def emit(
        self,
        kind: str,
        /,
        to: Iterable[int] | None = None,
        *,
        mail: bool = False,
        mail_to: Iterable[int] | None = None,
        news: str = "trade",
        **data: Any,
    ) -> None:
        """`mail`: the seats that may see it are mailed about it; `mail_to`: these seats alone (`Event`)."""
        mailed = frozenset(mail_to) if mail_to is not None else None
        self.events.append(Event(kind, data, frozenset(to) if to is not None else None, mail, mailed, news))

    def step(self, word: int) -> tuple[int, int]:
        """The generator's step (see kit.rng)."""
        return rng.splitmix64(word)

    def randbelow(self, n: int) -> int:
        """An unbiased integer in [0, n)."""
        word, value = rng.below(self.state.rng, n, self.step)
        self.set(rng=word)
        return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def shuffle(self, items: Iterable[T]) -> tuple[T, ...]:
        """`items` in a random order (Fisher-Yates, from the end)."""
        return rng.shuffled(items, self.randbelow)

    def weighted(self, counts: Sequence[int]) -> int:
        """An index drawn with a chance proportional to its count: one item out of a bag of counts (which
        must not be empty)."""
        left = self.randbelow(sum(counts))
        for index, count in enumerate(counts):
            if left < count:
                return index
            left -= count
        raise AssertionError("empty bag")


class SeatedTx(Tx[SS], Generic[SS, P]):
    """A `Tx` over a state whose `players` is a tuple of frozen `P`, one by seat."""

    def player(self, seat: int) -> P:
        player: P = self.state.players[seat]
        return player

    def update_player(self, seat: int, **changes: Any) -> None:
        self.set(players=replaced(self.state.players, seat, evolve(self.player(seat), **changes)))
