"""Fixtures for notification tests: a real SMTP server in the process (aiosmtpd), players and games."""

from __future__ import annotations

import functools
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from pwdlib import PasswordHash
from sqlalchemy import select
from sqlalchemy.orm import Session, object_session, sessionmaker
from starlette.testclient import TestClient

from app.main import create_app
from app.models import Game, Notification, User
from app.services.mail import mail, mail_jobs
from app.services.play import play
from app.services.social import lobby
from app.settings import Settings
from app.web.emails import EmailRenderer
from tests.conftest import NOW, PASSWORD


@dataclass
class Sink:
    """What the SMTP server received: each message parsed, with its envelope recipients."""

    messages: list[EmailMessage] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    port: int = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        with self.lock:
            self.messages.append(parsed)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if address in str(m["To"])]

    def clear(self) -> None:
        with self.lock:
            self.messages.clear()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def sink() -> Iterator[Sink]:
    handler = Sink(port=free_port())
    controller = Controller(handler, hostname="127.0.0.1", port=handler.port)
    controller.start()
    yield handler
    controller.stop()


@pytest.fixture
def mail_settings(settings: Settings, sink: Sink) -> Settings:
    return settings.model_copy(
        update={"smtp_url": f"smtp://127.0.0.1:{sink.port}", "base_url": "https://games.example.com"}
    )


@pytest.fixture
def renderer() -> EmailRenderer:
    return EmailRenderer()


RunMail = Callable[..., mail_jobs.MailReport]


@pytest.fixture
def run_mail(sessions: sessionmaker[Session], mail_settings: Settings, renderer: EmailRenderer) -> RunMail:
    """Run the mail jobs once at `now` (dispatch, digests, delivery to the sink)."""

    def run(now: datetime = NOW, settings: Settings | None = None) -> mail_jobs.MailReport:
        chosen = settings or mail_settings
        transport = mail.SmtpTransport(chosen) if chosen.smtp_url else mail.FileTransport(chosen.mail_dir)
        return mail_jobs.run_mail_once(sessions, chosen, renderer, transport, clock=lambda: now)

    return run


@functools.cache
def password_hash() -> str:
    return PasswordHash.recommended().hash(PASSWORD)


def make_user(db: Session, name: str, language: str = "en", zone: str = "UTC") -> User:
    """A user as sign-up makes one (without paying for a fresh Argon2 hash each time)."""
    user = User(
        email=f"{name.lower()}@example.com",
        display_name=name,
        password_hash=password_hash(),
        language=language,
        time_zone=zone,
    )
    db.add(user)
    db.commit()
    return user


def start_game(db: Session, users: list[User], now: datetime = NOW, hours: int | None = 24) -> Game:
    game = lobby.create_game(
        db, users[0], game_type="fake", players=len(users), time_limit_hours=hours, now=now
    )
    for user in users[1:]:
        lobby.join_game(db, user, game.id, now)
    return game


def seat_of(game: Game, user: User) -> int:
    seat = play.viewer_seat(game, user)
    assert seat is not None
    return seat


def user_named(db: Session, name: str) -> User:
    user = db.scalar(select(User).where(User.display_name == name))
    assert user is not None
    return user


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


def html_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("html",))
    assert body is not None
    return str(body.get_content())


@pytest.fixture
def mail_app(mail_settings: Settings) -> Any:
    return create_app(mail_settings)


@pytest.fixture
def mail_client(mail_app: Any) -> Iterator[TestClient]:
    with TestClient(mail_app, base_url="https://games.example.com") as client:
        yield client


def log_in(client: TestClient, user: User) -> None:
    """Log `client` in as `user` through the JSON API; keeps the CSRF token for later calls."""
    email, session = user.email, object_session(user)
    if session is not None:
        session.commit()  # SQLite: reading the user may have opened a transaction, which holds the lock
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    response = client.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client.headers["X-CSRF-Token"] = response.json()["csrf_token"]


def notifications_of(db: Session, user: User, kind: str | None = None) -> list[Notification]:
    db.expire_all()
    query = select(Notification).where(Notification.user_id == user.id).order_by(Notification.id)
    rows = list(db.scalars(query))
    db.commit()  # end the read: on SQLite an open transaction holds the write lock
    return [row for row in rows if kind is None or row.kind == kind]
