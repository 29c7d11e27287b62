"""People, games and clients for the moderation tests, through the services and the API."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import AuditEntry, Game, Notification, Seat, User
from app.services.accounts import accounts
from app.services.errors import ServiceError
from app.services.moderation import moderation
from app.services.social import lobby
from tests.conftest import PASSWORD

FAST_HASHER = PasswordHash((Argon2Hasher(time_cost=1, memory_cost=1024, parallelism=1),))


@contextmanager
def fast_passwords() -> Iterator[None]:
    """Cheap Argon2 settings for tests that make many accounts (the real ones take a third of a second)."""
    saved = accounts._hasher
    accounts._hasher = FAST_HASHER
    try:
        yield
    finally:
        accounts._hasher = saved


def now() -> datetime:
    """The real time: the join checks compare sanctions with the clock."""
    return datetime.now(UTC)


def make_user(session: Session, name: str, role: str = "player") -> User:
    user = accounts.sign_up(
        session, email=f"{name.lower()}@example.com", password=PASSWORD, display_name=name
    )
    user.role = role
    session.commit()
    return user


def make_users(session: Session, *names: str) -> list[User]:
    return [make_user(session, name) for name in names]


def running_game(session: Session, users: Sequence[User], limit_hours: int | None = 24) -> Game:
    """A fake game of len(users) seats, created by users[0], joined by the others: running."""
    game = lobby.create_game(
        session, users[0], game_type="fake", players=len(users), time_limit_hours=limit_hours, now=now()
    )
    for user in users[1:]:
        lobby.join_game(session, user, game.id, now())
    session.refresh(game)
    assert game.status == "active"
    return game


def seat_of(game: Game, user: User) -> int:
    number = next(s.number for s in game.seats if s.user_id == user.id)
    assert number is not None
    return number


def holder(session: Session, game_id: int, number: int) -> int | None:
    session.expire_all()
    found = session.scalar(select(Seat.user_id).where(Seat.game_id == game_id, Seat.number == number))
    session.commit()
    return found


def refused(session: Session, code: str, action: Any) -> ServiceError:
    """`action()` is refused with `code`; the session's transaction is rolled back (SQLite's write lock)."""
    with pytest.raises(ServiceError) as caught:
        action()
    session.rollback()
    assert caught.value.code == code, caught.value.message
    return caught.value


def audit_actions(session: Session) -> list[str]:
    session.expire_all()
    found = list(session.scalars(select(AuditEntry.action).order_by(AuditEntry.id)))
    session.commit()  # end the read: on SQLite an open transaction holds the write lock
    return found


def kinds_for(session: Session, user: User) -> list[str]:
    session.expire_all()
    query = select(Notification.kind).where(Notification.user_id == user.id).order_by(Notification.id)
    found = list(session.scalars(query))
    session.commit()
    return found


def ban(session: Session, actor: User, target: User, hours: int | None = 48, reason: str = "Insults") -> Any:
    order = moderation.SanctionOrder("ban", hours, reason, "repeated, see report")
    return moderation.impose(session, actor, target.id, order, now())


def api_client(make_client: Any, email: str) -> TestClient:
    """A client logged in through the API as the account with this address."""
    client: TestClient = make_client()
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    response = client.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client.headers["X-CSRF-Token"] = response.json()["csrf_token"]
    return client


def page_token(client: TestClient, path: str = "/login") -> str:
    """The CSRF token of the client's session, read from a page's form."""
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(path).text)
    assert match is not None
    return match.group(1)
