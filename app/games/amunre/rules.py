"""The Amun-Re rules object: the contract of app.games.contract over a frozen `State`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from app.games.amunre import bot, flow
from app.games.amunre.actions import handle
from app.games.amunre.model import ROUNDS, RULES_VERSION, State
from app.games.amunre.orders import Legal, OfferOrder, Order, OrderModel, PayBidOrder, parse_order
from app.games.amunre.phases import (
    ANYTIME,
    SIMULTANEOUS,
    anytime_for,
    check_offering,
    check_sale,
    legal_for,
)
from app.games.amunre.sample import sample
from app.games.amunre.scoring import places, pyramids_of
from app.games.amunre.tx import Tx
from app.games.amunre.view import public_hand_size
from app.games.amunre.view import view as build_view
from app.games.contract import N_, Outcome, RuleError, Standing
from app.games.kit.legal import awaited
from app.games.kit.rules import KitRules


class AmunReOptions(BaseModel):
    """Amun-Re has no options to choose."""

    # Set by the server, never chosen: the lobby stores every option, so the options of a game created
    # before this field lack it, and `new_game` then replays it on the rules it began on.
    rules_version: SkipJsonSchema[int] = Field(RULES_VERSION, ge=0, le=RULES_VERSION)


class AmunReRules(KitRules[State, Legal]):
    id: str = "amunre"
    title: str = "Amun-Re"
    state_type = State
    simultaneous = SIMULTANEOUS
    min_players: int = 3
    max_players: int = 5
    Options: type[BaseModel] = AmunReOptions
    Order: Any = Order

    def new_game(self, options: BaseModel, players: int, seed: int) -> State:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Amun-Re is for 3 to 5 players, not {players}")
        chosen = AmunReOptions.model_validate(options.model_dump())
        stored = "rules_version" in options.model_fields_set
        return flow.new_game(players, seed, chosen.rules_version if stored else 0)

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("game_over", "The game is over.")
        if isinstance(order, Mapping) and order.get("type") in ANYTIME:
            parsed = parse_order(order)
            check_anytime(anytime_for(state, seat), parsed)
        else:
            legal = awaited(legal_for(state, seat), "The game is not waiting for you now.")
            parsed = parse_order(order)
            check(legal, parsed)
        tx = Tx(state)
        handle(tx, seat, parsed)
        flow.advance(tx)
        return Outcome(tx.state, tx.events)

    # Orders a seat may send whether or not the game waits on it: a sale keeps every wait as it is.
    anytime_orders: frozenset[str] = frozenset(ANYTIME)

    def legal_for(self, state: State, seat: int) -> Legal | None:
        return legal_for(state, seat)

    def sample_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return sample(self.awaited_legal(state, seat), anytime_for(state, seat), rng)

    def bot_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return bot.bot_order(state, seat, rng)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(state, seat)

    def seat_summary(self, state: State, seat: int) -> dict[str, str | int]:
        """What anyone may know of a seat, for a replacement deciding whether to take it."""
        player = state.players[seat]
        return {
            N_("Points"): player.points,
            N_("Pyramids"): pyramids_of(state, seat),
            N_("Cards in hand"): public_hand_size(player),
        }

    def progress(self, state: State) -> tuple[int, int]:
        """How far the game has gone, for the absence ladder: the round out of six."""
        return (max(1, state.round), ROUNDS)

    def standings(self, state: State) -> list[Standing] | None:
        if state.phase != "over":
            return None
        return [Standing(seat, place, float(state.players[seat].points)) for seat, place in places(state)]


def check(legal: Legal, order: OrderModel) -> None:
    """Raise RuleError unless `order` is one of the things `legal` allows."""
    if order.type not in legal.types:
        raise RuleError(
            "wrong_order",
            "Now you must send a %(wanted)s order, not %(sent)s.",
            "type",
            params={"wanted": " or ".join(legal.types), "sent": order.type},
        )
    if isinstance(order, OfferOrder):
        check_offering(legal.limits or {}, order)
        return
    if isinstance(order, PayBidOrder):
        check_sale(legal.limits or {}, order)
        return
    if not legal.offers(order):
        raise RuleError("illegal_choice", "That choice is not allowed now.")


def check_anytime(legal: Legal | None, order: OrderModel) -> None:
    """Raise RuleError unless the seat may make this sale now (it holds the card)."""
    if legal is None or not legal.offers(order):
        raise RuleError("card_not_held", "You do not hold that power card.", "card")


RULES = AmunReRules()
