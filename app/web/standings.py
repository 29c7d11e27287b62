"""The end of a game as players read it, on the page and in mails alike: who won, each seat's place
(ties shown as ties), the score as the game counts it (3, not 3.0), and where the game moved each player
in the ranking (ranks only: the ratings' numbers are never shown)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.services.players.ratings import RankMove


@dataclass(frozen=True)
class Place:
    place: int
    tied: bool  # another seat has the same place
    seat: int
    name: str | None
    score: str
    move: RankMove | None = None


def score_text(score: float | int) -> str:
    return str(int(score)) if float(score).is_integer() else f"{score:g}"


def final_places(
    standings: Iterable[Mapping[str, Any]] | None,
    names: Sequence[str | None],
    moves: Mapping[int, RankMove] | None = None,
) -> list[Place]:
    """`standings` as stored (seat, place, score), best first; `names` the seats' players; `moves` the
    ranking moves by seat number."""
    rows = sorted(standings or [], key=lambda row: (row["place"], row["seat"]))
    shared = Counter(row["place"] for row in rows)
    return [
        Place(
            place=row["place"],
            tied=shared[row["place"]] > 1,
            seat=row["seat"],
            name=names[row["seat"]] if row["seat"] < len(names) else None,
            score=score_text(row["score"]),
            move=(moves or {}).get(row["seat"]),
        )
        for row in rows
    ]
