"""Games through a game's own rules: an awaited seat drawn at random sends its order (`sample_order`, or the
game's bot), until the game waits on nobody or the orders asked for are played. The order log such a game
makes is what the server would have stored; the benches and the replay corpus are made of it."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.games.contract import Event, GameRules, created_options

Chooser = Callable[[Any, int, random.Random], Mapping[str, Any]]  # (state, seat, rng) -> the seat's order


@dataclass(frozen=True)
class PlayedOrder:
    seat: int
    payload: Mapping[str, Any]
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Playout:
    options: dict[str, Any]  # as stored with the game (the rules' Options, dumped as JSON)
    players: int
    seed: int
    orders: list[PlayedOrder]
    state: Any  # after every order


def play_random(
    rules: GameRules[Any], players: int, seed: int, max_orders: int, options: Mapping[str, Any] | None = None
) -> Playout:
    """A random game of `rules`, from `seed` (the game's and the choices' both), of `max_orders` orders at
    most; fewer when it ends before."""
    return play_out(rules, rules.sample_order, players, seed, max_orders, options)


def play_out(
    rules: GameRules[Any],
    choose: Chooser,
    players: int,
    seed: int,
    max_orders: int,
    options: Mapping[str, Any] | None = None,
) -> Playout:
    """A game of `rules` where an awaited seat drawn at random sends `choose`'s order (`sample_order`, or
    the game's bot), from `seed` (the game's and the choices' both), of `max_orders` orders at most."""
    # every option as the lobby stores it, read back as a replay reads it (a field the server sets, such as
    # Tigris's `rng_version`, then counts as given)
    stored = created_options(rules, options).model_dump(mode="json")
    state = rules.new_game(rules.Options.model_validate(stored), players, seed)
    rng = random.Random(seed)
    played: list[PlayedOrder] = []
    while len(played) < max_orders:
        waits = rules.waits(state)
        if not waits:
            break
        seat = rng.choice(waits).seat
        order = dict(choose(state, seat, rng))
        outcome = rules.apply(state, seat, order)
        played.append(PlayedOrder(seat, order, outcome.events))
        state = outcome.state
    return Playout(stored, players, seed, played, state)
