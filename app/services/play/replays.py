"""Rebuilding a game's state after any number of its orders, from states kept every `KEEP_EVERY` orders.

A replay step N starts from the nearest kept state at or before N (or from the seed), so it costs at most
`KEEP_EVERY` orders once the states on the way are kept; the step asked for is kept too, so that reading
it again costs nothing. A kept state is keyed by the game, its seed and the last order applied: once
written, an order that is still in effect always follows the same orders (a rollback only voids the
newest orders), so a key never has to be invalidated. Each process keeps its own states, in a bounded
memory cache: they are rebuilt the same way everywhere, so processes need not share them (see
docs/performance.md).

An order log that no longer replays under today's rules (a game stored before a rules change) rebuilds
up to the last order that still applies, and says why the next one does not.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.games import registry
from app.games.contract import RuleError
from app.models.records import GameSetup

KEEP_EVERY = 50  # orders between two kept states of a game
KEPT_STATES = 1024  # states kept by one process, all games together (the least recently read go first)
log = logging.getLogger(__name__)


class OrderFacts(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def payload(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class ReplayFailure:
    """The first step that cannot be rebuilt, and why: its order no longer applies under today's rules."""

    step: int
    code: str
    template: str  # plain English, translated where it is shown; `%(name)s` filled from `params`
    params: dict[str, str | int] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % self.params if self.params else self.template


@dataclass(frozen=True)
class Rebuilt:
    state: Any  # the state after `step` orders (never mutated: rules return new states)
    step: int  # the orders applied: the step asked for, or the last one that could be rebuilt
    failure: ReplayFailure | None = None


ReadOrders = Callable[[int, int], Sequence[OrderFacts]]
Key = tuple[int, int, int]  # game id, seed (a database that was emptied reuses ids), seq of the last order


class KeptStates:
    def __init__(self, size: int = KEPT_STATES, every: int = KEEP_EVERY) -> None:
        self.size = size
        self.every = every
        self._states: OrderedDict[Key, Any] = OrderedDict()
        self._lock = threading.Lock()

    def rebuild(self, game: GameSetup, seqs: Sequence[int], step: int, read: ReadOrders) -> Rebuilt:
        """The state after the first `step` orders of the game's order log: `seqs` are the seqs of the
        orders in effect, in turn; `read(first, last)` reads those whose seq is in [first, last], in turn
        (only the orders after the nearest kept state are read)."""
        start, state = self._nearest(game, seqs, step)
        rules = registry.get(game.game_type)
        if state is None:
            try:
                state = rules.new_game(rules.Options.model_validate(game.options), game.players, game.seed)
            except Exception as error:  # an old game's options, refused by today's rules
                return Rebuilt(None, 0, _failure(game, 0, error))
        orders = read(seqs[start], seqs[step - 1]) if step > start else []
        for done, order in enumerate(orders, start=start + 1):
            try:
                state = rules.apply(state, order.seat, order.payload).state
            except Exception as error:  # any error of the rules: the log no longer replays
                return Rebuilt(state, done - 1, _failure(game, done, error))
            if done % self.every == 0 or done == step:
                self._keep(_key(game, order.seq), state)
        return Rebuilt(state, step)

    def _nearest(self, game: GameSetup, seqs: Sequence[int], step: int) -> tuple[int, Any]:
        """The kept state nearest to `step` from below: the step itself, else a multiple of `every`."""
        candidates = [step, *range(step - step % self.every, 0, -self.every)]
        with self._lock:
            for done in candidates:
                if done <= 0:
                    continue
                key = _key(game, seqs[done - 1])
                if key in self._states:
                    self._states.move_to_end(key)
                    return done, self._states[key]
        return 0, None

    def _keep(self, key: Key, state: Any) -> None:
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def kept(self) -> int:
        with self._lock:
            return len(self._states)


def _key(game: GameSetup, seq: int) -> Key:
    return (game.id, game.seed, seq)


def _failure(game: GameSetup, step: int, error: Exception) -> ReplayFailure:
    log.warning("game %s (%s) does not replay at step %s: %r", game.id, game.game_type, step, error)
    if isinstance(error, RuleError):
        return ReplayFailure(step, error.code, error.template, error.params)
    return ReplayFailure(step, "rules_changed", "Today's rules cannot read this order.")


KEPT = KeptStates()
