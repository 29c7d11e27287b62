"""A tiny game for platform tests: each round every seat secretly picks 1-3 (simultaneous); the highest
single pick then chooses to "take" or "pass" (sequential); first to 8 points wins."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from app.games.contract import Event, Outcome, RuleError, Standing, Wait


class Options(BaseModel):
    target: int = Field(8, ge=3, le=50)


class Pick(BaseModel):
    type: Literal["pick"]
    value: int = Field(ge=1, le=3)


class Choose(BaseModel):
    type: Literal["choose"]
    take: bool


Order = Annotated[Pick | Choose, Field(discriminator="type")]
ORDERS: TypeAdapter[Pick | Choose] = TypeAdapter(Order)


@dataclass(frozen=True)
class State:
    players: int
    target: int
    scores: tuple[int, ...]
    picks: tuple[int | None, ...]
    chooser: int | None = None


class FakeRules:
    id = "fake"
    title = "Fake"
    min_players = 2
    max_players = 4
    Options: type[BaseModel] = Options
    Order = Order

    def new_game(self, options: BaseModel, players: int, seed: int) -> State:
        assert isinstance(options, Options)
        return State(players, options.target, (0,) * players, (None,) * players)

    def waits(self, state: State) -> list[Wait]:
        if max(state.scores) >= state.target:
            return []
        if state.chooser is not None:
            return [Wait(state.chooser, "choose")]
        return [Wait(s, "pick", simultaneous=True) for s, p in enumerate(state.picks) if p is None]

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        try:
            parsed = ORDERS.validate_python(dict(order))
        except ValidationError as error:
            raise RuleError("invalid_order", "Not an order of this game.", "type") from error
        if seat not in {w.seat for w in self.waits(state)}:
            raise RuleError("not_awaited", "Not your turn.")
        if isinstance(parsed, Pick):
            if state.chooser is not None:
                raise RuleError("wrong_phase", "Choose first.")
            picks = list(state.picks)
            picks[seat] = parsed.value
            events = [
                Event("picked", {"seat": seat}),
                Event("my_pick", {"value": parsed.value}, frozenset({seat})),
            ]
            if None in picks:
                return Outcome(replace(state, picks=tuple(picks)), events)
            best = max(range(state.players), key=lambda s: (picks[s] or 0, -s))
            events.append(Event("revealed", {"picks": picks}))
            return Outcome(replace(state, picks=tuple(picks), chooser=best), events)
        if state.chooser is None:
            raise RuleError("wrong_phase", "Pick first.")
        scores = list(state.scores)
        if parsed.take:
            scores[seat] += sum(p or 0 for p in state.picks)
        new = State(state.players, state.target, tuple(scores), (None,) * state.players)
        return Outcome(new, [Event("chose", {"seat": seat, "take": parsed.take})])

    def default_order(self, state: State, seat: int) -> Mapping[str, Any]:
        return {"type": "choose", "take": False} if state.chooser == seat else {"type": "pick", "value": 1}

    def sample_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        if state.chooser == seat:
            return {"type": "choose", "take": rng.random() < 0.8}
        return {"type": "pick", "value": rng.randint(1, 3)}

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "scores": list(state.scores),
            "has_picked": [p is not None for p in state.picks],
            "my_pick": state.picks[seat] if seat is not None else None,
            "picks": list(state.picks) if state.chooser is not None else None,
            "chooser": state.chooser,
        }

    def standings(self, state: State) -> list[Standing] | None:
        if max(state.scores) < state.target:
            return None
        ranked = sorted(range(state.players), key=lambda s: -state.scores[s])
        return [
            Standing(s, 1 + sum(1 for o in ranked if state.scores[o] > state.scores[s]), state.scores[s])
            for s in ranked
        ]

    def dump(self, state: State) -> dict[str, Any]:
        return {
            "players": state.players,
            "target": state.target,
            "scores": list(state.scores),
            "picks": list(state.picks),
            "chooser": state.chooser,
        }

    def load(self, data: dict[str, Any]) -> State:
        return State(
            data["players"], data["target"], tuple(data["scores"]), tuple(data["picks"]), data["chooser"]
        )


RULES = FakeRules()
