"""Random 2–8 player games as a hypothesis state machine, 20 turns each, checking after every order that
tokens, cities, ships, trade cards, barbarians and pirate cities are conserved, that every awaited seat
has a legal default (every calamity's choices included), that illegal orders change nothing, that
population limits hold once surplus is removed, and at the end that a replay from the first position and
the orders gives the stored state. Half the games start with cities and civ cards already on the board,
so that trade cards are drawn and calamities strike from the first turn. The budget is fixed (a few games
of 20 turns)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from app.games.advciv import RULES, cards
from app.games.advciv.board import BOARD
from app.games.advciv.model import NOBODY, State, conserved
from app.games.advciv.tables import AREAS, KEYS, LAND, LIMITS, in_play
from app.games.advciv.trade_cards import CALAMITIES
from app.games.contract import RuleError
from tests.games.advciv.helpers import deal, units

TURNS = 20
ALWAYS_ILLEGAL: list[dict[str, Any]] = [
    {},
    {"type": "shout"},
    {"type": "tax", "rate": 7},
    {"type": "move", "origin": "nowhere", "to": "carthago", "tokens": 1},
    {"type": "move", "origin": "carthago", "to": "carthago", "tokens": 0},
    {"type": "pillage", "tokens": 4},
    {"type": "reduce", "area": "atlantis"},
    {"type": "expand", "areas": {"carthago": -1}},
    {"type": "build", "areas": ["nowhere"]},
    {"type": "gold", "cards": -1},
    {"type": "pick", "picks": ["atlantis"]},
    {"type": "lose", "units": [{"area": "atlantis", "tokens": 1}]},
    {"type": "assign", "amounts": {"0": -5}},
]
# where surplus removal (§26.1) was the last thing to touch the board; calamities (phase 11) may leave more
# in an area (a conversion, an annexed faction) until the next turn's removal
AFTER_SURPLUS = {"support", "gold"}


def rich_start(state: State, rng: random.Random, calamities: int | None = None) -> State:
    """Each seat with cities and tokens on areas of its own and a few civ cards; a few calamities dealt
    to random hands, so that they strike in the first turn."""
    playable = in_play(len(state.players))
    land = [area for area in range(AREAS) if LAND[area] and playable[area]]
    rng.shuffle(land)
    sites = [area for area in land if BOARD.areas[area].city_site]
    others = [area for area in land if not BOARD.areas[area].city_site]
    for seat in range(len(state.players)):
        mine, sites = sites[: rng.randint(1, 5)], sites[5:]
        near, others = others[:3], others[3:]
        tokens = {KEYS[area]: min(2, LIMITS[area]) for area in near}
        held = rng.sample(sorted(cards.CIV_CARDS), rng.randint(0, 6))
        state = units(state, seat, tokens, cities=[KEYS[area] for area in mine], cards=held)
    dealt = rng.randint(0, 5) if calamities is None else calamities
    for card in rng.sample(sorted(CALAMITIES), dealt):
        state = deal(state, rng.randrange(len(state.players)), [card])
    return state


def limits_hold(state: State) -> bool:
    """§26.1: no tokens in a city's area; one nation alone keeps no more than the limit (+1 Agriculture)."""
    for area in range(AREAS):
        if not LAND[area]:
            continue
        present = [seat for seat, nation in enumerate(state.players) if nation.tokens[area]]
        if state.cities[area] != NOBODY and present:
            return False
        if len(present) == 1:
            nation = state.players[present[0]]
            if nation.tokens[area] > cards.population_limit(LIMITS[area], nation.cards, alone=True):
                return False
    return True


class RandomGames(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.state: State | None = None
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.players = 0
        self.seed = 0
        self.first: State | None = None

    @initialize(players=st.integers(2, 8), seed=st.integers(0, 2**32 - 1), rich=st.booleans())
    def start(self, players: int, seed: int, rich: bool) -> None:
        self.players, self.seed = players, seed
        self.state = RULES.new_game(RULES.Options(stoic=seed % 3 == 0), players, seed)
        if rich:
            while self.state.phase == "start":
                (wait,) = RULES.waits(self.state)
                self.state = RULES.apply(
                    self.state, wait.seat, RULES.default_order(self.state, wait.seat)
                ).state
            self.state = rich_start(self.state, random.Random(seed))
        self.first = self.state

    @rule(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 60))
    def play(self, seed: int, count: int) -> None:
        rng = random.Random(seed)
        for _ in range(count):
            if not self._step(rng):
                return

    def _step(self, rng: random.Random) -> bool:
        """One random order by a random awaited seat, with the checks; False once the 10 turns are over."""
        assert self.state is not None
        waits = RULES.waits(self.state)
        if not waits or self.state.turn > TURNS:
            return False
        for wait in waits:  # every awaited seat has a legal default
            RULES.apply(self.state, wait.seat, RULES.default_order(self.state, wait.seat))
        seat = rng.choice(waits).seat
        self._illegal_changes_nothing(seat, rng)
        order = json.loads(json.dumps(RULES.sample_order(self.state, seat, rng)))
        self.state = RULES.apply(self.state, seat, order).state
        self.log.append((seat, order))
        self._check()
        return True

    def _illegal_changes_nothing(self, seat: int, rng: random.Random) -> None:
        assert self.state is not None
        before = RULES.dump(self.state)
        with pytest.raises(RuleError):
            RULES.apply(self.state, seat, rng.choice(ALWAYS_ILLEGAL))
        assert RULES.dump(self.state) == before

    def _check(self) -> None:
        assert self.state is not None
        assert conserved(self.state)
        if self.state.phase in AFTER_SURPLUS:
            assert limits_hold(self.state)

    def teardown(self) -> None:
        """Replay from `new_game` and the orders gives the stored state (and its dump loads back)."""
        if self.state is None:
            return
        rng = random.Random(self.seed)
        while self._step(rng):  # the rest of the turns
            pass
        assert self.state.turn > TURNS or not RULES.waits(self.state)
        replayed = self.first
        assert replayed is not None
        for seat, order in self.log:
            replayed = RULES.apply(replayed, seat, order).state
        stored = json.loads(json.dumps(RULES.dump(self.state)))
        assert RULES.dump(replayed) == stored and RULES.load(stored) == self.state


RandomGames.TestCase.settings = settings(
    max_examples=8,
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_random_games = RandomGames.TestCase
