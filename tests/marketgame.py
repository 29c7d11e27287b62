"""A tiny trade-market game for platform tests: every seat is in one market until it says "done"; then the
next round's market opens, or the game is over.

Its `clock_order` ends each market's embargo ("embargo" in the state); an "offer" is announced to all by a
mail-worthy public event and, when it names a partner, detailed to both seats by a mail-worthy private one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from app.games import registry
from app.games.contract import Event, Outcome, RuleError, Standing, Wait

CLOCK_ORDER = {"type": "embargo_over"}


class Options(BaseModel):
    rounds: int = Field(1, ge=1, le=5)


class Trade(BaseModel):
    type: Literal["offer", "done", "embargo_over"]
    partner: int | None = None


class MarketRules:
    id = "market"
    title = "Market"
    min_players = 2
    max_players = 6
    Options = Options
    Order = Trade
    clock_order: Mapping[str, Any] = CLOCK_ORDER

    def new_game(self, options: BaseModel, players: int, seed: int) -> dict[str, Any]:
        assert isinstance(options, Options)
        return {"done": [False] * players, "embargo": True, "round": 1, "rounds": options.rounds}

    def waits(self, state: dict[str, Any]) -> list[Wait]:
        phase = f"trade:{state['round']}"
        seats = [seat for seat, done in enumerate(state["done"]) if not done]
        return [Wait(seat, phase, simultaneous=True, market=True) for seat in seats]

    def apply(self, state: dict[str, Any], seat: int, order: Mapping[str, Any]) -> Outcome[dict[str, Any]]:
        kind = order.get("type")
        if kind == "embargo_over":
            if not state["embargo"] or all(state["done"]):
                raise RuleError("no_embargo", "There is no embargo to end.")
            return Outcome({**state, "embargo": False}, [Event("embargo_over", {"round": state["round"]})])
        if kind not in ("offer", "done"):
            raise RuleError("invalid_order", "offer or done")
        done = list(state["done"])
        done[seat] = done[seat] or kind == "done"
        events = [Event("traded", {"seat": seat, "type": kind})]
        if kind == "offer":
            events.append(Event("offer_announced", {"seat": seat}, mail=True))
            partner = order.get("partner")
            if isinstance(partner, int):
                details = {"seat": seat, "partner": partner}
                events.append(Event("offer_details", details, to=frozenset({seat, partner}), mail=True))
        new = {**state, "done": done}
        if all(done) and state["round"] < state["rounds"]:
            new = {**new, "done": [False] * len(done), "embargo": True, "round": state["round"] + 1}
        return Outcome(new, events)

    def default_order(self, state: dict[str, Any], seat: int) -> Mapping[str, Any]:
        return {"type": "done"}

    def sample_order(self, state: dict[str, Any], seat: int, rng: random.Random) -> Mapping[str, Any]:
        return {"type": rng.choice(["offer", "done"])}

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return dict(state)

    def standings(self, state: dict[str, Any]) -> list[Standing] | None:
        return [Standing(s, 1, 0) for s in range(len(state["done"]))] if all(state["done"]) else None

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return dict(data)


def register(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered for one test only, so the contract tests of the real games never see it."""
    registry.all_games()  # the built-in games first
    monkeypatch.setitem(registry._GAMES, "market", MarketRules())
