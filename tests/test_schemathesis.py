"""The JSON API against its own OpenAPI schema (schemathesis): for every operation, generated requests
never get a 500 nor a status the schema does not declare, and every answer matches its declared schema.

The calls are made as a logged-in administrator (with the CSRF token), in a world with a running game, a
report and a sanction, so that the checks reach past the log-in and CSRF refusals into the services.
Kept short: a few examples per operation.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.main import create_app
from app.models import User
from app.services.moderation import moderation, reports
from app.services.social import lobby
from app.settings import Settings
from tests.conftest import PASSWORD
from tests.moderation.helpers import fast_passwords, make_user

CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance]
# Operations that would end the administrator's own session halfway through the run.
SKIPPED = {("POST", "/api/v1/auth/logout"), ("POST", "/api/v1/auth/logout-everywhere")}


@pytest.fixture
def admin_session(app: Any, db: Session) -> Iterator[Any]:
    """A world to act in, and a client of the test's app logged in as its administrator."""
    with fast_passwords():
        admin = make_user(db, "Root", "admin")
        _world(db, admin)
        client = asgi.get_client(app)
        token = client.get("http://testserver/api/v1/auth/csrf").json()["csrf_token"]
        login = {"email": "root@example.com", "password": PASSWORD}
        answer = client.post(
            "http://testserver/api/v1/auth/login", json=login, headers={"X-CSRF-Token": token}
        )
        assert answer.status_code == 200, answer.text
        client.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
        yield client
        client.close()


def _world(db: Session, admin: User) -> None:
    now = datetime.now(UTC)
    ann, ben = make_user(db, "Ann"), make_user(db, "Ben")
    game = lobby.create_game(db, ann, game_type="fake", players=2, time_limit_hours=24, now=now)
    lobby.join_game(db, ben, game.id, now)
    reports.file_report(db, ann, reports.ReportDraft(kind="player", reason="spam", player="Ben"), now)
    moderation.impose(db, admin, ben.id, moderation.SanctionOrder("mute", 24, "Spam"), now)


def _schema() -> Any:
    """The schema depends on no database: read it once from an app that never opens its own; each test
    then calls its own app (`app=`), with its own database."""
    bare = create_app(Settings(data_dir=Path(tempfile.mkdtemp()), run_jobs=False, _env_file=None))
    with TestClient(bare) as client:
        document = client.get("/openapi.json").json()
    loaded = schemathesis.openapi.from_dict(document)
    loaded.config.update(base_url="http://testserver")
    return loaded


schema = _schema()


@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_to_its_schema(case: Any, admin_session: Any) -> None:
    if (case.method.upper(), case.path) in SKIPPED:
        return
    case.call_and_validate(session=admin_session, checks=CHECKS)
