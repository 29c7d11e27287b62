"""Public notices in a game's log: what the platform itself did (an outage, an eviction, a new player)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Game, GameEvent, Notification


def public_notice(session: Session, game: Game, kind: str, data: dict[str, Any], now: datetime) -> None:
    """Append an event every viewer of the game may see; it belongs to no order."""
    last = session.scalar(select(func.max(GameEvent.seq)).where(GameEvent.game_id == game.id)) or 0
    session.add(
        GameEvent(
            game_id=game.id,
            seq=last + 1,
            order_seq=None,
            kind=kind,
            data=data,
            visible_to=None,
            created_at=now,
        )
    )
    session.flush()


def notify_players(
    session: Session,
    game: Game,
    kind: str,
    data: dict[str, Any],
    *,
    skip: int | None = None,
    told: set[int] | None = None,
) -> None:
    """A notification row for every player holding a seat (but `skip`, and those in `told`, which gets the
    players told here: news about several games at once reaches each player once)."""
    for seat in game.seats:
        if seat.user_id is None or seat.status != "playing" or seat.user_id == skip:
            continue
        if told is not None:
            if seat.user_id in told:
                continue
            told.add(seat.user_id)
        session.add(Notification(user_id=seat.user_id, game_id=game.id, kind=kind, data=data))
