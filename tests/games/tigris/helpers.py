"""Build explicit Tigris & Euphrates positions from small maps, and play orders on them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from app.games.contract import Event, RuleError
from app.games.tigris import RULES
from app.games.tigris.board import (
    COLOURS,
    MONUMENT_IDS,
    SIZE,
    TILE_CODES,
    TILES_PER_COLOUR,
    parse,
    start_board,
)
from app.games.tigris.model import OFF, Counts, Player, State, evolve, load

ARCHER, BULL, URN, LION = range(4)
TOTAL = sum(TILES_PER_COLOUR)


def counts(value: Mapping[str, int] | Sequence[int] | None) -> Counts:
    if value is None:
        return (0, 0, 0, 0)
    if isinstance(value, Mapping):
        return (value.get("red", 0), value.get("blue", 0), value.get("green", 0), value.get("black", 0))
    return (value[0], value[1], value[2], value[3])


def setup(
    *,
    players: int = 2,
    at: str = "A1",
    rows: Sequence[str] = (),
    leaders: Mapping[str, tuple[int, str]] | None = None,
    hands: Sequence[Mapping[str, int] | Sequence[int]] | None = None,
    points: Sequence[Mapping[str, int] | Sequence[int]] | None = None,
    treasures: Sequence[str] | None = None,
    catastrophes: Sequence[int] | None = None,
    start: bool = False,
    active: int = 0,
    actions_left: int = 2,
    english: bool = False,
    open_scoring: bool = False,
    bag: Mapping[str, int] | Sequence[int] | None = None,
    monuments: Mapping[str, str] | None = None,
) -> State:
    """A position in the `action` phase.

    `rows` is a small map whose top-left corner is the square `at`: "." leaves the square as it is, "r",
    "b", "g", "k" are face-up tiles, "d" a face-down one, "x" a catastrophe, "_" empties the square.
    `leaders` maps squares to (seat, colour). With `start`, the board begins with the ten starting temples
    and their treasures (else empty, with the `treasures` given). The bag holds every tile not placed
    elsewhere unless given; then the rest is counted out of the game.
    """
    cells = list(start_board() if start else "." * SIZE)
    origin = parse(at)
    for dy, row in enumerate(rows):
        for dx, char in enumerate(row):
            if char == ".":
                continue
            cells[origin + dy * 16 + dx] = "." if char == "_" else char
    board = "".join(cells)
    hands_ = [counts(hand) for hand in hands] if hands else [(0, 0, 0, 0)] * players
    points_ = [counts(p) for p in points] if points else [(0, 0, 0, 0)] * players
    squares = {seat: [OFF, OFF, OFF, OFF] for seat in range(players)}
    for label, (seat, colour) in (leaders or {}).items():
        squares[seat][COLOURS.index(colour)] = parse(label)
    people = tuple(
        Player(
            hand=hands_[seat],
            points=points_[seat],
            catastrophes=catastrophes[seat] if catastrophes else 2,
            leaders=counts(squares[seat]),
        )
        for seat in range(players)
    )
    on_board = [board.count(code) for code in TILE_CODES]
    on_board[0] += board.count("d")
    used = [sum(hand[c] for hand in hands_) + on_board[c] for c in range(4)]
    rest = counts([TILES_PER_COLOUR[c] - used[c] for c in range(4)])
    assert min(rest) >= 0, rest
    bag_ = counts(bag) if bag is not None else rest
    built = [OFF] * len(MONUMENT_IDS)
    for label, monument in (monuments or {}).items():
        built[MONUMENT_IDS.index(monument)] = parse(label)
    if treasures is None:  # the starting treasures whose temple is still there
        treasure_squares = [
            sq for sq in range(SIZE) if start and start_board()[sq] == "r" and board[sq] in "rd"
        ]
    else:
        treasure_squares = sorted(parse(label) for label in treasures)
    state = State(
        players=people,
        board=board,
        treasures=tuple(treasure_squares),
        monuments=tuple(built),
        bag=bag_,
        discarded=sum(rest) - sum(bag_),
        rng=12345,
        english=english,
        open_scoring=open_scoring,
        active=active,
        actions_left=actions_left,
    )
    assert state.tile_total() == TOTAL
    return state


def play(state: State, seat: int, order: Mapping[str, Any]) -> tuple[State, list[Event]]:
    """Apply an order, checking that the input is untouched and that tiles are conserved."""
    before = json.dumps(RULES.dump(state), sort_keys=True)
    outcome = RULES.apply(state, seat, order)
    assert json.dumps(RULES.dump(state), sort_keys=True) == before
    assert outcome.state.tile_total() == TOTAL
    reloaded = load(json.loads(json.dumps(RULES.dump(outcome.state))))
    assert reloaded == outcome.state
    return outcome.state, outcome.events


def refused(state: State, seat: int, order: Mapping[str, Any], code: str | None = None) -> RuleError:
    before = RULES.dump(state)
    with pytest.raises(RuleError) as caught:
        RULES.apply(state, seat, order)
    assert RULES.dump(state) == before
    if code is not None:
        assert caught.value.code == code, caught.value.message
    return caught.value


def kinds(events: Sequence[Event]) -> list[str]:
    return [event.kind for event in events]


def find(events: Sequence[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]


def awaited(state: State) -> list[tuple[int, str]]:
    return [(wait.seat, wait.phase) for wait in RULES.waits(state)]


def leader_square(state: State, seat: int, colour: str) -> int:
    return state.players[seat].leaders[COLOURS.index(colour)]


def at(state: State, label: str) -> str:
    return state.board[parse(label)]


def targets(state: State, piece: str) -> set[str]:
    return set(RULES.view(state, state.active)["legal"]["targets"].get(piece, []))


# --- shared positions -----------------------------------------------------------------------------------

# E4 temple, F4 settlement, G4 temple, G6 temple; the bull's priest on E5 has one temple beside him.
REVOLT = ["rkr", "...", "..r"]


def revolt(*, english: bool = False, open_scoring: bool = False) -> State:
    """The rulebook's revolt: the urn (active) may place its priest on G5, beside two temples."""
    return setup(
        players=4,
        active=URN,
        at="E4",
        rows=REVOLT,
        leaders={"E5": (BULL, "red")},
        hands=[{}, {"red": 3, "blue": 3}, {"red": 3, "green": 3}, {}],
        english=english,
        open_scoring=open_scoring,
    )


# The lion's king (G3) and trader (G5) beside the temple G4 with one market F4; the bull's trader (K3) and
# king (K5) beside the temple K4 with two markets I4 and J4. H4 joins them.
WAR = [".gr.ggr"]
WAR_LEADERS = {"G3": (LION, "black"), "G5": (LION, "green"), "K3": (BULL, "green"), "K5": (BULL, "black")}


def blur(state: State, viewer: int | None) -> State:
    """The same position with every secret of the other seats changed (hand sizes kept)."""
    people = []
    for seat, player in enumerate(state.players):
        if seat == viewer:
            people.append(player)
            continue
        hand = player.hand[1:] + player.hand[:1]
        if state.open_scoring:
            people.append(evolve(player, hand=hand))
        else:
            people.append(evolve(player, hand=hand, points=(7, 8, 9, 10), treasures=player.treasures + 3))
    bag = state.bag[1:] + state.bag[:1]
    return evolve(state, players=tuple(people), bag=bag, rng=state.rng ^ 0xABCDEF)
