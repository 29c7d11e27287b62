"""Movement (§23): where tokens and ships may go, and the check of one nation's whole set of moves.

A nation's moves are `LandMove`s and `Voyage`s over area indices. `plan_moves` checks them all against
the nation's tokens and ships as they stand when its moves are finalised, and returns where everything
ends, or raises `RuleError` with a stable code. The rules as read:
- a token crosses one land boundary (or a mixed one, §4.33; the board's `land_neighbours`) into a land
  area, or boards a ship in its area, never both in one turn (§23.3);
- with Roadbuilding it may cross a first land area, holding no other player's units, no barbarians and no
  pirate city, into a second; never then onto a ship (§23.31);
- a ship crosses water boundaries only (the board's `coast_neighbours`), at most 4 areas (Cloth Making 5),
  open sea only with Astronomy (§23.52–23.54); it may end anywhere it reaches (§23.55); it leaves a
  two-coast area (the board's `coasts`) by the coast it entered, and from its starting area by either
  (§23.57);
- a ship carries at most 5 tokens, which had not moved this phase; it may take on and set down tokens at
  any number of stops and retrace its path within its allowance (§23.56); every token is set down on land
  before the phase ends, and a token travels on one ship only (§23.51, §23.56). At a stop, tokens land
  before others board; a token boards once (having landed, it has moved by sea);
- any number of units may enter an area, over its limit (§23.4).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from app.games.advciv.cards import Cards, acts_last, may_enter_open_sea, road_movement, ship_steps
from app.games.contract import RuleError

SHIP_CAPACITY: Final = 5  # tokens aboard one ship (§23.51)
MAX_SHIPS: Final = 4  # ships one nation may have on the board (§22.4)
SHIP_UPKEEP: Final = 1  # units per ship kept, each turn (§22.3)


class AreaLike(Protocol):
    @property
    def key(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...  # "land" or "sea"
    @property
    def open_sea(self) -> bool: ...


class BoardLike(Protocol):
    """What movement reads of `app.games.advciv.board.Board`."""

    @property
    def areas(self) -> Sequence[AreaLike]: ...
    @property
    def land_neighbours(self) -> Sequence[frozenset[int]]: ...
    @property
    def coast_neighbours(self) -> Sequence[frozenset[int]]: ...
    @property
    def coasts(self) -> Mapping[int, Sequence[frozenset[int]]]: ...


@dataclass(frozen=True, slots=True)
class LandMove:
    origin: int
    destination: int
    tokens: int
    via: int | None = None  # Roadbuilding: the first land area crossed


@dataclass(frozen=True, slots=True)
class Stop:
    area: int
    land: int = 0  # tokens set down here (first)
    board: int = 0  # tokens of the nation, unmoved, that board here (then)


@dataclass(frozen=True, slots=True)
class Voyage:
    ship: int  # the area the ship starts from
    stops: tuple[Stop, ...]  # in order; the ship ends at the last


Move = LandMove | Voyage


@dataclass(frozen=True, slots=True)
class Plan:
    tokens: Mapping[int, int]  # the nation's tokens per area after the moves (none at 0)
    ships: tuple[int, ...]  # its ships' areas after the moves, sorted
    entered: frozenset[int]  # areas its tokens moved into (for "Done unless threatened")


InPlay = frozenset[int] | None  # the areas of the map in play (§16); None: all


def land_reach(board: BoardLike, origin: int, *, in_play: InPlay = None) -> frozenset[int]:
    """§23.3: the land areas in play one boundary away by land."""
    return frozenset(
        area
        for area in board.land_neighbours[origin]
        if board.areas[area].kind == "land" and (in_play is None or area in in_play)
    )


def road_reach(
    board: BoardLike, origin: int, blocked: frozenset[int], *, in_play: InPlay = None
) -> frozenset[int]:
    """§23.31: with Roadbuilding, one land area, or two through a first one not in `blocked` (the areas
    holding another player's units, barbarians or a pirate city)."""
    near = land_reach(board, origin, in_play=in_play)
    far = {area for via in near - blocked for area in land_reach(board, via, in_play=in_play)}
    return frozenset((near | far) - {origin})


# Where a ship is during its move: its area, and the water neighbours it may leave by (None: all of them;
# in a two-coast area, the coast it entered by, §23.57).
Afloat = tuple[int, frozenset[int] | None]


def sea_distances(
    board: BoardLike, origin: int, *, astronomy: bool, steps: int = 4, in_play: InPlay = None
) -> dict[int, int]:
    """§23.52–23.57: the fewest areas a ship crosses from `origin` to each area it reaches in at most
    `steps`, origin included at 0; open sea only with Astronomy."""
    distances: dict[int, int] = {}
    for (area, _), crossed in _sail_from(board, {(origin, None): 0}, astronomy, steps, in_play).items():
        if crossed < distances.get(area, steps + 1):
            distances[area] = crossed
    return distances


def _sail_from(
    board: BoardLike,
    starts: Mapping[Afloat, int],
    astronomy: bool,
    steps: int,
    in_play: InPlay,
    sides: bool = True,
) -> dict[Afloat, int]:
    """Every place afloat a ship reaches from `starts` (each with the areas already crossed), within
    `steps` crossed in all, with the fewest crossed; `sides=False` ignores the two coasts of §23.57."""
    best = dict(starts)
    coasts = board.coasts if sides else {}
    by_cost: list[list[Afloat]] = [[] for _ in range(steps + 1)]
    for place, crossed in starts.items():
        if crossed <= steps:
            by_cost[crossed].append(place)
    for crossed in range(steps):
        for place in by_cost[crossed]:
            if best[place] != crossed:
                continue
            area, exits = place
            for neighbour in board.coast_neighbours[area] if exits is None else exits:
                if board.areas[neighbour].open_sea and not astronomy:
                    continue
                if in_play is not None and neighbour not in in_play:
                    continue
                side = _coast_entered(coasts[neighbour], area) if neighbour in coasts else None
                entered = (neighbour, side)
                if best.get(entered, steps + 1) > crossed + 1:
                    best[entered] = crossed + 1
                    by_cost[crossed + 1].append(entered)
    return best


def _coast_entered(coasts: Sequence[frozenset[int]], came_from: int) -> frozenset[int]:
    """The water neighbours a ship that entered a two-coast area from `came_from` may leave by (§23.57)."""
    return frozenset().union(*(coast for coast in coasts if came_from in coast))


def sea_reach(
    board: BoardLike, origin: int, *, astronomy: bool, steps: int = 4, in_play: InPlay = None
) -> frozenset[int]:
    """§23.52–23.54: the areas a ship in `origin` may end its move in (not counting staying put)."""
    return frozenset(sea_distances(board, origin, astronomy=astronomy, steps=steps, in_play=in_play)) - {
        origin
    }


def plan_moves(
    board: BoardLike,
    tokens: Mapping[int, int],
    ships: Sequence[int],
    moves: Sequence[Move],
    cards: Cards,
    blocked: frozenset[int] = frozenset(),
    in_play: InPlay = None,
) -> Plan:
    """Checks one nation's whole set of moves and returns where its tokens and ships end.

    `tokens` and `ships` are the nation's, as they stand now; `blocked` the areas a Roadbuilding move
    may not cross (others' units, barbarians, pirate cities); `in_play` the areas of the map in play
    (§16: nothing moves outside them). Raises `RuleError` on the first problem."""
    ledger = _Ledger(board, tokens)
    free_ships = list(ships)
    ended_ships: list[int] = []
    for number, move in enumerate(moves):
        field = f"moves.{number}"
        if isinstance(move, LandMove):
            _check_land_move(board, move, cards, blocked, in_play, field)
            ledger.take(move.origin, move.tokens, field)
            ledger.put(move.destination, move.tokens)
            continue
        if move.ship not in free_ships:
            raise RuleError(
                "no_ship",
                "No ship of yours is left to move in %(area)s.",
                field,
                {"area": _name(board, move.ship)},
            )
        free_ships.remove(move.ship)
        ended_ships.append(_sail(board, move, cards, in_play, field, ledger))
    return Plan(
        tokens={area: count for area, count in ledger.after.items() if count > 0},
        ships=tuple(sorted(free_ships + ended_ships)),
        entered=frozenset(ledger.entered),
    )


def acting_order(census_order: Sequence[str], cards: Mapping[str, Cards]) -> tuple[str, ...]:
    """§22.11, §23.2, §23.21: ships are built and moves made in census order, Military holders after
    every non-holder (in census order among themselves)."""
    return tuple(sorted(census_order, key=lambda nation: acts_last(cards.get(nation, frozenset()))))


def threatened(held: frozenset[int], entered: frozenset[int], others_entered: frozenset[int]) -> bool:
    """The site's "Done unless threatened": someone else moved tokens into an area where the nation
    stood or which its own moves enter."""
    return bool(others_entered & (held | entered))


# --- checks ---------------------------------------------------------------------------------------------


class _Ledger:
    """The nation's tokens while its moves are followed: those that have not moved, and where all stand."""

    def __init__(self, board: BoardLike, tokens: Mapping[int, int]) -> None:
        self.board = board
        self.unmoved = {area: count for area, count in tokens.items() if count > 0}
        self.after = dict(self.unmoved)
        self.entered: set[int] = set()

    def take(self, area: int, count: int, field: str) -> None:
        have = self.unmoved.get(area, 0)
        if count > have:
            raise RuleError(
                "not_enough_tokens",
                "Only %(have)s tokens in %(area)s have not moved.",
                field,
                {"have": have, "area": _name(self.board, area)},
            )
        self.unmoved[area] = have - count
        self.after[area] -= count

    def put(self, area: int, count: int) -> None:
        self.after[area] = self.after.get(area, 0) + count
        self.entered.add(area)


def _name(board: BoardLike, area: int) -> str:
    """An area as a refusal names it: by its printed name, as the player reads the map."""
    return board.areas[area].name if 0 <= area < len(board.areas) else str(area)


def _check_area(board: BoardLike, area: int, in_play: InPlay, field: str) -> None:
    if not 0 <= area < len(board.areas):
        raise RuleError("unknown_area", "There is no area %(area)s.", field, {"area": area})
    if in_play is not None and area not in in_play:
        raise RuleError(
            "not_in_play", "%(area)s is not on the map in play.", field, {"area": _name(board, area)}
        )


def _check_land_move(
    board: BoardLike, move: LandMove, cards: Cards, blocked: frozenset[int], in_play: InPlay, field: str
) -> None:
    for area in (move.origin, move.destination) + ((move.via,) if move.via is not None else ()):
        _check_area(board, area, in_play, field)
        if board.areas[area].kind != "land":
            raise RuleError("not_land", "Tokens move by land between land areas only.", field)
    if move.destination == move.origin:
        raise RuleError("not_adjacent", "A move must leave its area.", field)
    if move.tokens < 1:
        raise RuleError("bad_count", "Move at least one token.", field)
    if move.via is None:
        if move.destination not in land_reach(board, move.origin):
            raise RuleError(
                "not_adjacent",
                "%(to)s is not next to %(from)s by land.",
                field,
                {"to": _name(board, move.destination), "from": _name(board, move.origin)},
            )
        return
    if not road_movement(cards):
        raise RuleError("no_roadbuilding", "Only Roadbuilding lets tokens cross two areas.", field)
    if move.via not in land_reach(board, move.origin) or move.destination not in land_reach(board, move.via):
        raise RuleError("not_adjacent", "That road does not join these areas by land.", field)
    if move.via in blocked:
        raise RuleError(
            "road_blocked",
            "A road may not cross %(area)s: other units stand there.",
            field,
            {"area": _name(board, move.via)},
        )


def _sail(
    board: BoardLike, voyage: Voyage, cards: Cards, in_play: InPlay, field: str, ledger: _Ledger
) -> int:
    """Follows one ship's stops; returns where it ends."""
    if not voyage.stops:
        raise RuleError("empty_voyage", "A ship's move needs at least one stop.", field)
    here: dict[Afloat, int] = {(voyage.ship, None): 0}  # where the ship may be, with the areas crossed
    aboard = 0
    for stop in voyage.stops:
        _check_area(board, stop.area, in_play, field)
        here = _sail_to(board, here, stop.area, cards, in_play, field)
        aboard = _exchange(board, stop, aboard, ledger, field)
    if aboard:
        raise RuleError("tokens_aboard", "Every token must be set down before the phase ends.", field)
    return voyage.stops[-1].area


def _sail_to(
    board: BoardLike, here: Mapping[Afloat, int], there: int, cards: Cards, in_play: InPlay, field: str
) -> dict[Afloat, int]:
    """The ways the ship may be in `there`, coming from `here`, within its allowance (§23.52–23.57)."""
    astronomy, steps = may_enter_open_sea(cards), ship_steps(cards)
    (last_stop, _), *_ = here  # every place in `here` is in one area: the last stop's
    either_coast: Mapping[Afloat, int] = {(last_stop, None): min(here.values())}

    def arrivals(starts: Mapping[Afloat, int], astronomy: bool, sides: bool = True) -> dict[Afloat, int]:
        reached = _sail_from(board, starts, astronomy, steps, in_play, sides)
        return {place: crossed for place, crossed in reached.items() if place[0] == there}

    found = arrivals(here, astronomy)
    if found:
        return found
    if not astronomy and arrivals(here, True):
        raise RuleError("needs_astronomy", "Only Astronomy lets ships enter open sea.", field)
    if arrivals(either_coast, astronomy, sides=False):
        raise RuleError(
            "other_coast",
            "The ship cannot reach %(area)s: it leaves a two-coast area by the coast it entered.",
            field,
            {"area": _name(board, there)},
        )
    raise RuleError(
        "ship_too_far",
        "The ship cannot reach %(area)s: it crosses at most %(steps)s areas.",
        field,
        {"area": _name(board, there), "steps": steps},
    )


def _exchange(board: BoardLike, stop: Stop, aboard: int, ledger: _Ledger, field: str) -> int:
    """Tokens set down, then tokens taken on at one stop (§23.51, §23.56); returns the tokens aboard."""
    if stop.land < 0 or stop.board < 0:
        raise RuleError("bad_count", "Token counts cannot be negative.", field)
    if stop.land:
        if stop.land > aboard:
            raise RuleError(
                "not_aboard", "The ship carries only %(aboard)s tokens.", field, {"aboard": aboard}
            )
        if board.areas[stop.area].kind != "land":
            raise RuleError("land_at_sea", "Tokens are set down on land only.", field)
        ledger.put(stop.area, stop.land)
    if stop.board:
        ledger.take(stop.area, stop.board, field)
    aboard += stop.board - stop.land
    if aboard > SHIP_CAPACITY:
        raise RuleError(
            "ship_full", "A ship carries at most %(most)s tokens.", field, {"most": SHIP_CAPACITY}
        )
    return aboard
