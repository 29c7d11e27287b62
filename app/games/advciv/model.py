"""The state of an Advanced Civilization game: small frozen values, areas by integer index.

Per seat (`Nation`): tokens in stock, treasury, tokens on the board (a tuple over every area of the board,
so that an order copies one tuple), the areas of its ships, its civ cards, A.S.T. position and census.
Cities are one tuple over the areas: the owning seat, or `NOBODY`. Nothing ever leaves the game (§11.1):
for every seat, stock + treasury + tokens on the board is its token total, cities on the board + in stock
is 9, ships on the board + in stock is 4 (`conserved`).

Phase bookkeeping lives in a few fields whose meaning depends on `phase` (see `phases.py`): `order` and
`cursor` (the seats of a phase taken in turn), `done` (per seat, what it has sent), `rates` (chosen tax
rates), `moves` (movement entered and not yet finalised: secret to its seat), `revolts` (revolts still
to hand out), `pillage` (the attacker choosing its pillage, and the most it may take) and `conflicts`
(areas still to resolve, in the site's order).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from app.games.kit.model import evolve, memo

NOBODY = -1
CITIES = 9  # §5.1: 9 cities per nation
SHIPS = 4  # §5.1 and §22: at most 4 ships

# A move entered in the movement phase, as flat ints (see moving.py).
Move = tuple[int, ...]
# A revolt still to hand out: (revolting seat, cities that revolt, beneficiaries by stock units).
Revolt = tuple[int, int, tuple[int, ...]]


@dataclass(frozen=True)
class Nation:
    nation: str
    stock: int  # tokens in stock
    treasury: int
    tokens: tuple[int, ...]  # tokens on the board, per area index
    ships: tuple[int, ...] = ()  # the area of each ship on the board, sorted
    cards: frozenset[str] = frozenset()  # civilization card keys held (part 3 sells them; tests set them)
    ast: int = 0  # A.S.T. position: 0 the start arrow
    census: int = 0  # tokens on the board at the last census
    token_total: int = 55

    def board_tokens(self) -> int:
        return sum(self.tokens)

    def occupied(self) -> tuple[int, ...]:
        """The areas where this nation has tokens."""
        tokens = self.tokens
        return memo(self, "occupied", lambda: tuple(area for area, count in enumerate(tokens) if count))


@dataclass(frozen=True)
class State:
    players: tuple[Nation, ...]
    cities: tuple[int, ...]  # per area index: the owning seat, or NOBODY
    rng: int  # the generator state; never shown
    in_play: tuple[bool, ...]  # per area index: on a panel in play for this number of players (§16)
    turn: int = 1
    phase: str = "start"
    census_order: tuple[int, ...] = ()  # seats, most tokens first (§21.2)
    order: tuple[int, ...] = ()  # the seats of a sequential phase, in turn
    cursor: int = 0  # the position in `order` of the seat whose turn it is
    done: tuple[int, ...] = ()  # per seat: 0 nothing sent; else what it sent (see phases.py)
    rates: tuple[int, ...] = ()  # per seat: the tax rate chosen (0: none)
    moves: tuple[tuple[Move, ...], ...] = ()  # per seat: moves entered, not finalised (secret)
    revolts: tuple[Revolt, ...] = ()
    pillage: tuple[int, int] = (NOBODY, 0)  # (seat choosing, most tokens it may take)
    conflicts: tuple[int, ...] = ()  # areas whose conflict is still to resolve, in order
    new_cities: tuple[int, ...] = ()  # areas where a city was built this turn (§26.32: reduced first)
    card_draws: tuple[tuple[int, int], ...] = ()  # (attacker, victim) trade cards owed (part 2)
    end: str = ""

    def with_player(self, seat: int, player: Nation) -> State:
        return evolve(self, players=(*self.players[:seat], player, *self.players[seat + 1 :]))

    def city_count(self, seat: int) -> int:
        return self.cities.count(seat)

    def cities_in_stock(self, seat: int) -> int:
        return CITIES - self.cities.count(seat)


def conserved(state: State) -> bool:
    """Tokens, cities and ships of every seat are all accounted for."""
    for seat, nation in enumerate(state.players):
        if nation.stock < 0 or nation.treasury < 0 or min(nation.tokens) < 0:
            return False
        if nation.stock + nation.treasury + nation.board_tokens() != nation.token_total:
            return False
        if state.city_count(seat) > CITIES or len(nation.ships) > SHIPS:
            return False
    return True


def dump(state: State) -> dict[str, Any]:
    data = {f.name: _lists(getattr(state, f.name)) for f in fields(State)}
    data["players"] = [
        {f.name: _lists(getattr(p, f.name)) for f in fields(Nation)} | {"cards": sorted(p.cards)}
        for p in state.players
    ]
    data["in_play"] = [index for index, used in enumerate(state.in_play) if not used]  # the few unused
    return data


def load(data: dict[str, Any]) -> State:
    values = {f.name: _tuples(data[f.name]) for f in fields(State)}
    values["players"] = tuple(
        Nation(
            **{name: _tuples(value) for name, value in player.items()} | {"cards": frozenset(player["cards"])}
        )
        for player in data["players"]
    )
    unused = set(data["in_play"])
    values["in_play"] = tuple(index not in unused for index in range(len(data["cities"])))
    return State(**values)


def _lists(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_lists(item) for item in value]
    return value


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value
