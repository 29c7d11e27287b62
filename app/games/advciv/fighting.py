"""Phase 6 on the state: which areas are in conflict and in which order (the site's), and each area's
fight (`conflict.resolve`) carried out on the seats' tokens, cities, stock and treasury, the barbarians
and the pirate cities; a player who destroys a city draws a trade card at random from its owner's hand
at once (§24.51)."""

from __future__ import annotations

from app.games.advciv import conflict
from app.games.advciv.model import NOBODY, State
from app.games.advciv.tables import KEYS, LAND, LIMITS
from app.games.advciv.tx import Tx
from app.games.kit.model import replaced


def forces(state: State, area: int) -> list[conflict.Force]:
    """The nations with units in `area`, in seat order, then barbarians and pirates."""
    found = []
    for seat, nation in enumerate(state.players):
        city = state.cities[area] == seat
        if nation.tokens[area] or city:
            found.append(conflict.Force(nation.nation, nation.tokens[area], city, nation.cards, nation.stock))
    if area in state.foreign():
        if barbarians := state.barbarians_in(area):
            found.append(conflict.Force(conflict.BARBARIANS, barbarians))
        if area in state.pirates:
            found.append(conflict.Force(conflict.PIRATES, 0, city=True))
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
    for area in state.foreign():
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
    card taken (§24.51)."""
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
        if force.nation in seats:
            seat = seats[force.nation]
            tx.place(seat, area, result.left(force.nation) - tx.player(seat).tokens[area])
    _foreign_after(tx, area, result)
    for pending in result.pending:
        tx.set(pillage=(seats[pending.nation], pending.default))
    for need in result.needs:
        take_card(tx, seats[need.nation], seats[need.victim])
    lost_city = owner != NOBODY and 0 <= owner < len(state.players) and tx.state.cities[area] != owner
    tx.emit(
        "conflict",
        mail_to=[owner] if lost_city else [],
        news="city_lost",
        area=KEYS[area],
        losses={_who(seats, nation): count for nation, count in result.losses if count},
        city_destroyed=result.city_destroyed,
        attacker=seats.get(result.attacker) if result.attacker else None,
        replacement=result.replacement,
    )


def _who(seats: dict[str, int], nation: str) -> str:
    return str(seats[nation]) if nation in seats else nation


def _foreign_after(tx: Tx, area: int, result: conflict.Result) -> None:
    """Barbarians left after the fight stay; a pirate city destroyed is gone (its tokens too, §24.34)."""
    state = tx.state
    if area not in state.foreign():
        return
    barbarians = {where: count for where, count in state.barbarians if where != area}
    if left := result.left(conflict.BARBARIANS):
        barbarians[area] = left
    pirates = (
        state.pirates if result.city == conflict.PIRATES else tuple(a for a in state.pirates if a != area)
    )
    tx.set(barbarians=tuple(sorted(barbarians.items())), pirates=pirates)


def take_card(tx: Tx, attacker: int, victim: int) -> None:
    """§24.51: one card at random from the victim's hand, if it holds any; only the two see which."""
    hand = tx.state.hands[victim]
    if not hand:
        return
    card = hand[tx.randbelow(len(hand))]
    left = list(hand)
    left.remove(card)
    hands = replaced(tx.state.hands, victim, tuple(left))
    traded = tuple(entry for entry in tx.state.traded if entry[0] != card)  # taken, not traded
    tx.set(hands=replaced(hands, attacker, (*hands[attacker], card)), traded=traded)
    tx.emit("card_taken", attacker=attacker, victim=victim)
    tx.emit("card_received", to=(attacker, victim), attacker=attacker, victim=victim, card=card)
