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

Trade cards (§7–§9, `trade_cards.py`): `deck` (stacks 1–9, top card first), `hands` (per seat, secret to
it), `discard` (set aside until they go back under the stacks); every card is in exactly one of them.
`traded` records, per calamity card, the seat that traded it to its holder (§29.61; part 3's trades write
it). Phase 11 (`resolving.py`): `calamities` is the queue still to resolve, (card, primary victim, trader
or NOBODY), the head being resolved; `steps` the answers given to it so far; `asked` whether anyone has
been asked in this phase yet (the 1.5x of its first seat); `unsupporting` per seat, Slave Revolt's tokens
that support no city until the phase ends. `barbarians` (area, tokens) and `pirates` (areas of pirate
cities) are the pieces of no seat (§29.65). `options` names the trade-card options set (`TradeCardOptions`).

Phase 10 (`market.py`): `market` holds the open offers, the trades agreed during the embargo and the seats
that said "Done"; None outside the phase. Phase 12 (`advances.py`): `done` marks the seats that checked
out; `grain_shown` counts per seat the Grain cards shown against Famine this turn (Pottery, §30.312: they
may not pay); `mining_used` lists the seats whose Mining raised a set spent this turn (§32.261: the final
score leaves it out). `hand_limit` (§31.71, site F-F4), `last_turn` (§34.1 B, 0: none) and `trade_mail`
(F-R8) are options.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from app.games.advciv import scoring
from app.games.advciv.market import Market
from app.games.advciv.tables import LAND, LIMITS
from app.games.advciv.trade_cards import FULL_DECK, TradeCardOptions, census
from app.games.kit.model import evolve, from_json, memo, to_json

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
    first_actor: int = NOBODY  # the seat first awaited when the phase began: the site's 1.5x time
    end: str = ""
    deck: tuple[tuple[str, ...], ...] = ()  # stacks 1–9, each from the top card down (secret)
    hands: tuple[tuple[str, ...], ...] = ()  # per seat: its trade cards (secret to it)
    discard: tuple[str, ...] = ()  # cards set aside until they go back under the stacks (§29.7)
    traded: tuple[tuple[str, int], ...] = ()  # (calamity, seat that traded it to its holder), part 3
    calamities: tuple[tuple[str, int, int], ...] = ()  # (card, primary victim, trader or NOBODY) to resolve
    steps: tuple[tuple[int, ...], ...] = ()  # the answers given to the calamity being resolved
    asked: bool = False  # phase 11 has awaited someone already
    unsupporting: tuple[int, ...] = ()  # per seat: tokens that support no city (Slave Revolt, §30.42)
    barbarians: tuple[tuple[int, int], ...] = ()  # (area, barbarian tokens), by area
    pirates: tuple[int, ...] = ()  # areas of pirate cities, sorted
    options: tuple[str, ...] = ()  # the `TradeCardOptions` fields set, by name
    market: Market | None = None  # phase 10: offers, agreed trades, seats done (secret but to their seats)
    grain_shown: tuple[int, ...] = ()  # per seat: Grain shown against Famine this turn (Pottery)
    mining_used: tuple[int, ...] = ()  # seats whose Mining raised a set spent this turn
    hand_limit: int = 8  # §31.71, site F-F4
    last_turn: int = 0  # §34.1 B: the game ends after this turn (0: only on the finish space)
    trade_mail: bool = True  # site F-R8: each trade's announcement is mailed to the game

    def with_player(self, seat: int, player: Nation) -> State:
        return evolve(self, players=(*self.players[:seat], player, *self.players[seat + 1 :]))

    def city_count(self, seat: int) -> int:
        return self.cities.count(seat)

    def cities_in_stock(self, seat: int) -> int:
        return CITIES - self.cities.count(seat)

    def trade_options(self) -> TradeCardOptions:
        names = self.options
        return memo(self, "trade_options", lambda: options_from(names))

    def barbarians_in(self, area: int) -> int:
        return next((count for where, count in self.barbarians if where == area), 0)

    def foreign(self) -> frozenset[int]:
        """Areas holding barbarians or a pirate city: pieces of no seat."""
        return memo(self, "foreign", lambda: frozenset(self.pirates) | {a for a, _ in self.barbarians})


def final_score(state: State, seat: int) -> scoring.Score:
    """§35.1 for one seat, its hand included (Mining's extra card unless it paid this turn)."""
    nation = state.players[seat]
    return scoring.score(
        nation.cards,
        state.hands[seat],
        treasury=nation.treasury,
        ast_space=nation.ast,
        cities=state.city_count(seat),
        mining_used=seat in state.mining_used,
    )


def public_score(state: State, seat: int) -> int:
    """§35.1 without the trade cards in hand: the site's "Total Public Points"."""
    nation = state.players[seat]
    return scoring.public_points(
        nation.cards, treasury=nation.treasury, ast_space=nation.ast, cities=state.city_count(seat)
    )


def points_table(state: State) -> tuple[scoring.PointsRow, ...]:
    """The site's public points table (F-U2), highest Total Public Points first."""
    return scoring.points_table(
        scoring.PublicFacts(
            seat, nation.nation, state.city_count(seat), nation.ast, nation.treasury, nation.cards
        )
        for seat, nation in enumerate(state.players)
    )


def options_from(names: tuple[str, ...]) -> TradeCardOptions:
    return TradeCardOptions(**{name: name in names for name in TradeCardOptions.model_fields})


def options_set(options: TradeCardOptions) -> tuple[str, ...]:
    return tuple(name for name, value in options.model_dump().items() if value)


def conserved(state: State) -> bool:
    """Tokens, cities and ships of every seat are all accounted for; every trade card is in exactly one
    stack, hand or the discard; barbarians and pirate cities stand on land, within the limit, and a pirate
    city never where a seat's city stands."""
    for seat, nation in enumerate(state.players):
        if nation.stock < 0 or nation.treasury < 0 or min(nation.tokens) < 0:
            return False
        if nation.stock + nation.treasury + nation.board_tokens() != nation.token_total:
            return False
        if state.city_count(seat) > CITIES or len(nation.ships) > SHIPS:
            return False
    if census(state.deck, state.hands, state.discard) != FULL_DECK or len(state.hands) != len(state.players):
        return False
    if any(count <= 0 or count > LIMITS[area] or not LAND[area] for area, count in state.barbarians):
        return False
    if len(set(state.pirates)) != len(state.pirates):
        return False
    return all(LAND[area] and state.cities[area] == NOBODY for area in state.pirates)


def dump(state: State) -> dict[str, Any]:
    values = state.__dict__  # the fields, read once each (a memo may sit beside them: not dumped)
    data = {name: _lists(value) if isinstance(value := values[name], tuple) else value for name in _STATE}
    data["players"] = [_dump_nation(nation) for nation in state.players]
    data["in_play"] = list(_unused(state.in_play))  # the few unused
    data["market"] = to_json(state.market)
    return data


def load(data: dict[str, Any]) -> State:
    values = {name: _tuples(data[name]) for name in _STATE if name in data}  # older games: defaults
    values["market"] = from_json(Market | None, data.get("market"))
    values["players"] = tuple([_load_nation(player) for player in data["players"]])
    values["in_play"] = _in_play(len(data["cities"]), tuple(data["in_play"]))
    return State(**values)


_STATE = tuple(f.name for f in fields(State))
_NATION = tuple(f.name for f in fields(Nation))
# Values dumped and loaded as they are. A tuple or list holding only these is copied in one call, not
# item by item: what makes the codec cost about what the JSON parse of the same document costs.
_SCALARS = frozenset({int, str, bool, float, type(None)})


def _dump_nation(nation: Nation) -> dict[str, Any]:
    values = nation.__dict__
    data = {name: _lists(value) if isinstance(value := values[name], tuple) else value for name in _NATION}
    data["cards"] = sorted(nation.cards)
    return data


def _load_nation(data: dict[str, Any]) -> Nation:
    values = {name: _tuples(value) if isinstance(value, list) else value for name, value in data.items()}
    values["cards"] = frozenset(data["cards"])
    return Nation(**values)


@lru_cache(maxsize=64)
def _unused(in_play: tuple[bool, ...]) -> tuple[int, ...]:
    return tuple(index for index, used in enumerate(in_play) if not used)


@lru_cache(maxsize=64)
def _in_play(areas: int, unused: tuple[int, ...]) -> tuple[bool, ...]:
    left_out = set(unused)
    return tuple(index not in left_out for index in range(areas))


def _lists(value: Any) -> Any:
    if not isinstance(value, tuple):
        return value
    if _SCALARS.issuperset(map(type, value)):
        return list(value)
    return [_lists(item) for item in value]


def _tuples(value: Any) -> Any:
    if not isinstance(value, list):
        return value
    if _SCALARS.issuperset(map(type, value)):
        return tuple(value)
    return tuple([_tuples(item) for item in value])
