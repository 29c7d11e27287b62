"""What one seat (or a spectator, `seat=None`) may see: JSON for the map page.

Public (§27.4: everything but trade cards in hand): the map, every nation's stock, treasury, cities and
ships in and out of stock, census, A.S.T. position and civ cards, the census order, who is awaited, the
revolts and pillage being decided. Private to its seat until the phase resolves: the moves entered and not
finalised (`my_moves`), a tax rate chosen, whether it said "done unless threatened". Never shown: the
generator state.

Shape:
    phase, turn, over, end
    skipped_phases   {"phases": [9, 10, 11, 12], "reason": "..."}: phases this part of the game skips
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
    card_draws       [attacker, victim] trade cards owed by city attacks (drawn in part 2)
    legal            the viewer's `Legal` (phase, prompt, orders, choices, default) plus its `context`
    my_moves         the viewer's moves entered and not finalised (never anyone else's)
"""

from __future__ import annotations

from typing import Any

from app.games.advciv import cards, flow, moving
from app.games.advciv.board import BOARD
from app.games.advciv.model import CITIES, NOBODY, SHIPS, State
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
        "skipped_phases": {"phases": list(flow.SKIPPED_PHASES), "reason": flow.SKIPPED_REASON},
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
        "card_draws": [list(draw) for draw in state.card_draws],
        "legal": {**legal.to_json(), "context": legal.context} if legal is not None else None,
        "my_moves": _my_moves(state, me),
        "scores": [public_score(state, index) for index in range(len(state.players))],
    }


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


def _my_moves(state: State, me: int | None) -> list[dict[str, Any]]:
    if me is None or state.phase != "move" or not state.moves:
        return []
    return [moving.to_json(move) for move in state.moves[me]]


def public_score(state: State, seat: int) -> int:
    """§35.1 without the trade cards in hand: civ cards' face value, treasury, 100 per A.S.T. space and 50
    per city on the board (the site's "Total Public Points")."""
    nation = state.players[seat]
    return cards.face_value(nation.cards) + nation.treasury + 100 * nation.ast + 50 * state.city_count(seat)
