"""Phase 6: the scoring after each kingdom (rules 3.1, "Phase 6"), the bonus cards' conditions and the
final standings."""

from __future__ import annotations

from app.games.amunre import cards
from app.games.amunre.board import BOARD
from app.games.amunre.model import ScoreLine, State
from app.games.amunre.tx import farmers_in

SET_POINTS = 3
SIDE_POINTS = 5
BONUS_POINTS = 3
GOLD_POINTS = (6, 4, 2)
CARD_BONUS_SYMBOLS = 7
FARMER_BONUS_FARMERS = 9


def pyramids_of(state: State, seat: int) -> int:
    return sum(state.provinces[index].pyramid_count for index in state.owned(seat))


def blocks_of(state: State, seat: int) -> int:
    return sum(state.provinces[index].blocks for index in state.owned(seat))


def side_winners(state: State, side: str) -> set[int]:
    """Owners of the province with the most pyramids on that side of the Nile (then the most blocks;
    still tied, all of them). None when no province there has a pyramid."""
    ranked = [
        ((province.pyramid_count, province.blocks), province.owner)
        for index, province in enumerate(state.provinces)
        if province.owner is not None and BOARD.provinces[index].side == side and province.pyramid_count
    ]
    if not ranked:
        return set()
    best = max(key for key, _ in ranked)
    return {owner for key, owner in ranked if key == best and owner is not None}


def automatic_lines(state: State) -> tuple[ScoreLine, ...]:
    """Parts 1 to 4 of the scoring, for every seat."""
    points = BOARD.temple_points[state.temple - 1] if state.temple else 0
    winners = [side_winners(state, side) for side in ("east", "west")]
    lines = []
    for seat in range(len(state.players)):
        owned = state.owned(seat)
        counts = [state.provinces[index].pyramid_count for index in owned]
        lines.append(
            ScoreLine(
                seat=seat,
                pyramids=sum(counts),
                sets=SET_POINTS * min(counts) if len(counts) == 3 else 0,
                sides=SIDE_POINTS * sum(seat in found for found in winners),
                temples=points * sum(BOARD.provinces[index].temples for index in owned),
            )
        )
    return tuple(lines)


def bonus_holds(state: State, seat: int, card: str) -> bool:
    """Whether a bonus card's condition holds for the seat's provinces now."""
    owned = [BOARD.provinces[index] for index in state.owned(seat)]
    if len(owned) != 3:
        return False
    if card == cards.CARD_BONUS:
        return sum(province.card_limit for province in owned) >= CARD_BONUS_SYMBOLS
    if card == cards.FARMER_BONUS:
        return sum(farmers_in(state, province.index) for province in owned) >= FARMER_BONUS_FARMERS
    if card == cards.EGYPT_BONUS:
        return len({province.egypt for province in owned}) == 1
    if card == cards.SIDE_BONUS:
        return len({province.side for province in owned}) == 1
    if card == cards.NILE_BONUS:
        return len({province.nile_bank for province in owned}) == 1
    return False


def gold_points(gold: list[int]) -> list[int]:
    """6, 4 and 2 points for the three richest; tied players all score their rank, and the ranks they
    share after the first are void (two tied first: 6 each, the next 2)."""
    result = []
    for mine in gold:
        richer = sum(1 for other in gold if other > mine)
        result.append(GOLD_POINTS[richer] if richer < len(GOLD_POINTS) else 0)
    return result


def places(state: State) -> list[tuple[int, int]]:
    """(seat, place) by points, then pyramids, then blocks: a tie-break from a tournament report (WBC
    2019), not from the rulebook's text (see docs/amunre.md)."""
    keys = {
        seat: (player.points, pyramids_of(state, seat), blocks_of(state, seat))
        for seat, player in enumerate(state.players)
    }
    return [
        (seat, 1 + sum(1 for other in keys.values() if other > keys[seat]))
        for seat in sorted(keys, key=lambda s: (tuple(-k for k in keys[s]), s))
    ]


def cards_value(state: State, seat: int) -> int:
    return cards.value(state.players[seat].gold)
