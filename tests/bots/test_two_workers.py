"""Two worker processes on one Postgres play 50 games of bots to their end: each bot wait is answered
exactly once, every order is in the log once, and no game is left waiting."""

from __future__ import annotations

import subprocess
from collections import Counter
from typing import Any

import pytest
from sqlalchemy import Engine, func, select, text
from sqlalchemy.orm import Session, sessionmaker

from app.db import Base
from app.models import Game, GameOrder, WaitRow
from app.services.play import play, seats
from app.services.social import lobby
from tests.clock_service.factory import NOW, make_users
from tests.conftest import POSTGRES_URL
from tests.worker_processes import start_worker, worker_report

pytestmark = [
    pytest.mark.timeout(1800),  # 50 whole games: minutes on a busy machine
    pytest.mark.postgres,
    pytest.mark.skipif(not POSTGRES_URL, reason="needs TEST_DATABASE_URL (Postgres)"),
]
GAMES = 50
WAIT_SECONDS = 1500


@pytest.fixture
def database_url() -> str:
    """Postgres only (two processes, row locks); the conftest's fixture empties it."""
    return POSTGRES_URL


@pytest.fixture
def bot_games(postgres_engine: Engine, db: Session) -> list[int]:
    """50 short games (Dragonstones, 3 players, 2 points to win) whose every seat a bot plays: each is
    created with two bots and a bot keeping open seats, then its creator quits."""
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    with postgres_engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    creators = make_users(db, *(f"Maker{index}" for index in range(5)))
    made = []
    for index in range(GAMES):
        creator = creators[index % len(creators)]
        game = lobby.create_game(
            db,
            creator,
            game_type="dragonstones",
            players=3,
            time_limit_hours=24,
            options={"points_to_win": 2},
            bot_seats=2,
            bots_keep_seats=True,
            now=NOW,
        )
        seats.quit_game(db, creator, game.id, None, NOW)
        made.append(game.id)
    return made


def worker() -> subprocess.Popen[str]:
    return start_worker("tests.bots.bot_worker", POSTGRES_URL)


def finish(process: subprocess.Popen[str]) -> dict[str, Any]:
    return worker_report(process, WAIT_SECONDS)


def test_two_workers_play_fifty_bot_games_to_their_end_each_bot_turn_once(
    bot_games: list[int], sessions: sessionmaker[Session]
) -> None:
    workers = [worker(), worker()]
    try:
        for process in workers:  # the barrier: both are connected and listening before either starts
            assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        for process in workers:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        reports = [finish(process) for process in workers]
    finally:
        for process in workers:  # none outlives a failure, to play on in the next test's games
            if process.poll() is None:
                process.kill()

    answered = [tuple(item) for report in reports for item in report["answered"]]
    assert all(report["failed"] == 0 for report in reports)
    assert all(report["played"] > 0 for report in reports)  # both workers took part
    twice = [item for item, count in Counter(answered).items() if count > 1]
    assert twice == []  # no wait answered twice
    with sessions() as session:
        statuses = Counter(session.scalars(select(Game.status).where(Game.id.in_(bot_games))))
        assert statuses == {"finished": GAMES}
        assert session.scalar(select(func.count()).select_from(WaitRow)) == 0  # none left waiting
        origins = Counter(session.scalars(select(GameOrder.origin)))
        assert origins == {"bot": len(answered)}  # every order is a bot's, and each one a worker made
        for game_id in bot_games:
            game = session.get(Game, game_id)
            assert game is not None
            seqs = list(session.scalars(select(GameOrder.seq).where(GameOrder.game_id == game_id)))
            assert sorted(seqs) == list(range(2, game.version + 1))  # an order per version after the deal
            assert play.REPLAYS.get(session, game).matches_stored_state
