"""The `ostraca` command, as a newcomer runs it: migrate, demo, serve, create-admin."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
import pytest
from sqlalchemy import create_engine, text

from app import cli
from app.cli import served_settings, web_processes
from app.services.errors import ServiceError
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def run(data_dir: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATA_DIR": str(data_dir), "DATABASE_URL": ""}
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_demo_creates_players_and_a_running_game(tmp_path: Path) -> None:
    result = run(tmp_path, "demo")
    assert result.returncode == 0, result.stderr
    assert "alice@example.com" in result.stdout and "/games/" in result.stdout
    engine = create_engine(f"sqlite:///{tmp_path / 'ostraca.sqlite3'}")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM users")).scalar() == 3
        assert connection.execute(text("SELECT status FROM games")).scalar() == "active"
    engine.dispose()
    again = run(tmp_path, "demo")  # running it twice reuses the players and the game
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[0] == result.stdout.splitlines()[0]
    engine = create_engine(f"sqlite:///{tmp_path / 'ostraca.sqlite3'}")
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM games")).scalar() == 1
        zones = {zone for (zone,) in connection.execute(text("SELECT time_zone FROM users"))}
        assert zones == {"Europe/Paris"}
    engine.dispose()


def test_migrate_is_idempotent(tmp_path: Path) -> None:
    assert run(tmp_path, "migrate").returncode == 0
    second = run(tmp_path, "migrate")
    assert second.returncode == 0 and "up to date" in second.stdout


def test_create_admin_reads_the_password_from_the_terminal(tmp_path: Path) -> None:
    result = run(
        tmp_path, "create-admin", "--email", "root@example.com", "--name", "Root", stdin="admin password 42\n"
    )
    assert result.returncode == 0, result.stderr
    weak = run(tmp_path, "create-admin", "--email", "other@example.com", "--name", "Other", stdin="short\n")
    assert weak.returncode == 2 and "error:" in weak.stderr


def test_serve_answers_on_its_port(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DATA_DIR": str(tmp_path), "DATABASE_URL": "", "RUN_JOBS": "false"}
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.3)
        assert response.status_code == 200
        assert "Ostraca" in response.text
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_rebuild_ratings_rates_every_finished_game_again(tmp_path: Path) -> None:
    assert run(tmp_path, "migrate").returncode == 0
    result = run(tmp_path, "rebuild-ratings")
    assert result.returncode == 0, result.stderr
    assert "dragonstones: 0 finished game(s) rated again." in result.stdout
    assert "tigris: 0 finished game(s)" in result.stdout
    unknown = run(tmp_path, "rebuild-ratings", "--game-type", "chess")
    assert unknown.returncode == 2 and "no game type" in unknown.stderr


def test_mail_links_follow_the_served_port_unless_base_url_is_set() -> None:
    assert served_settings(Settings(_env_file=None), "127.0.0.1", 8123).base_url == "http://127.0.0.1:8123"
    assert served_settings(Settings(_env_file=None), "0.0.0.0", 9000).base_url == "http://127.0.0.1:9000"
    chosen = Settings(base_url="https://play.example.org", _env_file=None)
    assert served_settings(chosen, "0.0.0.0", 9000).base_url == "https://play.example.org"
    assert chosen.base_url_chosen
    assert not served_settings(Settings(_env_file=None), "::", 9000).base_url_chosen
    spawned = Settings(base_url="http://127.0.0.1:9000", base_url_served=True, _env_file=None)
    assert not spawned.base_url_chosen  # a web process of `--processes`, given BASE_URL by its supervisor


def test_serve_runs_one_process_per_core_on_postgres_and_one_on_sqlite() -> None:
    postgres = Settings(database_url="postgresql+psycopg://db.example.org/ostraca", _env_file=None)
    assert web_processes(postgres) == len(os.sched_getaffinity(0))
    assert web_processes(postgres, 3) == 3
    assert web_processes(postgres.model_copy(update={"web_processes": 5})) == 5
    sqlite = Settings(_env_file=None)
    assert web_processes(sqlite) == 1
    assert web_processes(sqlite, 1) == 1
    with pytest.raises(ServiceError, match="SQLite is served by one process"):
        web_processes(sqlite, 2)  # its live news would not reach the other processes


def test_serve_refuses_several_processes_on_sqlite(tmp_path: Path) -> None:
    result = run(tmp_path, "serve", "--processes", "2")
    assert result.returncode == 2 and "SQLite is served by one process" in result.stderr


def test_serve_gives_slow_starting_processes_time_before_killing_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """uvicorn's supervisor kills a web process that does not answer its health check in time; its own 5 s
    is less than importing the app takes on a busy machine, where it would kill every process it starts."""
    import uvicorn

    given: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: given.update(kwargs))
    monkeypatch.setattr(os, "environ", dict(os.environ))  # the supervisor writes its children's settings
    settings = Settings(
        database_url="postgresql+psycopg://db.example.org/ostraca", run_jobs=False, _env_file=None
    )
    assert cli._serve_processes(served_settings(settings, "127.0.0.1", 8123), 2, "127.0.0.1", 8123) == 0
    assert (
        given["workers"] == 2 and given["timeout_worker_healthcheck"] == cli.WORKER_HEALTHCHECK_SECONDS >= 30
    )
