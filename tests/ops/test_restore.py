"""docs/deploy.md's backup and restore, as a host runs them: `pg_dump` in the custom format of a database
the app wrote, `pg_restore` into an empty one, and the app reads the restored one as it read the first."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import make_url, text
from starlette.testclient import TestClient

from app.db import make_engine, session_factory
from app.main import create_app, prepare_database
from app.services.accounts import accounts
from app.services.social import lobby
from app.settings import Settings
from tests.conftest import POSTGRES_URL


def postgres_tool(name: str) -> str | None:
    found = shutil.which(name) or next(iter(sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))), None)
    return str(found) if found else None


PG_DUMP, PG_RESTORE = postgres_tool("pg_dump"), postgres_tool("pg_restore")
pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs Postgres: set TEST_DATABASE_URL"),
    pytest.mark.skipif(PG_DUMP is None or PG_RESTORE is None, reason="needs pg_dump and pg_restore"),
]


def fresh_database(name: str) -> str:
    url = make_url(POSTGRES_URL).set(database=name)
    admin = make_engine(url.set(database="postgres").render_as_string(hide_password=False))
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return url.render_as_string(hide_password=False)


def libpq(url: str) -> str:
    """The same database as a libpq connection string, for the Postgres tools."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture
def databases() -> Iterator[tuple[str, str]]:
    base = make_url(POSTGRES_URL).database
    yield fresh_database(f"{base}_backup"), fresh_database(f"{base}_restored")


def test_a_dump_restored_into_an_empty_database_serves_the_same_games(
    databases: tuple[str, str], tmp_path: Path
) -> None:
    original, restored = databases
    settings = Settings(database_url=original, data_dir=tmp_path)
    prepare_database(settings)
    engine = make_engine(original)
    with session_factory(engine)() as session:
        now = datetime.now(UTC)
        players = [
            accounts.sign_up(
                session, email=f"r{n}@example.com", password="restore-me-2026", display_name=f"Restorer {n}"
            )
            for n in range(3)
        ]
        game = lobby.create_game(
            session, players[0], game_type="dragonstones", players=3, time_limit_hours=24, now=now
        )
        for player in players[1:]:
            lobby.join_game(session, player, game.id, now)
        game_id = game.id
    engine.dispose()
    with TestClient(create_app(settings)) as client:
        before = client.get(f"/api/v1/games/{game_id}").json()
    dump = tmp_path / "ostraca.dump"
    assert PG_DUMP is not None and PG_RESTORE is not None
    subprocess.run([PG_DUMP, "--format=custom", f"--file={dump}", libpq(original)], check=True, timeout=300)
    subprocess.run(
        [PG_RESTORE, "--no-owner", f"--dbname={libpq(restored)}", str(dump)], check=True, timeout=300
    )

    with TestClient(create_app(Settings(database_url=restored, data_dir=tmp_path))) as client:
        assert client.get("/readyz").status_code == 200  # the restored schema is at the newest migration
        after = client.get(f"/api/v1/games/{game_id}").json()
        login = client.post(
            "/api/v1/auth/login",
            json={"email": "r0@example.com", "password": "restore-me-2026"},
            headers={"X-CSRF-Token": client.get("/api/v1/auth/csrf").json()["csrf_token"]},
        )
    assert after == before and after["game"]["status"] == "active"
    assert login.status_code == 200  # the accounts came back with their password hashes
