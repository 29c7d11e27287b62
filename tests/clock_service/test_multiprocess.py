"""Several sweeper processes on one Postgres: every due deadline is acted on exactly once, even when one
of them is killed in the middle of a timeout."""

from __future__ import annotations

import os
import signal
import subprocess
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.orm import Session, sessionmaker

from app.db import Base
from app.models import GameOrder, WaitRow
from tests.clock_service.factory import NOW, seed_due_games, sweep_at
from tests.conftest import POSTGRES_URL
from tests.worker_processes import start_worker, worker_report

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES_URL, reason="needs TEST_DATABASE_URL (Postgres)"),
]
GAMES, PLAYERS = 500, 4  # 2,000 due waits
WAIT_SECONDS = 240


@pytest.fixture
def database_url() -> str:
    """Postgres only (several processes, row locks); the conftest's fixture empties it."""
    return POSTGRES_URL


@pytest.fixture
def due(postgres_engine: Engine, db: Session) -> int:
    """An empty, migrated database with 2,000 waits due at NOW."""
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    with postgres_engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    return seed_due_games(db, GAMES, PLAYERS, NOW)


def worker(*extra: str) -> subprocess.Popen[str]:
    return start_worker("tests.clock_service.sweep_worker", POSTGRES_URL, NOW.isoformat(), *extra)


def finish(process: subprocess.Popen[str]) -> dict[str, Any]:
    return worker_report(process, WAIT_SECONDS)


def timeouts_per_wait(sessions: sessionmaker[Session]) -> list[int]:
    with sessions() as session:
        query = (
            select(func.count())
            .where(GameOrder.origin == "timeout")
            .group_by(GameOrder.game_id, GameOrder.seat)
        )
        return list(session.scalars(query))


def still_due(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        return session.scalar(select(func.count()).where(WaitRow.phase == "pick")) or 0


def test_three_workers_act_on_each_of_2000_deadlines_exactly_once(
    due: int, sessions: sessionmaker[Session]
) -> None:
    assert due == 2000
    processes = [worker() for _ in range(3)]
    reports = [finish(process) for process in processes]
    assert sum(report["timeouts"] for report in reports) == 2000
    assert sum(report["failed"] for report in reports) == 0
    per_wait = timeouts_per_wait(sessions)
    assert len(per_wait) == 2000 and set(per_wait) == {1}
    assert still_due(sessions) == 0


def test_a_worker_killed_mid_run_loses_nothing_and_doubles_nothing(
    due: int, sessions: sessionmaker[Session]
) -> None:
    victim = worker("--hang-after", "30")
    others = [worker(), worker()]
    assert victim.stdout is not None
    assert victim.stdout.readline().strip() == "hanging"  # in the middle of a timeout: its game is locked
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=WAIT_SECONDS)
    reports = [finish(process) for process in others]
    assert sum(report["failed"] for report in reports) == 0
    # What the dead worker had claimed comes back when its lease runs out; nothing was played twice.
    assert set(timeouts_per_wait(sessions)) == {1}
    late = sweep_at(sessions, NOW + timedelta(seconds=301))
    assert late.failed == 0
    per_wait = timeouts_per_wait(sessions)
    assert len(per_wait) == 2000 and set(per_wait) == {1}
    assert still_due(sessions) == 0
