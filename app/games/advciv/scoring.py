"""The end of the game and the score (§34, §35, site 1.D and F-U).

The game ends after the turn in which a marker enters the A.S.T.'s finish space, or at the end of the
last turn agreed beforehand (§34.1 A, B; §34.2: the last turn is always completed). The score (§35.1)
adds the civ cards' printed values, the trade cards in hand (sets as §28.51, single cards at face value,
Mining's extra card unless it paid for civ cards that turn), the treasury, 100 per A.S.T. space and 50
per city on the board. Everything but the hand is public: the site's "Total Public Points", the column
its points table is sorted by (F-U2–F-U4). Equal totals share a place: a draw (§35.2).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from app.games.advciv import cards as civ
from app.games.advciv import trade_cards as tc
from app.games.advciv.tables import AST_RANK, FINISH

AST_SPACE_POINTS: Final = 100  # §35.1 D
CITY_POINTS: Final = 50  # §35.1 E
FINISHED: Final = "finish"
LAST_TURN: Final = "last_turn"


def end_reason(ast_spaces: Iterable[int], turn: int, last_turn: int | None = None) -> str | None:
    """§34.1, checked once phase 13 has moved the markers: `FINISHED` if a marker stands on the finish
    space, `LAST_TURN` if the turn agreed beforehand has been played, else None."""
    if any(space >= FINISH for space in ast_spaces):
        return FINISHED
    if last_turn is not None and turn >= last_turn:
        return LAST_TURN
    return None


@dataclass(frozen=True, slots=True)
class Score:
    civ_cards: int  # §35.1 A: printed values, credits not deducted
    trade_cards: int  # §35.1 B
    treasury: int  # §35.1 C
    ast: int  # §35.1 D
    cities: int  # §35.1 E

    @property
    def public(self) -> int:
        """The site's "Total Public Points": everything but the hand."""
        return self.civ_cards + self.treasury + self.ast + self.cities

    @property
    def total(self) -> int:
        return self.public + self.trade_cards


def score(
    held: civ.Cards,
    hand: Sequence[str],
    *,
    treasury: int,
    ast_space: int,
    cities: int,
    mining_used: bool = False,
) -> Score:
    """§35.1 for one player. `mining_used`: Mining raised a set paid for civ cards this (last) turn, so
    it does not raise the hand again (§32.261, check file case 16)."""
    mining = civ.MINING in held and not mining_used
    return Score(
        civ.face_value(held),
        tc.hand_value(hand, mining=mining),
        treasury,
        AST_SPACE_POINTS * ast_space,
        CITY_POINTS * cities,
    )


def public_points(held: civ.Cards, *, treasury: int, ast_space: int, cities: int) -> int:
    return score(held, (), treasury=treasury, ast_space=ast_space, cities=cities).public


def places(totals: Sequence[int]) -> tuple[int, ...]:
    """Per seat, 1 + the number of players with a strictly higher total: equal totals share a place."""
    return tuple(1 + sum(other > mine for other in totals) for mine in totals)


@dataclass(frozen=True, slots=True)
class PublicFacts:
    seat: int
    nation: str
    cities: int
    ast_space: int
    treasury: int
    held: civ.Cards


@dataclass(frozen=True, slots=True)
class PointsRow:
    seat: int
    nation: str
    cities: int
    ast_space: int
    treasury: int
    civ_cards: int  # how many
    civ_points: int  # "Points d'avancement Civ": printed values, what Late Iron spaces read (F-U3)
    public_points: int  # "Total de Points publics" (F-U4)


def points_table(players: Iterable[PublicFacts]) -> tuple[PointsRow, ...]:
    """The A.S.T. page's summary and the foot of the e-mails (F-U2, F-O6): one row per player, sorted by
    Total Public Points, highest first, equal totals in A.S.T. order (§17.4)."""
    rows = [
        PointsRow(
            p.seat,
            p.nation,
            p.cities,
            p.ast_space,
            p.treasury,
            len(p.held),
            civ.face_value(p.held),
            public_points(p.held, treasury=p.treasury, ast_space=p.ast_space, cities=p.cities),
        )
        for p in players
    ]
    return tuple(sorted(rows, key=lambda row: (-row.public_points, AST_RANK[row.nation])))
