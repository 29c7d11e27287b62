"""The Advanced Civilization rules object: the contract of app.games.contract over a frozen `State`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field
from pydantic.json_schema import SkipJsonSchema

from app.games.advciv import bot, scoring, setup
from app.games.advciv.model import State, dump, final_score, load, options_set
from app.games.advciv.orders import CLOCK_ORDER, TRADE_ORDERS, Legal, Order, parse_order
from app.games.advciv.phases import handle, legal_for, mark_first_actor, sample, waits
from app.games.advciv.tables import FINISH, nations_for
from app.games.advciv.trade_cards import TradeCardOptions, build_deck
from app.games.advciv.tx import Tx
from app.games.advciv.view import view as build_view
from app.games.contract import N_, Outcome, RuleError, Standing, Wait
from app.games.kit.legal import awaited
from app.games.kit.model import evolve
from app.games.kit.rules import KitRules


class AdvcivOptions(BaseModel):
    # Set by the platform's nation draft, never chosen at creation.
    draft: SkipJsonSchema[dict[int, str]] = Field(
        default_factory=dict, description="Each seat's nation, from the platform's nation draft."
    )
    last_turn: int | None = Field(
        None,
        ge=1,
        le=99,
        title=N_("Last turn"),
        description=N_(
            "The game ends after this turn, if no nation reaches the end of the A.S.T. first. Empty: no last "
            "turn."
        ),
        json_schema_extra={"summary": N_("ends after turn %(value)s"), "shown": True},
    )
    hand_limit: int = Field(
        8,
        ge=4,
        le=16,
        title=N_("Hand limit"),
        description=N_("Trade cards a player may keep after buying advances (the rules say 8)."),
        json_schema_extra={"summary": N_("hand limit %(value)s"), "shown": True},
    )
    tokens: int | None = Field(
        None,
        ge=20,
        le=55,
        title=N_("Tokens per nation"),
        description=N_("Empty: as the rules say, 47 with 8, 5 or 3 players, else 55."),
        json_schema_extra={"summary": N_("%(value)s tokens per nation")},
    )
    stoic: bool = Field(
        False,
        title=N_("Stoic option"),
        description=N_("A player may be the primary victim of more than 2 calamities a turn."),
        json_schema_extra={"summary": N_("Stoic: more than 2 calamities a turn")},
    )
    stack_counts_visible: bool = Field(
        True,
        title=N_("Stack sizes shown"),
        description=N_("Players see how many cards each trade card stack holds."),
        json_schema_extra={"summary": N_("stack sizes hidden")},
    )
    calamity_position_visible: bool = Field(
        False,
        title=N_("Calamity depth shown"),
        description=N_("Players see how deep each non-tradable calamity lies in its stack."),
        json_schema_extra={"summary": N_("calamity depth shown")},
    )
    hide_upcoming_calamities: bool = Field(
        False,
        title=N_("Only the current calamity shown"),
        description=N_("While calamities resolve, only the one being resolved is shown."),
        json_schema_extra={"summary": N_("upcoming calamities hidden")},
    )
    calamity_shuffle: bool = Field(
        False,
        title=N_("Calamities shuffled low"),
        description=N_("A non-tradable calamity is shuffled into the bottom three cards of its stack."),
        json_schema_extra={"summary": N_("calamities shuffled into the bottom three cards")},
    )
    announce_trades: bool = Field(
        True,
        title=N_("Public trade mail"),
        description=N_("What each trade's players say they gave is mailed to every player."),
        json_schema_extra={"summary": N_("no public trade mail")},
    )

    def trade(self) -> TradeCardOptions:
        return TradeCardOptions(**{name: getattr(self, name) for name in TradeCardOptions.model_fields})


class AdvcivRules(KitRules[State, Legal]):
    id: str = "advciv"
    title: str = "Advanced Civilization"
    state_type = State
    min_players: int = 2
    max_players: int = 8
    Options: type[BaseModel] = AdvcivOptions
    Order: Any = Order
    anytime_orders: frozenset[str] = TRADE_ORDERS  # a seat that left the market may still trade (site F-I4)
    clock_order: Mapping[str, Any] = CLOCK_ORDER  # the platform's, when the market's embargo ends

    def draft_choices(self, options: BaseModel, players: int) -> list[str]:
        """The nations the platform's seat draft offers (§16: by player count)."""
        return list(nations_for(players))

    def new_game(self, options: BaseModel, players: int, seed: int) -> State:
        chosen = AdvcivOptions.model_validate(options.model_dump())
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Advanced Civilization is for 2 to 8 players, not {players}")
        state = setup.new_game(players, seed, chosen.draft, chosen.tokens, chosen.trade())
        state = evolve(
            state,
            hand_limit=chosen.hand_limit,
            last_turn=chosen.last_turn or 0,
            trade_mail=chosen.announce_trades,
        )
        return mark_first_actor(None, state)

    def waits(self, state: State) -> list[Wait]:
        return waits(state)

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        if state.phase == "over":
            raise RuleError("game_over", "The game is over.")
        legal = awaited(legal_for(state, seat), "The game is not waiting for you now.")
        parsed = parse_order(order)
        tx = Tx(state)
        handle(tx, seat, legal, parsed)
        return Outcome(mark_first_actor(state, tx.state, seat), tx.events)

    def legal_for(self, state: State, seat: int) -> Legal | None:
        return legal_for(state, seat)

    def sample_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        return sample(state, seat, self.awaited_legal(state, seat), rng)

    def bot_order(self, state: State, seat: int, rng: random.Random) -> Mapping[str, Any]:
        """The heuristic player's order (`bot.py`): pure, seeded by `rng`, from what the seat may know."""
        return bot.bot_order(state, seat, rng)

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
        """§35: the whole score, trade cards in hand included; equal totals share a place (§35.2)."""
        if state.phase != "over":
            return None
        totals = [final_score(state, seat).total for seat in range(len(state.players))]
        places = scoring.places(totals)
        return [
            Standing(seat, places[seat], float(totals[seat]))
            for seat in sorted(range(len(totals)), key=lambda seat: (places[seat], seat))
        ]

    def encode(self, state: State) -> dict[str, Any]:
        return dump(state)

    def decode(self, data: dict[str, Any]) -> State:
        state = load(data)
        return state if "deck" in data else _before_trade_cards(state)


def _before_trade_cards(state: State) -> State:
    """A game stored before trade cards existed: its deck set up now, from its generator's word but
    without drawing from it, and empty hands."""
    options = TradeCardOptions()
    players = len(state.players)
    return evolve(
        state,
        deck=build_deck(players, setup.deck_randbelow(state.rng), options),
        hands=((),) * players,
        unsupporting=(0,) * players,
        options=options_set(options),
    )


RULES = AdvcivRules()
