"""The twelve calamities (§29, §30), Monotheism's conversion (§32.94) and the order they resolve in.

Pure functions from a plain description of the board (`Situation`: per seat a `Realm` with its tokens and
cities by area, civ cards, stock, treasury, Grain cards, score; the barbarians and pirate cities; the
board) to a `Resolution`:
- `changes`: what happens with no choice left, as unit deltas per seat and area (`Change`);
- `losses`: unit points a victim must lose (`UnitLoss`), with the site's default answer drawn at random;
- `assignments`: amounts the primary victim hands out to secondary victims (`Assignment`), default: the
  score leaders;
- `pending`: every other choice (`Pending`: cities, sites, a faction, a barbarian step), with its default;
- `needs`: work for the phase machine (the city-support check, Slave Revolt's tokens that support nothing).

A calamity that waits on a choice is called again with the answer as a keyword argument (the default, at
timeout); the answer of an assignment becomes the secondary victims' losses through `secondary_losses`.
Draws use `randbelow(n) -> int` (the game's `Tx.randbelow`). Barbarian tokens and pirate cities are never
touched by a calamity (§29.65): only `Realm` units are. Seats are ints; barbarians and pirates are the
seats `BARBARIANS` and `PIRATES` in a `Change`.

Unit points (§29.62, §29.63): a city 5, a token 1, a reduced city 5 minus the tokens it leaves; losses are
exact where the units allow it, otherwise the smallest overshoot, or everything when even that falls short.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from app.games.advciv import cards as civ
from app.games.advciv.board import BOARD, Board
from app.games.advciv.conflict import BARBARIANS as BARBARIAN_NATION
from app.games.advciv.conflict import Force, in_conflict, resolve
from app.games.contract import RuleError
from app.games.kit.rng import RandBelow, shuffled

Key = tuple[int, ...]

CITIES: Final = 9  # cities per nation (§5.1)
CITY_POINTS: Final = 5
BARBARIANS: Final = -2  # the seat of barbarian tokens in a Change
PIRATES: Final = -3  # the seat of pirate cities in a Change
BARBARIAN_TOKENS: Final = 15  # §30.5211
GRAIN_RELIEF: Final = 4  # Pottery: unit points saved per Grain card shown (§30.312)
CRETE: Final = "crete"
NO_TARGET: Final = -1  # Monotheism's answer for no conversion

VOLCANO: Final = "volcano_earthquake"
TREACHERY: Final = "treachery"
FAMINE: Final = "famine"
SUPERSTITION: Final = "superstition"
CIVIL_WAR: Final = "civil_war"
SLAVE_REVOLT: Final = "slave_revolt"
FLOOD: Final = "flood"
BARBARIAN_HORDES: Final = "barbarian_hordes"
EPIDEMIC: Final = "epidemic"
CIVIL_DISORDER: Final = "civil_disorder"
ICONOCLASM: Final = "iconoclasm_heresy"
PIRACY: Final = "piracy"
MONOTHEISM: Final = "monotheism"

# the resolution order (§29.6): stack, non-tradable first
ORDER: Final = (
    VOLCANO,
    TREACHERY,
    FAMINE,
    SUPERSTITION,
    CIVIL_WAR,
    SLAVE_REVOLT,
    FLOOD,
    BARBARIAN_HORDES,
    EPIDEMIC,
    CIVIL_DISORDER,
    ICONOCLASM,
    PIRACY,
)


# --- the board as calamities see it -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Realm:
    """One seat's pieces. `tokens` lists (area, tokens) with tokens > 0; `score` orders the site's default
    secondary victims (the leaders); `ast_rank` (1 first) breaks ties (§17.4)."""

    seat: int
    nation: str
    tokens: tuple[tuple[int, int], ...] = ()
    cities: frozenset[int] = frozenset()
    cards: frozenset[str] = frozenset()
    stock: int = 0
    treasury: int = 0
    grain: int = 0  # Grain trade cards in hand (Pottery, §30.312)
    score: int = 0
    ast_rank: int = 0

    def tokens_in(self, area: int) -> int:
        return next((n for a, n in self.tokens if a == area), 0)

    def areas(self) -> frozenset[int]:
        return frozenset(a for a, _ in self.tokens) | self.cities

    def points_in(self, area: int) -> int:
        return self.tokens_in(area) + CITY_POINTS * (area in self.cities)

    @property
    def cities_in_stock(self) -> int:
        return CITIES - len(self.cities)

    @property
    def stock_points(self) -> int:
        """§30.411 [EN], §30.5241: tokens in stock 1 each, cities in stock 5 each."""
        return self.stock + CITY_POINTS * self.cities_in_stock


@dataclass(frozen=True)
class Situation:
    realms: tuple[Realm, ...]  # by seat
    board: Board = BOARD
    in_play: frozenset[int] | None = None  # None: every area
    barbarians: tuple[tuple[int, int], ...] = ()  # (area, tokens)
    pirate_cities: frozenset[int] = frozenset()

    def playable(self, area: int) -> bool:
        return self.in_play is None or area in self.in_play

    def occupants(self, area: int) -> tuple[Realm, ...]:
        return tuple(r for r in self.realms if r.points_in(area))

    def barbarians_in(self, area: int) -> int:
        return next((n for a, n in self.barbarians if a == area), 0)


# --- results ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """One seat's units in one area change by `tokens` and `city` (−1 lost, +1 gained). A reduced city is
    city −1 with tokens +left: it costs 5 − left unit points. Tokens and cities leaving the board go
    back to their owner's stock; those arriving come from it (`apply_changes`)."""

    seat: int
    area: int
    tokens: int = 0
    city: int = 0

    @property
    def points(self) -> int:
        """Unit points lost (negative: gained)."""
        return -(self.tokens + CITY_POINTS * self.city)


@dataclass(frozen=True, slots=True)
class Unit:
    """Units a loss may take in one area; `reduced` = tokens a reduction of the city leaves."""

    area: int
    tokens: int = 0
    city: bool = False
    reduced: int = 0


@dataclass(frozen=True, slots=True)
class UnitLoss:
    """`chooser` picks `points` unit points among `units` of `victim` (§29.62–29.64). `keep_token`:
    Epidemic's token left in each area hit (§30.612); `whole_cities`: units taken whole (a Civil War
    faction). `grain`: Grain cards the victim may show, each saving 4 (Pottery)."""

    calamity: str
    victim: int
    chooser: int
    points: int
    units: tuple[Unit, ...]
    keep_token: bool = False
    whole_cities: bool = False
    grain: int = 0
    default_grain: int = 0
    default: tuple[Change, ...] = ()
    answer: str = ""  # "": a loss to take; else the keyword the pick is passed back under (Civil War)

    def due(self, grain_used: int = 0) -> int:
        return max(0, self.points - GRAIN_RELIEF * grain_used)

    def target(self, grain_used: int = 0) -> int:
        return loss_target(self.units, self.due(grain_used), self.keep_token, self.whole_cities)


@dataclass(frozen=True, slots=True)
class Assignment:
    """The primary victim hands out `total` unit points among `caps` (seat, most it may be given)."""

    calamity: str
    seat: int
    total: int
    caps: tuple[tuple[int, int], ...]
    default: tuple[tuple[int, int], ...]
    plain: int | None = None  # Flood: the flooded plain, by index in `Board.flood_plains`

    @property
    def due(self) -> int:
        return min(self.total, sum(most for _, most in self.caps))


@dataclass(frozen=True, slots=True)
class Pending:
    """`seat` picks `count` of `options` (each a tuple of ints: an area, a (seat, area) pair…)."""

    kind: str
    calamity: str
    seat: int
    count: int
    options: tuple[Key, ...]
    default: tuple[Key, ...]


@dataclass(frozen=True, slots=True)
class Need:
    """`support_check`: check `seat`'s city support now (§26.3), `excluded` of its tokens not counting
    (Slave Revolt, §30.42)."""

    kind: str
    seat: int
    excluded: int = 0


@dataclass(frozen=True, slots=True)
class Resolution:
    calamity: str
    primary: int
    secondary: tuple[int, ...] = ()
    changes: tuple[Change, ...] = ()
    losses: tuple[UnitLoss, ...] = ()
    assignments: tuple[Assignment, ...] = ()
    pending: tuple[Pending, ...] = ()
    needs: tuple[Need, ...] = ()
    barbarians: tuple[tuple[int, int], ...] | None = None  # where barbarians stand afterwards
    note: str = ""  # why nothing happens, when nothing does

    @property
    def settled(self) -> bool:
        return not (self.losses or self.assignments or self.pending)


@dataclass(frozen=True, slots=True)
class Held:
    """A calamity card revealed after trade: its holder is the primary victim; `traded_by` passed it on."""

    card: str
    holder: int
    traded_by: int | None = None


# --- order and cap ------------------------------------------------------------------------------------


def resolution_order(held: Iterable[Held]) -> tuple[Held, ...]:
    """§29.6: stack 2 to 9, the non-tradable calamity of a stack before the tradable one."""
    return tuple(sorted(held, key=lambda h: ORDER.index(h.card)))


def apply_cap(held: Sequence[Held], randbelow: RandBelow, *, stoic: bool) -> tuple[tuple[Held, ...], ...]:
    """§29.5: nobody is primary victim of more than 2 calamities a turn: a holder of more has 2 drawn at
    random, the rest ignored (returned with the other cards, §29.7). The Stoic option lifts the cap.
    Returns (to resolve, in order; ignored)."""
    if stoic:
        return resolution_order(held), ()
    kept: list[Held] = []
    ignored: list[Held] = []
    for holder in sorted({h.holder for h in held}):
        mine = [h for h in resolution_order(held) if h.holder == holder]
        while len(mine) > 2:
            ignored.append(mine.pop(randbelow(len(mine))))
        kept += mine
    return resolution_order(kept), tuple(ignored)


# --- unit-point accounting ----------------------------------------------------------------------------

Option = tuple[int, int, int]  # (points, tokens delta, city delta)


def unit_options(unit: Unit, keep_token: bool = False, whole_cities: bool = False) -> tuple[Option, ...]:
    """Every way to take from one area's units, with its cost in unit points (§29.62)."""
    city_states: list[tuple[int, int, int]] = [(0, 0, 0)]  # (points, tokens placed, city delta)
    if unit.city and whole_cities:
        city_states.append((CITY_POINTS, 0, -1))
    elif unit.city:
        for left in range(0, min(unit.reduced, CITY_POINTS - 1) + 1):
            city_states.append((CITY_POINTS - left, left, -1))
    found: set[Option] = set()
    for city_points, placed, city in city_states:
        for taken in range(unit.tokens + 1):
            touched = taken > 0 or city < 0
            if keep_token and touched and unit.tokens - taken + placed < 1:
                continue
            found.add((city_points + taken, placed - taken, city))
    return tuple(sorted(found))


def _reachable(
    units: Sequence[Unit], keep_token: bool, whole_cities: bool
) -> tuple[list[tuple[Option, ...]], list[frozenset[int]]]:
    """Per unit its options, and for each suffix of `units` the totals it can reach."""
    options = [unit_options(u, keep_token, whole_cities) for u in units]
    suffix = [frozenset({0})]
    for opts in reversed(options):
        suffix.append(frozenset(p + total for p, _, _ in opts for total in suffix[-1]))
    suffix.reverse()
    return options, suffix


def loss_target(units: Sequence[Unit], points: int, keep_token: bool = False, whole: bool = False) -> int:
    """§29.63: `points` if the units can make it exactly, else the least total above it, else all."""
    if points <= 0:
        return 0
    _, suffix = _reachable(units, keep_token, whole)
    above = [total for total in suffix[0] if total >= points]
    return min(above) if above else max(suffix[0])


def available_points(units: Sequence[Unit], keep_token: bool = False) -> int:
    _, suffix = _reachable(units, keep_token, False)
    return max(suffix[0])


def random_loss(
    seat: int,
    units: Sequence[Unit],
    points: int,
    randbelow: RandBelow,
    *,
    keep_token: bool = False,
    whole_cities: bool = False,
) -> tuple[Change, ...]:
    """The site's default (F-S3): units picked at random that make `loss_target` — each area in a random
    order takes one of its ways at random among those that still let the rest make the total."""
    order = [units[i] for i in shuffled(range(len(units)), randbelow)]
    options, suffix = _reachable(order, keep_token, whole_cities)
    left = loss_target(order, points, keep_token, whole_cities)
    changes = []
    for index, unit in enumerate(order):
        fitting = [opt for opt in options[index] if left - opt[0] in suffix[index + 1]]
        taken, tokens, city = fitting[randbelow(len(fitting))]
        left -= taken
        if tokens or city:
            changes.append(Change(seat, unit.area, tokens, city))
    return tuple(sorted(changes, key=lambda c: c.area))


def check_loss(loss: UnitLoss, changes: Sequence[Change], grain_used: int = 0) -> None:
    """Refuses an answer to `loss` that takes other units, takes them in an impossible way, or misses the
    total (§29.63)."""
    if not 0 <= grain_used <= loss.grain:
        raise RuleError("loss_grain", "You cannot show that many Grain cards.", field="grain")
    by_area = {u.area: u for u in loss.units}
    total = 0
    seen: set[int] = set()
    for change in changes:
        unit = by_area.get(change.area)
        option = (change.points, change.tokens, change.city)
        if change.seat != loss.victim or unit is None or change.area in seen:
            raise RuleError("loss_units", "These units cannot be taken by this calamity.", field="units")
        if option not in unit_options(unit, loss.keep_token, loss.whole_cities):
            raise RuleError("loss_units", "These units cannot be taken by this calamity.", field="units")
        seen.add(change.area)
        total += change.points
    if total != loss.target(grain_used):
        raise RuleError(
            "loss_total",
            "The units chosen make %(total)s unit points; the calamity takes %(due)s.",
            field="units",
            params={"total": total, "due": loss.target(grain_used)},
        )


def _reduced_tokens(realm: Realm, area: int, board: Board, stock: int | None = None) -> int:
    """§26.5, §32.241: a reduced city becomes as many tokens as the area's limit (+1 with Agriculture),
    taken from stock."""
    limit = civ.population_limit(board.areas[area].population, realm.cards, alone=True)
    return max(0, min(limit, realm.stock if stock is None else stock))


def reduction_tokens(sit: Situation, realm: Realm) -> dict[int, int]:
    """Per city, the tokens its reduction may leave in one loss: the area's limit, the stock shared out
    over the cities in area order when it cannot cover them all (so that a loss never needs more
    tokens than the stock holds)."""
    stock, out = realm.stock, {}
    for area in sorted(realm.cities):
        out[area] = _reduced_tokens(realm, area, sit.board, stock)
        stock -= out[area]
    return out


def realm_units(sit: Situation, realm: Realm, areas: Iterable[int] | None = None) -> tuple[Unit, ...]:
    chosen = realm.areas() if areas is None else realm.areas() & frozenset(areas)
    reduced = reduction_tokens(sit, realm)
    return tuple(
        Unit(
            a,
            realm.tokens_in(a),
            a in realm.cities,
            reduced.get(a, 0),
        )
        for a in sorted(chosen)
    )


def _loss(
    calamity: str,
    sit: Situation,
    realm: Realm,
    points: int,
    randbelow: RandBelow,
    *,
    units: tuple[Unit, ...] | None = None,
    keep_token: bool = False,
    pottery: bool = False,
) -> UnitLoss:
    """A loss of `points` for `realm`, its default drawn now (Pottery: as many Grain as help, §30.312)."""
    chosen = realm_units(sit, realm) if units is None else units
    grain = realm.grain if pottery and civ.POTTERY in realm.cards else 0
    grain = min(grain, -(-points // GRAIN_RELIEF)) if points > 0 else 0
    due = max(0, points - GRAIN_RELIEF * grain)
    default = random_loss(realm.seat, chosen, due, randbelow, keep_token=keep_token)
    return UnitLoss(
        calamity, realm.seat, realm.seat, points, chosen, keep_token, False, grain, grain, default
    )


# --- choosing victims ---------------------------------------------------------------------------------


def leaders(realms: Iterable[Realm]) -> tuple[Realm, ...]:
    """The site's default secondary victims: the score leaders first, ties in A.S.T. order."""
    return tuple(sorted(realms, key=lambda r: (-r.score, r.ast_rank, r.seat)))


def eligible(sit: Situation, primary: int, traded_by: int | None) -> tuple[Realm, ...]:
    """§29.61: everyone but the primary victim and the player who traded it the card."""
    return tuple(r for r in sit.realms if r.seat not in (primary, traded_by))


def _assignment(calamity: str, primary: int, total: int, caps: Sequence[tuple[Realm, int]]) -> Assignment:
    most_of = {realm.seat: most for realm, most in caps if most > 0}
    default, left = [], total
    for realm in leaders(r for r, _ in caps):
        given = min(most_of.get(realm.seat, 0), left)
        if given:
            default.append((realm.seat, given))
        left -= given
    return Assignment(calamity, primary, total, tuple(sorted(most_of.items())), tuple(sorted(default)))


def check_assignment(assignment: Assignment, answer: Mapping[int, int]) -> None:
    """§29.64, §30.311, §30.611: the amounts must stay within each cap and hand out all that can be."""
    caps = dict(assignment.caps)
    for seat, given in answer.items():
        if seat not in caps or not 0 <= given <= caps[seat]:
            raise RuleError(
                "assignment_cap", "Seat %(seat)s cannot be given that much.", "assignment", {"seat": seat}
            )
    if sum(answer.values()) != assignment.due:
        raise RuleError(
            "assignment_total",
            "The amounts must add up to %(due)s.",
            "assignment",
            {"due": assignment.due},
        )


def secondary_losses(
    calamity: str,
    sit: Situation,
    answer: Mapping[int, int],
    randbelow: RandBelow,
    *,
    plain: int | None = None,
) -> tuple[UnitLoss, ...]:
    """The secondary victims' losses once the primary victim has handed out the amounts; each victim's own
    cards then change its loss (check file, case 7): Famine, Pottery −4 per Grain shown (§30.312);
    Epidemic, Medicine −5 and Roadbuilding +5 (§30.613–30.615); Flood, Engineering at most 7 and only
    the vulnerable units of the plain (§30.512, §30.515)."""
    losses = []
    for seat, given in sorted(answer.items()):
        realm = sit.realms[seat]
        if given <= 0:
            continue
        if calamity == FAMINE:
            losses.append(_loss(FAMINE, sit, realm, given, randbelow, pottery=True))
        elif calamity == EPIDEMIC:
            points = epidemic_loss(given, realm.cards, primary=False)
            losses.append(_loss(EPIDEMIC, sit, realm, points, randbelow, keep_token=True))
        elif calamity == FLOOD and plain is not None:
            units = _vulnerable(sit, realm, sit.board.flood_plains[plain])
            points = flood_loss(given, realm.cards)
            losses.append(_loss(FLOOD, sit, realm, points, randbelow, units=units))
        else:
            raise ValueError(f"{calamity} hands out no unit points")
    return tuple(losses)


def _random_pick(options: Sequence[Key], count: int, randbelow: RandBelow) -> tuple[Key, ...]:
    order = shuffled(range(len(options)), randbelow)
    return tuple(sorted(options[i] for i in order[:count]))


def check_pick(pending: Pending, answer: Sequence[Key]) -> None:
    """Refuses an answer that is not `count` distinct options of `pending` (or all, if fewer)."""
    wanted = min(pending.count, len(pending.options))
    if len(answer) != wanted or len(set(answer)) != wanted or not set(answer) <= set(pending.options):
        raise RuleError(
            "calamity_pick",
            "Choose %(count)s of the places offered.",
            field=pending.kind,
            params={"count": pending.count},
        )


def _reductions(sit: Situation, realm: Realm, areas: Iterable[int]) -> tuple[Change, ...]:
    """Cities reduced one after the other, each taking its tokens from what the stock still holds."""
    stock, changes = realm.stock, []
    for area in sorted(areas):
        left = _reduced_tokens(realm, area, sit.board, stock)
        stock -= left
        changes.append(Change(realm.seat, area, left, -1))
    return tuple(changes)


def _reduce_cities(
    calamity: str,
    sit: Situation,
    realm: Realm,
    count: int,
    randbelow: RandBelow,
    chosen: Sequence[int] | None,
) -> Resolution:
    """`realm` reduces `count` of its cities, of its choice (`chosen`)."""
    pool = sorted(realm.cities)
    count = max(0, min(count, len(pool)))
    if count == 0:
        return Resolution(calamity, realm.seat, note="no_city")
    options = tuple((a,) for a in pool)
    if chosen is None and count < len(pool):
        pick = Pending(
            "reduce", calamity, realm.seat, count, options, _random_pick(options, count, randbelow)
        )
        return Resolution(calamity, realm.seat, pending=(pick,))
    areas = pool if chosen is None else list(chosen)
    check_pick(Pending("reduce", calamity, realm.seat, count, options, ()), [(a,) for a in areas])
    return Resolution(calamity, realm.seat, changes=_reductions(sit, realm, areas))


# --- stack 2 ------------------------------------------------------------------------------------------


def volcanoes(board: Board) -> tuple[frozenset[int], ...]:
    """The volcanoes: volcano areas joined by land (one volcano touches Campania and Neapolis, §30.211)."""
    groups: list[frozenset[int]] = []
    left = {a.index for a in board.areas if a.volcano}
    while left:
        start = min(left)
        group, todo = {start}, [start]
        while todo:
            for other in board.land_neighbours[todo.pop()] & left:
                if other not in group:
                    group.add(other)
                    todo.append(other)
        left -= group
        groups.append(frozenset(group))
    return tuple(groups)


def volcano_earthquake(
    sit: Situation, primary: int, randbelow: RandBelow, *, site: Key | None = None
) -> Resolution:
    """§30.21. A volcano touching one of P's cities erupts: every player's units in its areas go; of
    several, the one doing most damage to all victims (P breaks ties). Otherwise an earthquake destroys one
    of P's cities (reduces it, with Engineering) and reduces a city of another player adjacent to it, by
    land or water (not an Engineering holder's); the site doing most damage. Engineering does nothing
    against volcanoes (§30.213)."""
    realm = sit.realms[primary]
    groups = volcanoes(sit.board)
    erupting = [i for i, g in enumerate(groups) if g & realm.cities]
    if erupting:
        damage: dict[Key, int] = {
            (i,): sum(r.points_in(a) for r in sit.realms for a in groups[i]) for i in erupting
        }
        chosen = _best_site(VOLCANO, primary, damage, randbelow, site)
        if isinstance(chosen, Pending):
            return Resolution(VOLCANO, primary, pending=(chosen,))
        areas = groups[chosen[0]]
        changes = tuple(
            Change(r.seat, a, -r.tokens_in(a), -(a in r.cities))
            for r in sit.realms
            for a in sorted(areas)
            if r.points_in(a)
        )
        victims = tuple(sorted({c.seat for c in changes} - {primary}))
        return Resolution(VOLCANO, primary, victims, changes)
    return _earthquake(sit, realm, randbelow, site)


def _earthquake(sit: Situation, realm: Realm, randbelow: RandBelow, site: Key | None) -> Resolution:
    if not realm.cities:
        return Resolution(VOLCANO, realm.seat, note="no_city")
    own_left = {
        a: _reduced_tokens(realm, a, sit.board) if civ.ENGINEERING in realm.cards else 0 for a in realm.cities
    }
    damage: dict[Key, int] = {}
    for area in sorted(realm.cities):
        near = frozenset(_adjacent(sit.board, area))
        targets = [
            (other.seat, b)
            for other in sit.realms
            if other.seat != realm.seat and civ.ENGINEERING not in other.cards
            for b in sorted(other.cities & near)
        ]
        own = CITY_POINTS - own_left[area]
        if not targets:
            damage[(area,)] = own
        for seat, b in targets:
            damage[(area, seat, b)] = own + CITY_POINTS - _reduced_tokens(sit.realms[seat], b, sit.board)
    chosen = _best_site(VOLCANO, realm.seat, damage, randbelow, site)
    if isinstance(chosen, Pending):
        return Resolution(VOLCANO, realm.seat, pending=(chosen,))
    changes = [Change(realm.seat, chosen[0], own_left[chosen[0]], -1)]
    if len(chosen) == 3:
        changes += _reductions(sit, sit.realms[chosen[1]], [chosen[2]])
    return Resolution(VOLCANO, realm.seat, tuple(chosen[1:2]), tuple(changes))


_NEIGHBOURS: dict[int, tuple[tuple[int, ...], ...]] = {}  # id(board) -> per area, sorted


def _adjacent(board: Board, area: int) -> tuple[int, ...]:
    """Land areas next to `area` across a land or a water boundary, in index order (built once a board)."""
    table = _NEIGHBOURS.get(id(board))
    if table is None:
        land = frozenset(board.land)
        table = tuple(
            tuple(sorted((board.land_neighbours[a] | board.coast_neighbours[a]) & land))
            for a in range(len(board.areas))
        )
        _NEIGHBOURS[id(board)] = table
    return table[area]


def _best_site(
    calamity: str, seat: int, damage: Mapping[Key, int], randbelow: RandBelow, site: Key | None
) -> Key | Pending:
    """The site doing most damage; P breaks ties (`site` is its answer)."""
    most = max(damage.values())
    best = tuple(key for key, value in sorted(damage.items()) if value == most)
    if site is not None:
        if site not in best:
            raise RuleError("calamity_site", "That site does not do the most damage.", field="site")
        return site
    if len(best) == 1:
        return best[0]
    return Pending("site", calamity, seat, 1, best, (best[randbelow(len(best))],))


def treachery(
    sit: Situation, primary: int, traded_by: int | None, randbelow: RandBelow, *, city: int | None = None
) -> Resolution:
    """§30.22. The trader picks one of P's cities and replaces it with one of its own (or, with none in
    stock, the city is eliminated). Drawn and kept: one of P's cities is reduced, P choosing (check file,
    case 10), and nobody gains."""
    realm = sit.realms[primary]
    if not realm.cities:
        return Resolution(TREACHERY, primary, note="no_city")
    if traded_by is None:
        return _reduce_cities(TREACHERY, sit, realm, 1, randbelow, None if city is None else [city])
    options = tuple((a,) for a in sorted(realm.cities))
    if city is None:
        pick = Pending("treachery", TREACHERY, traded_by, 1, options, (options[randbelow(len(options))],))
        return Resolution(TREACHERY, primary, pending=(pick,))
    if (city,) not in options:
        raise RuleError("calamity_pick", "Choose one of the victim's cities.", field="city")
    changes = [Change(primary, city, 0, -1)]
    if sit.realms[traded_by].cities_in_stock:
        changes.append(Change(traded_by, city, 0, 1))
    return Resolution(TREACHERY, primary, changes=tuple(changes))


# --- stack 3 ------------------------------------------------------------------------------------------


def famine(sit: Situation, primary: int, traded_by: int | None, randbelow: RandBelow) -> Resolution:
    """§30.31. P loses 10 unit points and hands out 20 more, at most 8 to one player; each secondary victim
    chooses its units (`secondary_losses`). Pottery: −4 per Grain card shown (§30.312; optional, the Grain
    shown stays in hand, check file E2)."""
    realm = sit.realms[primary]
    caps = [(r, min(8, available_points(realm_units(sit, r)))) for r in eligible(sit, primary, traded_by)]
    return Resolution(
        FAMINE,
        primary,
        losses=(_loss(FAMINE, sit, realm, 10, randbelow, pottery=True),),
        assignments=(_assignment(FAMINE, primary, 20, caps),),
    )


def superstition_cities(cards: civ.Cards) -> int:
    """§30.322: 3 cities; only the highest religion card counts: Mysticism 2, Deism 1, Enlightenment 0."""
    if civ.ENLIGHTENMENT in cards:
        return 0
    if civ.DEISM in cards:
        return 1
    return 2 if civ.MYSTICISM in cards else 3


def superstition(
    sit: Situation, primary: int, randbelow: RandBelow, *, cities: Sequence[int] | None = None
) -> Resolution:
    """§30.32: P reduces 3 of its cities, of its choice (fewer with a religion card)."""
    realm = sit.realms[primary]
    return _reduce_cities(SUPERSTITION, sit, realm, superstition_cities(realm.cards), randbelow, cities)


# --- stack 4 ------------------------------------------------------------------------------------------


def civil_war_beneficiaries(sit: Situation, primary: int) -> tuple[int, ...]:
    """§30.411 [EN], §30.415: players by units in stock, most first (ties in A.S.T. order). Empty when
    P's own stock is the largest: then there is no civil war."""
    ranked = sorted(sit.realms, key=lambda r: (-r.stock_points, r.ast_rank, r.seat))
    if not ranked or ranked[0].seat == primary:
        return ()
    return tuple(r.seat for r in ranked if r.seat != primary)


def civil_war_selection(cards: civ.Cards) -> int:
    """§30.4121–30.4122: P selects 15 unit points, +5 Music, +5 Drama and Poetry, +10 Democracy."""
    return 15 + 5 * (civ.MUSIC in cards) + 5 * (civ.DRAMA_POETRY in cards) + 10 * (civ.DEMOCRACY in cards)


def civil_war(
    sit: Situation,
    primary: int,
    randbelow: RandBelow,
    *,
    first: Sequence[Change] | None = None,
    second: Sequence[Change] | None = None,
    military: Sequence[Sequence[Change]] | None = None,
    keep: int | None = None,
) -> Resolution:
    """§30.41. The first faction: P selects 15 unit points (more with Music, Drama and Poetry, Democracy),
    the beneficiary 20 more; with Philosophy, the beneficiary selects 15 and that is all. The rest is the
    second faction (none: no civil war). With Military, 5 unit points leave each faction, from areas next
    to the other if possible (P chooses). P keeps one faction; the beneficiary replaces the other with
    its own units, the next-largest stock taking what it cannot. Units are selected whole, as they stand.

    Answers, in turn: `first` (selected units as negative changes of P), `second` (the beneficiary's, when
    P selects first), `military` (each faction's losses, faction 1 first), `keep` (1 or 2)."""
    beneficiaries = civil_war_beneficiaries(sit, primary)
    realm = sit.realms[primary]
    if not beneficiaries:
        return Resolution(CIVIL_WAR, primary, note="largest_stock")
    if not realm.areas():
        return Resolution(CIVIL_WAR, primary, note="no_units")
    beneficiary = beneficiaries[0]
    philosophy = civ.PHILOSOPHY in realm.cards
    picks = (
        [(beneficiary, 15)]
        if philosophy
        else [(primary, civil_war_selection(realm.cards)), (beneficiary, 20)]
    )
    answers = [first, second]
    faction: list[Change] = []
    for (chooser, points), answer in zip(picks, answers, strict=False):
        units = _remaining(realm_units(sit, realm), faction)
        if not units:
            break
        if answer is None:
            default = random_loss(primary, units, points, randbelow, whole_cities=True)
            keyword = "second" if faction else "first"
            pick = UnitLoss(
                CIVIL_WAR, primary, chooser, points, units, whole_cities=True, default=default, answer=keyword
            )
            return Resolution(CIVIL_WAR, primary, (beneficiary,), losses=(pick,))
        check_loss(UnitLoss(CIVIL_WAR, primary, chooser, points, units, whole_cities=True), answer)
        faction += answer
    rest = _remaining(realm_units(sit, realm), faction)
    if not any(u.tokens or u.city for u in rest):
        return Resolution(CIVIL_WAR, primary, note="no_second_faction")
    factions = [_as_units(faction, realm), rest]
    if civ.MILITARY in realm.cards:
        losses = tuple(
            _military_loss(sit, realm, mine, other, randbelow) for mine, other in (factions, factions[::-1])
        )
        if military is None:
            return Resolution(CIVIL_WAR, primary, (beneficiary,), losses=losses)
        if len(military) != len(losses):
            raise RuleError("loss_units", "Name the losses of both factions.", field="military")
        for loss, answer in zip(losses, military, strict=True):
            check_loss(loss, answer)
        factions = [_remaining(f, answer) for f, answer in zip(factions, military, strict=True)]
    sizes = [sum(u.tokens + CITY_POINTS * u.city for u in f) for f in factions]
    if keep is None:
        larger = 1 if sizes[0] >= sizes[1] else 2
        choice = Pending("faction", CIVIL_WAR, primary, 1, ((1,), (2,)), ((larger,),))
        return Resolution(CIVIL_WAR, primary, (beneficiary,), pending=(choice,))
    if keep not in (1, 2):
        raise RuleError("calamity_pick", "Keep faction 1 or 2.", field="keep")
    changes = [c for answer in military or () for c in answer] + _annex(
        sit, primary, factions[2 - keep], beneficiaries
    )
    return Resolution(CIVIL_WAR, primary, (beneficiary,), tuple(changes))


def _remaining(units: Sequence[Unit], taken: Iterable[Change]) -> tuple[Unit, ...]:
    """`units` less what `taken` takes (negative changes); areas left empty are dropped."""
    left = {u.area: [u.tokens, u.city, u.reduced] for u in units}
    for change in taken:
        if change.area in left:
            left[change.area][0] += change.tokens
            if change.city < 0:
                left[change.area][1] = False
    return tuple(
        Unit(a, int(t), bool(c), int(r) if c else 0) for a, (t, c, r) in sorted(left.items()) if t or c
    )


def _as_units(taken: Iterable[Change], realm: Realm) -> tuple[Unit, ...]:
    areas: dict[int, list[int]] = {}
    for change in taken:
        row = areas.setdefault(change.area, [0, 0])
        row[0] -= change.tokens
        row[1] -= change.city
    return tuple(Unit(a, t, c > 0) for a, (t, c) in sorted(areas.items()) if t or c)


def _military_loss(
    sit: Situation, realm: Realm, faction: tuple[Unit, ...], other: tuple[Unit, ...], randbelow: RandBelow
) -> UnitLoss:
    """§30.414: 5 unit points from the faction, from its areas next to the other faction if they hold 5."""
    near_other = frozenset(n for u in other for n in _adjacent(sit.board, u.area))
    near = tuple(u for u in faction if u.area in near_other)
    units = near if sum(u.tokens + CITY_POINTS * u.city for u in near) >= 5 else faction
    reduced = reduction_tokens(sit, realm)
    units = tuple(Unit(u.area, u.tokens, u.city, reduced[u.area] if u.city else 0) for u in units)
    default = random_loss(realm.seat, units, 5, randbelow)
    return UnitLoss(CIVIL_WAR, realm.seat, realm.seat, 5, units, default=default, answer="military")


def _annex(sit: Situation, primary: int, faction: Sequence[Unit], takers: Sequence[int]) -> list[Change]:
    """§30.415: the faction's units become the takers' (cities for cities, tokens for tokens), each taker
    giving what its stock holds before the next takes over."""
    stock = {seat: sit.realms[seat].stock for seat in takers}
    cities = {seat: sit.realms[seat].cities_in_stock for seat in takers}
    changes: list[Change] = []
    for unit in faction:
        changes.append(Change(primary, unit.area, -unit.tokens, -int(unit.city)))
        if unit.city:
            taker = next((s for s in takers if cities[s] > 0), None)
            if taker is not None:
                cities[taker] -= 1
                changes.append(Change(taker, unit.area, 0, 1))
        need = unit.tokens
        for seat in takers:
            given = min(need, stock[seat])
            if given:
                stock[seat] -= given
                need -= given
                changes.append(Change(seat, unit.area, given, 0))
    return changes


def slave_revolt_tokens(cards: civ.Cards) -> int:
    """§30.421, §30.423: 15 tokens, +5 with Mining, −5 with Enlightenment (both cancel out)."""
    return 15 + 5 * (civ.MINING in cards) - 5 * (civ.ENLIGHTENMENT in cards)


def slave_revolt(sit: Situation, primary: int) -> Resolution:
    """§30.42: 15 of P's tokens on the board support no city, checked at once (cities reduced one at a
    time, their new tokens supporting the rest); fewer tokens on the board, all of them. They stay out
    through the support check closing the phase (check file, case 5)."""
    realm = sit.realms[primary]
    excluded = min(slave_revolt_tokens(realm.cards), sum(n for _, n in realm.tokens))
    return Resolution(SLAVE_REVOLT, primary, needs=(Need("support_check", primary, excluded),))


# --- stack 5 ------------------------------------------------------------------------------------------


def flood_loss(points: int, cards: civ.Cards) -> int:
    """§30.515: an Engineering holder on the flooded plain loses 7 unit points at most (P or secondary)."""
    return min(points, 7) if civ.ENGINEERING in cards else points


def _vulnerable(sit: Situation, realm: Realm, plain: Iterable[int]) -> tuple[Unit, ...]:
    """§30.511: on a flood plain tokens are always exposed, cities too unless on a black city site."""
    units = []
    for unit in realm_units(sit, realm, plain):
        area = sit.board.areas[unit.area]
        exposed_city = unit.city and (not area.city_site or area.white_site)
        if unit.tokens or exposed_city:
            units.append(Unit(unit.area, unit.tokens, exposed_city, unit.reduced if exposed_city else 0))
    return tuple(units)


def flood(
    sit: Situation,
    primary: int,
    traded_by: int | None,
    randbelow: RandBelow,
    *,
    plain: int | None = None,
    city: int | None = None,
) -> Resolution:
    """§30.51. If P has units on a flood plain, the plain with most of its unit points floods (P breaks
    ties): P loses up to 17 of its exposed units there, and the others there lose 10 in all, handed out by
    P (all they have there if that is 10 or less). Engineering: at most 7 (P or a secondary victim).
    Otherwise P loses one coastal city of its choice (reduced, with Engineering); none, no effect."""
    realm = sit.realms[primary]
    plains = sit.board.flood_plains
    on: dict[Key, int] = {}
    for i, areas in enumerate(plains):
        if points := sum(realm.points_in(a) for a in areas):
            on[(i,)] = points
    if not on:
        return _flood_coast(sit, realm, randbelow, city)
    chosen = _best_site(FLOOD, primary, on, randbelow, None if plain is None else (plain,))
    if isinstance(chosen, Pending):
        return Resolution(FLOOD, primary, pending=(chosen,))
    areas = plains[chosen[0]]
    own = _loss(
        FLOOD, sit, realm, flood_loss(17, realm.cards), randbelow, units=_vulnerable(sit, realm, areas)
    )
    others = [(r, available_points(_vulnerable(sit, r, areas))) for r in eligible(sit, primary, traded_by)]
    others = [(r, points) for r, points in others if points]
    losses = [own] if own.units else []
    assignments: tuple[Assignment, ...] = ()
    if sum(points for _, points in others) <= 10:
        answer = {r.seat: points for r, points in others}
        losses += secondary_losses(FLOOD, sit, answer, randbelow, plain=chosen[0])
    else:
        assignments = (replace(_assignment(FLOOD, primary, 10, others), plain=chosen[0]),)
    victims = tuple(r.seat for r, _ in others)
    return Resolution(FLOOD, primary, victims, losses=tuple(losses), assignments=assignments)


def _flood_coast(sit: Situation, realm: Realm, randbelow: RandBelow, city: int | None) -> Resolution:
    coastal = sorted(a for a in realm.cities if sit.board.areas[a].coastal)
    if not coastal:
        return Resolution(FLOOD, realm.seat, note="no_coastal_city")
    options = tuple((a,) for a in coastal)
    if city is None and len(coastal) > 1:
        pick = Pending("coastal_city", FLOOD, realm.seat, 1, options, (options[randbelow(len(options))],))
        return Resolution(FLOOD, realm.seat, pending=(pick,))
    area = coastal[0] if city is None else city
    if (area,) not in options:
        raise RuleError("calamity_pick", "Choose one of your coastal cities.", field="city")
    if civ.ENGINEERING in realm.cards:
        return Resolution(FLOOD, realm.seat, changes=_reductions(sit, realm, [area]))
    return Resolution(FLOOD, realm.seat, changes=(Change(realm.seat, area, 0, -1),))


@dataclass
class _Field:
    """The units barbarians meet, changed as they fight (a scratch copy of the situation)."""

    sit: Situation
    tokens: dict[int, dict[int, int]]
    cities: dict[int, int]  # area -> seat
    stock: dict[int, int]
    barbarians: dict[int, int]

    @classmethod
    def of(cls, sit: Situation) -> _Field:
        return cls(
            sit,
            {r.seat: dict(r.tokens) for r in sit.realms},
            {a: r.seat for r in sit.realms for a in r.cities},
            {r.seat: r.stock for r in sit.realms},
            dict(sit.barbarians),
        )

    def forces(self, area: int, barbarians: int) -> list[Force]:
        forces = [Force(BARBARIAN_NATION, barbarians)] if barbarians else []
        for realm in self.sit.realms:
            tokens, city = self.tokens[realm.seat].get(area, 0), self.cities.get(area) == realm.seat
            if tokens or city:
                forces.append(Force(str(realm.seat), tokens, city, realm.cards, self.stock[realm.seat]))
        return forces

    def points(self, seat: int, area: int) -> int:
        return self.tokens[seat].get(area, 0) + CITY_POINTS * (self.cities.get(area) == seat)

    def damage(self, seat: int, area: int, barbarians: int) -> int:
        """Unit points `seat` would lose if `barbarians` more entered `area` now."""
        forces = self.forces(area, barbarians + self.barbarians.get(area, 0))
        limit = self.sit.board.areas[area].population
        if not in_conflict(forces, limit):
            return 0
        result = resolve(area, forces, limit)
        return self.points(seat, area) - result.left(str(seat)) - CITY_POINTS * (result.city == str(seat))

    def enter(self, area: int, barbarians: int) -> None:
        """`barbarians` more come into `area` and fight everyone there (§30.5212, §24)."""
        forces = self.forces(area, barbarians + self.barbarians.get(area, 0))
        limit = self.sit.board.areas[area].population
        self.barbarians[area] = barbarians + self.barbarians.get(area, 0)
        if not in_conflict(forces, limit):
            return
        owner = next((force.nation for force in forces if force.city), None)
        result = resolve(area, forces, limit)
        self.barbarians[area] = result.left(BARBARIAN_NATION)
        if result.city_destroyed:
            self.cities.pop(area, None)
        for force in forces:
            if force.nation == BARBARIAN_NATION:
                continue
            seat = int(force.nation)
            replaced = result.replacement if force.nation == owner else 0
            self.stock[seat] += result.lost(force.nation) - replaced
            self.tokens[seat][area] = result.left(force.nation)

    def changes(self) -> tuple[Change, ...]:
        out = []
        for realm in self.sit.realms:
            for area in sorted(realm.areas() | {a for a, n in self.tokens[realm.seat].items() if n}):
                tokens = self.tokens[realm.seat].get(area, 0) - realm.tokens_in(area)
                city = int(self.cities.get(area) == realm.seat) - int(area in realm.cities)
                if tokens or city:
                    out.append(Change(realm.seat, area, tokens, city))
        for area in sorted(set(self.barbarians) | {a for a, _ in self.sit.barbarians}):
            delta = self.barbarians.get(area, 0) - self.sit.barbarians_in(area)
            if delta:
                out.append(Change(BARBARIANS, area, delta))
        return tuple(out)


def barbarian_chooser(sit: Situation, traded_by: int | None) -> int:
    """§30.5241: the trader decides where barbarians go; a card drawn and kept, the most stock units."""
    if traded_by is not None:
        return traded_by
    return min(sit.realms, key=lambda r: (-r.stock_points, r.ast_rank, r.seat)).seat


def barbarian_hordes(
    sit: Situation, primary: int, traded_by: int | None, randbelow: RandBelow, *, route: Sequence[int] = ()
) -> Resolution:
    """§30.52. 15 barbarian tokens enter the start area of P doing P most damage (none holding P's units:
    an empty start area of P, else one with others' units) and fight all there. Survivors above the
    area's limit move on as one group to the adjacent area (by land or water, no open sea) doing P most
    immediate damage: an area held by P alone where they can hurt P; else any where they can; else a step
    towards P's nearest units. They fight again, until none is in surplus; surplus with nowhere to go is
    removed. Ties are the trader's choice (`route`: its answers in turn; a drawn card, the most stock
    units). Crete is never the victim (§30.526). Barbarians have no cards; the defenders' count."""
    realm = sit.realms[primary]
    if realm.nation == CRETE:
        return Resolution(BARBARIAN_HORDES, primary, note="crete")
    chooser = barbarian_chooser(sit, traded_by)
    board, scratch = sit.board, _Field.of(sit)
    answers = list(route)
    options = _placements(sit, realm, scratch)
    if not options:
        return Resolution(BARBARIAN_HORDES, primary, note="no_start_area")
    here: int | None = None
    moving = BARBARIAN_TOKENS
    for _ in range(len(board.areas) + 1):
        step = _choose(options, answers, chooser, randbelow)
        if isinstance(step, Pending):
            return Resolution(BARBARIAN_HORDES, primary, pending=(step,))
        if here is not None:
            scratch.barbarians[here] -= moving
        here = step
        scratch.enter(here, moving)
        moving = scratch.barbarians[here] - board.areas[here].population
        if moving <= 0:
            break
        options = _barbarian_steps(sit, scratch, primary, here, moving)
        if not options:
            scratch.barbarians[here] -= moving
            break
    for area, tokens in scratch.barbarians.items():
        scratch.barbarians[area] = min(tokens, board.areas[area].population)  # §30.5222
    changes = scratch.changes()
    victims = tuple(sorted({c.seat for c in changes if c.seat >= 0 and c.seat != primary}))
    after = tuple((a, n) for a, n in sorted(scratch.barbarians.items()) if n > 0)
    return Resolution(BARBARIAN_HORDES, primary, victims, changes, barbarians=after)


def _choose(options: Sequence[int], answers: list[int], chooser: int, randbelow: RandBelow) -> int | Pending:
    if len(options) == 1:
        return options[0]
    if not answers:
        keys = tuple((a,) for a in options)
        return Pending("barbarian_step", BARBARIAN_HORDES, chooser, 1, keys, (keys[randbelow(len(keys))],))
    answer = answers.pop(0)
    if answer not in options:
        raise RuleError("calamity_pick", "The barbarians cannot go there.", field="route")
    return answer


def _placements(sit: Situation, realm: Realm, scratch: _Field) -> list[int]:
    starts = [a for a in sit.board.nation_info[realm.nation].start_areas if sit.playable(a)]
    held = [a for a in starts if realm.points_in(a)]
    if held:
        damage = {a: scratch.damage(realm.seat, a, BARBARIAN_TOKENS) for a in held}
        return _most(damage)
    starts = [a for a in starts if a not in sit.pirate_cities]  # §29.65: pirate cities are never touched
    empty = [a for a in starts if not sit.occupants(a) and not sit.barbarians_in(a)]
    return empty or starts


def _most(scores: Mapping[int, int]) -> list[int]:
    top = max(scores.values())
    return sorted(a for a, value in scores.items() if value == top)


def _barbarian_steps(sit: Situation, scratch: _Field, primary: int, here: int, moving: int) -> list[int]:
    near = [a for a in _adjacent(sit.board, here) if sit.playable(a) and a not in sit.pirate_cities]
    damage = {a: scratch.damage(primary, a, moving) for a in near}
    alone = {a: d for a, d in damage.items() if d > 0 and _only(scratch, primary, a)}
    if alone:
        return _most(alone)
    hurting = {a: d for a, d in damage.items() if d > 0}
    if hurting:
        return _most(hurting)
    distance = _distances(sit, {a for a in sit.board.land if scratch.points(primary, a)})
    if here not in distance:
        return []
    closer = [a for a in near if distance.get(a, distance[here]) < distance[here]]
    return closer


def _only(scratch: _Field, seat: int, area: int) -> bool:
    if scratch.barbarians.get(area, 0):
        return False
    return all(scratch.points(r.seat, area) == 0 for r in scratch.sit.realms if r.seat != seat)


def _distances(sit: Situation, targets: set[int]) -> dict[int, int]:
    distance = {a: 0 for a in targets}
    queue = deque(sorted(targets))
    while queue:
        area = queue.popleft()
        for other in _adjacent(sit.board, area):
            if other not in distance and sit.playable(other):
                distance[other] = distance[area] + 1
                queue.append(other)
    return distance


# --- stacks 6 to 9 ------------------------------------------------------------------------------------


def epidemic_loss(points: int, cards: civ.Cards, *, primary: bool) -> int:
    """§30.613–30.615: Medicine −8 for P, −5 for a secondary victim; Roadbuilding +5 for either."""
    relief = (8 if primary else 5) * (civ.MEDICINE in cards)
    return max(0, points - relief + 5 * (civ.ROADBUILDING in cards))


def epidemic(sit: Situation, primary: int, traded_by: int | None, randbelow: RandBelow) -> Resolution:
    """§30.61: P loses 16 unit points and hands out 25, at most 10 to one player, the trader excluded. A
    victim leaves a token in every area hit (a city counts at most 4)."""
    realm = sit.realms[primary]
    own = _loss(
        EPIDEMIC, sit, realm, epidemic_loss(16, realm.cards, primary=True), randbelow, keep_token=True
    )
    caps = [
        (r, min(10, available_points(realm_units(sit, r), keep_token=True)))
        for r in eligible(sit, primary, traded_by)
    ]
    return Resolution(
        EPIDEMIC, primary, losses=(own,), assignments=(_assignment(EPIDEMIC, primary, 25, caps),)
    )


def civil_disorder_cities(cities: int, cards: civ.Cards) -> int:
    """§30.711–30.715: all but 3 cities reduced; one fewer for each of Music, Drama and Poetry, Law and
    Democracy; one more for each of Military and Roadbuilding."""
    fewer = sum(card in cards for card in (civ.MUSIC, civ.DRAMA_POETRY, civ.LAW, civ.DEMOCRACY))
    more = sum(card in cards for card in (civ.MILITARY, civ.ROADBUILDING))
    return max(0, min(cities, cities - 3 - fewer + more))


def civil_disorder(
    sit: Situation, primary: int, randbelow: RandBelow, *, cities: Sequence[int] | None = None
) -> Resolution:
    """§30.71: P reduces all but 3 of its cities, of its choice (modifiers: `civil_disorder_cities`)."""
    realm = sit.realms[primary]
    count = civil_disorder_cities(len(realm.cities), realm.cards)
    return _reduce_cities(CIVIL_DISORDER, sit, realm, count, randbelow, cities)


def iconoclasm_cities(cards: civ.Cards) -> int:
    """§30.811–30.817: 4 cities; Law −1, Philosophy −1, Theology −3, Monotheism +1, Roadbuilding +1."""
    return max(
        0,
        4
        - (civ.LAW in cards)
        - (civ.PHILOSOPHY in cards)
        - 3 * (civ.THEOLOGY in cards)
        + (civ.MONOTHEISM in cards)
        + (civ.ROADBUILDING in cards),
    )


def iconoclasm_heresy(
    sit: Situation,
    primary: int,
    traded_by: int | None,
    randbelow: RandBelow,
    *,
    own: Sequence[int] | None = None,
    others: Sequence[Key] | None = None,
) -> Resolution:
    """§30.81: P reduces 4 of its cities (modifiers: `iconoclasm_cities`), and orders the reduction of 2
    cities of other players (`others`: (seat, area) pairs): not the trader's, not a Theology holder's, at
    most one of a Philosophy holder's."""
    realm = sit.realms[primary]
    mine = _reduce_cities(ICONOCLASM, sit, realm, iconoclasm_cities(realm.cards), randbelow, own)
    targets = [r for r in eligible(sit, primary, traded_by) if civ.THEOLOGY not in r.cards and r.cities]
    options = tuple((r.seat, a) for r in targets for a in sorted(r.cities))
    most_one = {r.seat for r in targets if civ.PHILOSOPHY in r.cards}
    count = min(2, sum(min(len(r.cities), 1 if r.seat in most_one else 2) for r in targets))
    if count and others is None:
        default = _leader_cities(targets, count, randbelow, at_most_one=most_one)
        pick = Pending("secondary_cities", ICONOCLASM, primary, count, options, default)
        return Resolution(ICONOCLASM, primary, changes=mine.changes, pending=(*mine.pending, pick))
    changes: list[Change] = []
    chosen = list(others or ()) if count else []
    if chosen:
        check_pick(Pending("secondary_cities", ICONOCLASM, primary, count, options, ()), chosen)
        if any(sum(1 for s, _ in chosen if s == seat) > 1 for seat in most_one):
            raise RuleError("calamity_pick", "A Philosophy holder loses at most one city.", field="others")
    for seat in sorted({s for s, _ in chosen}):
        changes += _reductions(sit, sit.realms[seat], [a for s, a in chosen if s == seat])
    victims = tuple(sorted({s for s, _ in chosen}))
    return Resolution(ICONOCLASM, primary, victims, mine.changes + tuple(changes), pending=mine.pending)


def _leader_cities(
    targets: Sequence[Realm], count: int, randbelow: RandBelow, *, at_most_one: Iterable[int] = ()
) -> tuple[Key, ...]:
    """The default: a random city of each leader in turn (a second of the first if players run short)."""
    picked: list[Key] = []
    ranked = leaders(targets)
    for realm in [*ranked, *[r for r in ranked if r.seat not in set(at_most_one)]]:
        if len(picked) == count:
            break
        free = sorted(a for a in realm.cities if (realm.seat, a) not in picked)
        if free:
            picked.append((realm.seat, free[randbelow(len(free))]))
    return tuple(sorted(picked))


def piracy(
    sit: Situation,
    primary: int,
    traded_by: int | None,
    randbelow: RandBelow,
    *,
    own: Sequence[int] | None = None,
    others: Sequence[Key] | None = None,
) -> Resolution:
    """§30.91: 2 coastal cities of P, picked by the trader (drawn and kept: by P, check file case 10),
    become pirate cities; so do coastal cities of two other players, one each, picked by P (not the
    trader's), even if P had fewer than 2. Ships play no part."""
    realm = sit.realms[primary]
    board = sit.board
    coastal = sorted(a for a in realm.cities if board.areas[a].coastal)
    chooser = primary if traded_by is None else traded_by
    pending: list[Pending] = []
    own_options = tuple((a,) for a in coastal)
    own_count = min(2, len(coastal))
    if own is None and own_count < len(coastal):
        pending.append(
            Pending(
                "piracy_own",
                PIRACY,
                chooser,
                own_count,
                own_options,
                _random_pick(own_options, own_count, randbelow),
            )
        )
    targets = [r for r in eligible(sit, primary, traded_by) if any(board.areas[a].coastal for a in r.cities)]
    options = tuple((r.seat, a) for r in targets for a in sorted(r.cities) if board.areas[a].coastal)
    count = min(2, len(targets))
    if others is None and count:
        default = tuple(
            sorted((r.seat, _random_coastal(board, r, randbelow)) for r in leaders(targets)[:count])
        )
        pending.append(Pending("piracy_others", PIRACY, primary, count, options, default))
    if pending:
        return Resolution(PIRACY, primary, pending=tuple(pending))
    lost = coastal if own is None else list(own)
    if own is not None:
        check_pick(Pending("piracy_own", PIRACY, chooser, own_count, own_options, ()), [(a,) for a in lost])
    chosen = list(others or ())
    if chosen:
        check_pick(Pending("piracy_others", PIRACY, primary, count, options, ()), chosen)
        if len({s for s, _ in chosen}) != len(chosen):
            raise RuleError("calamity_pick", "Each other player loses only one city.", field="others")
    changes: list[Change] = []
    for seat, area in [(primary, a) for a in lost] + chosen:
        changes += [Change(seat, area, 0, -1), Change(PIRATES, area, 0, 1)]
    return Resolution(PIRACY, primary, tuple(sorted({s for s, _ in chosen})), tuple(changes))


def _random_coastal(board: Board, realm: Realm, randbelow: RandBelow) -> int:
    coastal = sorted(a for a in realm.cities if board.areas[a].coastal)
    return coastal[randbelow(len(coastal))]


# --- after the calamities ------------------------------------------------------------------------------


def monotheism_targets(sit: Situation, seat: int) -> tuple[int, ...]:
    """§32.94: areas next by land to one holding the holder's units, holding others' units, none of them a
    Monotheism or Theology holder's, no barbarians nor pirate city, and whose every unit the holder's
    stock can replace (a city with a city, tokens with tokens)."""
    realm = sit.realms[seat]
    near = frozenset(n for a in realm.areas() for n in sit.board.land_neighbours[a]) - realm.areas()
    targets = []
    for area in sorted(near):
        there = sit.occupants(area)
        if not there or sit.barbarians_in(area) or area in sit.pirate_cities or not sit.playable(area):
            continue
        if any(civ.MONOTHEISM in r.cards or civ.THEOLOGY in r.cards for r in there):
            continue
        tokens = sum(r.tokens_in(area) for r in there)
        cities = sum(area in r.cities for r in there)
        if tokens <= realm.stock and cities <= realm.cities_in_stock:
            targets.append(area)
    return tuple(targets)


def monotheism_order(sit: Situation) -> tuple[int, ...]:
    """§32.94 (check file, case 20): holders convert in A.S.T. order, once a turn each."""
    holders = [r for r in sit.realms if civ.MONOTHEISM in r.cards]
    return tuple(r.seat for r in sorted(holders, key=lambda r: (r.ast_rank, r.seat)))


def monotheism(sit: Situation, seat: int, randbelow: RandBelow, *, target: int | None = None) -> Resolution:
    """§32.941: the holder may replace every unit of one target area with its own (`target`; `NO_TARGET`
    declines); no card, no pillage. Default: the target with most unit points (ties at random)."""
    targets = monotheism_targets(sit, seat)
    if not targets or target == NO_TARGET:
        return Resolution(MONOTHEISM, seat, note="no_target" if not targets else "declined")
    if target is None:
        value = {a: sum(r.points_in(a) for r in sit.occupants(a)) for a in targets}
        best = _most(value)
        options = (*((a,) for a in targets), (NO_TARGET,))
        pick = Pending("monotheism", MONOTHEISM, seat, 1, options, ((best[randbelow(len(best))],),))
        return Resolution(MONOTHEISM, seat, pending=(pick,))
    if target not in targets:
        raise RuleError("calamity_pick", "That area cannot be converted.", field="target")
    changes, tokens, city = [], 0, 0
    for realm in sit.occupants(target):
        lost = Change(realm.seat, target, -realm.tokens_in(target), -(target in realm.cities))
        changes.append(lost)
        tokens, city = tokens - lost.tokens, city - lost.city
    changes.append(Change(seat, target, tokens, city))
    return Resolution(MONOTHEISM, seat, tuple(sorted({c.seat for c in changes} - {seat})), tuple(changes))


def support_checks(sit: Situation, excluded: Mapping[int, int] | None = None) -> tuple[Need, ...]:
    """§29.8: city support is checked again after the calamities (Slave Revolt's tokens still out)."""
    out = excluded or {}
    return tuple(Need("support_check", r.seat, out.get(r.seat, 0)) for r in sit.realms if r.cities)


def resolve_calamity(held: Held, sit: Situation, randbelow: RandBelow, **answers: object) -> Resolution:
    """Any calamity by its card key, with the answers given so far."""
    p, t = held.holder, held.traded_by
    table: dict[str, Callable[..., Resolution]] = {
        VOLCANO: lambda **a: volcano_earthquake(sit, p, randbelow, **a),
        TREACHERY: lambda **a: treachery(sit, p, t, randbelow, **a),
        FAMINE: lambda **a: famine(sit, p, t, randbelow, **a),
        SUPERSTITION: lambda **a: superstition(sit, p, randbelow, **a),
        CIVIL_WAR: lambda **a: civil_war(sit, p, randbelow, **a),
        SLAVE_REVOLT: lambda **a: slave_revolt(sit, p, **a),
        FLOOD: lambda **a: flood(sit, p, t, randbelow, **a),
        BARBARIAN_HORDES: lambda **a: barbarian_hordes(sit, p, t, randbelow, **a),
        EPIDEMIC: lambda **a: epidemic(sit, p, t, randbelow, **a),
        CIVIL_DISORDER: lambda **a: civil_disorder(sit, p, randbelow, **a),
        ICONOCLASM: lambda **a: iconoclasm_heresy(sit, p, t, randbelow, **a),
        PIRACY: lambda **a: piracy(sit, p, t, randbelow, **a),
    }
    return table[held.card](**answers)


# --- answers and the site's defaults ---------------------------------------------------------------------

ANSWERS: Final[Mapping[tuple[str, str], str]] = {  # (calamity, pending kind) -> the keyword its answer takes
    (VOLCANO, "site"): "site",
    (TREACHERY, "reduce"): "city",
    (TREACHERY, "treachery"): "city",
    (SUPERSTITION, "reduce"): "cities",
    (FLOOD, "site"): "plain",
    (FLOOD, "coastal_city"): "city",
    (CIVIL_WAR, "faction"): "keep",
    (BARBARIAN_HORDES, "barbarian_step"): "route",
    (CIVIL_DISORDER, "reduce"): "cities",
    (ICONOCLASM, "reduce"): "own",
    (ICONOCLASM, "secondary_cities"): "others",
    (PIRACY, "piracy_own"): "own",
    (PIRACY, "piracy_others"): "others",
    (MONOTHEISM, "monotheism"): "target",
}


def with_answer(answers: Mapping[str, object], pending: Pending, picked: Sequence[Key]) -> dict[str, object]:
    """`answers` with `picked` (checked against `pending`) added under the keyword its calamity takes."""
    check_pick(pending, picked)
    keyword = ANSWERS[(pending.calamity, pending.kind)]
    value: object
    if keyword == "site":
        value = picked[0]
    elif keyword in ("plain", "city", "keep", "target"):
        value = picked[0][0]
    elif keyword in ("cities", "own") and pending.kind != "secondary_cities":
        value = [key[0] for key in picked]
    elif keyword == "route":
        previous = answers.get("route", [])
        value = [*previous, picked[0][0]] if isinstance(previous, list) else [picked[0][0]]
    else:
        value = list(picked)
    return {**answers, keyword: value}


def settle_by_default(
    held: Held, sit: Situation, randbelow: RandBelow, answers: Mapping[str, object] | None = None
) -> tuple[Resolution, dict[str, object]]:
    """The calamity with the site's default taken at every choice still open (the timeout, F-S3): returns
    the settled resolution (its losses and assignments still to take) and the answers given."""
    given = dict(answers or {})
    for _ in range(len(sit.board.areas) + 8):
        result = resolve_calamity(held, sit, randbelow, **given)
        picks = [loss for loss in result.losses if loss.answer]
        if result.pending:
            for pending in result.pending:
                given = with_answer(given, pending, pending.default)
        elif picks and picks[0].answer == "military":
            given["military"] = [loss.default for loss in picks]
        elif picks:
            given[picks[0].answer] = list(picks[0].default)
        else:
            return result, given
    raise AssertionError("a calamity kept asking")


def default_changes(result: Resolution, sit: Situation, randbelow: RandBelow) -> tuple[Change, ...]:
    """Every change of a settled resolution when every victim takes the default: its own changes, each
    loss's default, and the default hand-out's losses."""
    changes = list(result.changes)
    for loss in result.losses:
        changes += loss.default
    for assignment in result.assignments:
        answer = dict(assignment.default)
        for loss in secondary_losses(result.calamity, sit, answer, randbelow, plain=assignment.plain):
            changes += loss.default
    return tuple(changes)


def apply_changes(sit: Situation, changes: Iterable[Change]) -> Situation:
    """The board after `changes`: tokens and cities move between the board and their owner's stock;
    barbarians and pirate cities come and go. Refuses a change that takes what is not there."""
    tokens = {r.seat: dict(r.tokens) for r in sit.realms}
    cities = {r.seat: set(r.cities) for r in sit.realms}
    stock = {r.seat: r.stock for r in sit.realms}
    barbarians, pirates = dict(sit.barbarians), set(sit.pirate_cities)
    for change in changes:
        if change.seat == BARBARIANS:
            barbarians[change.area] = barbarians.get(change.area, 0) + change.tokens
        elif change.seat == PIRATES:
            (pirates.add if change.city > 0 else pirates.discard)(change.area)
        else:
            tokens[change.seat][change.area] = tokens[change.seat].get(change.area, 0) + change.tokens
            stock[change.seat] -= change.tokens
            if change.city < 0:
                cities[change.seat].remove(change.area)
            elif change.city > 0:
                cities[change.seat].add(change.area)
    if any(n < 0 for row in tokens.values() for n in row.values()) or min(stock.values(), default=0) < 0:
        raise ValueError("a change takes tokens that are not there")
    realms = tuple(
        replace(
            r,
            tokens=tuple(sorted((a, n) for a, n in tokens[r.seat].items() if n)),
            cities=frozenset(cities[r.seat]),
            stock=stock[r.seat],
        )
        for r in sit.realms
    )
    after = tuple(sorted((a, n) for a, n in barbarians.items() if n))
    return replace(sit, realms=realms, barbarians=after, pirate_cities=frozenset(pirates))
