"""Phase 6 on the state: which areas are in conflict and in which order (the site's), and each area's
fight (`conflict.resolve`) carried out on the seats' tokens, cities, stock and treasury."""

from __future__ import annotations

from app.games.advciv import conflict
from app.games.advciv.model import NOBODY, State
from app.games.advciv.tables import KEYS, LAND, LIMITS
from app.games.advciv.tx import Tx


def forces(state: State, area: int) -> list[conflict.Force]:
    """The nations with units in `area`, in seat order."""
    found = []
    for seat, nation in enumerate(state.players):
        city = state.cities[area] == seat
        if nation.tokens[area] or city:
            found.append(conflict.Force(nation.nation, nation.tokens[area], city, nation.cards, nation.stock))
    return found


def order_conflicts(tx: Tx) -> tuple[int, ...]:
    """The areas in conflict after movement, in the site's order; ties drawn from the game's generator."""
    state = tx.state
    presence: dict[int, int] = {}
    for area, owner in enumerate(state.cities):
        if owner != NOBODY:
            presence[area] = 1
    for nation in state.players:
        for area in nation.occupied():
            presence[area] = presence.get(area, 0) + 1
    found = {
        area: units
        for area, present in sorted(presence.items())
        if present > 1 and LAND[area] and conflict.in_conflict(units := forces(state, area), LIMITS[area])
    }
    if not found:
        return ()
    shuffled = tx.shuffle(sorted(found))
    return conflict.conflict_order(found, {area: rank for rank, area in enumerate(shuffled)})


def resolve(tx: Tx, area: int) -> None:
    """One area's conflict: tokens removed, a city replaced, the pillage left to the attacker, the trade
    card owed recorded for part 2 (§24.51)."""
    state = tx.state
    units = forces(state, area)
    if not conflict.in_conflict(units, LIMITS[area]):
        return
    seats = {nation.nation: seat for seat, nation in enumerate(state.players)}
    result = conflict.resolve(area, units, LIMITS[area])
    owner = state.cities[area]
    if owner != NOBODY and result.city is None:
        tx.set_city(area, NOBODY)
    for force in units:
        seat = seats[force.nation]
        tx.place(seat, area, result.left(force.nation) - tx.player(seat).tokens[area])
    for pending in result.pending:
        tx.set(pillage=(seats[pending.nation], pending.default))
    for need in result.needs:
        tx.set(card_draws=(*tx.state.card_draws, (seats[need.nation], seats[need.victim])))
    tx.emit(
        "conflict",
        area=KEYS[area],
        losses={str(seats[nation]): count for nation, count in result.losses if count},
        city_destroyed=result.city_destroyed,
        attacker=seats[result.attacker] if result.attacker else None,
        replacement=result.replacement,
    )
