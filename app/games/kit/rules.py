"""What the rules objects of the games built on the kit share: the versioned dump of the state, and the
waits and the default order read from each seat's `Legal`.

A game's rules class derives from `KitRules[State, Legal]`, names its `title`, its `state_type`, its
`simultaneous` phases and its `legal_for(state, seat)`, and keeps to itself what differs: `apply`, random
play and the view. A game whose dump is not the kit's `to_json` of its state overrides `encode` and
`decode`:

    class DragonstonesRules(KitRules[State, Legal]):
        title = "Dragonstones"
        state_type = State
        simultaneous = ("bid", "tiebreak")

        def legal_for(self, state, seat):
            return legal_for(state, seat)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from app.games.contract import Wait
from app.games.kit.legal import Legal, awaited, waits
from app.games.kit.model import from_json, to_json


class Seated(Protocol):
    @property
    def players(self) -> Sequence[Any]: ...  # one entry per seat


StateT = TypeVar("StateT", bound=Seated)
LegalT = TypeVar("LegalT", bound=Legal[Any])


class KitRules(Generic[StateT, LegalT]):
    title: str
    state_type: type[StateT]
    simultaneous: tuple[str, ...] = ()  # the phases all their seats play at once (sealed bids)
    dump_version: int = 1

    def legal_for(self, state: StateT, seat: int) -> LegalT | None:
        raise NotImplementedError

    def waits(self, state: StateT) -> list[Wait]:
        return waits([self.legal_for(state, seat) for seat in range(len(state.players))], self.simultaneous)

    def default_order(self, state: StateT, seat: int) -> Mapping[str, Any]:
        """What the clock plays for an awaited seat whose time ran out."""
        order: Mapping[str, Any] = self.awaited_legal(state, seat).default.model_dump(mode="json")
        return order

    def awaited_legal(self, state: StateT, seat: int) -> LegalT:
        return awaited(self.legal_for(state, seat))

    def dump(self, state: StateT) -> dict[str, Any]:
        return {"version": self.dump_version, **self.encode(state)}

    def load(self, data: dict[str, Any]) -> StateT:
        if data.get("version") != self.dump_version:
            raise ValueError(f"unknown {self.title} dump version {data.get('version')!r}")
        return self.decode({name: value for name, value in data.items() if name != "version"})

    def encode(self, state: StateT) -> dict[str, Any]:
        encoded: dict[str, Any] = to_json(state)
        return encoded

    def decode(self, data: dict[str, Any]) -> StateT:
        decoded: StateT = from_json(self.state_type, data)
        return decoded
