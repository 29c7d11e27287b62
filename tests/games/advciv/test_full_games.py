"""Random games of 3 to 8 players played to their end (an agreed last turn of 6 to 10), the clock's end of
the embargo sent now and then during a market. After every order: every count conserved, every awaited
seat's default legal, the dump loading back to the same state; in the markets, no seat's view holding
another seat's real cards (its hand, or what its lies really give); at the end, a replay from `new_game`
and the orders giving the same state, and standings for every seat. A fixed budget: a few seeds."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from app.games.advciv import RULES
from app.games.advciv.market import Side
from app.games.advciv.model import State, conserved
from app.games.kit.model import evolve
from tests.games.advciv.helpers import begin, random_play
from tests.games.advciv.test_properties import rich_start
from tests.games.advciv.test_setup_hidden import _hands_blurred

# (players, seed, last turn, begun with cities and civ cards)
GAMES = [
    (3, 0, 6, True),
    (5, 1, 6, True),
    (8, 2, 6, True),
    (4, 3, 7, True),
    (6, 4, 8, False),
    (7, 5, 6, True),
    (3, 6, 10, True),
    (8, 7, 8, True),
    (5, 8, 10, True),
    (6, 9, 7, True),
    (4, 10, 10, False),
    (8, 11, 6, False),
]
MAX_ORDERS = 20_000


def _blurred_side(side: Side, seat: int | None) -> Side:
    if side.seat == seat:
        return side
    return replace(
        side, cards=tuple(reversed(side.cards)) if len(set(side.cards)) > 1 else ("ochre",) * len(side.cards)
    )


def market_blurred(state: State, seat: int | None, rng: random.Random) -> State:
    """Every other seat's hand changed (`_hands_blurred`), and the real cards of its offers and agreed
    trades changed too: only what was said stays."""
    blurred = _hands_blurred(state, seat, rng)
    market = state.market
    if market is None:
        return blurred
    offers = tuple(replace(offer, side=_blurred_side(offer.side, seat)) for offer in market.offers)
    agreed = tuple(
        replace(trade, first=_blurred_side(trade.first, seat), second=_blurred_side(trade.second, seat))
        for trade in market.agreed
    )
    return evolve(blurred, market=replace(market, offers=offers, agreed=agreed))


def _views_hide_the_others(state: State, rng: random.Random) -> None:
    for viewer in [None, *range(len(state.players))]:
        shown = json.dumps(RULES.view(state, viewer), sort_keys=True)
        assert shown == json.dumps(RULES.view(market_blurred(state, viewer, rng), viewer), sort_keys=True)


@pytest.mark.parametrize(("players", "seed", "last_turn", "rich"), GAMES)
def test_random_games_to_the_end(players: int, seed: int, last_turn: int, rich: bool) -> None:
    rng = random.Random(seed)
    first = RULES.new_game(RULES.Options(last_turn=last_turn), players, seed)
    if rich:  # cities and civ cards from the start, so that cards are drawn and markets open
        while first.phase == "start":
            (wait,) = RULES.waits(first)
            first = RULES.apply(first, wait.seat, RULES.default_order(first, wait.seat)).state
        first = begin(rich_start(first, random.Random(seed)), "tax")
    state = first
    log: list[tuple[int, dict[str, object]]] = []
    lies_checked = 0
    for step, (seat, order, outcome) in enumerate(random_play(first, rng, MAX_ORDERS, embargo_over=0.05)):
        log.append((seat, order))
        state = outcome.state
        assert conserved(state)
        for wait in RULES.waits(state):
            RULES.apply(state, wait.seat, RULES.default_order(state, wait.seat))
        if step % 4 == 0:
            assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state
        market = state.market
        if state.phase == "trade" and market is not None and (market.offers or market.agreed):
            lies_checked += 1
            _views_hide_the_others(state, rng)
    assert state.phase == "over" and state.turn <= last_turn
    standings = RULES.standings(state)
    assert standings is not None and sorted(s.seat for s in standings) == list(range(players))
    assert lies_checked or not rich  # a market with offers was looked at
    replayed = first
    for seat, order in log:
        replayed = RULES.apply(replayed, seat, order).state
    assert RULES.dump(replayed) == RULES.dump(state)
