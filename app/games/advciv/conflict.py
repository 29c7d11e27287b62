"""Conflict (§24): which areas fight, in which order, and how one area's fight ends.

Pure functions over one area's forces after movement. `resolve` is deterministic: tokens are
interchangeable, so no player chooses anything while tokens are removed. What is left to a player comes
back as `Pending` (the pillage amount, §24.52); what part 2 must do as a `Need` (the trade card drawn at
random from the victim's hand, §24.51). Barbarians and pirates are nations that hold no cards, never
choose, never pillage and are never robbed of a card.

The rules as read (see docs/advciv.md, "Movement and conflict"):
- a conflict needs units of two nations or more and more tokens than the limit; a city makes its area
  full, so any foreign token in it is a conflict (§24.1);
- tokens are removed one at a time, in turn, the fewest first; equal forces remove together; Metalworking
  holders after non-holders; the order is fixed when the fight starts (each turn every side loses one, so
  it never changes); the fight stops when one nation is left or the total is within the limit (§24.2);
- in a city's area every token fights first, until one nation's tokens are left (§24.33, §24.41); if
  they are an outsider's and enough (7, Engineering 6/8), the city is replaced by the defender's tokens
  from stock (6, Engineering 5/7) and those fight as in any area, so coexistence may follow (§24.32); if
  not enough, they are removed (§24.31);
- the city is lost when it is replaced: the card and the pillage are due then, whatever the fight that
  follows (§24.5; check file, case 8); a pirate city gives pillage but no card and its surviving tokens
  are removed (§24.34, §24.53); barbarians take neither.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from app.games.advciv.cards import Cards, city_attack_tokens, city_replacement_tokens, removes_last

BARBARIANS: Final = "barbarians"
PIRATES: Final = "pirates"
NON_PLAYERS: Final = frozenset({BARBARIANS, PIRATES})
PILLAGE_MAX: Final = 3  # tokens a successful attacker may move from stock to treasury (§24.52)


@dataclass(frozen=True, slots=True)
class Force:
    """One nation's units in the area. `stock` is its tokens in stock (the city's replacement, §24.32,
    and the pillage limit, §24.52); barbarians and pirates draw on the unused nations' pieces."""

    nation: str
    tokens: int = 0
    city: bool = False
    cards: Cards = frozenset()
    stock: int = 0


@dataclass(frozen=True, slots=True)
class Pending:
    """A choice left to a player; `default` is the site's answer at timeout."""

    kind: Literal["pillage"]
    nation: str
    area: int
    options: tuple[int, ...]
    default: int


@dataclass(frozen=True, slots=True)
class Need:
    """Work for another part of the rules: `card_taken` = the attacker draws one random trade card from
    the victim's hand, if it holds any (§24.51; part 2 owns the hands)."""

    kind: Literal["card_taken"]
    nation: str
    victim: str
    area: int


@dataclass(frozen=True, slots=True)
class Result:
    area: int
    tokens: tuple[tuple[str, int], ...]  # tokens left per nation (none listed at 0), in input order
    city: str | None  # the nation whose city stands after the conflict
    attacker: str | None  # the nation that attacked the city (enough tokens survived), if any
    replacement: int  # tokens the defender took from its stock to replace its city
    losses: tuple[tuple[str, int], ...]  # tokens each nation put back in stock (replacements included)
    steps: tuple[tuple[str, ...], ...]  # each removal: the nations that removed one token together
    pending: tuple[Pending, ...] = ()
    needs: tuple[Need, ...] = ()

    @property
    def city_destroyed(self) -> bool:
        return self.attacker is not None

    def left(self, nation: str) -> int:
        return dict(self.tokens).get(nation, 0)

    def lost(self, nation: str) -> int:
        return dict(self.losses).get(nation, 0)


def in_conflict(forces: Sequence[Force], limit: int) -> bool:
    """§24.1: units of two nations or more, and more tokens than the limit (a city makes the area full:
    any token of another nation in a city's area is a conflict)."""
    present = [force for force in forces if force.tokens > 0 or force.city]
    if len(present) < 2:
        return False
    if any(force.city for force in present):
        return True
    return sum(force.tokens for force in present) > limit


def resolve(area: int, forces: Sequence[Force], limit: int) -> Result:
    """One area's conflict, from the forces present after movement (and any conflict resolved before)."""
    _check(forces)
    by_nation = {force.nation: force for force in forces}
    counts = {force.nation: force.tokens for force in forces}
    owner = next((force.nation for force in forces if force.city), None)
    steps: list[tuple[str, ...]] = []
    if owner is None:
        steps += _fight(counts, by_nation, _within(limit))
        return _result(area, forces, counts, owner, steps)
    steps += _fight(counts, by_nation, _one_nation_left)
    survivor = next((nation for nation, count in counts.items() if count > 0), None)
    if survivor is None or survivor == owner:
        return _result(area, forces, counts, owner, steps)
    attacker, defender = by_nation[survivor], by_nation[owner]
    if counts[survivor] < city_attack_tokens(_held(attacker), _held(defender)):
        counts[survivor] = 0  # §24.31: too few to touch the city
        return _result(area, forces, counts, owner, steps)
    wanted = city_replacement_tokens(_held(attacker), _held(defender))
    # the defending tokens already removed are back in stock (§24.12) and may replace the city
    replacement = wanted if owner in NON_PLAYERS else min(wanted, defender.stock + defender.tokens)
    counts[owner] = replacement
    steps += _fight(counts, by_nation, _within(limit))
    if owner == PIRATES:
        counts[owner] = 0  # §24.34: the pirate tokens only serve the fight
    result = _result(area, forces, counts, None, steps, attacker=survivor, replacement=replacement)
    return _with_spoils(result, attacker, owner)


def conflict_order(
    conflicts: Mapping[int, Sequence[Force]], tie_rank: Mapping[int, int] | None = None
) -> tuple[int, ...]:
    """The site's fixed order of the areas in conflict: those with barbarians or pirates; those without a
    city; cities with defending tokens, most defenders first, then most attackers; cities without
    defenders, most attackers first. Ties go by `tie_rank` (area → rank, drawn by the caller from the
    game's seeded generator: the site's "pseudo-random"), else by area index."""
    ranks = tie_rank or {}

    def key(area: int) -> tuple[int, int, int, int]:
        forces = conflicts[area]
        owner = next((force for force in forces if force.city), None)
        attackers = sum(force.tokens for force in forces if force is not owner)
        tie = ranks.get(area, area)
        if any(force.nation in NON_PLAYERS and (force.tokens or force.city) for force in forces):
            return (0, 0, 0, tie)
        if owner is None:
            return (1, 0, 0, tie)
        if owner.tokens:
            return (2, -owner.tokens, -attackers, tie)
        return (3, 0, -attackers, tie)

    return tuple(sorted(conflicts, key=lambda area: (key(area), area)))


def pillage_limit(stock: int) -> int:
    """§24.52: up to 3 tokens, no more than the attacker's stock holds."""
    return max(0, min(PILLAGE_MAX, stock))


# --- the fight ----------------------------------------------------------------------------------------

Ended = Callable[[Mapping[str, int]], bool]


def _within(limit: int) -> Ended:
    return lambda counts: _one_nation_left(counts) or sum(counts.values()) <= limit


def _one_nation_left(counts: Mapping[str, int]) -> bool:
    return sum(1 for count in counts.values() if count > 0) <= 1


def _fight(counts: dict[str, int], forces: Mapping[str, Force], ended: Ended) -> list[tuple[str, ...]]:
    """§24.21–24.24: removes tokens in `counts` until `ended`; returns who removed at each step."""
    steps: list[tuple[str, ...]] = []
    groups = _removal_groups(counts, forces)
    while not ended(counts):
        for group in groups:
            removing = tuple(nation for nation in group if counts[nation] > 0)
            if not removing:
                continue
            for nation in removing:
                counts[nation] -= 1
            steps.append(removing)
            if ended(counts):
                break
    return steps


def _removal_groups(counts: Mapping[str, int], forces: Mapping[str, Force]) -> list[tuple[str, ...]]:
    """Fewest tokens first, Metalworking holders after the rest; equal standing removes together."""
    standing: dict[tuple[bool, int], list[str]] = {}
    for nation, count in counts.items():
        if count > 0:
            standing.setdefault((removes_last(_held(forces[nation])), count), []).append(nation)
    return [tuple(standing[key]) for key in sorted(standing)]


# --- results ------------------------------------------------------------------------------------------


def _held(force: Force) -> Cards:
    """Barbarians and pirates have none of their pieces' nation's cards (§30.5242)."""
    return frozenset() if force.nation in NON_PLAYERS else force.cards


def _check(forces: Sequence[Force]) -> None:
    nations = [force.nation for force in forces]
    if len(set(nations)) != len(nations):
        raise ValueError(f"a nation appears twice: {nations}")
    if sum(force.city for force in forces) > 1:
        raise ValueError("at most one city stands in an area")
    if any(force.tokens < 0 or force.stock < 0 for force in forces):
        raise ValueError("negative tokens or stock")


def _result(
    area: int,
    forces: Sequence[Force],
    counts: Mapping[str, int],
    city: str | None,
    steps: list[tuple[str, ...]],
    *,
    attacker: str | None = None,
    replacement: int = 0,
) -> Result:
    losses = []
    for force in forces:
        start = force.tokens + (replacement if force.city else 0)
        if start > counts[force.nation]:
            losses.append((force.nation, start - counts[force.nation]))
    return Result(
        area=area,
        tokens=tuple((force.nation, counts[force.nation]) for force in forces if counts[force.nation] > 0),
        city=city,
        attacker=attacker,
        replacement=replacement,
        losses=tuple(losses),
        steps=tuple(steps),
    )


def _with_spoils(result: Result, attacker: Force, owner: str) -> Result:
    """§24.51–24.53: a player who destroys a city pillages (a pirate city too) and draws a card (not
    from pirates); barbarians do neither."""
    if attacker.nation in NON_PLAYERS:
        return result
    most = pillage_limit(attacker.stock + result.lost(attacker.nation))
    pending = (
        (Pending("pillage", attacker.nation, result.area, tuple(range(most + 1)), most),) if most else ()
    )
    needs = () if owner in NON_PLAYERS else (Need("card_taken", attacker.nation, owner, result.area),)
    return replace(result, pending=pending, needs=needs)
