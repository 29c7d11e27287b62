"""Fault test on Postgres: the SMTP server is down while 500 notifications are produced; then it comes back
while two worker processes deliver, and one of them is killed in the middle of a batch.

Every mail must arrive, counted by Message-ID at the SMTP server. A mail is sent twice only if the kill
falls between the server's "250 OK" and the worker's commit of `sent_at` (at most the one mail in flight);
its copy carries the same Message-ID, so mail clients show it once.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.models import OutgoingMail
from app.services.mail import account_mail
from app.services.social import lobby
from app.settings import Settings
from tests.notify.conftest import RunMail, free_port, make_user

ROOT = Path(__file__).resolve().parents[2]
GAMES = 50  # 2 players each: 200 notifications (game started, your turn)
RESETS_PER_USER = 3  # 100 users: 300 more


class SlowSink:
    """Counts Message-IDs; a few milliseconds per mail, so that a batch takes a while to send. While held,
    every mail waits before its answer, so that each worker is caught in the middle of a batch."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.lock = threading.Lock()
        self.open = threading.Event()
        self.open.set()
        self.held = 0

    def hold(self) -> None:
        self.open.clear()

    def release(self) -> None:
        self.open.set()

    def waiting(self) -> int:
        with self.lock:
            return self.held

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await asyncio.sleep(0.004)
        if not self.open.is_set():
            with self.lock:
                self.held += 1
            while not self.open.is_set():
                await asyncio.sleep(0.01)
            with self.lock:
                self.held -= 1
        for line in envelope.content.split(b"\r\n"):
            if line.lower().startswith(b"message-id:"):
                with self.lock:
                    self.ids.append(line.split(b":", 1)[1].strip().decode())
                break
        return "250 OK"

    def count(self) -> int:
        with self.lock:
            return len(self.ids)


@pytest.fixture
def postgres_url(database_url: str) -> str:
    if not database_url.startswith("postgresql"):
        pytest.skip("the fault test needs Postgres (TEST_DATABASE_URL)")
    return database_url


@pytest.fixture
def slow_sink() -> Iterator[tuple[SlowSink, int]]:
    handler, port = SlowSink(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


def _produce(db: Session, run_mail: RunMail, down: Settings) -> None:
    """500 notifications in five waves, each followed by a mail run that finds the server down."""
    users = [make_user(db, f"Player{number:03d}") for number in range(2 * GAMES)]
    for wave in range(5):
        now = datetime.now(UTC)
        for pair in range(wave * GAMES // 5, (wave + 1) * GAMES // 5):
            game = lobby.create_game(
                db, users[2 * pair], game_type="fake", players=2, time_limit_hours=24, now=now
            )
            lobby.join_game(db, users[2 * pair + 1], game.id, now)
        for user in users[wave * 20 : (wave + 1) * 20]:
            for _ in range(RESETS_PER_USER):
                account_mail.request_password_reset(db, user.email)
        run_mail(now, down)


def _worker(settings: Settings, seconds: float) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "DATABASE_URL": settings.database_url,
        "SMTP_URL": settings.smtp_url,
        "BASE_URL": settings.base_url,
        "DATA_DIR": str(settings.data_dir),
        "MAIL_BATCH_SIZE": "50",
        "MAIL_LEASE_SECONDS": "8",
        "MAIL_RETRY_SECONDS": "1",
        "MAIL_EVERY_SECONDS": "0.1",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.notify.mail_worker", str(seconds)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def _wait_for(condition: Any, timeout: float) -> None:
    stop_at = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < stop_at, "timed out"
        time.sleep(0.05)


def _count(sessions: sessionmaker[Session], *conditions: Any) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).select_from(OutgoingMail).where(*conditions)) or 0


@pytest.mark.postgres
def test_every_mail_arrives_once_through_an_outage_and_a_killed_worker(
    postgres_url: str,
    db: Session,
    sessions: sessionmaker[Session],
    mail_settings: Settings,
    run_mail: RunMail,
    slow_sink: tuple[SlowSink, int],
) -> None:
    sink, port = slow_sink
    down = mail_settings.model_copy(
        update={"smtp_url": f"smtp://127.0.0.1:{free_port()}", "mail_retry_seconds": 1}
    )
    _produce(db, run_mail, down)
    assert _count(sessions) == 500
    assert _count(sessions, OutgoingMail.sent_at.is_(None)) == 500
    assert _count(sessions, OutgoingMail.attempts >= 1, OutgoingMail.last_error.is_not(None)) >= 200
    assert sink.count() == 0

    up = mail_settings.model_copy(update={"smtp_url": f"smtp://127.0.0.1:{port}"})
    first, second = _worker(up, 120), _worker(up, 120)
    try:
        _wait_for(lambda: sink.count() >= 100, 60)
        sink.hold()
        _wait_for(lambda: sink.waiting() == 2, 30)  # both workers wait for an answer, inside a batch
        first.send_signal(signal.SIGKILL)  # it had claimed mails it never sent, one of them in flight
        first.wait(10)
        leased = _count(
            sessions, OutgoingMail.sent_at.is_(None), OutgoingMail.next_attempt_at > datetime.now(UTC)
        )
        sink.release()
        assert leased > 0
        _wait_for(lambda: _count(sessions, OutgoingMail.sent_at.is_not(None)) == 500, 90)
    finally:
        for process in (first, second):
            process.kill()
            process.wait(10)

    with sessions() as session:
        expected = set(session.scalars(select(OutgoingMail.message_id)))
        assert session.scalar(select(func.count()).where(OutgoingMail.dead_at.is_not(None))) == 0
    arrived = Counter(sink.ids)
    assert set(arrived) == expected  # none lost, none unknown
    duplicates = sum(count - 1 for count in arrived.values())
    assert duplicates <= 1  # at most the one mail in flight when the worker was killed
