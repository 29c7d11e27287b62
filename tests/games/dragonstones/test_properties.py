"""Random games as a hypothesis state machine, checking the invariants after every order."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from app.games.contract import RuleError
from app.games.dragonstones import RULES, DragonstonesOptions
from app.games.dragonstones.model import COIN_SUPPLY, STONE_SUPPLY, Bid, Coins, State, TieBid

# Orders that are illegal in every state: out of range, malformed, or naming nobody.
ALWAYS_ILLEGAL: list[dict[str, Any]] = [
    {},
    {"type": "shout"},
    {"type": "bid", "fairy": -1},
    {"type": "bid", "fairy": 61},
    {"type": "bid", "gold": "a lot"},
    {"type": "bid", "silver": 1},
    {"type": "tiebreak", "silver": 41},
    {"type": "tiebreak", "cursed": True},
    {"type": "steal", "victim": 99},
    {"type": "rob", "victim": 99},
    {"type": "copy", "character": "nobody"},
    {"type": "colour", "colour": "green"},
    {"type": "pay", "stones": {"red": 13}},
    {"type": "buy", "stones": {"red": 1}, "pay": {"silver": 1}},
    {"type": "draw", "extra": 1},
]

PRIVATE_EVENTS = {"bid_sent", "stole_coin_detail", "robbed_detail"}


def _seats(state: State) -> list[int]:
    return [wait.seat for wait in RULES.waits(state)]


def _view_text(state: State, seat: int | None) -> str:
    return json.dumps(RULES.view(state, seat), sort_keys=True)


def _blur_others(state: State, seat: int | None) -> State:
    """The same state with every other seat's hidden coins and sealed bids changed."""
    auction = state.auction
    bids = list(auction.bids)
    tiebids = list(auction.tiebids)
    for other in range(len(state.players)):
        if other == seat:
            continue
        state = state.with_player(other, replace(state.players[other], screen=Coins(7, 7, 7, 7, 7)))
        if not auction.revealed and bids[other] is not None:
            bids[other] = Bid(fairy=9, gold=9, cursed=True, amulet=True)
        if auction.tied and not auction.outcome and other < len(tiebids) and tiebids[other] is not None:
            tiebids[other] = TieBid(silver=9, amulet=True)
    return replace(state, auction=replace(auction, bids=tuple(bids), tiebids=tuple(tiebids)))


class DragonstonesGame(RuleBasedStateMachine):
    state: State

    @initialize(players=st.integers(3, 6), seed=st.integers(0, 2**40), points=st.sampled_from([2, 3]))
    def start(self, players: int, seed: int, points: int) -> None:
        self.options = DragonstonesOptions(points_to_win=points)
        self.seats = players
        self.seed = seed
        self.state = RULES.new_game(self.options, players, seed)
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.points = [0] * players

    def _play(self, seat: int, order: Any) -> None:
        outcome = RULES.apply(self.state, seat, order)
        self.log.append((seat, dict(order)))
        self.state = outcome.state
        for event in outcome.events:
            json.dumps(event.data)
            if event.kind in PRIVATE_EVENTS:
                assert event.to is not None and 1 <= len(event.to) <= 2
            else:
                assert event.to is None

    @precondition(lambda self: bool(_seats(self.state)))
    @rule(pick=st.integers(0, 5), salt=st.integers(0, 2**32))
    def play_sample(self, pick: int, salt: int) -> None:
        seats = _seats(self.state)
        seat = seats[pick % len(seats)]
        self._play(seat, RULES.sample_order(self.state, seat, random.Random(salt)))

    @precondition(lambda self: bool(_seats(self.state)))
    @rule(pick=st.integers(0, 5))
    def play_default(self, pick: int) -> None:
        seats = _seats(self.state)
        seat = seats[pick % len(seats)]
        self._play(seat, RULES.default_order(self.state, seat))

    @rule(pick=st.integers(0, 5), bad=st.sampled_from(ALWAYS_ILLEGAL))
    def refuse_illegal(self, pick: int, bad: dict[str, Any]) -> None:
        before = RULES.dump(self.state)
        with pytest.raises(RuleError):
            RULES.apply(self.state, pick % self.seats, bad)
        assert RULES.dump(self.state) == before

    @rule(pick=st.integers(0, 5))
    def refuse_a_seat_not_awaited(self, pick: int) -> None:
        seats = _seats(self.state)
        idle = [s for s in range(self.seats) if s not in seats]
        if not idle or not seats:
            return
        order = RULES.default_order(self.state, seats[0])
        with pytest.raises(RuleError) as caught:
            RULES.apply(self.state, idle[pick % len(idle)], order)
        assert caught.value.code == "not_awaited"

    @invariant()
    def things_are_conserved(self) -> None:
        assert self.state.coin_total() == COIN_SUPPLY
        assert self.state.stone_total() == STONE_SUPPLY
        for player in self.state.players:
            assert min(player.screen.as_dict().values()) >= 0 and min(player.stones.as_dict().values()) >= 0
            assert player.front_fairy >= 0
        assert (
            min(self.state.bank.as_dict().values()) >= 0
            and min(self.state.bank_stones.as_dict().values()) >= 0
        )

    @invariant()
    def points_never_decrease(self) -> None:
        points = [player.points for player in self.state.players]
        assert all(new >= old for new, old in zip(points, self.points, strict=True))
        self.points = points

    @invariant()
    def defaults_are_legal_and_views_agree_with_waits(self) -> None:
        seats = _seats(self.state)
        for seat in range(self.seats):
            legal = RULES.view(self.state, seat)["legal"]
            assert (legal["phase"] is not None) == (seat in seats)
        for seat in seats:
            RULES.apply(self.state, seat, RULES.default_order(self.state, seat))

    @invariant()
    def views_hide_other_seats_coins(self) -> None:
        for seat in [*range(self.seats), None]:
            assert _view_text(self.state, seat) == _view_text(_blur_others(self.state, seat), seat)

    @invariant()
    def replay_gives_the_same_state(self) -> None:
        if len(self.log) % 7:
            return
        state = RULES.new_game(self.options, self.seats, self.seed)
        for seat, order in self.log:
            state = RULES.apply(state, seat, order).state
        assert state == self.state
        assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


DragonstonesGame.TestCase.settings = settings(
    max_examples=30,
    stateful_step_count=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_random_games = DragonstonesGame.TestCase
