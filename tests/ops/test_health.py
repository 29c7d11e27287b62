"""/healthz answers without the database; /readyz checks the database and the migrations."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text
from starlette.testclient import TestClient

from app.db import make_engine
from app.main import create_app
from app.services.ops import health
from app.settings import Settings


def test_healthz_and_readyz_when_all_is_well(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "revision": list(health.head_revisions())}


def test_readyz_refuses_a_schema_behind_the_migrations(client: TestClient, database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.begin() as connection:
        head = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        connection.execute(text("UPDATE alembic_version SET version_num = 'older'"))
    try:
        response = client.get("/readyz")
        assert client.get("/healthz").status_code == 200  # the process itself is fine
    finally:
        with engine.begin() as connection:  # the Postgres schema is shared by the tests that follow
            connection.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": head})
        engine.dispose()
    assert response.status_code == 503
    error = response.json()["error"]
    assert error["code"] == "migrations_pending"
    assert error["current"] == ["older"] and error["head"] == [head]


def test_readyz_refuses_when_the_database_does_not_answer(tmp_path: Path) -> None:
    unreachable = "postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=2"
    settings = Settings(database_url=unreachable, data_dir=tmp_path, run_jobs=False, _env_file=None)
    with TestClient(create_app(settings)) as client:
        assert client.get("/healthz").status_code == 200
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["error"]["code"] == "database_unavailable"
    assert "nobody" not in response.text  # no connection details in the answer
