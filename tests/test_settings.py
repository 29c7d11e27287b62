"""Settings that a typo must not turn unsafe: the environment's name, the production secret, /dev/mail."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.cli import main
from app.main import create_app
from app.settings import DEVELOPMENT_SECRET, Settings
from tests.conftest import PASSWORD
from tests.moderation.helpers import make_user

LONG_SECRET = "s" * 32


@pytest.mark.parametrize("name", ["prod", "Production", "PRODUCTION", "dev", "staging", ""])
def test_an_undocumented_environment_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValidationError, match="ENVIRONMENT is 'development' or 'production'"):
        Settings(environment=name, secret_key=LONG_SECRET, data_dir=tmp_path, _env_file=None)


def test_the_documented_environments_are_accepted(tmp_path: Path) -> None:
    assert Settings(environment="development", data_dir=tmp_path, _env_file=None).development
    production = Settings(environment="production", secret_key=LONG_SECRET, data_dir=tmp_path, _env_file=None)
    assert not production.development and production.confirms_signups


@pytest.mark.parametrize("secret", [DEVELOPMENT_SECRET, "x" * 31, "é" * 15])
def test_production_refuses_a_short_or_public_secret(tmp_path: Path, secret: str) -> None:
    with pytest.raises(ValidationError, match="SECRET_KEY must"):
        Settings(environment="production", secret_key=secret, data_dir=tmp_path, _env_file=None)


def test_the_command_refuses_to_start_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ENVIRONMENT", "prod")
    assert main(["migrate"]) == 2
    assert "error: ENVIRONMENT is 'development' or 'production', not 'prod'" in capsys.readouterr().err
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", "too-short")
    assert main(["migrate"]) == 2
    assert "SECRET_KEY must have at least 32 bytes in production" in capsys.readouterr().err


# --- /dev/mail ---------------------------------------------------------------------------------------


def _write_mail(settings: Settings) -> str:
    settings.mail_dir.mkdir(parents=True, exist_ok=True)
    name = "20261130-120000-reset.eml"
    mail = b"To: a@example.com\r\nSubject: Reset your password\r\n\r\nhttp://x/password/reset/secret\r\n"
    (settings.mail_dir / name).write_bytes(mail)
    return name


def test_dev_mail_is_for_loopback_clients_and_administrators(settings: Settings, db: Session) -> None:
    name = _write_mail(settings)
    make_user(db, "Boss", "admin")
    make_user(db, "Plain")
    app = create_app(settings)
    with TestClient(app, client=("127.0.0.1", 50000)) as local:
        assert local.get("/dev/mail").status_code == 200
        assert "/password/reset/secret" in local.get(f"/dev/mail/{name}").text
    with TestClient(app, client=("203.0.113.9", 50000)) as remote:
        assert remote.get("/dev/mail").status_code == 403
        assert remote.get(f"/dev/mail/{name}").status_code == 403
        for who, allowed in (("plain", False), ("boss", True)):
            remote.headers["X-CSRF-Token"] = remote.get("/api/v1/auth/csrf").json()["csrf_token"]
            login = {"email": f"{who}@example.com", "password": PASSWORD}
            assert remote.post("/api/v1/auth/login", json=login).status_code == 200
            assert (remote.get(f"/dev/mail/{name}").status_code == 200) is allowed


def test_dev_mail_is_never_served_in_production(settings: Settings) -> None:
    name = _write_mail(settings)
    production = settings.model_copy(update={"environment": "production", "secret_key": LONG_SECRET})
    with TestClient(create_app(production), client=("127.0.0.1", 50000)) as local:
        assert local.get("/dev/mail").status_code == 404
        assert local.get(f"/dev/mail/{name}").status_code == 404
