"""`ostraca worker` serves its own /metrics: the timeouts it plays move its counters as they happen."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update

from app.db import make_engine, session_factory
from app.main import prepare_database
from app.models import WaitRow
from app.services.accounts import accounts
from app.services.social import lobby
from app.settings import Settings

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
TIMEOUTS = ("ostraca_orders_applied_total", (("game_type", "dragonstones"), ("origin", "timeout")))
LATENESS = ("ostraca_timeout_lateness_seconds_count", (("game_type", "dragonstones"),))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def scrape(url: str) -> Samples:
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def wait_for(probe: Callable[[], Samples | None], what: str, seconds: float = 90) -> Samples:
    """Poll until `probe` gives samples (not a timing assertion: a bound so a broken worker fails)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            found = probe()
        except OSError:  # not listening yet
            found = None
        if found is not None:
            return found
        time.sleep(0.2)
    raise AssertionError(f"never saw {what}")


@pytest.fixture
def running_game(tmp_path: Path) -> Iterator[tuple[Settings, int]]:
    settings = Settings(data_dir=tmp_path, database_url="")
    prepare_database(settings)
    engine = make_engine(settings.sqlalchemy_url)
    with session_factory(engine)() as session:
        players = [
            accounts.sign_up(
                session, email=f"p{n}@example.com", password="pass-word-2026", display_name=f"Player {n}"
            )
            for n in range(3)
        ]
        now = datetime.now(UTC)
        game = lobby.create_game(
            session, players[0], game_type="dragonstones", players=3, time_limit_hours=48, now=now
        )
        for player in players[1:]:
            lobby.join_game(session, player, game.id, now)
        game_id = game.id
    engine.dispose()
    yield settings, game_id


def test_the_worker_metrics_move_when_a_deadline_fires(running_game: tuple[Settings, int]) -> None:
    settings, game_id = running_game
    port = free_port()
    env = {
        **os.environ,
        "DATA_DIR": str(settings.data_dir),
        "DATABASE_URL": "",
        "WORKER_METRICS_PORT": str(port),
        "SWEEP_SECONDS": "0.2",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "worker"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/metrics"
    try:
        before = wait_for(lambda: scrape(url), "the worker's /metrics")
        assert before.get(TIMEOUTS, 0) == 0 and before.get(LATENESS, 0) == 0
        assert before[("ostraca_games_active", (("game_type", "dragonstones"),))] == 1
        assert ("ostraca_outbox_backlog", ()) in before and ("ostraca_waits_due", ()) in before
        engine = make_engine(settings.sqlalchemy_url)
        with session_factory(engine).begin() as session:
            past = datetime.now(UTC) - timedelta(seconds=30)
            session.execute(
                update(WaitRow).where(WaitRow.game_id == game_id).values(deadline_at=past, check_at=past)
            )
        engine.dispose()
        after = wait_for(
            lambda: (lambda s: s if s.get(TIMEOUTS, 0) >= 1 else None)(scrape(url)), "a timeout counted"
        )
    finally:
        worker.terminate()
        output, _ = worker.communicate(timeout=30)
    assert after[LATENESS] >= 1, output
    assert after[("ostraca_timeout_lateness_seconds_sum", (("game_type", "dragonstones"),))] >= 30
