"""Build explicit Dragonstones states and drive auctions in tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import pytest

from app.games.contract import Event, RuleError
from app.games.dragonstones import RULES
from app.games.dragonstones.characters import SPECIAL_DECK, WITCH
from app.games.dragonstones.model import (
    COIN_SUPPLY,
    START_COINS,
    STONE_SUPPLY,
    Auction,
    Coins,
    Player,
    State,
    Stones,
)

Counts = Mapping[str, int]


def table(
    card: str = "red_dragon",
    n: int = 4,
    *,
    screens: Sequence[Counts] | None = None,
    stones: Sequence[Counts] | None = None,
    points: Sequence[int] | None = None,
    front: Sequence[int] | None = None,
    pile: Sequence[str] = ("red_dragon",),
    specials: Sequence[str] = ("fairy", "gnome"),
    played: Sequence[str] | None = None,
    deck: Sequence[str] | None = None,
    used: Sequence[str] = (),
    doppelganger: int | None = None,
    bank: Counts | None = None,
    bank_stones: Counts | None = None,
    points_to_win: int = 3,
    rng: int = 12345,
) -> State:
    """A state in the bid phase for `card`. The bank holds whatever the players do not, unless given."""
    screens_ = [Coins(**s) for s in screens] if screens else [START_COINS] * n
    stones_ = [Stones(**s) for s in stones] if stones else [Stones()] * n
    players = tuple(
        Player(
            screen=screens_[i],
            stones=stones_[i],
            front_fairy=front[i] if front else 0,
            points=points[i] if points else 0,
        )
        for i in range(n)
    )
    held_coins = Coins()
    held_stones = Stones()
    for player in players:
        held_coins = held_coins.plus(player.screen).plus(Coins(fairy=player.front_fairy))
        held_stones = held_stones.plus(player.stones)
    if deck is None:
        left = Counter(SPECIAL_DECK)
        left.subtract([*specials, *used])
        deck = tuple(left.elements())
    state = State(
        players=players,
        bank=Coins(**bank) if bank is not None else COIN_SUPPLY.minus(held_coins),
        bank_stones=Stones(**bank_stones) if bank_stones is not None else STONE_SUPPLY.minus(held_stones),
        points_to_win=points_to_win,
        rng=rng,
        round=1,
        specials=tuple(specials),
        pile=tuple(pile),
        played=tuple(played) if played is not None else ((WITCH,) if card == WITCH else (WITCH, card)),
        deck=tuple(deck),
        used=tuple(used),
        doppelganger=doppelganger,
        phase="bid",
        auction=Auction(card, 1 if card == WITCH else 2, (None,) * n),
    )
    assert min(state.bank.as_dict().values()) >= 0 and min(state.bank_stones.as_dict().values()) >= 0
    return state


class Play:
    """A state plus all the events seen since the start, driven order by order."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def do(self, seat: int, **order: Any) -> Play:
        outcome = RULES.apply(self.state, seat, order)
        self.state = outcome.state
        self.events.extend(outcome.events)
        return self

    def bids(self, bids: Mapping[int, Mapping[str, Any]]) -> Play:
        """Every seat awaited on a bid bids (the ones not listed bid an empty fist)."""
        for wait in RULES.waits(self.state):
            assert wait.phase == "bid"
            self.do(wait.seat, type="bid", **bids.get(wait.seat, {}))
        return self

    def tiebreak(self, bids: Mapping[int, Mapping[str, Any]]) -> Play:
        for wait in RULES.waits(self.state):
            assert wait.phase == "tiebreak"
            self.do(wait.seat, type="tiebreak", **bids.get(wait.seat, {}))
        return self

    def win(self, seat: int, fairy: int = 1) -> Play:
        """`seat` wins the current auction with `fairy` fairy gold; nobody else bids."""
        return self.bids({seat: {"fairy": fairy}})

    def kinds(self) -> list[str]:
        return [event.kind for event in self.events]

    def find(self, kind: str) -> list[Event]:
        return [event for event in self.events if event.kind == kind]

    @property
    def waits(self) -> list[tuple[int, str]]:
        return [(wait.seat, wait.phase) for wait in RULES.waits(self.state)]

    def legal(self, seat: int) -> dict[str, Any]:
        legal: dict[str, Any] = RULES.view(self.state, seat)["legal"]
        return legal

    def player(self, seat: int) -> Player:
        return self.state.players[seat]


def rejects(
    state: State, seat: int, order: Mapping[str, Any], code: str, field: str | None = None
) -> RuleError:
    """The order raises RuleError(code) and the state is left as it was."""
    before = RULES.dump(state)
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, seat, order)
    assert caught.value.code == code, caught.value.message
    if field is not None:
        assert caught.value.field == field
    assert RULES.dump(state) == before
    return caught.value


def at_card(state: State, card: str) -> State:
    """The same table, now auctioning `card`."""
    return replace(state, auction=Auction(card, state.auction.number, (None,) * len(state.players)))
