"""Fixtures: a migrated database (SQLite; Postgres too with TEST_DATABASE_URL), the app, clients."""

from __future__ import annotations

import logging
import os
import shutil
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, make_url, text
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app import migrate
from app.db import Base, make_engine, session_factory
from app.games import registry
from app.main import create_app
from app.settings import Settings
from tests import fakegame, summaries


def _database_of_this_worker(url: str) -> str:
    """Under pytest-xdist each worker gets its own Postgres database, `<name>_<worker>`, made on first use."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    base = make_url(url)
    name = f"{base.database}_{worker}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            exists = connection.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
            if exists.first() is None:
                connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


POSTGRES_URL = _database_of_this_worker(os.environ.get("TEST_DATABASE_URL", ""))
DATABASES = ["sqlite", "postgres"] if POSTGRES_URL else ["sqlite"]
PASSWORD = "correct horse battery"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

registry.register(fakegame.RULES)


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """A test that runs a command in-process (`ostraca worker --once`) configures the logs onto the
    stderr the runner captures for that test alone: put the loggers back, or later lines from any thread
    would be written to a closed file."""
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error", "uvicorn.access")]
    kept = [(logger.handlers[:], logger.level, logger.propagate) for logger in loggers]
    yield
    for logger, (handlers, level, propagate) in zip(loggers, kept, strict=True):
        logger.handlers, logger.propagate = handlers, propagate
        logger.setLevel(level)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, copied for each test (migrating once is much faster)."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate.upgrade(engine)
    engine.dispose()
    return path


@pytest.fixture(scope="session")
def postgres_engine() -> Iterator[Engine]:
    engine = make_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    migrate.upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> str:
    if request.param == "sqlite":
        path = tmp_path / "test.sqlite3"
        shutil.copy(sqlite_template, path)
        return f"sqlite:///{path}"
    engine: Engine = request.getfixturevalue("postgres_engine")
    tables = ", ".join(table.name for table in Base.metadata.sorted_tables)
    with engine.begin() as connection:
        connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
    return POSTGRES_URL


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    return Settings(database_url=database_url, data_dir=tmp_path / "var", run_jobs=False, _env_file=None)


@pytest.fixture
def sessions(settings: Settings) -> Iterator[sessionmaker[Session]]:
    engine = make_engine(settings.sqlalchemy_url)
    yield session_factory(engine)
    engine.dispose()


@pytest.fixture
def db(sessions: sessionmaker[Session]) -> Iterator[Session]:
    with sessions() as session:
        yield session


@pytest.fixture
def app(settings: Settings) -> Any:
    return create_app(settings)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def make_client(app: Any) -> Iterator[Any]:
    """Several independent browsers (each with its own cookies) on one app."""
    clients: list[TestClient] = []

    def make() -> TestClient:
        test_client = TestClient(app)
        test_client.__enter__()
        clients.append(test_client)
        return test_client

    yield make
    for test_client in clients:
        test_client.__exit__(None, None, None)


def sign_up(client: TestClient, name: str, **extra: Any) -> dict[str, Any]:
    """Sign up through the API; returns /me (with the CSRF token) and keeps the token for later calls."""
    body = {"email": f"{name.lower()}@example.com", "password": PASSWORD, "display_name": name, **extra}
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    response = client.post("/api/v1/auth/signup", json=body)
    assert response.status_code == 201, response.text
    me: dict[str, Any] = response.json()
    client.headers["X-CSRF-Token"] = me["csrf_token"]
    return me


def fresh_csrf(client: TestClient) -> str:
    token: str = client.get("/api/v1/me").json()["csrf_token"]
    client.headers["X-CSRF-Token"] = token
    return token


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The figures tests asked to show (the crawl's, per game) at the end of the run's output."""
    if summaries.LINES:
        terminalreporter.section("summary")
        for line in summaries.LINES:
            terminalreporter.write_line(line)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Under pytest-xdist, a worker hands its summary lines to the controller, which prints them."""
    worker_output = getattr(session.config, "workeroutput", None)
    if worker_output is not None:
        worker_output["summaries"] = list(summaries.LINES)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    summaries.LINES.extend(getattr(node, "workeroutput", {}).get("summaries", []))
