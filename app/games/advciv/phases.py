"""The one place legality comes from: `legal_for(state, seat)`.

`waits`, `apply` (through `check`), `default_order`, `sample_order` and the view's `legal` all read the
`Legal` it returns. Phases (`state.phase`) and who is awaited:

  start     the seats in pick order, one at a time: the start token in a start area. Default: a random one.
  tax       Coinage holders with cities (when 2 would not make cities revolt), all at once. Default: 2.
  revolt    the first beneficiary of a revolt: which cities revolt. Default: a random choice.
  expand    seats short of stock, all at once: where their stock goes. Default: random placement.
  ships     in census order, Military holders last: ships kept and built. Default: none.
  move      every seat with pieces enters moves at once (secret); they are finalised in census order,
            Military holders last. Default: "done" (the moves entered are finalised, or none).
  conflict  an attacker that destroyed a city: its pillage. Default: the most it may take.
  build     seats that can build, all at once: the cities built. Default: the site's (see flow).
  support   seats short of support, all at once: one city reduced per order. Default: a random one.
  gold      seats that can pay 18, all at once: stack-9 cards bought. Default: none.
  calamity  one seat at a time, as the calamity being resolved asks (resolving.py): the choices of the
            primary victim, the trader, a beneficiary or a secondary victim. Default: the module's.
  calamity_support  after a Slave Revolt (its victim) and at the end of phase 11 (every seat): as support.
  trade     phase 10, the market (trading.py): every seat still in it, all at once, as a market wait (the
            clock's window). Offers and answers are "any time" orders: a seat that said "done" may still
            make and answer them, and comes back. Default: "done" (leave the market).
  advances  phase 12 (buying.py): seats that can buy or hold too many cards, all at once. Default: the
            site's fewest purchases down to the hand limit.
  over      the game has ended.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from app.games.advciv import buying, cards, drawing, flow, movement, moving, resolving, trading
from app.games.advciv.board import BOARD
from app.games.advciv.flow import DONE, NOT_DONE, THREATENED, UNLESS_THREATENED, card_set
from app.games.advciv.model import NOBODY, SHIPS, Move, State
from app.games.advciv.orders import (
    TRADE_ORDERS,
    AssignOrder,
    BuildOrder,
    BuyOrder,
    Choice,
    DoneOrder,
    EmbargoOverOrder,
    ExpandOrder,
    GoldOrder,
    Legal,
    LoseOrder,
    MoveOrder,
    OrderModel,
    PickOrder,
    PillageOrder,
    ReduceOrder,
    ReopenOrder,
    RevoltOrder,
    SailOrder,
    ShipsOrder,
    StartOrder,
    TaxOrder,
    TradeOrder,
    UndoOrder,
)
from app.games.advciv.tables import INDEX, KEYS, LAND, LAND_REACH, sea_reach
from app.games.advciv.trade_cards import GOLD_PRICE
from app.games.advciv.tx import Tx
from app.games.contract import RuleError, Wait
from app.games.kit.model import evolve, memo, replaced

SIMULTANEOUS = {"tax", "expand", "move", "build", "support", "gold", "calamity_support", "trade", "advances"}
TRADE_TYPES = (*sorted(TRADE_ORDERS), "done", "embargo_over")


def legal_for(state: State, seat: int) -> Legal | None:
    """What `seat` may do now, or None when it may do nothing."""
    if not 0 <= seat < len(state.players):
        return None
    return memo(state, ("legal", seat), lambda: _legal(state, seat))


def awaited(state: State) -> list[int]:
    """The seats the game waits on, in the phase's order."""
    return memo(state, "awaited", lambda: _awaited(state))


def _awaited(state: State) -> list[int]:
    phase = state.phase
    if phase in ("start", "ships"):
        return [state.order[state.cursor]] if state.cursor < len(state.order) else []
    if phase == "tax":
        return [seat for seat in flow.ast_order(state) if state.rates[seat] == 0]
    if phase == "revolt":
        return [flow.revolt_chooser(state)] if state.revolts else []
    if phase in ("expand", "build"):
        return [seat for seat in flow.ast_order(state) if state.done[seat] == 0]
    if phase == "move":
        pending = state.order[state.cursor :]
        return [seat for seat in pending if state.done[seat] in (NOT_DONE, THREATENED)]
    if phase == "conflict":
        return [state.pillage[0]] if state.pillage[0] != NOBODY else []
    if phase == "support":
        return [seat for seat in flow.ast_order(state) if flow.unsupported(state, seat)]
    if phase == "gold":
        return [seat for seat in state.order if state.done[seat] == 0]
    if phase == "calamity":
        found = resolving.progress(state) if state.calamities else None
        return [found.seat] if isinstance(found, resolving.Question) else []
    if phase == "calamity_support":
        return [seat for seat in state.order if flow.unsupported(state, seat)]
    if phase == "trade":
        return trading.in_market(state)
    if phase == "advances":
        return [seat for seat in flow.ast_order(state) if state.done[seat] == 0]
    return []


def waits(state: State) -> list[Wait]:
    """Every awaited seat; the phase's first actor gets the site's 1.5x (`first_in_phase`)."""
    phase = state.phase
    market = phase == "trade"
    return [
        Wait(
            seat,
            phase,
            simultaneous=phase in SIMULTANEOUS,
            first_in_phase=seat == state.first_actor and not market,  # the market has its own window
            market=market,
        )
        for seat in awaited(state)
    ]


def mark_first_actor(before: State | None, after: State, acting: int = NOBODY) -> State:
    """When an order (or the set-up) begins a phase, its first awaited seat is its first actor (site C2:
    "players going first in each phase"); a seat of the phase's order that has nothing to do is not. The
    longer time is for its first answer only: once it has acted, no one in the phase has it."""
    if before is not None and (before.turn, before.phase) == (after.turn, after.phase):
        return evolve(after, first_actor=NOBODY) if acting == after.first_actor != NOBODY else after
    seats = awaited(after)
    first = seats[0] if seats else NOBODY
    if after.phase == "calamity" and after.asked:
        first = NOBODY  # back from a support check: phase 11 already had its first actor
    return after if first == after.first_actor else evolve(after, first_actor=first)


def _pick(state: State, seat: int, salt: str) -> random.Random:
    """A generator for a seat's random default, fixed by the state (it draws nothing from the game)."""
    return random.Random(f"{state.rng}:{seat}:{salt}")


def _legal(state: State, seat: int) -> Legal | None:
    phase = state.phase
    if phase == "move":
        return _move(state, seat)
    if phase == "trade":
        return _trade(state, seat)
    if seat not in awaited(state):
        return None
    if phase == "start":
        choices = tuple(
            Choice(StartOrder(type="start", area=KEYS[area]), f"Start in {BOARD.areas[area].name}")
            for area in flow.start_areas(state, seat)
        )
        default = choices[_pick(state, seat, "start").randrange(len(choices))].order
        return Legal("start", "start", ("start",), default, choices, {"nation": state.players[seat].nation})
    if phase == "tax":
        rates = cards.tax_rates(card_set(state.players[seat]))
        choices = tuple(Choice(TaxOrder(type="tax", rate=rate), f"Tax {rate} per city") for rate in rates)
        return Legal(
            "tax",
            "tax",
            ("tax",),
            TaxOrder(type="tax", rate=cards.TAX_RATE),
            choices,
            _tax_context(state, seat),
        )
    if phase == "revolt":
        return _revolt(state, seat)
    if phase == "expand":
        return _expand(state, seat)
    if phase == "ships":
        return _ships(state, seat)
    if phase == "conflict":
        most = state.pillage[1]
        choices = tuple(
            Choice(PillageOrder(type="pillage", tokens=count), f"Pillage {count}")
            for count in range(most + 1)
        )
        return Legal("conflict", "pillage", ("pillage",), choices[-1].order, choices, {"most": most})
    if phase == "build":
        return _build(state, seat)
    if phase == "gold":
        most = drawing.most_gold(state, seat)
        choices = tuple(
            Choice(GoldOrder(type="gold", cards=count), f"Buy {count} stack-9 cards")
            for count in range(most + 1)
        )
        context: dict[str, Any] = {
            "treasury": state.players[seat].treasury,
            "price": GOLD_PRICE,
            "most": most,
        }
        return Legal("gold", "gold", ("gold",), choices[0].order, choices, context)
    if phase == "calamity":
        return resolving.legal(state, seat)
    if phase == "advances":
        context = buying.context(state, seat)
        return Legal("advances", "buy", ("buy",), buying.default(state, seat), (), context)
    if phase in ("support", "calamity_support"):
        allowed = flow.reducible(state, seat)
        choices = tuple(
            Choice(
                ReduceOrder(type="reduce", area=KEYS[area]), f"Reduce the city in {BOARD.areas[area].name}"
            )
            for area in allowed
        )
        default = choices[_pick(state, seat, "reduce").randrange(len(choices))].order
        context = {
            "cities": state.city_count(seat),
            "tokens": state.players[seat].board_tokens(),
            "new_cities": [KEYS[area] for area in state.new_cities if state.cities[area] == seat],
        }
        return Legal(phase, "reduce", ("reduce",), default, choices, context)
    return None


def _tax_context(state: State, seat: int) -> dict[str, Any]:
    nation = state.players[seat]
    return {"cities": state.city_count(seat), "stock": nation.stock}


def _revolt(state: State, seat: int) -> Legal:
    victim, count, ranking = state.revolts[0]
    owned = flow.cities_of(state, victim)
    chosen = tuple(_pick(state, seat, "revolt").sample(owned, count))
    default = RevoltOrder(type="revolt", areas=tuple(KEYS[area] for area in chosen))
    context = {
        "victim": victim,
        "count": count,
        "cities": [KEYS[area] for area in owned],
        "beneficiaries": list(ranking),
    }
    return Legal("revolt", "revolt", ("revolt",), default, (), context)


def _expand(state: State, seat: int) -> Legal:
    wanted = flow.growth(state, seat)
    stock = state.players[seat].stock
    pool = [area for area, count in sorted(wanted.items()) for _ in range(count)]
    placed: dict[str, int] = {}
    for area in _pick(state, seat, "expand").sample(pool, stock):
        placed[KEYS[area]] = placed.get(KEYS[area], 0) + 1
    context = {"stock": stock, "most": {KEYS[area]: count for area, count in sorted(wanted.items())}}
    return Legal("expand", "expand", ("expand",), ExpandOrder(type="expand", areas=placed), (), context)


def _ships(state: State, seat: int) -> Legal:
    nation = state.players[seat]
    context = {
        "ships": [KEYS[area] for area in nation.ships],
        "treasury": nation.treasury,
        "most": SHIPS,
        "cost": cards.SHIP_COST,
        "upkeep": 1,
        "build_areas": {KEYS[area]: nation.tokens[area] for area in flow.ship_areas(state, seat)},
    }
    return Legal("ships", "ships", ("ships",), ShipsOrder(type="ships"), (), context)


def _build(state: State, seat: int) -> Legal:
    areas = flow.buildable(state, seat)
    default = BuildOrder(type="build", areas=tuple(KEYS[area] for area in flow.default_builds(state, seat)))
    context = {
        "areas": [KEYS[area] for area in areas],
        "architecture": [KEYS[area] for area in flow.architecture_areas(state, seat)],
        "cities": state.city_count(seat),
        "cities_in_stock": state.cities_in_stock(seat),
    }
    return Legal("build", "build", ("build",), default, (), context)


def _trade(state: State, seat: int) -> Legal | None:
    """Every seat may send trade orders while the market is open (they are "any time" orders); only the
    seats still in it are awaited, and may say "done"."""
    if state.market is None:
        return None
    inside = seat in trading.in_market(state)
    types = TRADE_TYPES if inside else tuple(kind for kind in TRADE_TYPES if kind != "done")
    prompt = "trade" if inside else "trade_left"
    return Legal("trade", prompt, types, DoneOrder(type="done"), (), {"can_trade": seat in state.order})


# --- movement -------------------------------------------------------------------------------------------


def _move(state: State, seat: int) -> Legal | None:
    status = state.done[seat]
    pending = state.order[state.cursor :]
    if seat not in pending:
        return None
    entered = [moving.to_json(move) for move in state.moves[seat]]
    if status in (DONE, UNLESS_THREATENED):
        context = {"moves": entered, "unless_threatened": status == UNLESS_THREATENED}
        return Legal("move", "move_done", ("reopen",), ReopenOrder(type="reopen"), (), context)
    types = ["move", "sail", "undo", "done"] if state.moves[seat] else ["move", "sail", "done"]
    context = {
        "moves": entered,
        "threatened": status == THREATENED,
        "tokens": {KEYS[area]: count for area, count in free_tokens(state, seat).items()},
        "land": {
            KEYS[area]: [KEYS[to] for to in sorted(targets)]
            for area, targets in land_targets(state, seat).items()
        },
        "road": {
            KEYS[area]: {KEYS[to]: KEYS[via] for to, via in sorted(targets.items())}
            for area, targets in road_targets(state, seat).items()
        },
        "ships": {
            KEYS[area]: [KEYS[to] for to in sorted(targets)]
            for area, targets in ship_targets(state, seat).items()
        },
        "ship_load": movement.SHIP_CAPACITY,
    }
    prompt = "move_threatened" if status == THREATENED else "move"
    return Legal("move", prompt, tuple(types), DoneOrder(type="done"), (), context)


def free_tokens(state: State, seat: int) -> dict[int, int]:
    """Tokens that have not moved this phase, per area (a token moves once, §23.2)."""
    return memo(state, ("free_tokens", seat), lambda: _free_tokens(state, seat))


def _free_tokens(state: State, seat: int) -> dict[int, int]:
    nation = state.players[seat]
    tokens = {area: nation.tokens[area] for area in nation.occupied()}
    for move in state.moves[seat]:
        if move[0] == moving.LAND_MOVE:
            tokens[move[1]] -= move[3]
        else:
            for index in range(2, len(move), 3):
                if move[index + 2]:
                    tokens[move[index]] -= move[index + 2]
    return {area: count for area, count in tokens.items() if count > 0}


def free_ships(state: State, seat: int) -> list[int]:
    ships = list(state.players[seat].ships)
    for move in state.moves[seat]:
        if move[0] == moving.VOYAGE:
            ships.remove(move[1])
    return ships


def land_targets(state: State, seat: int) -> dict[int, frozenset[int]]:
    in_play = state.in_play
    return {
        area: frozenset(to for to in LAND_REACH[area] if in_play[to]) for area in free_tokens(state, seat)
    }


def road_targets(state: State, seat: int) -> dict[int, dict[int, int]]:
    """With Roadbuilding: the areas two steps away through a first one free of others, with that one."""
    if not cards.road_movement(card_set(state.players[seat])):
        return {}
    in_play = state.in_play
    blocked = moving.blocked(state, seat)
    found: dict[int, dict[int, int]] = {}
    for area in free_tokens(state, seat):
        near = LAND_REACH[area]
        far: dict[int, int] = {}
        for via in sorted(near - blocked):
            if in_play[via]:
                for to in LAND_REACH[via]:
                    if in_play[to] and to != area and to not in near:
                        far.setdefault(to, via)
        if far:
            found[area] = far
    return found


def ship_targets(state: State, seat: int) -> dict[int, frozenset[int]]:
    held = card_set(state.players[seat])
    in_play = state.in_play
    return {
        area: frozenset(
            to
            for to in sea_reach(area, cards.may_enter_open_sea(held), cards.ship_steps(held))
            if in_play[to]
        )
        for area in set(free_ships(state, seat))
    }


def _entered_move(state: State, order: MoveOrder | SailOrder) -> Move:
    if isinstance(order, MoveOrder):
        via = _area(order.via, "via") if order.via else None
        return moving.land_move(_area(order.origin, "origin"), _area(order.to, "to"), order.tokens, via)
    stops = [(_area(stop.area, "stops"), stop.land, stop.board) for stop in order.stops]
    return moving.voyage(_area(order.ship, "ship"), stops)


# --- checking and handling ------------------------------------------------------------------------------


def _area(key: str, field: str) -> int:
    index = INDEX.get(key)
    if index is None:
        raise RuleError("unknown_area", "There is no area %(key)s.", field, {"key": key})
    return index


def _name(area: int) -> str:
    return BOARD.areas[area].name


def _counts(counts: Mapping[str, int], field: str) -> dict[int, int]:
    return {_area(key, field): count for key, count in counts.items() if count}


def handle(tx: Tx, seat: int, legal: Legal, order: OrderModel) -> None:
    """Check `order` against `legal` (RuleError if it is not allowed) and carry it out."""
    if order.type not in legal.types:
        raise RuleError("wrong_order", "That kind of order is not possible now.", "type")
    if legal.choices and not legal.offers(order):
        raise RuleError("not_a_choice", "That is not one of the choices offered.")
    state = tx.state
    if isinstance(order, StartOrder):
        flow.place_start(tx, seat, _area(order.area, "area"))
    elif isinstance(order, TaxOrder):
        tx.set(rates=replaced(state.rates, seat, order.rate))
        tx.emit("tax_rate_chosen", to=(seat,), seat=seat, rate=order.rate)
    elif isinstance(order, RevoltOrder):
        flow.resolve_revolt(tx, _check_revolt(state, order))
    elif isinstance(order, ExpandOrder):
        _expand_order(tx, seat, order)
    elif isinstance(order, ShipsOrder):
        _ships_order(tx, seat, order)
    elif isinstance(order, MoveOrder | SailOrder):
        move = _entered_move(state, order)
        moving.plan(state, seat, (*state.moves[seat], move))
        tx.set(moves=replaced(state.moves, seat, (*state.moves[seat], move)))
        tx.emit("move_entered", to=(seat,), seat=seat, move=moving.to_json(move))
    elif isinstance(order, UndoOrder):
        kept = () if order.all else state.moves[seat][:-1]
        tx.set(moves=replaced(state.moves, seat, kept))
        tx.emit("move_undone", to=(seat,), seat=seat, left=len(kept))
    elif isinstance(order, TradeOrder | EmbargoOverOrder) or (
        isinstance(order, DoneOrder) and state.phase == "trade"
    ):
        trading.trade(tx, seat, order)
    elif isinstance(order, BuyOrder):
        buying.buy(tx, seat, order)
    elif isinstance(order, DoneOrder):
        status = DONE if state.done[seat] == THREATENED or not order.unless_threatened else UNLESS_THREATENED
        tx.set(done=replaced(state.done, seat, status))
        tx.emit("moves_done", seat=seat)
    elif isinstance(order, ReopenOrder):
        tx.set(done=replaced(state.done, seat, NOT_DONE))
        tx.emit("moves_reopened", seat=seat)
    elif isinstance(order, PillageOrder):
        flow.pillage(tx, seat, order.tokens)
    elif isinstance(order, BuildOrder):
        areas, architecture = _check_build(state, seat, order)
        flow.build_cities(tx, seat, areas, architecture)
    elif isinstance(order, ReduceOrder):
        flow.reduce_city(tx, _area(order.area, "area"))
    elif isinstance(order, GoldOrder):
        drawing.choose_gold(tx, seat, order.cards)
    elif isinstance(order, PickOrder | LoseOrder | AssignOrder):
        resolving.answer(tx, seat, order)
    flow.advance(tx)


def _check_revolt(state: State, order: RevoltOrder) -> tuple[int, ...]:
    victim, count, _ = state.revolts[0]
    areas = tuple(_area(key, "areas") for key in order.areas)
    if len(set(areas)) != len(areas) or len(areas) != count:
        raise RuleError(
            "revolt_count", "Choose exactly %(count)s different cities.", "areas", {"count": count}
        )
    for area in areas:
        if state.cities[area] != victim:
            raise RuleError(
                "not_their_city",
                "There is no city of the revolting player in %(area)s.",
                "areas",
                {"area": _name(area)},
            )
    return areas


def _expand_order(tx: Tx, seat: int, order: ExpandOrder) -> None:
    wanted = flow.growth(tx.state, seat)
    placed = _counts(order.areas, "areas")
    for area, count in placed.items():
        most = wanted.get(area, 0)
        if not most:
            raise RuleError("no_growth_here", "Nothing grows in %(area)s.", "areas", {"area": _name(area)})
        if count > most:
            raise RuleError(
                "too_many_here",
                "%(area)s grows by %(most)s at most (an area grows by 1 with one token there, else 2).",
                "areas",
                {"area": _name(area), "most": most},
            )
    if sum(placed.values()) != tx.player(seat).stock:
        raise RuleError("place_all", "Place every token of your stock.", "areas")
    tx.place_many(seat, placed)
    tx.set(done=replaced(tx.state.done, seat, 1))
    tx.emit(
        "population_placed", seat=seat, areas={KEYS[area]: count for area, count in sorted(placed.items())}
    )


def _ships_order(tx: Tx, seat: int, order: ShipsOrder) -> None:
    state = tx.state
    nation = state.players[seat]
    keep, keep_tokens = _counts(order.keep, "keep"), _counts(order.keep_tokens, "keep_tokens")
    build, build_tokens = _counts(order.build, "build"), _counts(order.build_tokens, "build_tokens")
    for area, count in keep.items():
        if count > nation.ships.count(area):
            raise RuleError(
                "no_such_ship", "You have no ship to keep in %(area)s.", "keep", {"area": _name(area)}
            )
    if any(count > keep.get(area, 0) for area, count in keep_tokens.items()):
        raise RuleError("overpaid", "A kept ship costs 1.", "keep_tokens")
    if any(count > cards.SHIP_COST * build.get(area, 0) for area, count in build_tokens.items()):
        raise RuleError("overpaid", "A new ship costs 2.", "build_tokens")
    allowed = set(flow.ship_areas(state, seat))
    for area in build:
        if area not in allowed:
            raise RuleError(
                "no_ship_here",
                "No ship can be built in %(area)s: build ships in a water area where you have a unit.",
                "build",
                {"area": _name(area)},
            )
    for area in sorted(set(keep_tokens) | set(build_tokens)):
        if keep_tokens.get(area, 0) + build_tokens.get(area, 0) > nation.tokens[area]:
            raise RuleError(
                "not_enough_tokens",
                "You have only %(have)s tokens in %(area)s.",
                "build_tokens",
                {"have": nation.tokens[area], "area": _name(area)},
            )
    if sum(keep.values()) + sum(build.values()) > SHIPS:
        raise RuleError("too_many_ships", "You may have at most 4 ships.", "build")
    treasury = sum(keep.values()) + cards.SHIP_COST * sum(build.values())
    treasury -= sum(keep_tokens.values()) + sum(build_tokens.values())
    if treasury > nation.treasury:
        raise RuleError("not_enough_treasury", "Your treasury cannot pay for that.", "build")
    flow.settle_ships_order(tx, seat, keep, keep_tokens, build, build_tokens)


def _check_build(state: State, seat: int, order: BuildOrder) -> tuple[tuple[int, ...], int | None]:
    areas = tuple(_area(key, "areas") for key in order.areas)
    if len(set(areas)) != len(areas):
        raise RuleError("twice", "Each area once.", "areas")
    architecture = _area(order.architecture, "architecture") if order.architecture else None
    allowed = set(flow.buildable(state, seat))
    if architecture is not None:
        if architecture not in flow.architecture_areas(state, seat):
            raise RuleError(
                "no_architecture",
                "Architecture cannot pay for a city in %(area)s.",
                "architecture",
                {"area": _name(architecture)},
            )
        areas = (*[area for area in areas if area != architecture], architecture)
    for area in areas:
        if area not in allowed and area != architecture:
            raise RuleError(
                "cannot_build", "You cannot build a city in %(area)s.", "areas", {"area": _name(area)}
            )
    if state.city_count(seat) + len(areas) > state.city_count(seat) + state.cities_in_stock(seat):
        raise RuleError("no_city_left", "You have no more cities in stock.", "areas")
    return areas, architecture


# --- random play -----------------------------------------------------------------------------------------


def sample(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    """A random legal order for `seat` (the fuzzers' and benches' uniform random policy)."""
    if legal.choices:
        return legal.random_choice(rng)
    phase = state.phase
    if phase == "revolt":
        cities = legal.context["cities"]
        return RevoltOrder(
            type="revolt", areas=tuple(rng.sample(cities, legal.context["count"]))
        ).model_dump()
    if phase == "expand":
        pool = [key for key, count in legal.context["most"].items() for _ in range(count)]
        placed: dict[str, int] = {}
        for key in rng.sample(pool, legal.context["stock"]):
            placed[key] = placed.get(key, 0) + 1
        return {"type": "expand", "areas": placed}
    if phase == "ships":
        return _sample_ships(state, seat, rng)
    if phase == "build":
        areas = legal.context["areas"]
        room = legal.context["cities_in_stock"]
        chosen = [key for key in areas if rng.random() < 0.7][:room]
        return {"type": "build", "areas": chosen}
    if phase == "move":
        return _sample_move(state, seat, legal, rng)
    if phase == "calamity":
        return resolving.sample(state, legal, rng)
    if phase == "trade":
        return trading.sample(state, seat, rng)
    if phase == "advances":
        return buying.sample(state, seat, rng)
    return legal.default.model_dump()


def _sample_ships(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    nation = state.players[seat]
    tokens = list(nation.tokens)
    treasury = nation.treasury
    keep: dict[str, int] = {}
    keep_tokens: dict[str, int] = {}
    for area in nation.ships:
        if rng.random() < 0.3:
            continue
        if tokens[area]:
            tokens[area] -= 1
            keep_tokens[KEYS[area]] = keep_tokens.get(KEYS[area], 0) + 1
        elif treasury:
            treasury -= 1
        else:
            continue
        keep[KEYS[area]] = keep.get(KEYS[area], 0) + 1
    order: dict[str, Any] = {"type": "ships", "keep": keep, "keep_tokens": keep_tokens}
    areas = flow.ship_areas(state, seat)
    if areas and sum(keep.values()) < SHIPS and rng.random() < 0.5:
        area = rng.choice(areas)
        paid = min(tokens[area], cards.SHIP_COST)
        if treasury >= cards.SHIP_COST - paid:
            order["build"] = {KEYS[area]: 1}
            order["build_tokens"] = {KEYS[area]: paid} if paid else {}
    return order


def _sample_move(state: State, seat: int, legal: Legal, rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.25:
        return {"type": "done", "unless_threatened": rng.random() < 0.3}
    context = legal.context
    ships = [(area, targets) for area, targets in context["ships"].items() if targets]
    if ships and rng.random() < 0.3:
        area, targets = rng.choice(ships)
        to = rng.choice(targets)
        load = min(context["tokens"].get(area, 0), movement.SHIP_CAPACITY) if LAND[INDEX[to]] else 0
        count = rng.randint(0, load)
        stops = [{"area": area, "board": count}, {"area": to, "land": count}] if count else [{"area": to}]
        return {"type": "sail", "ship": area, "stops": stops}
    land = [(origin, targets) for origin, targets in context["land"].items() if targets]
    if not land:
        return {"type": "done"}
    origin, targets = rng.choice(land)
    return {
        "type": "move",
        "origin": origin,
        "to": rng.choice(targets),
        "tokens": rng.randint(1, context["tokens"][origin]),
    }
