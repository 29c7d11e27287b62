"""The contract every game's rules implement.

A rules object is stateless: the state of a game is a value that `apply` turns into a new value. Rules never
read the clock or global random state; any randomness lives inside the state as a seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Generic, Protocol, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    NonNegativeInt,
    TypeAdapter,
    ValidationError,
    model_validator,
)

from app.games import input_errors

S = TypeVar("S")
OrderT = TypeVar("OrderT")
K = TypeVar("K")


@dataclass(frozen=True)
class Wait:
    """One seat that the game waits on."""

    seat: int
    phase: str  # e.g. "bid", "power:thief"; shown to players and used by the clock
    simultaneous: bool = False  # all such seats may act at once (sealed bids)
    first_in_phase: bool = False  # the clock gives this seat 1.5x the time limit
    market: bool = False  # a trade-market phase: the clock applies the market window


@dataclass(frozen=True)
class Event:
    """Something that happened, for the game log, e-mails and live updates."""

    kind: str
    data: dict[str, Any]
    to: frozenset[int] | None = None  # None: public; else only these seats may see it
    # An event every seat that may see it is mailed about: the public announcement of a trade.
    mail: bool = False
    # An event mailed to these seats alone (of those that may see it): a calamity to the seats it strikes.
    mail_to: frozenset[int] | None = None
    # What kind of news it is, for the players' mail settings: "trade", "calamity" or "city_lost".
    news: str = "trade"


@dataclass(frozen=True)
class Standing:
    """A seat's final result; place 1 is the winner, equal places are ties."""

    seat: int
    place: int
    score: float


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """What `apply` returns: the new state and what happened."""

    state: S
    events: list[Event] = field(default_factory=list)


class RuleError(Exception):
    """An illegal order. `code` is a stable machine word; `message` plain English, whose `%(name)s`
    placeholders are filled from `params` (kept apart, so that the sentence can be translated)."""

    def __init__(
        self, code: str, message: str, field: str | None = None, params: Mapping[str, str | int] | None = None
    ) -> None:
        self.template = message
        self.params = dict(params or {})
        self.message = message % self.params if self.params else message
        super().__init__(self.message)
        self.code = code
        self.field = field


class GameRules(Protocol[S]):
    """A game's rules. Optional extras the platform looks for: `seat_summary(state, seat)`,
    `progress(state)`, and `anytime_orders`, the order types a seat may send whether or not the game waits
    on it (Amun-Re's "a power card may be sold at any time"): the platform passes such an order to `apply`
    from any seat and keeps every wait and deadline; `apply` alone decides whether it is legal now.

    `clock_order: Mapping[str, Any]` (such as `{"type": "embargo_over"}`) is the order the platform applies,
    once, as the clock, when a trade market's embargo ends (`app.clock.Market.embargo_ends_at`), from the
    lowest seat still counted in the market; no player may send an order of that type. Rules never read the
    clock: this order is how they learn that the embargo is over. An `Event` with `mail=True` is mailed to
    every seat holder that may see it (but the player whose order caused it).

    `bot_order(state, seat, rng) -> Mapping[str, Any]` (see `bot_order_of`) is a sensible legal order for an
    awaited seat: pure, deterministic for a given `rng`, and decided only from what the seat may know (the
    facts of `view(state, seat)`), so that two states differing only in what the seat cannot see give the
    same order."""

    id: str
    title: str
    min_players: int
    max_players: int
    Options: type[BaseModel]  # creation options, every field with a default
    Order: Any  # a pydantic type (usually a discriminated union) whose JSON Schema describes the orders

    def new_game(self, options: BaseModel, players: int, seed: int) -> S: ...

    def waits(self, state: S) -> list[Wait]: ...

    def apply(self, state: S, seat: int, order: Mapping[str, Any]) -> Outcome[S]: ...

    def default_order(self, state: S, seat: int) -> Mapping[str, Any]: ...

    def sample_order(self, state: S, seat: int, rng: random.Random) -> Mapping[str, Any]: ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def standings(self, state: S) -> list[Standing] | None: ...

    def dump(self, state: S) -> dict[str, Any]: ...

    def load(self, data: dict[str, Any]) -> S: ...


def created_options(rules: GameRules[Any], chosen: Mapping[str, Any] | None = None) -> BaseModel:
    """The options of a game created now, as the lobby stores them: every field written. Rules that keep
    old games on their old behaviour (Tigris's `rng_version`, Amun-Re's `rules_version`) read a field the
    stored options lack as a game begun before it, so `Options()` built in code plays the oldest rules."""
    stored = rules.Options.model_validate(dict(chosen or {})).model_dump(mode="json")
    return rules.Options.model_validate(stored)


def clock_order_of(rules: object) -> Mapping[str, Any] | None:
    """The rules' optional `clock_order` (see `GameRules`), or None."""
    order = getattr(rules, "clock_order", None)
    return order if isinstance(order, Mapping) and "type" in order else None


def bot_order_of(rules: object) -> Callable[[Any, int, random.Random], Mapping[str, Any]] | None:
    """The rules' optional `bot_order(state, seat, rng)` (see `GameRules`), or None."""
    bot_order = getattr(rules, "bot_order", None)
    return bot_order if callable(bot_order) else None


def is_clock_order(rules: object, order: object) -> bool:
    """Whether `order` has the type of the rules' clock order, which only the clock may send."""
    clock_order = clock_order_of(rules)
    return clock_order is not None and isinstance(order, Mapping) and order.get("type") == clock_order["type"]


def N_(label: str) -> str:
    """Marks an English label the rules hand to the web layer (a `seat_summary` key) for translation there."""
    return label


def parse_order(adapter: TypeAdapter[OrderT], data: object) -> OrderT:
    """Validate a posted order against a game's order models; any problem is `RuleError("invalid_order")`."""
    if not isinstance(data, Mapping):
        raise RuleError("invalid_order", "An order must be an object with a type.")
    try:
        return adapter.validate_python(dict(data))
    except ValidationError as exc:
        error = exc.errors()[0]
        where = input_errors.field_path(error["loc"][1:]) or "type"
        order_type = data.get("type") if isinstance(data.get("type"), str) else None
        template, params = input_errors.sentence(error, where, order_type)
        raise RuleError("invalid_order", template, where, params) from None


class FormOrder(BaseModel):
    """Base of the games' order models: flat, frozen, unknown fields refused, and an empty form field
    (`""`, as an HTML form posts it) meaning "the default"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _blank_means_default(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        cleaned: dict[str, Any] = {}
        for key, value in data.items():
            if isinstance(value, Mapping):
                value = {k: v for k, v in value.items() if v != ""}
            if value != "":
                cleaned[key] = value
        return cleaned

    def key(self) -> tuple[Any, ...]:
        """What makes two orders the same choice."""
        return tuple(
            (name, tuple(sorted(value.items())) if isinstance(value, dict) else value)
            for name, value in sorted(self.model_dump().items())
        )


def _drop_zeros(counts: dict[K, int]) -> dict[K, int]:
    return {name: count for name, count in counts.items() if count}


# An order field holding a count per name (`stones.red=2` in a form), its zero counts left out.
NonZeroCounts = Annotated[dict[K, NonNegativeInt], AfterValidator(_drop_zeros)]
