"""Players and games for the lobby's tests, at an injected time, through the services."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Game, Seat, User
from app.services.errors import ServiceError
from app.services.jobs import sweeper
from app.services.play import play
from app.services.social import lobby
from tests.clock_service.factory import HOUR, NOW, game, make_users, running_game, seat_of
from tests.lobby import draftgame  # noqa: F401  (registers the game with a draft)

__all__ = [
    "HOUR",
    "NOW",
    "finish",
    "forming_game",
    "game",
    "make_users",
    "members",
    "refused",
    "running_game",
    "seat_of",
    "user_at",
]


def forming_game(session: Session, users: Sequence[User], players: int = 4, limit_hours: int = 24) -> int:
    """An open fake game made by users[0], with the others joined (not full)."""
    made = lobby.create_game(
        session, users[0], game_type="fake", players=players, time_limit_hours=limit_hours, now=NOW
    )
    for user in users[1:]:
        lobby.join_game(session, user, made.id, NOW)
    return made.id


def members(session: Session, game_id: int) -> set[int]:
    rows = session.scalars(select(Seat.user_id).where(Seat.game_id == game_id, Seat.status == "playing"))
    found = {user_id for user_id in rows if user_id is not None}
    session.commit()
    return found


def user_at(session: Session, game_id: int, number: int) -> User:
    user_id = session.scalar(select(Seat.user_id).where(Seat.game_id == game_id, Seat.number == number))
    user = session.get(User, user_id)
    assert user is not None
    return user


def refused(session: Session, code: str, action: object) -> ServiceError:
    """`action()` raises a ServiceError with `code`; what it wrote is rolled back."""
    assert callable(action)
    with pytest.raises(ServiceError) as caught:
        action()
    session.rollback()
    assert caught.value.code == code, caught.value.message
    return caught.value


def finish(session: Session, game_id: int, winner: User | None = None, start: timedelta = HOUR) -> Game:
    """Play a fake game to its end (target 8): `winner` (else whoever chooses) takes every pot; an open
    seat plays its default order, as at a timeout."""
    now = NOW + start
    for _ in range(200):
        found = play.get_game(session, game_id)
        if found.status == "finished":
            session.commit()  # ends the read (SQLite: frees the writer lock)
            return found
        holders = {s.number: s.user_id for s in found.seats if s.status == "playing"}
        if winner is not None and winner.id not in holders.values():
            winner = None
        wait = play.game_view(session, game_id, None, with_log=False).waits[0]
        holder_id = holders.get(wait.seat)
        holder = session.get(User, holder_id) if holder_id is not None else None
        if holder is None:
            sweeper.play_default(session, found, wait.seat, now)
            session.commit()
        else:
            mine = winner is None or holder.id == winner.id
            order = (
                {"type": "choose", "take": mine}
                if wait.phase == "choose"
                else {"type": "pick", "value": 3 if mine else 1}
            )
            play.submit(session, holder, game_id, order, found.version, now)
        now += timedelta(minutes=5)
    raise AssertionError("the game did not end")
