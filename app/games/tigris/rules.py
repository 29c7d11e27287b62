"""The Tigris & Euphrates rules object: the contract of app.games.contract over a frozen `State`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from app.games.contract import N_, Outcome, RuleError, Standing
from app.games.kit.legal import awaited
from app.games.kit.rules import KitRules
from app.games.tigris import bot, flow
from app.games.tigris.model import OFF, RNG_VERSION, State, dump, load
from app.games.tigris.orders import Legal, Order, parse_order
from app.games.tigris.phases import check, handle, legal_for, sample
from app.games.tigris.scoring import final_results
from app.games.tigris.tx import Tx
from app.games.tigris.view import view as build_view

TOTAL_TILES = 153


class TigrisOptions(BaseModel):
    english_variant: bool = Field(
        False,
        title=N_("English variant"),
        description=N_(
            "The rulebook's English variant: an attacker may add support only to beat the defender, and a "
            "defender only exactly what ties (and so wins)."
        ),
        json_schema_extra={"summary": N_("English variant of conflicts")},
    )
    open_scoring: bool = Field(
        False,
        title=N_("Open scoring"),
        description=N_("Everybody sees everybody's victory points and treasures during the game."),
        json_schema_extra={"summary": N_("open scoring")},
    )
    # Set by the server, never chosen: the lobby stores every option, so the options of a game created
    # before this field lack it, and `new_game` then replays it on the generator it began on.
    rng_version: SkipJsonSchema[int] = Field(RNG_VERSION, ge=0, le=RNG_VERSION)


class TigrisRules(KitRules[State, Legal]):
    id: str = "tigris"
    title: str = "Tigris & Euphrates"
    state_type = State
    min_players: int = 2
    max_players: int = 4
    Options: type[BaseModel] = TigrisOptions
    Order: Any = Order

    def new_game(self, options: BaseModel, players: int, seed: int) -> State:
        chosen = TigrisOptions.model_validate(options.model_dump())
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Tigris & Euphrates is for 2 to 4 players, not {players}")
        stored = "rng_version" in options.model_fields_set
        rng_version = chosen.rng_version if stored else 0
        return flow.new_game(players, seed, chosen.english_variant, chosen.open_scoring, rng_version)

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("game_over", "The game is over.")
        legal = awaited(legal_for(state, seat), "The game is not waiting for you now.")
        parsed = parse_order(order)
        check(state, seat, legal, parsed)
        tx = Tx(state)
        handle(tx, seat, parsed)
        return Outcome(tx.state, tx.events)

    def legal_for(self, state: State, seat: int) -> Legal | None:
        return legal_for(state, seat)

    def sample_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return sample(state, self.awaited_legal(state, seat), rng)

    def bot_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return bot.bot_order(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def seat_summary(self, state: State, seat: int) -> dict[str, str | int]:
        """What anyone may know of a seat (its points only under open scoring), for a replacement."""
        player = state.players[seat]
        summary: dict[str, str | int] = {
            N_("Leaders on the board"): sum(1 for square in player.leaders if square != OFF),
            N_("Catastrophe tiles left"): player.catastrophes,
        }
        if state.open_scoring:
            summary[N_("Lowest colour score")] = min(player.points)
            summary[N_("Treasures")] = player.treasures
        return summary

    def progress(self, state: State) -> tuple[int, int]:
        """How far the game has gone, for the absence ladder: the tiles drawn out of the bag of 153."""
        return (1 + TOTAL_TILES - sum(state.bag), 1 + TOTAL_TILES)

    def standings(self, state: State) -> list[Standing] | None:
        if state.phase != "over":
            return None
        return [
            Standing(result["seat"], result["place"], float(result["score"]))
            for result in sorted(final_results(state), key=lambda result: (result["place"], result["seat"]))
        ]

    def encode(self, state: State) -> dict[str, Any]:
        return dump(state)

    def decode(self, data: dict[str, Any]) -> State:
        return load(data)


RULES = TigrisRules()
