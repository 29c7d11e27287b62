"""Lobby page renders per second with 10,000 users and 2,000 games in the database, against a trivial page.

    .venv/bin/python bench/lobby.py                      # a fresh SQLite file in a temporary folder
    .venv/bin/python bench/lobby.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/ostraca_bench

A Postgres database given here IS WIPED (its `public` schema is dropped and made again by the migrations),
and ANALYZEd once seeded, as autovacuum soon does to a real one: without statistics the planner takes every
table for a few rows, and the figures would depend on whether autovacuum came by during the run.

It seeds, in bulk, the users (half of them rated, some queued, some friends and blocks) and the games:
forming games of 1 to 3 players out of 4, running games (some with an open seat waiting for a replacement)
and finished ones, all of the tests' fake game. Then, in-process (Starlette's test client: no network, so
the figures are the app's own cost), it times for --seconds each:
- the Open tab as a logged-in player who sits in a few games (recommended game, rating distances, hidden
  games with their reasons, open seats): `GET /`;
- the same for a visitor who is not logged in;
- the Active tab for the player: `GET /?tab=active`;
- the baseline: the log-in page, a template with no database work: `GET /login`;
and prints each rate and its ratio to the baseline.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import insert, text
from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import migrate  # noqa: E402
from app.db import make_engine, session_factory  # noqa: E402
from app.games import registry  # noqa: E402
from app.main import create_app  # noqa: E402
from app.models import Block, Friendship, Game, QueueEntry, Rating, Seat, SeatTenure, User  # noqa: E402
from app.settings import Settings  # noqa: E402
from tests import fakegame  # noqa: E402

NOW = datetime.now(UTC)
PASSWORD = "correct horse battery"  # the tests' password


def reset(url: str) -> None:
    engine = make_engine(url)
    if url.startswith("postgresql"):
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    migrate.upgrade(engine)
    engine.dispose()


def seed(url: str, users: int, games: int, rng: random.Random) -> None:
    registry.register(fakegame.RULES)
    engine = make_engine(url)
    with session_factory(engine)() as session:
        session.execute(insert(User), [_user(n) for n in range(users)])
        session.execute(insert(Rating), [_rating(n + 1, rng) for n in range(0, users, 2)])
        session.execute(
            insert(Friendship),
            [{"user_id": n, "friend_id": n + 1, "created_at": NOW} for n in range(1, 2000)],
        )
        session.execute(
            insert(Block), [{"user_id": n, "blocked_id": n + 7, "created_at": NOW} for n in range(1, 500)]
        )
        session.execute(insert(QueueEntry), [_queued(n) for n in range(9000, 9100)])
        _seed_games(session, users, games, rng)
        session.commit()
    if url.startswith("postgresql"):
        with engine.connect() as connection:
            connection.execution_options(isolation_level="AUTOCOMMIT").execute(text("ANALYZE"))
    engine.dispose()


def _user(n: int) -> dict[str, Any]:
    return {
        "id": n + 1,
        "email": f"u{n}@example.com",
        "display_name": f"Player {n}",
        "password_hash": "-",
        "language": "en",
        "time_zone": "UTC",
        "role": "player",
        "session_version": 1,
        "created_at": NOW,
    }


def _rating(user_id: int, rng: random.Random) -> dict[str, Any]:
    mu, sigma = rng.gauss(25, 5), rng.uniform(2, 8)
    return {
        "user_id": user_id,
        "game_type": "fake",
        "mu": mu,
        "sigma": sigma,
        "ordinal": mu - 3 * sigma,
        "games": rng.randint(1, 50),
        "updated_at": NOW,
    }


def _queued(n: int) -> dict[str, Any]:
    return {
        "user_id": n + 1,
        "game_type": "fake",
        "min_hours": 200,
        "max_hours": 336,
        "new_games": True,
        "in_progress": False,
        "created_at": NOW,
    }


def _seed_games(session: Any, users: int, games: int, rng: random.Random) -> None:
    """A fifth forming, three fifths running (one in ten with an open seat), a fifth finished."""
    state = fakegame.RULES.dump(fakegame.RULES.new_game(fakegame.Options(), 4, 1))
    game_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    tenure_rows: list[dict[str, Any]] = []
    for game_id in range(1, games + 1):
        kind = "open" if game_id % 5 == 0 else "finished" if game_id % 5 == 1 else "active"
        table = rng.sample(range(1, users + 1), 4)
        taken = rng.randint(1, 3) if kind == "open" else 4
        game_rows.append(
            {
                "id": game_id,
                "game_type": "fake",
                "name": f"Game {game_id}",
                "status": kind,
                "players": 4,
                "time_limit_hours": 48,
                "options": {"target": 8},
                "seed": game_id,
                "state": None if kind == "open" else state,
                "version": 0 if kind == "open" else 1,
                "creator_id": table[0],
                "created_at": NOW - timedelta(minutes=game_id),
                "started_at": None if kind == "open" else NOW,
                "finished_at": NOW if kind == "finished" else None,
                "standings": [{"seat": s, "place": s + 1, "score": 8 - s} for s in range(4)]
                if kind == "finished"
                else None,
                "warning_percent": 80,
                "eviction_preset": 4,
                "vote_after": 2,
            }
        )
        for index in range(taken):
            seat_id = len(seat_rows) + 1
            vacant = kind == "active" and game_id % 10 == 2 and index == 3
            seat_rows.append(
                {
                    "id": seat_id,
                    "game_id": game_id,
                    "user_id": None if vacant else table[index],
                    "number": None if kind == "open" else index,
                    "pick": index + 1,
                    "status": "open" if vacant else "playing",
                    "missed_turns": 0,
                    "joined_at": NOW,
                    "opened_at": NOW if vacant else None,
                }
            )
            if kind != "open":
                tenure_rows.append(
                    {
                        "seat_id": seat_id,
                        "user_id": table[index],
                        "started_at": NOW,
                        "ended_at": NOW if vacant else None,
                        "end_reason": "quit" if vacant else None,
                    }
                )
    session.execute(insert(Game), game_rows)
    session.execute(insert(Seat), seat_rows)
    session.execute(insert(SeatTenure), tenure_rows)
    if session.get_bind().dialect.name == "postgresql":  # the sequences follow the ids written
        for name in ("users", "games", "seats"):
            restart = f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), (SELECT max(id) FROM {name}))"
            session.execute(text(restart))


def player_client(app: Any) -> TestClient:
    """A player who sits in a few forming and running games (so that some games are hidden to them)."""
    client = TestClient(app)
    client.__enter__()
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    body = {"email": "bench@example.com", "password": PASSWORD, "display_name": "Bench"}
    response = client.post("/api/v1/auth/signup", json=body)
    assert response.status_code == 201, response.text
    me = response.json()
    client.headers["X-CSRF-Token"] = me["csrf_token"]
    for game_id in (5, 10, 15):
        client.post(f"/api/v1/games/{game_id}/join")
    return client


def rate(client: TestClient, path: str, seconds: float) -> float:
    assert client.get(path).status_code == 200, path
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        response = client.get(path)
        assert response.status_code == 200
        count += 1
    return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default="")
    parser.add_argument("--users", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=2_000)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="ostraca-bench-lobby-")
    url = args.database_url or f"sqlite:///{folder}/bench.sqlite3"
    reset(url)
    started = time.perf_counter()
    seed(url, args.users, args.games, random.Random(2026))
    took = time.perf_counter() - started
    print(f"seeded {args.users} users and {args.games} games in {took:.1f} s ({url.split(':')[0]})")
    settings = Settings(database_url=url, data_dir=Path(folder) / "var", run_jobs=False, _env_file=None)
    app = create_app(settings)
    player = player_client(app)
    visitor = TestClient(app)
    visitor.__enter__()
    baseline = rate(visitor, "/login", args.seconds)
    rows = [
        ("Open tab, logged-in player (GET /)", rate(player, "/", args.seconds)),
        ("Open tab, visitor (GET /)", rate(visitor, "/", args.seconds)),
        ("Active tab, player (GET /?tab=active)", rate(player, "/?tab=active", args.seconds)),
    ]
    print(f"{'baseline: log-in page (GET /login)':44s} {baseline:8.1f} renders/s")
    for name, value in rows:
        print(f"{name:44s} {value:8.1f} renders/s   {value / baseline:5.2f} x baseline")


if __name__ == "__main__":
    main()
