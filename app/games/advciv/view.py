"""What one seat (or a spectator, `seat=None`) may see: JSON for the map page.

Public (§27.4: everything but trade cards in hand): the map, every nation's stock, treasury, cities and
ships in and out of stock, census, A.S.T. position and civ cards, the census order, who is awaited, the
revolts and pillage being decided. Private to its seat until the phase resolves: the moves entered and not
finalised (`my_moves`), a tax rate chosen, whether it said "done unless threatened". Never shown: the
generator state.

Shape:
    phase, turn, over, end
    nations          per seat: seat, nation, colour, stock, treasury, tokens (on the board), token_total,
                     cities, cities_in_stock, ships, ships_in_stock, census, ast, epoch, cards
    areas            {area key: {"units": {nation: {"tokens": n, "city": bool}}, "ships": {nation: n}}},
                     only the areas holding something
    census_order     seats, most tokens first (Military holders act last: `acting_order`)
    acting_order     the order of the ships and movement phases
    awaiting         the seats the game waits on
    revolt           the revolt being decided: victim, count, beneficiaries (seats), or None
    pillage          {"seat", "most"} while an attacker chooses its pillage, or None
    new_cities       areas where a city was built this turn
    barbarians       {area key: barbarian tokens}
    pirates          [area keys of pirate cities]
    trade            the trade cards (see `_trade`): the viewer's own hand only, everyone's hand size
    calamity         phase 11: the calamities revealed (as the options allow) and the one being resolved
    legal            the viewer's `Legal` (phase, prompt, orders, choices, default) plus its `context`
    my_moves         the viewer's moves entered and not finalised (never anyone else's)
    scores           per seat, the public score (§35.1 without the trade cards in hand)
    points           the public points table (site F-U2): rows of seat, nation, cities, ast, treasury,
                     civ_cards (how many), civ_points (face values), public_points; highest first
    market           phase 10 (`trading.seen_by`): embargo, traders, in_market; to a seat its outgoing
                     offers (real cards and said), incoming offers (said and slots only), its trades
                     waiting for the embargo, its cards free to promise; None outside phase 10
    final            once over: per seat the score's parts (civ_cards, trade_cards, treasury, ast,
                     cities, total) and place; the hands' worth is revealed only then
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.advciv import cards, flow, moving, resolving, scoring, trade_cards, trading
from app.games.advciv.board import BOARD
from app.games.advciv.model import CITIES, NOBODY, SHIPS, State, final_score, points_table, public_score
from app.games.advciv.phases import awaited, legal_for
from app.games.advciv.tables import KEYS, epoch_of

EPOCHS = ("stone", "early_bronze", "late_bronze", "early_iron", "late_iron")


def view(state: State, seat: int | None) -> dict[str, Any]:
    me = seat if seat is not None and 0 <= seat < len(state.players) else None
    legal = legal_for(state, me) if me is not None else None
    return {
        "phase": state.phase,
        "turn": state.turn,
        "over": state.phase == "over",
        "end": state.end or None,
        "nations": [_nation(state, index) for index in range(len(state.players))],
        "areas": _areas(state),
        "census_order": list(state.census_order),
        "acting_order": list(flow.acting_order(state)) if state.census_order else [],
        "awaiting": awaited(state),
        "revolt": _revolt(state),
        "pillage": {"seat": state.pillage[0], "most": state.pillage[1]}
        if state.pillage[0] != NOBODY
        else None,
        "new_cities": [KEYS[area] for area in state.new_cities],
        "barbarians": {KEYS[area]: count for area, count in state.barbarians},
        "pirates": [KEYS[area] for area in state.pirates],
        "trade": _trade(state, me),
        "calamity": _calamity(state),
        "legal": {**legal.to_json(), "context": legal.context} if legal is not None else None,
        "my_moves": _my_moves(state, me),
        "scores": [public_score(state, index) for index in range(len(state.players))],
        "points": [_row(row) for row in points_table(state)],
        "market": trading.seen_by(state, me),
        "final": _final(state),
    }


def _row(row: scoring.PointsRow) -> dict[str, Any]:
    return {
        "seat": row.seat,
        "nation": row.nation,
        "cities": row.cities,
        "ast": row.ast_space,
        "treasury": row.treasury,
        "civ_cards": row.civ_cards,
        "civ_points": row.civ_points,
        "public_points": row.public_points,
    }


def _final(state: State) -> list[dict[str, Any]] | None:
    """§35.1 at the end: every part of every seat's score (the hands count now, and only now)."""
    if state.phase != "over":
        return None
    scores = [final_score(state, seat) for seat in range(len(state.players))]
    places = scoring.places([score.total for score in scores])
    return [
        {
            "seat": seat,
            "civ_cards": score.civ_cards,
            "trade_cards": score.trade_cards,
            "treasury": score.treasury,
            "ast": score.ast,
            "cities": score.cities,
            "total": score.total,
            "place": places[seat],
        }
        for seat, score in enumerate(scores)
    ]


def _nation(state: State, seat: int) -> dict[str, Any]:
    nation = state.players[seat]
    return {
        "seat": seat,
        "nation": nation.nation,
        "colour": BOARD.nation_info[nation.nation].colour,
        "stock": nation.stock,
        "treasury": nation.treasury,
        "tokens": nation.board_tokens(),
        "token_total": nation.token_total,
        "cities": state.city_count(seat),
        "cities_in_stock": CITIES - state.city_count(seat),
        "ships": len(nation.ships),
        "ships_in_stock": SHIPS - len(nation.ships),
        "census": nation.census,
        "ast": nation.ast,
        "epoch": EPOCHS[epoch_of(nation.nation, nation.ast)],
        "cards": sorted(nation.cards),
    }


def _areas(state: State) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for area, owner in enumerate(state.cities):
        if owner != NOBODY:
            _units(found, area)[state.players[owner].nation] = {"tokens": 0, "city": True}
    for nation in state.players:
        for area, count in enumerate(nation.tokens):
            if count:
                units = _units(found, area)
                units.setdefault(nation.nation, {"tokens": 0, "city": False})["tokens"] = count
        for area in nation.ships:
            ships = found.setdefault(KEYS[area], {"units": {}, "ships": {}})["ships"]
            ships[nation.nation] = ships.get(nation.nation, 0) + 1
    return found


def _units(found: dict[str, Any], area: int) -> dict[str, Any]:
    units: dict[str, Any] = found.setdefault(KEYS[area], {"units": {}, "ships": {}})["units"]
    return units


def _revolt(state: State) -> dict[str, Any] | None:
    if state.phase != "revolt" or not state.revolts:
        return None
    victim, count, ranking = state.revolts[0]
    return {
        "victim": victim,
        "count": count,
        "beneficiaries": list(ranking),
        "chooser": flow.revolt_chooser(state),
    }


def _trade(state: State, me: int | None) -> dict[str, Any]:
    """§27.4: a hand is its holder's alone; its size is public (check file, O3 and case 15). The stacks'
    counts and the depth of their non-tradable calamities only as the game's options allow (F-F7, F-F8)."""
    options = state.trade_options()
    return {
        "hand": _hand(state, me, state.hands[me]) if me is not None else None,
        "hand_sizes": [len(held) for held in state.hands],
        "stacks": [
            {"stack": shown.stack, "cards": shown.cards, "calamity_depth": _depth(shown.calamity_depth)}
            for shown in trade_cards.public_stacks(state.deck, options)
        ],
        "discard": len(state.discard),
        "options": options.model_dump(),
    }


def _depth(depth: tuple[int, ...] | None) -> list[int] | None:
    return list(depth) if depth is not None else None


def _hand(state: State, me: int, hand: tuple[str, ...]) -> dict[str, Any]:
    mining = cards.MINING in state.players[me].cards
    counts = Counter(hand)
    groups = [
        {
            "card": commodity.key,
            "name": commodity.name,
            "stack": commodity.stack,
            "count": counts[commodity.key],
            "value": trade_cards.set_value(commodity.key, counts[commodity.key]),
        }
        for commodity in trade_cards.COMMODITY_LIST
        if counts[commodity.key]
    ]
    held = [
        {"card": c.key, "name": c.name, "stack": c.stack, "tradable": c.tradable, "section": c.section}
        for c in trade_cards.CALAMITY_LIST
        if c.key in counts
    ]
    return {
        "cards": sorted(hand, key=lambda card: (trade_cards.stack_of(card), card)),
        "commodities": groups,
        "calamities": held,
        "value": trade_cards.hand_value(hand, mining=mining),
    }


def _calamity(state: State) -> dict[str, Any] | None:
    """Phase 11 (public from the reveal on): the queue (only its head with F-F9), the one being resolved,
    who must answer and the kind of question; Slave Revolt's tokens that support no city."""
    if state.phase not in ("calamity", "calamity_support"):
        return None
    queue = [
        {
            "card": card,
            **_calamity_text(card),
            "seat": seat,
            "traded_by": None if trader == NOBODY else trader,
        }
        for card, seat, trader in state.calamities
    ]
    shown = queue[:1] if state.trade_options().hide_upcoming_calamities else queue
    active = None
    if state.phase == "calamity" and state.calamities:
        found = resolving.progress(state)
        if isinstance(found, resolving.Question):
            active = {
                **queue[0],
                "secondary": list(found.resolution.secondary),
                "chooser": found.seat,
                "question": found.kind,
            }
    return {
        "queue": shown,
        "upcoming": len(queue),
        "active": active,
        "unsupporting": list(state.unsupporting),
    }


def _calamity_text(card: str) -> dict[str, str]:
    found = trade_cards.CALAMITIES.get(card)
    if found is None:  # Monotheism's conversion (§32.94) goes through the same queue
        return {"name": "Monotheism", "section": "32.94"}
    return {"name": found.name, "section": found.section}


def _my_moves(state: State, me: int | None) -> list[dict[str, Any]]:
    if me is None or state.phase != "move" or not state.moves:
        return []
    return [moving.to_json(move) for move in state.moves[me]]
