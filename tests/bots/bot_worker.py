"""A worker process for the two-worker test: `python -m tests.bots.bot_worker URL`.

It says "ready", waits for "go" on its standard input (so that both workers start together), then runs
the bots job until no game is running, waking on the games' live news (Postgres LISTEN) whenever it
finds nothing due: the other worker holds those waits, and each of its orders makes a new version.
At the end it prints its report (with every wait it answered) as JSON."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

import psycopg
from sqlalchemy import func, select

from app.db import make_engine, session_factory
from app.models import Game
from app.services.jobs import bots
from app.services.jobs.jobs import utcnow
from app.services.play import live


def main() -> None:
    url = sys.argv[1]
    sessions = session_factory(make_engine(url))
    listener = psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True)
    listener.execute(f"LISTEN {live.CHANNEL}")
    print("ready", flush=True)
    assert sys.stdin.readline().strip() == "go"
    total = bots.BotReport()
    while True:
        report = bots.play_bots(sessions, utcnow)
        for name in ("claimed", "played", "gone", "failed"):
            setattr(total, name, getattr(total, name) + getattr(report, name))
        total.answered += report.answered
        with sessions() as session:
            running = session.scalar(select(func.count()).where(Game.status == "active"))
        if not running:
            break
        if not report.claimed:  # the other worker holds what is due: wait for its next version
            for _ in listener.notifies(timeout=5, stop_after=1):
                pass
    print(json.dumps(asdict(total)), flush=True)


if __name__ == "__main__":
    main()
