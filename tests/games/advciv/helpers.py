"""Building Advanced Civilization positions for the tests: units set by area key (stock adjusted so that
every count stays conserved), a phase begun, orders played."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from app.games.advciv import RULES, AdvcivOptions, flow, phases
from app.games.advciv.model import NOBODY, State, conserved
from app.games.advciv.tables import AREAS, INDEX
from app.games.advciv.tx import Tx
from app.games.contract import Outcome
from app.games.kit.model import evolve, replaced

NATIONS_3 = {0: "africa", 1: "crete", 2: "thrace"}  # A.S.T. order: africa, thrace, crete


def game(players: int = 3, seed: int = 1, draft: Mapping[int, str] | None = None) -> State:
    """A new game whose start tokens are all placed (each in its nation's first start area)."""
    state = RULES.new_game(AdvcivOptions(draft=dict(draft or {})), players, seed)
    while state.phase == "start":
        (wait,) = RULES.waits(state)
        area = flow.start_areas(state, wait.seat)[0]
        state = play(state, wait.seat, {"type": "start", "area": key(area)})
    return state


def blank(players: int = 3, draft: Mapping[int, str] | None = None) -> State:
    """A game at turn 1 with nothing on the board (units then set by `units`)."""
    chosen = dict(draft) if draft else (NATIONS_3 if players == 3 else {})
    state = RULES.new_game(AdvcivOptions(draft=chosen), players, 1)
    for seat in range(players):
        state = units(state, seat, {})
    return evolve(state, phase="tax", order=(), cursor=0, rates=(2,) * players)


def key(area: int) -> str:
    from app.games.advciv.tables import KEYS

    return KEYS[area]


def units(
    state: State,
    seat: int,
    tokens: Mapping[str, int],
    cities: Iterable[str] = (),
    cards: Iterable[str] | None = None,
    treasury: int | None = None,
    ships: Iterable[str] | None = None,
    stock: int | None = None,
) -> State:
    """`seat`'s tokens on the board exactly `tokens` (its stock makes up the difference, or `stock` with the
    total adjusted), its cities exactly `cities`, and optionally its cards, treasury and ships."""
    nation = state.players[seat]
    board = [0] * AREAS
    for name, count in tokens.items():
        board[INDEX[name]] = count
    wanted = set(INDEX[name] for name in cities)
    city_row = tuple(
        seat if area in wanted else (NOBODY if owner == seat else owner)
        for area, owner in enumerate(state.cities)
    )
    treasury = nation.treasury if treasury is None else treasury
    changes: dict[str, Any] = {"tokens": tuple(board), "treasury": treasury}
    if stock is None:
        changes["stock"] = nation.token_total - sum(board) - treasury
    else:
        changes["stock"] = stock
        changes["token_total"] = stock + sum(board) + treasury
    if cards is not None:
        changes["cards"] = frozenset(cards)
    if ships is not None:
        changes["ships"] = tuple(sorted(INDEX[name] for name in ships))
    state = evolve(state, cities=city_row)
    state = state.with_player(seat, evolve(nation, **changes))
    assert conserved(state)
    return state


def begin(state: State, phase: str) -> State:
    """Start `phase` on this position (the census first for ships and movement), then run what is
    automatic."""
    tx = Tx(state)
    if phase in ("ships", "move"):
        flow.census(tx)
    flow.BEGIN[phase](tx)
    flow.advance(tx)
    return phases.mark_first_actor(None, tx.state)


def play(state: State, seat: int, order: Mapping[str, Any]) -> State:
    return RULES.apply(state, seat, order).state


def tokens(state: State, seat: int, name: str) -> int:
    return state.players[seat].tokens[INDEX[name]]


def city(state: State, name: str) -> int:
    return state.cities[INDEX[name]]


def waited(state: State) -> list[int]:
    return [wait.seat for wait in RULES.waits(state)]


def set_field(state: State, seat: int, **changes: Any) -> State:
    return evolve(state, players=replaced(state.players, seat, evolve(state.players[seat], **changes)))


def land_keys(players: int, count: int, skip: Iterable[str] = ()) -> list[str]:
    """`count` land areas in play with `players` players, in board order, other than `skip`."""
    from app.games.advciv.tables import KEYS, LAND, in_play

    playable = in_play(players)
    skipped = set(skip)
    found = [
        KEYS[area] for area in range(AREAS) if LAND[area] and playable[area] and KEYS[area] not in skipped
    ]
    return found[:count]


def deal(state: State, seat: int, cards: Iterable[str]) -> State:
    """`cards` moved from their stacks into `seat`'s hand (so that every card stays counted once)."""
    from app.games.advciv.trade_cards import stack_of

    deck = [list(stack) for stack in state.deck]
    hand = list(state.hands[seat])
    for card in cards:
        deck[stack_of(card) - 1].remove(card)
        hand.append(card)
    state = evolve(
        state, deck=tuple(tuple(stack) for stack in deck), hands=replaced(state.hands, seat, tuple(hand))
    )
    assert conserved(state)
    return state


def random_play(
    state: State, rng: random.Random, limit: int, embargo_over: float = 0.0
) -> Iterator[tuple[int, dict[str, Any], Outcome[State]]]:
    """Up to `limit` random orders, each by a random awaited seat, until nobody is awaited: (seat, order,
    outcome) each time. With `embargo_over`, that share of the orders during a market's embargo is the
    clock's (sent for the first awaited seat, as the platform does)."""
    for _ in range(limit):
        waits = RULES.waits(state)
        if not waits:
            return
        market = state.market
        if market is not None and market.embargo and rng.random() < embargo_over:
            seat, order = waits[0].seat, dict(RULES.clock_order)
        else:
            seat = rng.choice(waits).seat
            order = json.loads(json.dumps(RULES.sample_order(state, seat, rng)))
        outcome = RULES.apply(state, seat, order)
        yield seat, order, outcome
        state = outcome.state
