"""The position summary of an open seat, shown before a replacement takes it.

It is what a spectator may see of the game (the rules' public view and the public log) plus that seat's
public standing: its number and drafted choice, who held it and how they left, whether the game is
waiting on it and until when, and what the rules' optional `seat_summary(state, seat) -> dict` says of it
(public facts only: the rules get no viewer). Nothing of the seat's hidden information is shown: that
comes with the seat, to whoever takes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.games import registry
from app.models import Game, Seat, WaitRow
from app.models.records import UserFacts
from app.services.errors import ServiceError
from app.services.play import play, seats
from app.services.players import matchmaking, ratings
from app.services.players.matchmaking import Obstacle
from app.services.social import open_games


@dataclass(frozen=True)
class SeatSummary:
    view: play.GameView  # the spectator's view
    seat: int
    choice: str | None  # the seat's drafted choice (a nation), if the game had a draft
    opened_at: datetime | None
    holders: list[seats.TenureInfo]
    awaited: WaitRow | None
    standing: dict[str, Any]
    offered_to_you: bool
    reserved: bool
    obstacles: list[Obstacle]


def seat_summary(
    session: Session, game_id: int, number: int, viewer: UserFacts | None, now: datetime
) -> SeatSummary:
    game = play.get_game(session, game_id)
    seat = next((s for s in game.seats if s.number == number), None)
    if seat is None or game.status != "active" or seat.status != "open":
        raise ServiceError("not_found", "This seat is not waiting for a replacement.")
    offered = viewer is not None and seat.offered_to == viewer.id
    return SeatSummary(
        view=play.game_view(session, game_id, None),
        seat=number,
        choice=_drafted(game, number),
        opened_at=seat.opened_at,
        holders=[row for row in seats.history(session, game) if row.seat == number],
        awaited=session.scalar(select(WaitRow).where(WaitRow.game_id == game.id, WaitRow.seat == number)),
        standing=_standing(game, number),
        offered_to_you=offered,
        reserved=seats.is_reserved(seat, now) and not offered,
        obstacles=_obstacles(session, game, seat, viewer) if viewer else [],
    )


def _drafted(game: Game, number: int) -> str | None:
    key = ratings.seat_key(game, number)
    return None if key.startswith("seat:") else key


def _standing(game: Game, number: int) -> dict[str, Any]:
    rules = registry.get(game.game_type)
    hook = getattr(rules, "seat_summary", None)
    if hook is None or game.state is None:
        return {}
    return dict(hook(rules.load(game.state), number))


def _obstacles(session: Session, game: Game, seat: Seat, viewer: UserFacts) -> list[Obstacle]:
    standing = matchmaking.standing_of(session, viewer.id)
    members = matchmaking.members_of(game)
    gate = None if seat.offered_to == viewer.id else game.min_reliability
    found = standing.obstacles(members, gate, matchmaking.names_of(session, standing.capped))
    if game.id in open_games.games_played(session, viewer.id, [game.id]):
        found.append(Obstacle("played"))
    return found
