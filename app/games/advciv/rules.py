"""The Advanced Civilization rules object: the contract of app.games.contract over a frozen `State`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from app.games.advciv import setup
from app.games.advciv.model import State, dump, load
from app.games.advciv.orders import Legal, Order, parse_order
from app.games.advciv.phases import handle, legal_for, sample, waits
from app.games.advciv.tables import FINISH, nations_for
from app.games.advciv.tx import Tx
from app.games.advciv.view import view as build_view
from app.games.contract import N_, Outcome, RuleError, Standing, Wait

DUMP_VERSION = 1


class AdvcivOptions(BaseModel):
    draft: dict[int, str] = Field(
        default_factory=dict, description="Each seat's nation, from the platform's nation draft."
    )
    tokens: int | None = Field(
        None, ge=20, le=55, description="Tokens per nation (the rules: 47 with 8, 5 or 3 players, else 55)."
    )


class AdvcivRules:
    id: str = "advciv"
    title: str = "Advanced Civilization"
    min_players: int = 2
    max_players: int = 8
    Options: type[BaseModel] = AdvcivOptions
    Order: Any = Order

    def draft_choices(self, options: BaseModel, players: int) -> list[str]:
        """The nations the platform's seat draft offers (§16: by player count)."""
        return list(nations_for(players))

    def new_game(self, options: BaseModel, players: int, seed: int) -> State:
        chosen = AdvcivOptions.model_validate(options.model_dump())
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Advanced Civilization is for 2 to 8 players, not {players}")
        return setup.new_game(players, seed, chosen.draft, chosen.tokens)

    def waits(self, state: State) -> list[Wait]:
        return waits(state)

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("game_over", "The game is over.")
        legal = legal_for(state, seat)
        if legal is None:
            raise RuleError("not_awaited", "The game is not waiting for you now.")
        parsed = parse_order(order)
        tx = Tx(state)
        handle(tx, seat, legal, parsed)
        return Outcome(tx.state, tx.events)

    def default_order(self, state: State, seat: int) -> Mapping[str, Any]:
        return self._legal(state, seat).default.model_dump(mode="json")

    def sample_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return sample(state, seat, self._legal(state, seat), rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def seat_summary(self, state: State, seat: int) -> dict[str, str | int]:
        """What anyone may know of a seat, for a replacement: everything here is public (§27.4)."""
        nation = state.players[seat]
        return {
            N_("Nation"): nation.nation,
            N_("Cities"): state.city_count(seat),
            N_("Tokens on the board"): nation.board_tokens(),
            N_("A.S.T. space"): nation.ast,
        }

    def progress(self, state: State) -> tuple[int, int]:
        """How far the game has gone: the furthest A.S.T. marker out of the finish space."""
        return (1 + max(nation.ast for nation in state.players), 1 + FINISH)

    def standings(self, state: State) -> list[Standing] | None:
        if state.phase != "over":
            return None
        from app.games.advciv.view import public_score

        scores = [public_score(state, seat) for seat in range(len(state.players))]
        return [
            Standing(seat, 1 + sum(other > score for other in scores), float(score))
            for seat, score in sorted(enumerate(scores), key=lambda item: (-item[1], item[0]))
        ]

    def dump(self, state: State) -> dict[str, Any]:
        return {"version": DUMP_VERSION, **dump(state)}

    def load(self, data: dict[str, Any]) -> State:
        if data.get("version") != DUMP_VERSION:
            raise ValueError(f"unknown Advanced Civilization dump version {data.get('version')!r}")
        return load({name: value for name, value in data.items() if name != "version"})

    def _legal(self, state: State, seat: int) -> Legal:
        legal = legal_for(state, seat)
        if legal is None:
            raise RuleError("not_awaited", "The game is not waiting for this seat.")
        return legal


RULES = AdvcivRules()
