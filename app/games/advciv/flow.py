"""Set-up and everything automatic: each phase's start, its automatic part and its end, turn after turn.

`advance(tx)` runs the automatic steps until the game waits on somebody (or is over). Each `_settle_*`
finishes its phase when nobody is awaited any more and starts the next one; `phases.py` says who is
awaited and what they may send.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable

from app.games.advciv import (
    buying,
    cards,
    drawing,
    fighting,
    movement,
    moving,
    resolving,
    scoring,
    tables,
    trade_cards,
    trading,
)
from app.games.advciv import calamities as cal
from app.games.advciv.model import CITIES, NOBODY, Nation, State
from app.games.advciv.tables import (
    AREAS,
    AST_RANK,
    EPOCH_CITIES,
    FINISH,
    KEYS,
    LAND,
    LIMITS,
    STONE,
    WATER,
    epoch_of,
    late_iron_threshold,
)
from app.games.advciv.tx import Tx
from app.games.contract import RuleError
from app.games.kit.model import memo, replaced

# `done` codes of the movement phase
NOT_DONE, DONE, UNLESS_THREATENED, THREATENED = 0, 1, 2, 3
SITE_COST, OFF_SITE_COST = 6, 12  # §25.2, §25.3


def card_set(nation: Nation) -> frozenset[str]:
    return nation.cards


# --- set-up ---------------------------------------------------------------------------------------------


def start_areas(state: State, seat: int) -> tuple[int, ...]:
    return tables.start_areas(len(state.players), state.players[seat].nation)


def place_start(tx: Tx, seat: int, area: int) -> None:
    tx.place(seat, area, 1)
    tx.emit("start_placed", seat=seat, nation=tx.player(seat).nation, area=KEYS[area])
    tx.set(cursor=tx.state.cursor + 1)


def _settle_start(tx: Tx) -> bool:
    state = tx.state
    while state.cursor < len(state.order):
        seat = state.order[state.cursor]
        areas = start_areas(state, seat)
        if len(areas) > 1:
            return False
        if areas:
            place_start(tx, seat, areas[0])
        else:
            tx.set(cursor=state.cursor + 1)
        state = tx.state
    begin_tax(tx)
    return True


# --- phase 1: tax and revolts (§19) ----------------------------------------------------------------------


def tax_choice_needed(state: State, seat: int) -> bool:
    """A Coinage holder with cities chooses its rate, unless 2 would make cities revolt: then the site
    sets 1 at once (errata 8)."""
    nation = state.players[seat]
    held = card_set(nation)
    cities = state.city_count(seat)
    if not cities or len(cards.tax_rates(held)) == 1:
        return False
    return cards.default_tax_rate(held, cities=cities, stock=nation.stock) == cards.TAX_RATE


def begin_tax(tx: Tx) -> None:
    state = tx.state
    rates = []
    for seat, nation in enumerate(state.players):
        held = card_set(nation)
        automatic = cards.default_tax_rate(held, cities=state.city_count(seat), stock=nation.stock)
        rates.append(0 if tax_choice_needed(state, seat) else automatic)
    tx.set(phase="tax", rates=tuple(rates), done=(), order=(), cursor=0)


def _settle_tax(tx: Tx) -> bool:
    if 0 in tx.state.rates:
        return False
    revolting = []
    for seat in ast_order(tx.state):
        unpaid = collect_tax(tx, seat, tx.state.rates[seat])
        if unpaid:
            revolting.append((seat, unpaid))
    ranking = revolt_beneficiaries(tx.state, {seat for seat, _ in revolting})
    tx.set(phase="revolt", revolts=tuple((seat, count, ranking) for seat, count in revolting))
    return True


def collect_tax(tx: Tx, seat: int, rate: int) -> int:
    """§19.1: `rate` tokens per city from stock to treasury. Returns the cities that revolt: when the stock
    falls short it pays all it has, and ceil(unpaid / rate) cities revolt (the site's count), none for a
    Democracy holder (§19.34)."""
    nation = tx.player(seat)
    cities = tx.state.city_count(seat)
    if not cities:
        return 0
    due = rate * cities
    paid = min(due, nation.stock)
    tx.to_treasury(seat, paid)
    revolts = (
        0 if cards.immune_to_tax_revolt(card_set(nation)) else min(cities, math.ceil((due - paid) / rate))
    )
    tx.emit("tax_collected", seat=seat, rate=rate, paid=paid, revolts=revolts)
    return revolts


def stock_units(state: State, seat: int) -> int:
    """Units in stock: a token counts 1, a city 5 (§19.3, the site's count)."""
    return state.players[seat].stock + 5 * state.cities_in_stock(seat)


def revolt_beneficiaries(state: State, revolting: set[int]) -> tuple[int, ...]:
    """The players who may take revolting cities, most units in stock first (ties by A.S.T. order),
    counted once before any revolt; players with revolts of their own are not eligible (as in CEP
    §13.3.3)."""
    eligible = [seat for seat in range(len(state.players)) if seat not in revolting]
    return tuple(
        sorted(eligible, key=lambda seat: (-stock_units(state, seat), AST_RANK[state.players[seat].nation]))
    )


def revolt_chooser(state: State) -> int:
    victim, _, ranking = state.revolts[0]
    return ranking[0] if ranking else victim


def resolve_revolt(tx: Tx, areas: Iterable[int]) -> None:
    """The chosen cities change hands: the first beneficiary takes what its stock of cities allows, the
    next the rest, and so on; a city nobody can take is eliminated. New owners pay no tax for them."""
    victim, _, ranking = tx.state.revolts[0]
    for area in areas:
        taker = next((seat for seat in ranking if tx.state.cities_in_stock(seat)), NOBODY)
        tx.set_city(area, taker)
        tx.emit("city_revolted", seat=victim, area=KEYS[area], taker=None if taker == NOBODY else taker)
    tx.set(revolts=tx.state.revolts[1:])


def _settle_revolt(tx: Tx) -> bool:
    while tx.state.revolts:
        victim, count, _ = tx.state.revolts[0]
        owned = cities_of(tx.state, victim)
        if count < len(owned):
            return False
        resolve_revolt(tx, owned)
    begin_expand(tx)
    return True


# --- phase 2: population expansion (§20) -------------------------------------------------------------------


def growth(state: State, seat: int) -> dict[int, int]:
    """§20.1: +1 where the seat has exactly 1 token, +2 where it has 2 or more; never where a city stands."""
    tokens = state.players[seat].tokens
    cities = state.cities
    return {
        area: 1 if count == 1 else 2 for area, count in enumerate(tokens) if count and cities[area] == NOBODY
    }


def begin_expand(tx: Tx) -> None:
    done = []
    for seat in range(len(tx.state.players)):
        wanted = growth(tx.state, seat)
        stock = tx.player(seat).stock
        if sum(wanted.values()) <= stock:
            tx.place_many(seat, wanted)
            done.append(1)
        else:
            done.append(0 if stock else 1)  # short: the player spreads its stock (§20.3)
    tx.set(phase="expand", done=tuple(done))
    tx.emit("population_expanded")


def _settle_expand(tx: Tx) -> bool:
    if 0 in tx.state.done:
        return False
    census(tx)
    begin_ships(tx)
    return True


# --- phase 3: census (§21) --------------------------------------------------------------------------------


def census(tx: Tx) -> None:
    for seat, nation in enumerate(tx.state.players):
        tx.update_player(seat, census=nation.board_tokens())
    order = tuple(
        sorted(
            range(len(tx.state.players)),
            key=lambda seat: (-tx.player(seat).census, AST_RANK[tx.player(seat).nation]),
        )
    )
    tx.set(census_order=order)
    tx.emit("census", order=list(order), tokens=[nation.census for nation in tx.state.players])


def acting_order(state: State) -> tuple[int, ...]:
    """Census order, Military holders after every non-holder (§22.11, §23.21)."""
    order = state.census_order
    return tuple(
        [seat for seat in order if not cards.acts_last(card_set(state.players[seat]))]
        + [seat for seat in order if cards.acts_last(card_set(state.players[seat]))]
    )


def ast_order(state: State) -> tuple[int, ...]:
    return tuple(sorted(range(len(state.players)), key=lambda seat: AST_RANK[state.players[seat].nation]))


# --- phase 4: ships (§22) -----------------------------------------------------------------------------------


def ship_areas(state: State, seat: int) -> tuple[int, ...]:
    """Water areas in play where the seat has a unit: where a ship may be built (§22.2)."""
    areas = set(state.players[seat].occupied()) | set(cities_of(state, seat))
    return tuple(sorted(area for area in areas if WATER[area] and state.in_play[area]))


def has_ship_choice(state: State, seat: int) -> bool:
    nation = state.players[seat]
    if nation.ships:
        return True
    return any(nation.treasury + nation.tokens[area] >= cards.SHIP_COST for area in ship_areas(state, seat))


def begin_ships(tx: Tx) -> None:
    order = tuple(seat for seat in acting_order(tx.state) if has_ship_choice(tx.state, seat))
    tx.set(phase="ships", order=order, cursor=0)


def _settle_ships(tx: Tx) -> bool:
    if tx.state.cursor < len(tx.state.order):
        return False
    begin_move(tx)
    return True


def settle_ships_order(
    tx: Tx,
    seat: int,
    keep: dict[int, int],
    keep_tokens: dict[int, int],
    build: dict[int, int],
    build_tokens: dict[int, int],
) -> None:
    """Apply a checked ships order: ships not kept go back to stock, every unit paid goes to stock (§22.2)."""
    nation = tx.player(seat)
    paid_tokens = sum(keep_tokens.values()) + sum(build_tokens.values())
    treasury = sum(keep.values()) + cards.SHIP_COST * sum(build.values()) - paid_tokens
    paid = Counter(keep_tokens) + Counter(build_tokens)
    tx.place_many(seat, {area: -count for area, count in paid.items()})
    ships = [area for area, count in keep.items() for _ in range(count)]
    ships += [area for area, count in build.items() for _ in range(count)]
    nation = tx.player(seat)
    tx.update_player(
        seat, treasury=nation.treasury - treasury, stock=nation.stock + treasury, ships=tuple(sorted(ships))
    )
    tx.emit(
        "ships",
        seat=seat,
        kept=sum(keep.values()),
        built=sum(build.values()),
        areas=[KEYS[area] for area in sorted(ships)],
    )
    tx.set(cursor=tx.state.cursor + 1)


# --- phase 5: movement (§23) ------------------------------------------------------------------------------


def begin_move(tx: Tx) -> None:
    state = tx.state
    done = tuple(NOT_DONE if nation.board_tokens() or nation.ships else DONE for nation in state.players)
    tx.set(
        phase="move",
        order=acting_order(state),
        cursor=0,
        done=done,
        moves=((),) * len(state.players),
        conflicts=(),
    )


def threatened(state: State, seat: int) -> bool:
    """ "Done unless threatened": someone already finalised entered an area where the seat has units or
    that its own moves enter (while moving, `conflicts` holds the areas entered so far)."""
    nation = state.players[seat]
    held = {area for area, count in enumerate(nation.tokens) if count}
    held |= {area for area, owner in enumerate(state.cities) if owner == seat}
    try:
        entered = moving.plan(state, seat, state.moves[seat]).entered
    except RuleError:
        entered = frozenset()
    return movement.threatened(frozenset(held), entered, frozenset(state.conflicts))


def _settle_move(tx: Tx) -> bool:
    while tx.state.cursor < len(tx.state.order):
        state = tx.state
        seat = state.order[state.cursor]
        status = state.done[seat]
        if status == UNLESS_THREATENED:
            if threatened(state, seat):
                tx.set(done=replaced(state.done, seat, THREATENED))
                tx.emit("threatened", to=(seat,), seat=seat)
                return False
            status = DONE
        if status != DONE:
            return False
        finalise_moves(tx, seat)
    begin_conflict(tx)
    return True


def finalise_moves(tx: Tx, seat: int) -> None:
    """The seat's moves happen (those still legal, in the order entered); they become public."""
    state = tx.state
    entered = tuple(state.moves[seat])
    moves, plan = moving.still_legal(state, seat)
    board = [0] * AREAS
    for area, count in plan.tokens.items():
        board[area] = count
    tokens = tuple(board)
    tx.update_player(seat, tokens=tokens, ships=plan.ships)
    tx.emit(
        "moves_finalised",
        seat=seat,
        moves=[moving.to_json(move) for move in moves],
        dropped=[moving.to_json(move) for move in entered if move not in moves],
    )
    tx.set(
        moves=replaced(tx.state.moves, seat, ()),
        cursor=state.cursor + 1,
        conflicts=tuple(sorted(set(state.conflicts) | plan.entered)),
    )


# --- phase 6: conflict (§24) ------------------------------------------------------------------------------


def begin_conflict(tx: Tx) -> None:
    tx.set(phase="conflict", conflicts=fighting.order_conflicts(tx), pillage=(NOBODY, 0))


def _settle_conflict(tx: Tx) -> bool:
    while tx.state.conflicts:
        if tx.state.pillage[0] != NOBODY:
            return False
        area = tx.state.conflicts[0]
        tx.set(conflicts=tx.state.conflicts[1:])
        fighting.resolve(tx, area)
    if tx.state.pillage[0] != NOBODY:
        return False
    begin_build(tx)
    return True


def pillage(tx: Tx, seat: int, count: int) -> None:
    """§24.52: up to 3 tokens of the attacker's own stock to its treasury."""
    tx.to_treasury(seat, count)
    tx.emit("pillaged", seat=seat, tokens=count)
    tx.set(pillage=(NOBODY, 0))


# --- phase 7: city construction (§25) -----------------------------------------------------------------------


def cities_of(state: State, seat: int) -> tuple[int, ...]:
    cities = state.cities
    if seat not in cities:
        return ()
    return tuple(area for area, owner in enumerate(cities) if owner == seat)


def others_present(state: State, seat: int, area: int) -> bool:
    return any(other != seat and nation.tokens[area] for other, nation in enumerate(state.players))


def build_cost(state: State, area: int) -> int:
    return SITE_COST if tables.city_sites(len(state.players))[area] else OFF_SITE_COST


def buildable(state: State, seat: int) -> tuple[int, ...]:
    """Land areas in play without a city where the seat has the tokens for one: 6 on a site, 12 off a
    site (§25.2, §25.3), while it has a city in stock (9 at most on the board)."""

    def compute() -> tuple[int, ...]:
        if state.city_count(seat) >= CITIES:
            return ()
        nation = state.players[seat]
        tokens = nation.tokens
        foreign = state.foreign()
        return tuple(
            area
            for area in nation.occupied()
            if tokens[area] >= SITE_COST
            and LAND[area]
            and state.cities[area] == NOBODY
            and area not in foreign
            and tokens[area] >= build_cost(state, area)
        )

    return memo(state, ("buildable", seat), compute)


def architecture_areas(state: State, seat: int) -> tuple[int, ...]:
    """Where Architecture lets treasury pay up to half of one city (§25.3): no other player's tokens, and
    at least half the cost in tokens."""
    nation = state.players[seat]
    held = card_set(nation)
    if cards.ARCHITECTURE not in held or state.city_count(seat) >= CITIES:
        return ()
    found = []
    for area in range(AREAS):
        if not LAND[area] or state.cities[area] != NOBODY or area in buildable(state, seat):
            continue
        if area in state.foreign():
            continue
        cost = build_cost(state, area)
        help_ = cards.architecture_treasury(held, cost=cost, others_present=others_present(state, seat, area))
        if help_ and nation.tokens[area] >= cost - help_ and nation.tokens[area] + nation.treasury >= cost:
            found.append(area)
    return tuple(found)


def begin_build(tx: Tx) -> None:
    state = tx.state
    done = tuple(
        0 if buildable(state, seat) or architecture_areas(state, seat) else 1
        for seat in range(len(state.players))
    )
    tx.set(phase="build", done=done, new_cities=())


def default_builds(state: State, seat: int) -> tuple[int, ...]:
    """The site's default: every city that can be built, off-site ones first, then on sites, while the
    tokens left (as surplus removal will leave them) support every city; Architecture is not used."""
    nation = state.players[seat]
    tokens = list(nation.tokens)
    cities = state.city_count(seat)
    chosen: list[int] = []
    candidates = sorted(buildable(state, seat), key=lambda area: (build_cost(state, area) == SITE_COST, area))
    for area in candidates:
        if cities + len(chosen) >= CITIES:
            break
        trial = tokens.copy()
        trial[area] = 0  # a city's area keeps no tokens (§26.1)
        if support_after(state, seat, trial) >= 2 * (cities + len(chosen) + 1):
            tokens = trial
            chosen.append(area)
    return tuple(chosen)


def support_after(state: State, seat: int, tokens: list[int]) -> int:
    held = card_set(state.players[seat])
    total = 0
    for area, count in enumerate(tokens):
        if count and state.cities[area] == NOBODY:
            alone = not others_present(state, seat, area)
            total += min(count, cards.population_limit(LIMITS[area], held, alone=alone))
    return total


def build_cities(tx: Tx, seat: int, areas: tuple[int, ...], architecture: int | None) -> None:
    """§25: each city replaces its cost in tokens (to stock); with Architecture, treasury pays the part of
    one city that the tokens do not."""
    built = []
    for area in areas:
        cost = build_cost(tx.state, area)
        tokens = min(cost, tx.player(seat).tokens[area])
        tx.place(seat, area, -tokens)
        if area == architecture:
            nation = tx.player(seat)
            tx.update_player(
                seat, treasury=nation.treasury - (cost - tokens), stock=nation.stock + cost - tokens
            )
        tx.set_city(area, seat)
        built.append(area)
    tx.set(done=replaced(tx.state.done, seat, 1), new_cities=tx.state.new_cities + tuple(built))
    tx.emit("cities_built", seat=seat, areas=[KEYS[area] for area in built])


def _settle_build(tx: Tx) -> bool:
    if 0 in tx.state.done:
        return False
    begin_support(tx)
    return True


def begin_support(tx: Tx) -> None:
    remove_surplus(tx)
    tx.set(phase="support")


# --- phase 8: surplus and city support (§26) ---------------------------------------------------------------


def remove_surplus(tx: Tx) -> None:
    """§26.1: no tokens where a city stands; elsewhere no more than the limit (+1 with Agriculture where
    the holder stands alone). Ships do not count."""
    occupied = sorted({area for nation in tx.state.players for area in nation.occupied()})
    for area in occupied:
        if not LAND[area]:
            continue
        if tx.state.cities[area] != NOBODY:
            tx.clear_tokens(area)
            continue
        present = [seat for seat, nation in enumerate(tx.state.players) if nation.tokens[area]]
        if len(present) != 1 or area in tx.state.foreign():
            continue
        (seat,) = present
        held = card_set(tx.player(seat))
        limit = cards.population_limit(LIMITS[area], held, alone=True)
        excess = tx.player(seat).tokens[area] - limit
        if excess > 0:
            tx.place(seat, area, -excess)
    tx.emit("surplus_removed")


def unsupported(state: State, seat: int) -> bool:
    """§26.3: fewer than 2 tokens on the board per city; in phase 11 Slave Revolt's tokens do not count
    (§30.42)."""
    cities = state.city_count(seat)
    if not cities:
        return False
    tokens = state.players[seat].board_tokens()
    if state.unsupporting:
        tokens -= min(tokens, state.unsupporting[seat])
    return tokens < 2 * cities


def reducible(state: State, seat: int) -> tuple[int, ...]:
    """The cities the owner may reduce now: those built this turn first (§26.32)."""
    owned = cities_of(state, seat)
    new = tuple(area for area in owned if area in state.new_cities)
    return new or owned


def reduce_city(tx: Tx, area: int) -> None:
    """§26.4: the city becomes as many tokens as the limit allows (+1 with Agriculture), from stock."""
    seat = tx.state.cities[area]
    held = card_set(tx.player(seat))
    placed = tx.reduce_city(area, cards.population_limit(LIMITS[area], held, alone=True))
    tx.emit("city_reduced", seat=seat, area=KEYS[area], tokens=placed)


def _settle_support(tx: Tx) -> bool:
    if any(unsupported(tx.state, seat) for seat in range(len(tx.state.players))):
        return False
    begin_trade_cards(tx)
    return True


# --- phase 9: trade-card acquisition (§27) ---------------------------------------------------------------


def begin_trade_cards(tx: Tx) -> None:
    """Seats that can pay 18 say how many stack-9 cards they buy (phase `gold`), then everyone draws."""
    state = tx.state
    buyers = drawing.buyers(state)
    done = tuple(0 if seat in buyers else 1 for seat in range(len(state.players)))
    tx.set(phase="gold", order=buyers, cursor=0, done=done)


def _settle_gold(tx: Tx) -> bool:
    if 0 in tx.state.done:
        return False
    drawing.draw_all(tx)
    begin_trade(tx)
    return True


def begin_trade(tx: Tx) -> None:
    """The market opens to the seats that can trade, or phase 11 follows at once."""
    if not trading.begin(tx, ast_order(tx.state)):
        begin_calamities(tx)


# --- phase 10: trade (§28), in trading.py -------------------------------------------------------------------


def _settle_trade(tx: Tx) -> bool:
    if not trading.settle(tx):
        return False
    begin_calamities(tx)
    return True


# --- phase 11: calamities (§29, §30), Monotheism (§32.94), city support (§29.8) ----------------------------


def traded_by(state: State, card: str) -> int:
    return next((seat for held, seat in state.traded if held == card), NOBODY)


def begin_calamities(tx: Tx) -> None:
    """§29.3, §29.5, §29.6 (site F-S1, F-S2): every calamity in hand is revealed and set aside; a holder of
    more than 2 has 2 drawn at random, the rest ignored (unless Stoic); they resolve by stack, then the
    Monotheism holders convert in A.S.T. order."""
    state = tx.state
    held = [
        cal.Held(card, seat, None if traded_by(state, card) == NOBODY else traded_by(state, card))
        for seat, hand in enumerate(state.hands)
        for card in hand
        if trade_cards.is_calamity(card)
    ]
    hands = tuple(tuple(card for card in hand if not trade_cards.is_calamity(card)) for hand in state.hands)
    kept, ignored = cal.apply_cap(held, tx.randbelow, stoic=state.trade_options().stoic)
    converting = [
        (cal.MONOTHEISM, seat, NOBODY)
        for seat in ast_order(state)
        if cards.MONOTHEISM in card_set(state.players[seat])
    ]
    queue = tuple((h.card, h.holder, NOBODY if h.traded_by is None else h.traded_by) for h in kept)
    tx.set(
        phase="calamity",
        hands=hands,
        discard=(*state.discard, *(h.card for h in held)),
        traded=(),
        calamities=(*queue, *converting),
        steps=(),
        asked=False,
        order=(),
        cursor=0,
    )
    hidden = state.trade_options().hide_upcoming_calamities
    tx.emit(
        "calamities_revealed",
        calamities=[] if hidden else [_held_json(h) for h in kept],
        count=len(kept),
        ignored=[_held_json(h) for h in ignored],
    )


def _held_json(held: cal.Held) -> dict[str, object]:
    return {"card": held.card, "seat": held.holder, "traded_by": held.traded_by}


def _settle_calamity(tx: Tx) -> bool:
    while tx.state.calamities:
        found = resolving.progress(tx.state)
        if isinstance(found, resolving.Question):
            return False
        finish_calamity(tx, found)
        if tx.state.phase != "calamity":
            return True
    tx.set(phase="calamity_support", order=ast_order(tx.state))
    return True


def finish_calamity(tx: Tx, settled: resolving.Settled) -> None:
    """The settled calamity happens; Slave Revolt's check of the victim's support follows at once."""
    result = settled.resolution
    _, _, trader = tx.state.calamities[0]
    resolving.carry_out(tx, settled.changes)
    lost: dict[str, int] = {}
    for change in settled.changes:
        if change.seat >= 0 and change.points:
            lost[str(change.seat)] = lost.get(str(change.seat), 0) + change.points
    struck = {change.seat for change in settled.changes if change.seat >= 0}
    if result.calamity != cal.MONOTHEISM and result.primary >= 0:  # the converter is not struck
        struck.add(result.primary)
    if not (result.calamity == cal.MONOTHEISM and result.note == "no_target"):  # nothing to tell each turn
        tx.emit(
            "calamity_resolved",
            mail_to=sorted(struck),
            news="calamity",
            card=result.calamity,
            seat=result.primary,
            traded_by=None if trader == NOBODY else trader,
            secondary=list(result.secondary),
            points=lost,
            changes=[resolving.change_json(change) for change in settled.changes],
            note=result.note or None,
        )
    tx.set(calamities=tx.state.calamities[1:], steps=())
    for need in result.needs:
        if need.kind == "support_check":
            unsupporting = replaced(tx.state.unsupporting, need.seat, need.excluded)
            tx.set(phase="calamity_support", order=(need.seat,), unsupporting=unsupporting)


def _settle_calamity_support(tx: Tx) -> bool:
    state = tx.state
    if any(unsupported(state, seat) for seat in state.order):
        return False
    if state.calamities:
        tx.set(phase="calamity", order=())
        return True
    everyone = ast_order(state)
    if state.order != everyone:
        tx.set(order=everyone)  # the check that closes the phase (§29.8)
        return True
    end_calamities(tx)
    return True


def end_calamities(tx: Tx) -> None:
    """The end of phase 11: Slave Revolt's tokens support cities again; phase 12 begins."""
    tx.set(unsupporting=(0,) * len(tx.state.players), asked=False, order=())
    buying.begin(tx)


# --- phase 12: civilization advances (§31), in buying.py ----------------------------------------------------


def _settle_advances(tx: Tx) -> bool:
    """Once every seat has checked out, the calamities and cards set aside this turn go back under their
    stacks (§29.7, §31.81), and phase 13 follows."""
    if not buying.settle(tx):
        return False
    state = tx.state
    deck = trade_cards.return_cards(state.deck, state.discard, tx.randbelow, state.trade_options())
    tx.set(deck=deck, discard=(), done=())
    tx.emit("cards_returned", cards=len(state.discard))
    end_turn(tx)
    return True


# --- phase 13: A.S.T. (§33) -------------------------------------------------------------------------------


def may_enter(state: State, seat: int, space: int) -> bool:
    """§33.2, §33.3: the cities of the space's epoch, and on entering an epoch its cards: Late Bronze 3
    colours, Early Iron 9 cards of all 5 colours; each Late Iron space its face value."""
    nation = state.players[seat]
    held = card_set(nation)
    epoch = epoch_of(nation.nation, space)
    if state.city_count(seat) < EPOCH_CITIES[epoch]:
        return False
    entering = epoch != epoch_of(nation.nation, nation.ast)
    if entering and epoch == 2 and len(cards.groups_held(held)) < 3:
        return False
    if entering and epoch == 3 and (len(held) < 9 or len(cards.groups_held(held)) < 5):
        return False
    return cards.face_value(held) >= late_iron_threshold(nation.nation, space)


def move_ast(tx: Tx) -> None:
    for seat in ast_order(tx.state):
        nation = tx.player(seat)
        space = nation.ast
        if not tx.state.city_count(seat) and epoch_of(nation.nation, space) != STONE:
            space -= 1  # §33.4: back one space with no cities, except in the Stone Age
        elif space < FINISH and may_enter(tx.state, seat, space + 1):
            space += 1
        if space != nation.ast:
            tx.update_player(seat, ast=space)
            tx.emit("ast_moved", seat=seat, space=space)


def end_turn(tx: Tx) -> None:
    move_ast(tx)
    state = tx.state
    reason = scoring.end_reason((nation.ast for nation in state.players), state.turn, state.last_turn or None)
    if reason is not None:
        tx.set(phase="over", end=reason)
        tx.emit("game_over", reason=reason)
        return
    if not any(nation.board_tokens() or nation.ships for nation in tx.state.players) and not any(
        owner != NOBODY for owner in tx.state.cities
    ):
        # nothing is left on the map and nothing can come back (no expansion without tokens): the game
        # would repeat empty turns for ever, so it ends (a decision: the rules do not foresee it)
        tx.set(phase="over", end="empty_map")
        tx.emit("game_over", reason="empty_map")
        return
    tx.set(turn=tx.state.turn + 1, new_cities=(), grain_shown=(0,) * len(state.players), mining_used=())
    begin_tax(tx)


SETTLE: dict[str, Callable[[Tx], bool]] = {
    "start": _settle_start,
    "tax": _settle_tax,
    "revolt": _settle_revolt,
    "expand": _settle_expand,
    "ships": _settle_ships,
    "move": _settle_move,
    "conflict": _settle_conflict,
    "build": _settle_build,
    "support": _settle_support,
    "gold": _settle_gold,
    "trade": _settle_trade,
    "calamity": _settle_calamity,
    "calamity_support": _settle_calamity_support,
    "advances": _settle_advances,
}


BEGIN: dict[str, Callable[[Tx], None]] = {
    "tax": begin_tax,
    "expand": begin_expand,
    "ships": begin_ships,
    "move": begin_move,
    "conflict": begin_conflict,
    "build": begin_build,
    "support": begin_support,
    "gold": begin_trade_cards,
    "trade": begin_trade,
    "calamity": begin_calamities,
    "advances": buying.begin,
}


def advance(tx: Tx) -> None:
    while tx.state.phase in SETTLE:
        if not SETTLE[tx.state.phase](tx):
            return
