"""What an awaited seat may do now: the one description that waits, checks, defaults, random play and
the view all read, so that they cannot disagree.

A game's `legal_for(state, seat)` returns a `Legal` (or None when the game does not wait on the seat):
either a closed list of `choices`, or order `types` whose fields the game checks itself (bids, targets on
a board). `context` carries game-specific facts for the prompt (a colour, a role, strengths); a game
that needs typed extras subclasses `Legal` with keyword-only fields:

    @dataclass(frozen=True, kw_only=True)
    class Legal(kit.legal.Legal[OrderModel]):
        card: str

    Legal("power:ghost", "ghost", ("copy",), choices[0].order, choices, card="ghost")

`offers(order)` tells whether an order is one of the choices, `random_choice(rng)` picks one for random
play, and `to_json()` is the part of the view every game shares.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from app.games.contract import FormOrder

OrderT = TypeVar("OrderT", bound=FormOrder)
OrderT_co = TypeVar("OrderT_co", bound=FormOrder, covariant=True)


@dataclass(frozen=True)
class Choice(Generic[OrderT_co]):
    order: OrderT_co
    label: str  # plain English; the web layer translates it

    def to_json(self) -> dict[str, Any]:
        return {"order": self.order.model_dump(), "label": self.label}


@dataclass(frozen=True)
class Legal(Generic[OrderT]):
    phase: str  # the Wait phase, e.g. "bid", "power:thief"
    prompt: str  # a stable code for the question asked, e.g. "rainbow_draw"
    types: tuple[str, ...]  # order types accepted
    default: OrderT  # what the clock plays when time runs out
    choices: tuple[Choice[OrderT], ...] = ()
    context: dict[str, Any] = field(default_factory=dict)  # facts for the prompt

    def offers(self, order: OrderT) -> bool:
        """Whether `order` is one of the choices (orders compare by their `key()`)."""
        key = order.key()
        return any(choice.order.key() == key for choice in self.choices)

    def random_choice(self, rng: random.Random) -> dict[str, Any]:
        return rng.choice(self.choices).order.model_dump()

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "prompt": self.prompt,
            "orders": list(self.types),
            "choices": [
                {"order": choice.order.model_dump(), "label": choice.label} for choice in self.choices
            ],
            "default": self.default.model_dump(),
        }
