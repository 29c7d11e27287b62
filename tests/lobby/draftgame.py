"""The tests' fake game with a seat draft: each seat first drafts a "nation" (as Advanced Civilization will),
then the fake game's rounds are played. The draft reaches the rules through `options.draft`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from app.games import registry
from app.games.contract import Outcome, Standing, Wait
from tests import fakegame

NATIONS = ["Africa", "Assyria", "Babylon", "Crete", "Egypt", "Iberia", "Illyria", "Italy", "Thrace"]


class Options(BaseModel):
    target: int = Field(8, ge=3, le=50)
    draft: dict[int, str] = Field(default_factory=dict)


@dataclass(frozen=True)
class State:
    inner: fakegame.State
    nations: tuple[str, ...]


class DraftRules:
    id = "fakedraft"
    title = "Fake with a draft"
    min_players = 2
    max_players = 8
    Options: type[BaseModel] = Options
    Order = fakegame.Order

    def draft_choices(self, options: BaseModel, players: int) -> list[str]:
        return NATIONS[: players + 1]  # one more than the players: at least one is never played

    def new_game(self, options: BaseModel, players: int, seed: int) -> State:
        """After the platform's draft `options.draft` names every seat's nation (the contract's own tests
        call this without a draft: seats then get the first nations in order)."""
        assert isinstance(options, Options)
        inner = fakegame.State(players, options.target, (0,) * players, (None,) * players)
        return State(inner, tuple(options.draft.get(seat, NATIONS[seat]) for seat in range(players)))

    def waits(self, state: State) -> list[Wait]:
        return fakegame.RULES.waits(state.inner)

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        outcome = fakegame.RULES.apply(state.inner, seat, order)
        return Outcome(State(outcome.state, state.nations), outcome.events)

    def default_order(self, state: State, seat: int) -> Mapping[str, Any]:
        return fakegame.RULES.default_order(state.inner, seat)

    def sample_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return fakegame.RULES.sample_order(state.inner, seat, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**fakegame.RULES.view(state.inner, seat), "nations": list(state.nations)}

    def standings(self, state: State) -> list[Standing] | None:
        return fakegame.RULES.standings(state.inner)

    def dump(self, state: State) -> dict[str, Any]:
        return {**fakegame.RULES.dump(state.inner), "nations": list(state.nations)}

    def load(self, data: dict[str, Any]) -> State:
        return State(fakegame.RULES.load(data), tuple(data["nations"]))


RULES = DraftRules()
registry.register(RULES)
