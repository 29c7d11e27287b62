"""Random 3-5 player games to the end as a hypothesis state machine: gold cards, power cards and pieces
are conserved, views hide what they must, a sale at any time changes no wait and takes no choice from
another seat, and a replay gives the stored state. The budget is fixed (a few
games, well under a minute on one core)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from app.games.amunre import RULES, cards
from app.games.amunre.cards import GOLD_COUNTS, MINUS_THREE_CARDS
from app.games.amunre.model import BLOCKS, DOUBLES, FARMERS, PYRAMIDS, State
from app.games.amunre.phases import legal_for
from app.games.contract import RuleError
from tests.games.amunre.helpers import blur_others, new_rules

ALWAYS_ILLEGAL: list[dict[str, Any]] = [
    {},
    {"type": "shout"},
    {"type": "bid", "province": "Atlantis", "amount": 0},
    {"type": "bid", "province": "Buto", "amount": -1},
    {"type": "offer", "gold": {"20": 99}},
    {"type": "offer", "gold": {"3": 1}},
    {"type": "reward", "item": "camel"},
    {"type": "sell", "card": "nothing"},
    {"type": "bonus", "card": cards.EIGHT_GOLD},
]
PUBLIC_BUT_PRIVATE = {"cards_seen", "paid", "gold_received", "bank_rounded"}


def _seats(state: State) -> list[int]:
    return [wait.seat for wait in RULES.waits(state)]


def _view_text(state: State, seat: int | None) -> str:
    return json.dumps(RULES.view(state, seat), sort_keys=True)


def _choices(state: State, seat: int) -> tuple[str, frozenset[Any]]:
    """A seat's question (its limits, for the offering) and the keys of its choices."""
    legal = legal_for(state, seat)
    if legal is None:
        return ("", frozenset())
    limits = json.dumps(legal.limits, sort_keys=True)
    return (limits, frozenset(choice.order.key() for choice in legal.choices))


class AmunReGame(RuleBasedStateMachine):
    state: State

    @initialize(players=st.integers(3, 5), seed=st.integers(0, 2**40))
    def start(self, players: int, seed: int) -> None:
        self.seats = players
        self.seed = seed
        self.state = RULES.new_game(new_rules(), players, seed)
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.points = [0] * players
        self.ended = False

    def _play(self, seat: int, order: Any) -> None:
        outcome = RULES.apply(self.state, seat, order)
        self.log.append((seat, dict(order)))
        self.state = outcome.state
        for event in outcome.events:
            json.dumps(event.data)
            if event.kind in PUBLIC_BUT_PRIVATE:
                assert event.to == frozenset({event.data["seat"]})
            else:
                assert event.to is None

    @precondition(lambda self: bool(_seats(self.state)))
    @rule(pick=st.integers(0, 4), salt=st.integers(0, 2**32), count=st.integers(1, 12))
    def play_samples(self, pick: int, salt: int, count: int) -> None:
        rng = random.Random(salt)
        for _ in range(count):
            seats = _seats(self.state)
            if not seats:
                return
            seat = seats[(pick + rng.randrange(5)) % len(seats)]
            self._play(seat, RULES.sample_order(self.state, seat, rng))

    @precondition(lambda self: bool(_seats(self.state)))
    @rule(pick=st.integers(0, 4))
    def play_default(self, pick: int) -> None:
        seats = _seats(self.state)
        seat = seats[pick % len(seats)]
        self._play(seat, RULES.default_order(self.state, seat))

    @rule(pick=st.integers(0, 4), bad=st.sampled_from(ALWAYS_ILLEGAL))
    def refuse_illegal(self, pick: int, bad: dict[str, Any]) -> None:
        before = RULES.dump(self.state)
        with pytest.raises(RuleError):
            RULES.apply(self.state, pick % self.seats, bad)
        assert RULES.dump(self.state) == before

    @rule(pick=st.integers(0, 4))
    def refuse_a_seat_not_awaited(self, pick: int) -> None:
        seats = _seats(self.state)
        idle = [s for s in range(self.seats) if s not in seats]
        if not idle or not seats:
            return
        with pytest.raises(RuleError) as caught:
            RULES.apply(self.state, idle[pick % len(idle)], RULES.default_order(self.state, seats[0]))
        assert caught.value.code == "not_awaited"

    @precondition(lambda self: self.state.phase != "over")
    @rule(pick=st.integers(0, 4), which=st.integers(0, 40))
    def sell_at_any_time(self, pick: int, which: int) -> None:
        """Any seat holding a power card, awaited or not, sells one: no wait changes, and every other
        seat keeps all its choices (it may gain one: the card on the discard pile)."""
        holders = [seat for seat in range(self.seats) if self.state.players[seat].powers]
        if not holders:
            return
        seat = holders[pick % len(holders)]
        powers = self.state.players[seat].powers
        before = self.state
        self._play(seat, {"type": "sell", "card": powers[which % len(powers)]})
        assert RULES.waits(self.state) == RULES.waits(before)
        for other in range(self.seats):
            if other != seat:
                old, new = _choices(before, other), _choices(self.state, other)
                assert old[0] == new[0] and old[1] <= new[1]

    @invariant()
    def cards_and_pieces_are_conserved(self) -> None:
        state = self.state
        assert state.gold_total() == GOLD_COUNTS
        assert state.minus_three_total() == MINUS_THREE_CARDS
        assert state.power_total() == 39
        assert state.piece_totals() == (BLOCKS, PYRAMIDS, DOUBLES, FARMERS)
        assert min(state.bank) >= 0 and min(min(p.gold) for p in state.players) >= 0
        assert min(state.blocks, state.pyramids, state.doubles, state.farmers) >= 0

    @invariant()
    def points_never_decrease(self) -> None:
        points = [player.points for player in self.state.players]
        assert all(new >= old for new, old in zip(points, self.points, strict=True))
        self.points = points

    @invariant()
    def defaults_are_legal_and_views_agree_with_waits(self) -> None:
        seats = _seats(self.state)
        for seat in range(self.seats):
            assert (RULES.view(self.state, seat)["legal"]["phase"] is not None) == (seat in seats)
        for seat in seats:
            RULES.apply(self.state, seat, RULES.default_order(self.state, seat))

    @invariant()
    def views_hide_hands_offerings_and_decks(self) -> None:
        for seat in [*range(self.seats), None]:
            assert _view_text(self.state, seat) == _view_text(blur_others(self.state, seat), seat)

    @invariant()
    def replay_gives_the_same_state(self) -> None:
        over = self.state.phase == "over"
        if self.ended or (len(self.log) % 25 and not over):
            return
        self.ended = over
        state = RULES.new_game(new_rules(), self.seats, self.seed)
        for seat, order in self.log:
            state = RULES.apply(state, seat, order).state
        assert state == self.state
        assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state
        if over:
            standings = RULES.standings(state)
            assert standings is not None and sorted(s.seat for s in standings) == list(range(self.seats))

    def teardown(self) -> None:
        """Every example is played to the end, and the whole game replayed."""
        if not hasattr(self, "state"):
            return
        rng = random.Random(self.seed)
        while seats := _seats(self.state):
            seat = rng.choice(seats)
            self._play(seat, RULES.sample_order(self.state, seat, rng))
            self.cards_and_pieces_are_conserved()
        self.replay_gives_the_same_state()
        assert self.state.phase == "over" and self.ended


AmunReGame.TestCase.settings = settings(
    max_examples=6,
    stateful_step_count=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
test_random_games = AmunReGame.TestCase


def test_random_games_reach_the_end() -> None:
    """Whole games with random orders, 3 to 5 players: every one ends, with standings."""
    for seed in range(6):
        rng = random.Random(seed)
        state = RULES.new_game(new_rules(), 3 + seed % 3, seed)
        for _ in range(2000):
            seats = _seats(state)
            if not seats:
                break
            seat = rng.choice(seats)
            state = RULES.apply(state, seat, RULES.sample_order(state, seat, rng)).state
        assert state.phase == "over" and RULES.standings(state) is not None
        assert len(state.scores) == 2
