"""A heuristic player: `bot_order(state, seat, rng)` answers every wait of the game, cheaply.

It reads only what its seat may know: the board, the public counts, its own hand, its own moves not yet
finalised, and the offers of the market as its seat sees them (`mk.offer_seen_by`); never another
seat's hand, the stacks, another seat's secret moves or the game's generator (so no `Legal.default`
drawn from it). Chance comes from `rng` alone.

What it does, phase by phase: the richest tax its stock pays, or with Coinage the lowest once it has a
treasury (tokens in the treasury neither grow nor support cities); growth spread over its areas; a ship only
for a nation boxed in, to carry tokens to free coasts and island sites; tokens gathered on free city sites
(6, 3 with Architecture and the treasury for the other half, 12 off a site, 12 against a pirate city so that
a city stands there the same turn) and spread two by two over free land, never where another player stands
unless boxed in, then only where it stands weaker; every city its population supports, and one more half
paid with Architecture; when short of support, the city that gives most tokens back reduced; stack-9 cards
(each may be Piracy) only to bring back a treasury that its stock lacks; in the market, one offer of its
least useful cards (tradable calamities first, now and then said to be a commodity) for a card that grows
its best set, and acceptance of what grows its sets (a calamity in a free slot handed on); in a calamity,
tokens lost while those left support its cities, then cities, and harm sent to the leaders; in phase 12,
the advances that bring most face value for their price, new groups, protection and growth first, Mining by
what it adds to its ore sets, Military for a nation that fights, saving for a protection nearly within
reach, paid with the sets that waste least.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from app.games.advciv import advances as adv
from app.games.advciv import buying, cards, flow, movement, moving, resolving, tables
from app.games.advciv import calamities as cal
from app.games.advciv import market as mk
from app.games.advciv import trade_cards as tc
from app.games.advciv.model import CITIES, NOBODY, State, public_score
from app.games.advciv.orders import Legal
from app.games.advciv.phases import awaited as waited
from app.games.advciv.phases import free_tokens, legal_for, ship_targets
from app.games.advciv.tables import KEYS, LAND, LAND_REACH, LIMITS
from app.games.contract import RuleError
from app.games.kit.legal import awaited

SITE_TOKENS = flow.SITE_COST  # tokens gathered on a free city site to build there
PIRATE_ATTACK = cards.CITY_ATTACK_TOKENS + 1  # tokens sent together against a pirate city on a site
PIRATE_FOUNDING = 2 * SITE_TOKENS  # enough against a pirate city to build on its site the same turn (§24.34)
SPREAD = 2  # tokens left in an area: two grow by two (§20.1)
CALAMITY_WORTH = -12  # what a calamity said to be offered is worth to the bot
LIE_RATE = 0.3  # how often a calamity handed on is said to be a commodity
LEAVE_RATE = 0.3  # how often a seat with nothing pending leaves the market rather than make an offer
SPREAD_STOCK = 4  # stock kept beyond the next tax before tokens spread over new land
PAYMENT_SETS = 8  # the most commodity sets whose every subset is tried as a payment
TREASURY_KEPT = 8  # treasury above which Coinage's lowest rate is taken
PROTECTION = frozenset(
    {
        cards.POTTERY,
        cards.ENGINEERING,
        cards.MYSTICISM,
        cards.DEISM,
        cards.MEDICINE,
        cards.MUSIC,
        cards.DRAMA_POETRY,
        cards.LAW,
        cards.DEMOCRACY,
        cards.PHILOSOPHY,
        cards.ENLIGHTENMENT,
        cards.THEOLOGY,
        cards.MILITARY,  # Civil War: five unit points fewer from each faction (§30.41)
    }
)
GROWTH = frozenset({cards.AGRICULTURE, cards.ARCHITECTURE})  # more tokens per area, cities half paid
MINING_PAYBACK = 40  # what Mining adds to the hand's sets for it to be worth twice its face
SAVING = 0.6  # the share of the best protection's price from which the means are kept for it


def bot_order(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """The bot's order for an awaited `seat` (RuleError if the game does not wait on it)."""
    legal = awaited(legal_for(state, seat) if seat in waited(state) else None)
    phase = state.phase
    if phase == "start":
        return legal.choices[rng.randrange(len(legal.choices))].order.model_dump(mode="json")
    if phase == "tax":
        return {"type": "tax", "rate": _tax_rate(state, seat, legal)}
    if phase == "revolt":
        return _revolt(state, seat, legal)
    if phase == "expand":
        return _expand(state, seat)
    if phase == "ships":
        return _ships(state, seat)
    if phase == "move":
        return _move(state, seat, legal)
    if phase == "conflict":
        return {"type": "pillage", "tokens": legal.context["most"]}
    if phase == "build":
        return _build(state, seat)
    if phase in ("support", "calamity_support"):
        area = max(flow.reducible(state, seat), key=lambda a: (LIMITS[a], -a))
        return {"type": "reduce", "area": KEYS[area]}
    if phase == "gold":
        return {"type": "gold", "cards": _gold(state, seat, legal)}
    if phase == "trade":
        return _trade(state, seat, rng)
    if phase == "calamity":
        return _calamity(state, seat, legal, rng)
    if phase == "advances":
        return _advances(state, seat)
    raise RuleError("no_bot_answer", "The bot has no answer for this wait.")


# --- tax, revolt, expansion -------------------------------------------------------------------------


def _tax_rate(state: State, seat: int, legal: Legal) -> int:
    rates = sorted(choice.order.rate for choice in legal.choices)  # type: ignore[union-attr]
    cities, stock = state.city_count(seat), state.players[seat].stock
    if state.players[seat].treasury >= TREASURY_KEPT or len(state.players[seat].cards) == len(
        cards.CIV_CARDS
    ):
        return rates[0]  # tokens in the treasury neither grow nor support cities
    paid = [rate for rate in rates if rate * cities <= stock]
    return max(paid) if paid else rates[0]


def _revolt(state: State, seat: int, legal: Legal) -> dict[str, Any]:
    """The revolting cities nearest to the chooser's own units change hands."""
    mine = set(state.players[seat].occupied()) | set(flow.cities_of(state, seat))
    owned = [tables.INDEX[key] for key in legal.context["cities"]]
    owned.sort(key=lambda area: (not (LAND_REACH[area] & mine), area))
    return {"type": "revolt", "areas": [KEYS[area] for area in owned[: legal.context["count"]]]}


def _expand(state: State, seat: int) -> dict[str, Any]:
    """Short of stock: growth first where a free city site fills up, then in the emptiest areas."""
    wanted = flow.growth(state, seat)
    sites = tables.city_sites(len(state.players))
    tokens = state.players[seat].tokens
    order = sorted(wanted, key=lambda area: (not sites[area], tokens[area], area))
    left = state.players[seat].stock
    placed: dict[str, int] = {}
    for area in order:
        count = min(wanted[area], left)
        if count:
            placed[KEYS[area]] = count
            left -= count
    return {"type": "expand", "areas": placed}


def _gold(state: State, seat: int, legal: Legal) -> int:
    """Stack-9 cards bought only to bring back into play a treasury that the stock lacks: each draw may be
    Piracy, which turns coastal cities into pirate cities."""
    nation = state.players[seat]
    short = 2 * state.city_count(seat) + SPREAD_STOCK - nation.stock
    if short <= 0:
        return 0
    return max(0, min(int(legal.context["most"]), -(-short // tc.GOLD_PRICE)))


def _build(state: State, seat: int) -> dict[str, Any]:
    """Every city its population supports, and with Architecture one more paid half from the treasury
    (on a site first, where the most tokens stand), when the tokens left still support them all."""
    areas = flow.default_builds(state, seat)
    order: dict[str, Any] = {"type": "build", "areas": [KEYS[area] for area in areas]}
    cities = state.city_count(seat) + len(areas)
    if cities >= CITIES:
        return order
    sites = tables.city_sites(len(state.players))
    tokens = list(state.players[seat].tokens)
    for area in areas:
        tokens[area] = 0
    for area in sorted(flow.architecture_areas(state, seat), key=lambda a: (not sites[a], -tokens[a], a)):
        trial = tokens.copy()
        trial[area] = 0
        if flow.support_after(state, seat, trial) >= 2 * (cities + 1):
            order["architecture"] = KEYS[area]
            break
    return order


# --- ships --------------------------------------------------------------------------------------------


def _boxed(state: State, seat: int) -> bool:
    """No free land is within a land move of the seat's tokens: only ships take it further."""
    taken = _taken_areas(state, seat)
    nation = state.players[seat]
    return not any(
        LAND[to] and state.in_play[to] and to not in taken and not nation.tokens[to]
        for area in nation.occupied()
        for to in LAND_REACH[area]
    )


def _ships(state: State, seat: int) -> dict[str, Any]:
    """Ships pay only for a nation boxed in: one ship kept (or built, paid by the tokens where it
    stands), else none."""
    nation = state.players[seat]
    if not _boxed(state, seat):
        return {"type": "ships"}
    tokens = nation.tokens
    if nation.ships:
        area = nation.ships[0]
        if tokens[area]:
            return {"type": "ships", "keep": {KEYS[area]: 1}, "keep_tokens": {KEYS[area]: 1}}
        if nation.treasury:
            return {"type": "ships", "keep": {KEYS[area]: 1}}
        return {"type": "ships"}
    areas = [area for area in flow.ship_areas(state, seat) if tokens[area] >= cards.SHIP_COST + 1]
    if not areas:
        return {"type": "ships"}
    area = max(areas, key=lambda a: (tokens[a], -a))
    return {"type": "ships", "build": {KEYS[area]: 1}, "build_tokens": {KEYS[area]: cards.SHIP_COST}}


def _voyages(
    state: State, seat: int, free: Mapping[int, int], taken: frozenset[int], planned: Mapping[int, int]
) -> Iterable[tuple[int, ...]]:
    """A ship carries the tokens of its area to free coastal land, a city site first."""
    sites = tables.city_sites(len(state.players))
    for ship, targets in sorted(ship_targets(state, seat).items()):
        load = min(free.get(ship, 0), movement.SHIP_CAPACITY)
        if load < 2:
            continue
        filling = [
            to
            for to in targets
            if sites[to]
            and LAND[to]
            and to not in taken
            and planned.get(to, 0) < SITE_TOKENS <= planned.get(to, 0) + load
        ]
        if filling:
            to = min(filling)
            yield moving.voyage(ship, [(ship, 0, load), (to, load, 0)])
            continue
        landings = [
            to for to in targets if LAND[to] and to not in taken and not state.players[seat].tokens[to]
        ]
        if landings:
            to = min(landings, key=lambda a: (not sites[a], -LIMITS[a], a))
            yield moving.voyage(ship, [(ship, 0, load), (to, load, 0)])


# --- movement ---------------------------------------------------------------------------------------


def _move(state: State, seat: int, legal: Legal) -> dict[str, Any]:
    """One move at a time: tokens gathered where a city can be built this turn, short of stock an
    off-site city, then the surplus spread over free land or sent toward the nearest free city site;
    then "done"."""
    if legal.prompt == "move_done":
        raise RuleError("no_bot_answer", "The bot does not reopen its moves.")
    entered = state.moves[seat]
    try:
        planned = dict(moving.plan(state, seat, entered).tokens)
    except RuleError:
        return {"type": "done"}
    free = free_tokens(state, seat)
    taken = _taken_areas(state, seat)
    sites = tables.city_sites(len(state.players))
    open_sites = [
        area
        for area in range(len(KEYS))
        if sites[area] and LAND[area] and state.in_play[area] and area not in taken
    ]
    room = state.cities_in_stock(seat) > 0
    for move in _moves(state, seat, planned, free, taken, open_sites, room):
        try:
            moving.plan(state, seat, (*entered, move))
        except RuleError:
            continue
        return moving.to_json(move)
    return {"type": "done"}


def _moves(
    state: State,
    seat: int,
    planned: Mapping[int, int],
    free: Mapping[int, int],
    taken: frozenset[int],
    open_sites: Sequence[int],
    room: bool,
) -> Iterable[tuple[int, ...]]:
    """The candidate moves, best first (the first legal one is entered)."""
    site_set = frozenset(open_sites)

    def spare(area: int) -> int:
        keep = SITE_TOKENS if area in site_set else 0
        return max(0, min(free.get(area, 0), planned.get(area, 0) - keep))

    if room:
        near = {to for area in free for to in LAND_REACH[area]} | set(free)
        reachable = sorted(
            (area for area in open_sites if area in near), key=lambda area: (-planned.get(area, 0), area)
        )
        stuck: set[int] = set()
        for site in reachable:
            gathered = _gather(site, SITE_TOKENS, planned, free, spare)
            if gathered is not None:
                yield gathered
            elif planned.get(site, 0) and state.city_count(seat) < 2:
                stuck.add(site)

        def pooled(area: int, site: int) -> int:
            """Sites that cannot fill alone give all to the one ahead of them."""
            if area in stuck and reachable.index(area) > reachable.index(site):
                return min(free.get(area, 0), planned.get(area, 0))
            return spare(area)

        for site in reachable:
            if site in stuck:
                gathered = _gather(site, SITE_TOKENS, planned, free, lambda a, to=site: pooled(a, to))
                if gathered is not None:
                    yield gathered
        yield from _half_paid(state, seat, reachable, planned, free, spare)
        for pirate in state.pirates:
            if pirate in near:
                gathered = _gather(pirate, PIRATE_FOUNDING, planned, free, spare)
                if gathered is None:
                    gathered = _gather(pirate, PIRATE_ATTACK, planned, free, spare)
                if gathered is not None:
                    yield gathered
        yield from _off_site(planned, free, site_set, spare)
    distance = _distances(state, taken, open_sites)
    if state.players[seat].ships:
        yield from _voyages(state, seat, free, taken, planned)
    keep_spread = {area: min(SPREAD, LIMITS[area]) for area in free}
    nation = state.players[seat]
    spreading = nation.stock >= 2 * state.city_count(seat) + SPREAD_STOCK
    for origin in sorted(free, key=lambda area: (-free[area], area)):
        keep = min(SITE_TOKENS, LIMITS[origin]) if origin in site_set else keep_spread[origin]
        movable = min(free[origin], planned.get(origin, 0) - keep)
        if movable <= 0:
            continue
        empty = [
            to
            for to in LAND_REACH[origin]
            if to != origin and LAND[to] and state.in_play[to] and to not in taken and not planned.get(to)
        ]
        if empty and spreading:
            to = min(empty, key=lambda area: (area not in site_set, -LIMITS[area], area))
            yield moving.land_move(origin, to, min(movable, SPREAD, LIMITS[to]), None)
            continue
        here = distance.get(origin)
        closer = [
            to
            for to in LAND_REACH[origin]
            if to in distance and (here is None or distance[to] < here) and to != origin
        ]
        if closer:
            to = min(closer, key=lambda area: (distance[area], area))
            yield moving.land_move(origin, to, movable, None)
    if _boxed(state, seat):
        yield from _push(state, seat, planned, free, site_set)


def _push(
    state: State, seat: int, planned: Mapping[int, int], free: Mapping[int, int], site_set: frozenset[int]
) -> Iterable[tuple[int, ...]]:
    """Boxed in with no free city site in reach: tokens go where another player stands weaker, a city
    site first (the one conflict worth having)."""
    sites = tables.city_sites(len(state.players))
    foreign = state.foreign()
    for origin in sorted(free, key=lambda area: (-free[area], area)):
        movable = min(free[origin], planned.get(origin, 0) - 1)
        if movable < 2:
            continue
        weaker = []
        for to in LAND_REACH[origin]:
            if to == origin or not LAND[to] or not state.in_play[to] or to in foreign:
                continue
            if state.cities[to] != NOBODY or planned.get(to, 0):
                continue
            others = sum(nation.tokens[to] for other, nation in enumerate(state.players) if other != seat)
            if 0 < others < movable:
                weaker.append((not sites[to], others, to))
        if weaker:
            to = min(weaker)[2]
            yield moving.land_move(origin, to, movable, None)


def _half_paid(
    state: State,
    seat: int,
    reachable: Sequence[int],
    planned: Mapping[int, int],
    free: Mapping[int, int],
    spare: Any,
) -> Iterable[tuple[int, ...]]:
    """With Architecture and the treasury for it, half a city's tokens gathered on one more site (§25.3:
    one such city a turn)."""
    nation = state.players[seat]
    paid = SITE_TOKENS // 2
    if cards.ARCHITECTURE not in nation.cards or nation.treasury < paid:
        return
    if any(SITE_TOKENS - paid <= planned.get(site, 0) < SITE_TOKENS for site in reachable):
        return
    for site in reachable:
        gathered = _gather(site, SITE_TOKENS - paid, planned, free, spare)
        if gathered is not None:
            yield gathered
            return


def _gather(
    target: int,
    needed: int,
    planned: Mapping[int, int],
    free: Mapping[int, int],
    spare: Any,
) -> tuple[int, ...] | None:
    """A move toward `needed` tokens in `target` when its neighbours can bring them all this turn."""
    need = needed - planned.get(target, 0)
    if need <= 0:
        return None
    donors = [area for area in LAND_REACH[target] if area != target and target in LAND_REACH[area]]
    giving = {area: spare(area) for area in donors}
    if sum(giving.values()) < need:
        return None
    donor = max(giving, key=lambda area: (giving[area], -area))
    return moving.land_move(donor, target, min(need, giving[donor]), None)


def _off_site(
    planned: Mapping[int, int], free: Mapping[int, int], site_set: frozenset[int], spare: Any
) -> Iterable[tuple[int, ...]]:
    """Tokens gathered for a city off a site, where the most already stand."""
    cost = flow.OFF_SITE_COST
    mine = sorted(
        (area for area, count in planned.items() if count and LAND[area] and area not in site_set),
        key=lambda area: (-planned[area], area),
    )
    for area in mine:
        gathered = _gather(area, cost, planned, free, lambda a, here=area: 0 if a == here else spare(a))
        if gathered is not None:
            yield gathered


def _distances(state: State, taken: frozenset[int], open_sites: Sequence[int]) -> dict[int, int]:
    """Land steps from each area to the nearest free city site, through areas free of others."""
    distance = dict.fromkeys(open_sites, 0)
    frontier = list(open_sites)
    while frontier:
        following = []
        for area in frontier:
            for near in LAND_REACH[area]:
                if near not in distance and LAND[near] and state.in_play[near] and near not in taken:
                    distance[near] = distance[area] + 1
                    following.append(near)
        frontier = following
    return distance


def _taken_areas(state: State, seat: int) -> frozenset[int]:
    """Areas the bot keeps out of: another player's units, a city, barbarians or a pirate city."""
    cities = state.cities
    found = {area for area in range(len(cities)) if cities[area] != NOBODY}
    found |= state.foreign()
    for other, nation in enumerate(state.players):
        if other != seat:
            found.update(nation.occupied())
    return frozenset(found)


# --- the market ---------------------------------------------------------------------------------------


def _trade(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """Answer the offers made to the seat, make one offer, then leave."""
    market = state.market
    assert market is not None
    for found in market.offers:
        if found.to == seat:
            return _answer(state, market, seat, found, rng)
    if seat not in state.order:
        return {"type": "done"}
    mine = any(found.side.seat == seat for found in market.offers)
    agreed = any(trade.first.seat == seat for trade in market.agreed)
    if mine or agreed or rng.random() < LEAVE_RATE:
        return {"type": "done"}
    made = _offer(state, market, seat, rng)
    return made if made is not None else {"type": "done"}


def _tradable(hand: Iterable[str]) -> list[str]:
    return [card for card in hand if not tc.is_calamity(card) or tc.CALAMITIES[card].tradable]


def _cheapest(hand: Sequence[str], count: int) -> list[str]:
    """`count` cards whose loss costs the hand least: tradable calamities first, then the commodities
    whose removal keeps the sets worth most."""
    chosen = [card for card in hand if tc.is_calamity(card)][:count]
    rest = [card for card in hand if not tc.is_calamity(card)]
    return chosen + list(adv.least_loss(rest, min(count - len(chosen), len(rest))))


def _gain(hand: Sequence[str], given: Sequence[str], received: Iterable[str]) -> int:
    """What a trade is worth to the hand, the received cards taken as said; a calamity given away is
    worth as much as one received costs."""
    left = Counter(hand)
    left.subtract(given)
    after = list(left.elements())
    worth = tc.hand_value(after) - tc.hand_value(hand)
    worth += sum(CALAMITY_WORTH for card in received if tc.is_calamity(card))
    worth -= sum(CALAMITY_WORTH for card in given if tc.is_calamity(card))
    return worth + tc.hand_value([*after, *received]) - tc.hand_value(after)


def _wanted(hand: Sequence[str]) -> str | None:
    """The commodity one more card of which grows the hand most (one held, not a full set)."""
    sets = Counter(card for card in hand if card in tc.COMMODITIES)
    growing = [
        (tc.set_value(key, n + 1) - tc.set_value(key, n), key)
        for key, n in sets.items()
        if n < tc.COMMODITIES[key].count and n >= 1
    ]
    return max(growing)[1] if growing else None


def _offer(state: State, market: mk.Market, seat: int, rng: random.Random) -> dict[str, Any] | None:
    free = _tradable(mk.available(market, state.hands, seat))
    partners = [
        other
        for other in state.order
        if other != seat and other not in market.done and len(state.hands[other]) >= mk.MIN_CARDS
    ]
    if len(free) < mk.MIN_CARDS or not partners:
        return None
    given = _cheapest(free, mk.MIN_CARDS)
    kept = Counter(free)
    kept.subtract(given)
    wanted = _wanted(list(kept.elements()))
    if wanted is None:
        return None
    said = list(given)
    for index, card in enumerate(given):
        if tc.is_calamity(card) and rng.random() < LIE_RATE:
            said[index] = _bait(given)
            break
    expects = [wanted, mk.DONT_CARE, mk.DONT_CARE]
    try:
        mk.check_side(mk.Side(seat, tuple(given), tuple(said)), mk.available(market, state.hands, seat))
    except RuleError:
        return None
    return {"type": "offer", "to": rng.choice(partners), "cards": given, "said": said, "expects": expects}


def _bait(given: Sequence[str]) -> str:
    """The commodity a calamity is said to be: one already given, so that the set looks bigger."""
    commodities = [card for card in given if card in tc.COMMODITIES]
    return commodities[0] if commodities else tc.COMMODITY_LIST[0].key


def _answer(
    state: State, market: mk.Market, seat: int, found: mk.Offer, rng: random.Random
) -> dict[str, Any]:
    """Accept when the cards asked can be given (truthfully where named; a calamity in a free slot)
    and what is said to come grows the hand; else decline."""
    decline = {"type": "decline", "offer": found.id}
    hand = state.hands[seat]
    free = Counter(_tradable(mk.available(market, state.hands, seat)))
    given: list[str] = []
    said: list[str] = []
    named = [slot for slot in found.expects if slot not in (mk.DONT_CARE, mk.UNSPECIFIED)]
    for slot in named:
        if not free[slot]:
            return decline
        free[slot] -= 1
        given.append(slot)
        said.append(slot)
    loose = [slot for slot in found.expects if slot in (mk.DONT_CARE, mk.UNSPECIFIED)]
    if loose:
        fillers = _cheapest(list(free.elements()), len(loose))
        if len(fillers) < len(loose):
            return decline
        for slot, card in zip(loose, fillers, strict=True):
            given.append(card)
            said.append(card if slot == mk.DONT_CARE else mk.UNSPECIFIED)
    received = [card for card in found.side.said if card != mk.UNSPECIFIED]
    if _gain(hand, given, received) <= 0:
        return decline
    side = mk.Side(seat, tuple(given), tuple(said))
    if not mk.satisfies(side.said, found.expects):
        return decline
    try:
        mk.check_side(side, mk.available(market, state.hands, seat))
    except RuleError:
        return decline
    return {"type": "accept", "offer": found.id, "cards": given, "said": said}


# --- calamities ---------------------------------------------------------------------------------------


def _calamity(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    found = resolving.progress(state)
    assert isinstance(found, resolving.Question)
    order: dict[str, Any]
    if found.pending is not None:
        order = _pick(state, seat, found.pending)
    elif found.loss is not None:
        order = _lose(state, found.loss, rng)
    else:
        assert found.assignment is not None
        order = _assign(state, found.assignment)
    try:
        parsed = legal.default.__class__.model_validate(order)
        resolving.replay(state, (*state.steps, resolving.step_of(state, parsed)))  # type: ignore[arg-type]
    except (RuleError, ValueError):
        return resolving.sample(state, legal, rng)
    return order


def _pick(state: State, seat: int, pending: cal.Pending) -> dict[str, Any]:
    """The options that cost the seat least, then hurt the leaders most."""
    listed = resolving.options(state, pending)
    scores = [public_score(state, other) for other in range(len(state.players))]

    def rank(index: int) -> tuple[int, int, int]:
        option = listed[index]
        own = 0
        others = 0
        for area in option.areas:
            for other, nation in enumerate(state.players):
                units = nation.tokens[area] + cal.CITY_POINTS * (state.cities[area] == other)
                if other == seat:
                    own += units
                else:
                    others += units * (1 + scores[other])
        return (own, -others, index)

    chosen = sorted(range(len(listed)), key=rank)[: min(pending.count, len(listed))]
    return {"type": "pick", "picks": [listed[index].name for index in chosen]}


def _lose(state: State, loss: cal.UnitLoss, rng: random.Random) -> dict[str, Any]:
    """Every Grain shown; a victim loses tokens while those left support its cities, then whole cities
    (a city its tokens cannot support is lost at the support check anyway, its tokens with it); another
    chooser takes cities first."""
    own = loss.chooser == loss.victim
    grain = loss.grain if own else 0  # another seat's Grain is its secret
    left = loss.target(grain)
    nation = state.players[loss.victim]
    spare = flow.support_after(state, loss.victim, list(nation.tokens)) - 2 * state.city_count(loss.victim)
    from_cities = left - max(0, spare) if own else left
    units = sorted(loss.units, key=lambda u: (u.city != (from_cities > 0), -u.tokens, u.area))
    options = [cal.unit_options(u, loss.keep_token, loss.whole_cities) for u in units]
    suffix = [frozenset({0})]
    for opts in reversed(options):
        suffix.append(frozenset(p + total for p, _, _ in opts for total in suffix[-1]))
    suffix.reverse()
    changes = []
    for index, unit in enumerate(units):
        fitting = [opt for opt in options[index] if left - opt[0] in suffix[index + 1]]
        if not fitting:
            changes = list(cal.random_loss(loss.victim, loss.units, loss.due(grain), rng.randrange))
            break
        if from_cities > 0:
            points, tokens, city = min(fitting, key=lambda opt: (opt[2] >= 0, -opt[0]))
            from_cities -= points if city < 0 else 0
        else:
            points, tokens, city = min(fitting, key=lambda opt: (opt[2] < 0, -opt[0], -opt[1]))
        left -= points
        if tokens or city:
            changes.append(cal.Change(loss.victim, unit.area, tokens, city))
    return resolving.lose_order(sorted(changes, key=lambda c: c.area), grain).model_dump(mode="json")


def _assign(state: State, assignment: cal.Assignment) -> dict[str, Any]:
    """Unit points handed to the leaders first (public scores)."""
    left = assignment.due
    amounts: dict[str, int] = {}
    caps = sorted(assignment.caps, key=lambda cap: (-public_score(state, cap[0]), cap[0]))
    for other, most in caps:
        given = min(most, left)
        if given:
            amounts[str(other)] = given
            left -= given
    return {"type": "assign", "amounts": amounts}


# --- civilization advances ----------------------------------------------------------------------------


def _advances(state: State, seat: int) -> dict[str, Any]:
    holder = buying.holder(state, seat)
    spendable = list((Counter(holder.hand) - Counter(holder.frozen)).elements())
    means = tc.hand_value(spendable, mining=holder.mining) + holder.treasury
    mined = tc.hand_value(spendable, mining=True) - tc.hand_value(spendable)
    civil_war = state.city_count(seat) >= tc.stack_of(cal.CIVIL_WAR)  # it draws from Civil War's stack
    cart = _cart(holder.owned, means, mined, _boxed(state, seat) or civil_war)
    spend = _payment(holder, spendable, cart, state.hand_limit)
    rest = list((Counter(holder.hand) - Counter(spend)).elements())
    excess = max(0, len(rest) - state.hand_limit)
    discard = adv.least_loss(rest, excess) if excess else ()
    try:
        adv.checkout(holder, cart, spend, discard, state.hand_limit)
    except RuleError:
        return buying.default(state, seat).model_dump(mode="json")
    return {"type": "buy", "cart": list(cart), "spend": list(spend), "discard": list(discard)}


def _cart(owned: cards.Cards, means: int, mined: int, fights: bool) -> tuple[str, ...]:
    """The advances bought: free ones, then by face value per token paid, a new group or a protection
        worth more, Mining by what it would add to the hand's ore sets (`mined`), Military more for a nation
        that `fights` (boxed in, or with the cities to draw Civil War); while the means last. When the best is
    a protection nearly within reach, the means are saved for it."""
    groups = cards.groups_held(owned)

    def worth(price: adv.Price) -> float:
        card = cards.CIV_CARDS[price.card]
        ratio = price.cost / max(price.due, 1)
        if set(card.groups) - groups:
            ratio *= 1.6
        if price.card in PROTECTION or price.card in GROWTH:
            ratio *= 1.3
        if price.card == cards.MILITARY and fights:
            ratio *= 1.5
        if price.card == cards.MINING:
            ratio *= 1 + min(1.0, mined / MINING_PAYBACK)
        return ratio

    lines = [line.price for line in adv.shop(owned) if line.refusal is None]
    lines.sort(key=lambda price: (-worth(price), price.card))
    if lines and lines[0].card in PROTECTION and lines[0].due > means >= SAVING * lines[0].due:
        return tuple(price.card for price in lines if not price.due)  # the means saved for it
    cart: list[str] = []
    total = 0
    for price in lines:
        if total + price.due <= means:
            cart.append(price.card)
            total += price.due
    return tuple(cart)


def _payment(
    holder: adv.Holder, spendable: Sequence[str], cart: Sequence[str], limit: int
) -> tuple[str, ...]:
    """Whole sets spent so that the treasury can pay the rest, wasting least: the overpayment plus what
    the cards over the hand limit would be worth."""
    if not cart:
        return ()
    due = adv.cart_price(holder.owned, cart)
    sets = Counter(card for card in spendable if card in tc.COMMODITIES)
    keys = sorted(sets, key=lambda key: (tc.set_value(key, sets[key]), key))[-PAYMENT_SETS:]
    hand = list(holder.hand)
    best: tuple[tuple[int, int], tuple[str, ...]] | None = None
    for size in range(len(keys) + 1):
        for chosen in combinations(keys, size):
            spend = tuple(key for key in chosen for _ in range(sets[key]))
            value = tc.hand_value(spend, mining=holder.mining)
            if value + holder.treasury < due:
                continue
            rest = list((Counter(hand) - Counter(spend)).elements())
            excess = max(0, len(rest) - limit)
            lost = 0
            if excess:
                lost = tc.hand_value(rest) - tc.hand_value(_without(rest, adv.least_loss(rest, excess)))
            waste = (max(0, value - due) + lost, -max(0, due - value))
            if best is None or waste < best[0]:
                best = (waste, spend)
    return best[1] if best is not None else ()


def _without(pile: Sequence[str], cards_: Iterable[str]) -> list[str]:
    return list((Counter(pile) - Counter(cards_)).elements())
