"""The Dragonstones rules object: the contract of app.games.contract over a frozen `State`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from app.games.contract import N_, Outcome, RuleError, Standing
from app.games.dragonstones import bot, flow
from app.games.dragonstones.auction import rebid_legal
from app.games.dragonstones.model import State
from app.games.dragonstones.orders import Legal, Order, parse_order
from app.games.dragonstones.phases import check, handle, legal_for, sample
from app.games.dragonstones.tx import Tx
from app.games.dragonstones.view import view as build_view
from app.games.kit.legal import awaited
from app.games.kit.rules import KitRules


class DragonstonesOptions(BaseModel):
    points_to_win: int = Field(
        3,
        ge=2,
        le=5,
        title=N_("Points to win"),
        description=N_("Points needed to win (the rules say 3)."),
        json_schema_extra={"summary": N_("%(value)s points to win"), "shown": True},
    )


class DragonstonesRules(KitRules[State, Legal]):
    id: str = "dragonstones"
    title: str = "Dragonstones"
    state_type = State
    simultaneous = ("bid", "tiebreak")
    min_players: int = 3
    max_players: int = 6
    Options: type[BaseModel] = DragonstonesOptions
    Order: Any = Order

    def new_game(self, options: BaseModel, players: int, seed: int) -> State:
        chosen = DragonstonesOptions.model_validate(options.model_dump())
        return flow.new_game(players, seed, chosen.points_to_win)

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        if state.winner is not None:
            raise RuleError("game_over", "The game is over.")
        if isinstance(order, Mapping) and order.get("type") in self.anytime_orders:
            legal = awaited(rebid_legal(state, seat), "You have no bid to change now.")
        else:
            legal = awaited(legal_for(state, seat), "The game is not waiting for you now.")
        parsed = parse_order(order)
        check(legal, parsed)
        tx = Tx(state)
        handle(tx, seat, parsed)
        flow.advance(tx)
        return Outcome(tx.state, tx.events)

    # Orders a seat may send while the game does not wait on it: a sealed bid changed until the last bid.
    anytime_orders: frozenset[str] = frozenset({"rebid"})

    def legal_for(self, state: State, seat: int) -> Legal | None:
        return legal_for(state, seat)

    def sample_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return sample(self.awaited_legal(state, seat), rng)

    def bot_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return bot.bot_order(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def seat_summary(self, state: State, seat: int) -> dict[str, str | int]:
        """What anyone may know of a seat, for a replacement deciding whether to take it."""
        player = state.players[seat]
        return {
            N_("Points"): f"{player.points} / {state.points_to_win}",
            N_("Stones"): player.stones.total(),
            N_("Fairy gold in front of the screen"): player.front_fairy,
        }

    def progress(self, state: State) -> tuple[int, int]:
        """How far the game has gone, for the absence ladder: the leader's points towards the target."""
        return (1 + max(player.points for player in state.players), 1 + state.points_to_win)

    def standings(self, state: State) -> list[Standing] | None:
        if state.winner is None:
            return None
        points = [player.points for player in state.players]
        standings = [Standing(state.winner, 1, float(points[state.winner]))]
        others = [seat for seat in range(len(points)) if seat != state.winner]
        for seat in sorted(others, key=lambda s: (-points[s], s)):
            place = 2 + sum(1 for other in others if points[other] > points[seat])
            standings.append(Standing(seat, place, float(points[seat])))
        return standings


RULES = DragonstonesRules()
