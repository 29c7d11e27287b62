"""Mails per second from the outbox to an SMTP server, beside raw aiosmtplib sends to the same server.

    .venv/bin/python bench/mail.py [--mails 2000] [--database-url postgresql+psycopg://…/ostraca_bench]

It fills a fresh database (a temporary SQLite file by default; a Postgres database given here is emptied
first) with notifications: half from Dragonstones games starting (each start: "game started" and "your
turn" for every player), half password-reset requests. Then it times the two mail jobs against an aiosmtpd
sink in this process: notifications to outbox (preferences, composing, rendering both parts, Message-ID)
and outbox to SMTP (claims, one SMTP connection per batch, each accepted mail marked at once). The
baselines, in the same run: the same number of prebuilt messages sent with aiosmtplib over one connection
to the same sink, and on Postgres a raw psycopg loop of one-row UPDATE + COMMIT on one connection.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import func, select, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import migrate  # noqa: E402
from app.db import make_engine, session_factory  # noqa: E402
from app.models import Notification, OutgoingMail, User  # noqa: E402
from app.services.mail import account_mail, dispatch, mail  # noqa: E402
from app.services.social import lobby  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.web.emails import EmailRenderer  # noqa: E402
from bench import baselines  # noqa: E402


class Sink:
    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.count += 1
        return "250 OK"


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def prepare(database_url: str) -> str:
    if not database_url:
        return f"sqlite:///{tempfile.mkdtemp(prefix='ostraca-mail-bench-')}/bench.sqlite3"
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return database_url


def fill(settings: Settings, mails: int) -> None:
    """About `mails` notifications: game starts (3 players: 6 each) and password resets."""
    engine = make_engine(settings.sqlalchemy_url)
    migrate.upgrade(engine)
    now = datetime.now(UTC)
    with session_factory(engine)() as session:
        games = mails // 2 // 6
        users = [
            User(email=f"p{n}@example.com", display_name=f"Player {n}", password_hash="x", language="en")
            for n in range(games * 3)
        ]
        session.add_all(users)
        session.commit()
        for number in range(games):
            trio = users[3 * number : 3 * number + 3]
            game = lobby.create_game(
                session, trio[0], game_type="dragonstones", players=3, time_limit_hours=48, now=now
            )
            for user in trio[1:]:
                lobby.join_game(session, user, game.id, now)
        made = session.scalar(select(func.count()).select_from(Notification)) or 0
        for number in range(mails - made):
            account_mail.request_password_reset(session, users[number % len(users)].email)
    engine.dispose()


CPU: dict[str, float] = {}


def timed(work: Any) -> float:
    """Wall seconds of `work`; its CPU seconds in this process go to CPU[its name]."""
    started, cpu = time.perf_counter(), time.process_time()
    work()
    CPU[work.__name__] = time.process_time() - cpu
    return time.perf_counter() - started


def run_jobs(settings: Settings) -> tuple[int, float, float, str]:
    """Both mail jobs until nothing is left: (mails sent, seconds composing, seconds sending, a mail)."""
    engine = make_engine(settings.sqlalchemy_url)
    sessions = session_factory(engine)
    renderer, transport = EmailRenderer(), mail.SmtpTransport(settings)
    now = datetime.now(UTC)

    def drain_notifications() -> None:
        while dispatch.dispatch_notifications(sessions, settings, renderer, now):
            pass

    def drain_outbox() -> None:
        while mail.deliver_outbox(sessions, settings, transport, now):
            pass

    composing = timed(drain_notifications)
    sending = timed(drain_outbox)
    with sessions() as session:
        sent = session.scalar(
            select(func.count()).select_from(OutgoingMail).where(OutgoingMail.sent_at.is_not(None))
        )
        raw = session.scalar(select(OutgoingMail.raw).limit(1))
    engine.dispose()
    assert raw is not None
    return int(sent or 0), composing, sending, raw


async def raw_sends(port: int, count: int, raw: str) -> float:
    import aiosmtplib

    data = raw.encode("ascii")
    client = aiosmtplib.SMTP(hostname="127.0.0.1", port=port)
    await client.connect()
    started = time.perf_counter()
    for _ in range(count):
        await client.sendmail("noreply@ostraca.example.com", ["p0@example.com"], data)
    elapsed = time.perf_counter() - started
    await client.quit()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mails", type=int, default=2000)
    parser.add_argument("--database-url", default="", help="empty: a temporary SQLite file")
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument(
        "--stored-games", type=int, default=1000, help="finished games stored beforehand (Postgres only)"
    )
    args = parser.parse_args()

    sink, port = Sink(), free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        url = prepare(args.database_url)
        settings = Settings(
            database_url=url,
            smtp_url=f"smtp://127.0.0.1:{port}",
            mail_batch_size=args.batch,
            base_url="https://games.example.com",
            _env_file=None,
        )
        fill(settings, args.mails)
        if url.startswith("postgresql"):
            baselines.store_finished_games(url, args.stored_games)
        sent, composing, sending, sample = run_jobs(settings)
        received = sink.count
        baseline = asyncio.run(raw_sends(port, sent, sample))
    finally:
        controller.stop()
    updates = baselines.raw_update_loop(url, 1, 5.0) if url.startswith("postgresql") else None
    database = "postgres" if url.startswith("postgresql") else "sqlite"
    stored = f"; {args.stored_games} finished games stored" if database == "postgres" else ""
    print(f"{sent} mails on {database}, batches of {args.batch}{stored}; the sink received {received}")
    print(f"notifications -> outbox (compose, render, queue): {sent / composing:8.0f} mails/s")
    print(f"outbox -> SMTP sink (claim, send, mark sent):     {sent / sending:8.0f} mails/s")
    print(f"end to end:                                       {sent / (composing + sending):8.0f} mails/s")
    print(f"baseline, raw aiosmtplib sends, one connection:   {sent / baseline:8.0f} sends/s")
    print(f"ratio, outbox delivery / baseline:                {baseline / sending:8.2f}")
    print(f"ratio, end to end / baseline:                     {baseline / (composing + sending):8.2f}")
    composing_cpu, sending_cpu = CPU["drain_notifications"], CPU["drain_outbox"]
    per_mail = f"{1000 * composing_cpu / sent:6.2f} ms / {1000 * sending_cpu / sent:.2f} ms"
    print(f"CPU per mail, composing / delivering:             {per_mail}")
    if updates is not None:
        print(f"baseline, raw one-row UPDATE + COMMIT, one conn.: {updates:8.0f} /s")
        print(f"ratio, outbox delivery / raw UPDATE + COMMIT:     {sent / sending / updates:8.2f}")


if __name__ == "__main__":
    main()
