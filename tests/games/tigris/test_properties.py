"""Random 2-4 player games played to the end as a hypothesis state machine, checking after every order:
tiles and pieces are conserved, no kingdom ends an action with two leaders of one colour, illegal orders
change nothing, no view shows another seat's secrets, and replaying the orders gives the same state."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from app.games.contract import RuleError
from app.games.tigris import RULES, TigrisOptions
from app.games.tigris.board import NAMES, SIZE
from app.games.tigris.kingdoms import doubled_colours
from app.games.tigris.model import State
from tests.games.tigris.helpers import blur

MAX_ORDERS = 3000

# Orders that are illegal in every state: malformed, out of range, or naming nothing.
ALWAYS_ILLEGAL: list[dict[str, Any]] = [
    {},
    {"type": "shout"},
    {"type": "tile", "colour": "purple", "square": "A1"},
    {"type": "tile", "colour": "red", "square": "Q12"},
    {"type": "tile", "colour": "red"},
    {"type": "leader", "colour": "red", "square": "A0"},
    {"type": "swap", "tiles": {"red": -1}},
    {"type": "swap", "tiles": {"red": 7}},
    {"type": "support", "count": -1},
    {"type": "support", "count": 99},
    {"type": "war", "colour": "white"},
    {"type": "monument", "square": "A1", "monument": "red-red"},
    {"type": "treasure", "leave": "Z9"},
    {"type": "pass", "extra": 1},
]
PRIVATE_EVENTS = {"drew", "swapped_detail"}
PIECES = ["tile:red", "tile:blue", "tile:green", "tile:black", "leader:red", "leader:green", "catastrophe"]


def _seats(state: State) -> list[int]:
    return [wait.seat for wait in RULES.waits(state)]


class TigrisGame(RuleBasedStateMachine):
    state: State

    @initialize(
        players=st.integers(2, 4),
        seed=st.integers(0, 2**40),
        english=st.booleans(),
        open_scoring=st.booleans(),
    )
    def start(self, players: int, seed: int, english: bool, open_scoring: bool) -> None:
        self.options = TigrisOptions(english_variant=english, open_scoring=open_scoring)
        self.seats = players
        self.seed = seed
        self.state = RULES.new_game(self.options, players, seed)
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.rng = random.Random(seed)

    def _play(self, seat: int, order: Any) -> None:
        outcome = RULES.apply(self.state, seat, order)
        self.log.append((seat, dict(order)))
        self.state = outcome.state
        for event in outcome.events:
            json.dumps(event.data)
            if event.kind in PRIVATE_EVENTS:
                assert event.to == frozenset({event.data["seat"]})
            elif event.kind == "scored":
                assert event.to == (None if self.state.open_scoring else frozenset({event.data["seat"]}))
            else:
                assert event.to is None, event
        self._check_pieces()

    def _check_pieces(self) -> None:
        state = self.state
        assert state.tile_total() == 153
        assert all(min(player.hand) >= 0 and sum(player.hand) <= 6 for player in state.players)
        assert min(state.bag) >= 0
        assert sum(p.catastrophes for p in state.players) + state.board.count("x") == 2 * self.seats
        assert len(state.treasures) + sum(p.treasures for p in state.players) == 10
        assert all(state.board[sq] in "rd" for sq in state.treasures)
        squares = [sq for player in state.players for sq in player.leaders if sq != -1]
        assert len(squares) == len(set(squares)) and all(state.board[sq] == "." for sq in squares)
        if state.phase not in ("support", "war_order"):
            assert doubled_colours(state) == []  # no kingdom ends an action with two leaders of one colour
        if state.phase == "over":
            assert RULES.standings(state) is not None

    @precondition(lambda self: bool(_seats(self.state)))
    @rule(count=st.integers(1, 40), defaults=st.floats(0, 0.2))
    def play_some(self, count: int, defaults: float) -> None:
        for _ in range(count):
            seats = _seats(self.state)
            if not seats:
                return
            seat = seats[0]
            if self.rng.random() < defaults:
                order = RULES.default_order(self.state, seat)
            else:
                order = RULES.sample_order(self.state, seat, self.rng)
            self._play(seat, order)

    @rule(pick=st.integers(0, 3), bad=st.sampled_from(ALWAYS_ILLEGAL))
    def refuse_nonsense(self, pick: int, bad: dict[str, Any]) -> None:
        self._refused(pick % self.seats, bad)

    @precondition(lambda self: bool(_seats(self.state)))
    @rule(piece=st.sampled_from(PIECES), square=st.integers(0, SIZE - 1))
    def refuse_an_illegal_placement(self, piece: str, square: int) -> None:
        seat = _seats(self.state)[0]
        view = RULES.view(self.state, seat)["legal"]
        if NAMES[square] in view["targets"].get(piece, []):
            return
        kind, _, colour = piece.partition(":")
        order = {"type": kind, "square": NAMES[square], **({"colour": colour} if colour else {})}
        self._refused(seat, order)

    @rule(pick=st.integers(0, 3))
    def refuse_a_seat_not_awaited(self, pick: int) -> None:
        seats = _seats(self.state)
        idle = [s for s in range(self.seats) if s not in seats]
        if seats and idle:
            error = self._refused(idle[pick % len(idle)], RULES.default_order(self.state, seats[0]))
            assert error.code == "not_awaited"

    def _refused(self, seat: int, order: Mapping[str, Any]) -> RuleError:
        before = RULES.dump(self.state)
        with pytest.raises(RuleError) as caught:
            RULES.apply(self.state, seat, order)
        assert RULES.dump(self.state) == before
        return caught.value

    @invariant()
    def waits_views_and_defaults_agree(self) -> None:
        seats = _seats(self.state)
        assert len(seats) <= 1 and bool(seats) == (self.state.phase != "over")
        for seat in range(self.seats):
            legal = RULES.view(self.state, seat)["legal"]
            assert (legal["phase"] is not None) == (seat in seats)
        for seat in seats:
            RULES.apply(self.state, seat, RULES.default_order(self.state, seat))

    @invariant()
    def views_hide_the_other_seats_secrets(self) -> None:
        state = self.state
        if state.phase == "over":
            return
        for seat in [*range(self.seats), None]:
            shown = json.dumps(RULES.view(state, seat), sort_keys=True)
            assert shown == json.dumps(RULES.view(blur(state, seat), seat), sort_keys=True)

    def teardown(self) -> None:
        """Finish the game, then replay every order from the start."""
        if not hasattr(self, "state"):
            return
        for _ in range(MAX_ORDERS):
            seats = _seats(self.state)
            if not seats:
                break
            self._play(seats[0], RULES.sample_order(self.state, seats[0], self.rng))
        assert self.state.phase == "over" and self.state.end in ("bag", "treasures")
        replayed = RULES.new_game(self.options, self.seats, self.seed)
        for seat, order in self.log:
            replayed = RULES.apply(replayed, seat, order).state
        assert replayed == self.state
        assert RULES.load(json.loads(json.dumps(RULES.dump(replayed)))) == self.state


TigrisGame.TestCase.settings = settings(
    max_examples=25,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_random_games = TigrisGame.TestCase
