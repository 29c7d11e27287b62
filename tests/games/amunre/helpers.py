"""Build explicit Amun-Re states and drive them in tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.amunre import RULES, cards
from app.games.amunre.board import BOARD, GOLD_VALUES
from app.games.amunre.cards import Gold
from app.games.amunre.model import RULES_VERSION, Player, Province, State
from app.games.contract import Event
from app.games.kit.model import evolve, replaced


def gold(*values: int) -> Gold:
    """Gold cards by their values: gold(10, 5, 1) is one 10, one 5 and one 1."""
    return tuple(sum(1 for v in values if v == worth) for worth in GOLD_VALUES)


def index(name: str) -> int:
    return BOARD.index(name)


def new_rules() -> Any:
    """The options of a game created now, as the lobby stores them (on the current rules)."""
    return RULES.Options.model_validate({"rules_version": RULES_VERSION})


def game(players: int = 4, seed: int = 1) -> State:
    return RULES.new_game(new_rules(), players, seed)


def with_player(state: State, seat: int, **changes: Any) -> State:
    return evolve(state, players=replaced(state.players, seat, evolve(state.players[seat], **changes)))


def with_province(state: State, name: str, **changes: Any) -> State:
    at = index(name)
    return evolve(state, provinces=replaced(state.provinces, at, evolve(state.provinces[at], **changes)))


def owning(state: State, holdings: Mapping[int, Sequence[str]]) -> State:
    """Every province unowned and empty, then these seats own these provinces."""
    provinces = [Province() for _ in BOARD.provinces]
    for seat, names in holdings.items():
        for name in names:
            provinces[index(name)] = Province(owner=seat)
    return evolve(state, provinces=tuple(provinces))


def phase(state: State, name: str, queue: Sequence[int] = (), **changes: Any) -> State:
    return evolve(state, phase=name, queue=tuple(queue), **changes)


def auction(state: State, names: Sequence[str], pharaoh: int = 0) -> State:
    revealed = tuple(index(name) for name in names)
    count = len(state.players)
    queue = tuple((pharaoh + step) % count for step in range(count))
    players = tuple(evolve(p, outbid_from=None, blockade=False) for p in state.players)
    return evolve(
        state,
        phase="auction",
        revealed=revealed,
        bids=(None,) * len(revealed),
        queue=queue,
        pharaoh=pharaoh,
        players=players,
        provinces=tuple(evolve(p, free_cards=(), free_gold=(0,) * 5) for p in state.provinces),
    )


def play(state: State, seat: int, order: Mapping[str, Any]) -> tuple[State, list[Event]]:
    outcome = RULES.apply(state, seat, order)
    return outcome.state, outcome.events


def kinds(events: Sequence[Event]) -> list[str]:
    return [event.kind for event in events]


def player(state: State, seat: int) -> Player:
    return state.players[seat]


def blur_others(state: State, seat: int | None) -> State:
    """The same state with every other seat's hand and sealed offering changed (the same card counts),
    the free cards on provinces and the deck's order changed. While the bidders short of gold sell (phase
    "pay"), the gold stays: who is short is public then, as the cards they sell go face up."""
    players = state.players
    for other, hand in enumerate(players):
        if other == seat:
            continue
        blurred_gold = hand.gold if state.phase == "pay" else (0, 0, 0, 0, sum(hand.gold))
        changed = evolve(hand, gold=blurred_gold, powers=(cards.NILE_BONUS,) * len(hand.powers))
        if hand.offering is not None:
            offering = hand.offering
            blurred = evolve(
                offering,
                gold=(sum(offering.gold), 0, 0, 0, 0),
                powers=(cards.CARD_BONUS,) * len(offering.powers),
            )
            changed = evolve(changed, offering=blurred)
        players = replaced(players, other, changed)
    provinces = tuple(evolve(p, free_cards=(cards.FREE_FARMER,) * len(p.free_cards)) for p in state.provinces)
    return evolve(state, players=players, provinces=provinces, deck=tuple(reversed(state.deck)))
