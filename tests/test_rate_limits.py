"""Rate limits: the client address behind trusted proxies only, a log-in limit that slows a guesser down
without locking the owner out, and limits on creating, renaming and queueing."""

from __future__ import annotations

from collections.abc import Iterator
from ipaddress import ip_network
from typing import Any

import pytest
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app import cli
from app.main import create_app
from app.services.errors import ServiceError
from app.settings import Settings
from app.web import ratelimit
from app.web.deps import forwarded_client
from app.web.ratelimit import RateLimiter
from tests.conftest import PASSWORD
from tests.moderation.helpers import fast_passwords, make_user

PROXY = [ip_network("10.0.0.0/8")]


def _refused(call: Any) -> bool:
    try:
        call()
    except ServiceError as error:
        assert error.code == "rate_limited" and error.status == 429
        return True
    return False


# --- the client address -------------------------------------------------------------------------------


def test_without_trusted_proxies_the_socket_peer_is_the_client() -> None:
    assert forwarded_client("203.0.113.9", "198.51.100.1, 198.51.100.2", []) == "203.0.113.9"
    assert Settings(_env_file=None).trusted_proxy_networks == ()  # the default trusts nobody


def test_behind_a_trusted_proxy_the_nearest_untrusted_hop_is_the_client() -> None:
    # The client made up the first hop; the proxy appended the address it saw.
    assert forwarded_client("10.0.0.2", "1.2.3.4, 203.0.113.9", PROXY) == "203.0.113.9"
    assert forwarded_client("10.0.0.2", "1.2.3.4, 203.0.113.9, 10.0.0.7", PROXY) == "203.0.113.9"
    assert forwarded_client("10.0.0.2", "", PROXY) == "10.0.0.2"  # a direct call from the proxy's host
    assert forwarded_client("10.0.0.2", "10.0.0.3", PROXY) == "10.0.0.3"
    assert forwarded_client("10.0.0.2", "not-an-address, 10.0.0.3", PROXY) == "not-an-address"


def test_trusted_proxies_are_checked_at_start() -> None:
    settings = Settings(trusted_proxies="10.0.0.0/8, ::1", _env_file=None)
    assert settings.trusted_proxy_networks == (ip_network("10.0.0.0/8"), ip_network("::1"))
    with pytest.raises(ValidationError):
        Settings(trusted_proxies="10.0.0.0/8, localhost", _env_file=None)


def test_uvicorn_does_not_read_forwarded_headers_itself(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    import uvicorn

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options))
    monkeypatch.setattr(cli, "prepare_database", lambda settings: None)
    settings = Settings(data_dir=tmp_path, run_jobs=False, _env_file=None)
    assert cli._serve(settings, "127.0.0.1", 8000, no_jobs=True) == 0
    assert seen["proxy_headers"] is False


@pytest.fixture
def proxied(settings: Settings) -> Iterator[TestClient]:
    """A client whose requests come from a trusted proxy at 10.0.0.2."""
    behind = settings.model_copy(update={"trusted_proxies": "10.0.0.0/8", "login_attempts_per_minute": 3})
    with TestClient(create_app(behind), client=("10.0.0.2", 40000)) as client:
        client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
        yield client


def _log_in(client: TestClient, address: str, password: str) -> int:
    body = {"email": "owner@example.com", "password": password}
    answer = client.post("/api/v1/auth/login", json=body, headers={"X-Forwarded-For": address})
    if answer.status_code == 200:  # a log-in starts a new session, with its own token
        client.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
    return answer.status_code


def test_a_guesser_is_slowed_down_while_the_owner_still_logs_in(proxied: TestClient, db: Session) -> None:
    with fast_passwords():
        make_user(db, "Owner")
        assert _log_in(proxied, "198.51.100.7", PASSWORD) == 200  # the owner, at home, some day
        guesses = [_log_in(proxied, "203.0.113.9", "wrong password!") for _ in range(5)]
        assert guesses == [401, 401, 401, 429, 429]
        # A made-up hop left of the proxy's does not give the guesser a fresh address.
        assert _log_in(proxied, "192.0.2.1, 203.0.113.9", "wrong password!") == 429
        assert _log_in(proxied, "198.51.100.7", PASSWORD) == 200


def test_the_account_limit_holds_over_many_addresses_but_spares_the_owners() -> None:
    limiter = RateLimiter(Settings(login_attempts_per_minute=2, _env_file=None))
    limiter.logged_in("198.51.100.7", "Owner@example.com")
    per_account = 2 * ratelimit.LOGIN_ACCOUNT_FACTOR
    assert not any(
        _refused(lambda n=n: limiter.log_in(f"203.0.113.{n}", "owner@example.com"))
        for n in range(per_account)
    )
    assert _refused(lambda: limiter.log_in("203.0.113.250", "owner@example.com"))
    assert not _refused(lambda: limiter.log_in("198.51.100.7", "owner@example.com"))


def test_an_address_trying_many_accounts_is_held_back() -> None:
    limiter = RateLimiter(Settings(login_attempts_per_minute=2, _env_file=None))
    per_address = 2 * ratelimit.LOGIN_ADDRESS_FACTOR
    refusals = [
        _refused(lambda n=n: limiter.log_in("203.0.113.9", f"user{n}@example.com"))
        for n in range(per_address + 1)
    ]
    assert refusals == [False] * per_address + [True]


def test_a_refused_request_is_not_counted() -> None:
    limiter = RateLimiter(Settings(_env_file=None))
    assert [_refused(lambda: limiter.hit("test", "k", 2, 60)) for _ in range(4)] == [False, False, True, True]
    limiter.reset()
    assert not _refused(lambda: limiter.hit("test", "k", 2, 60))


# --- creating, renaming and queueing --------------------------------------------------------------------


def _api(client: TestClient, method: str, path: str, body: dict[str, Any] | None = None) -> int:
    return client.request(method, path, json=body).status_code


def test_game_creation_renames_and_queue_changes_are_limited(client: TestClient, db: Session) -> None:
    with fast_passwords():
        make_user(db, "Ann")
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    me = client.post("/api/v1/auth/login", json={"email": "ann@example.com", "password": PASSWORD}).json()
    client.headers["X-CSRF-Token"] = me["csrf_token"]
    game = {"game_type": "fake", "players": 2, "time_limit_hours": 24}
    created = [
        _api(client, "POST", "/api/v1/games", game) for _ in range(ratelimit.GAMES_CREATED_PER_HOUR + 1)
    ]
    assert created == [201] * ratelimit.GAMES_CREATED_PER_HOUR + [429]
    game_id = client.get("/api/v1/games").json()[0]["id"]
    renames = [
        _api(client, "POST", f"/api/v1/games/{game_id}/rename", {"name": f"Name {n}"})
        for n in range(ratelimit.RENAMES_PER_HOUR + 1)
    ]
    assert renames == [200] * ratelimit.RENAMES_PER_HOUR + [429]
    queue = {"min_hours": 1, "max_hours": None}
    changes = [_api(client, "DELETE", "/api/v1/queue/fake") for _ in range(ratelimit.QUEUE_CHANGES_PER_HOUR)]
    assert 429 not in changes  # 404: no entry to leave
    assert _api(client, "PUT", "/api/v1/queue/fake", queue) == 429


# --- the current password, when changing it -------------------------------------------------------------


def _change_password(client: TestClient, address: str, current: str) -> int:
    body = {"current_password": current, "new_password": "a brand new password 42"}
    return client.post("/api/v1/me/password", json=body, headers={"X-Forwarded-For": address}).status_code


def test_guessing_the_current_password_with_a_stolen_session_is_slowed_down(
    proxied: TestClient, db: Session
) -> None:
    with fast_passwords():
        make_user(db, "Owner")
        assert _log_in(proxied, "198.51.100.7", PASSWORD) == 200
        # Whoever holds the session cookie elsewhere guesses the password to end every other session.
        guesses = [_change_password(proxied, "203.0.113.9", "wrong password!") for _ in range(5)]
        assert guesses == [401, 401, 401, 429, 429]
        refused = proxied.post(
            "/api/v1/me/password",
            json={"current_password": PASSWORD, "new_password": "a brand new password 42"},
            headers={"X-Forwarded-For": "203.0.113.9"},
        )
        assert refused.status_code == 429
        assert refused.json()["error"] == {
            "code": "rate_limited",
            "message": "Too many attempts: wait a minute and try again.",
            "field": None,
        }
        assert _log_in(proxied, "203.0.113.9", PASSWORD) == 429  # the same counts as a log-in's


def test_the_password_form_is_limited_too(proxied: TestClient, db: Session) -> None:
    with fast_passwords():
        make_user(db, "Owner")
        assert _log_in(proxied, "198.51.100.7", PASSWORD) == 200
        form = {"current_password": "wrong password!", "new_password": "a brand new password 42"}
        form["csrf_token"] = proxied.headers["X-CSRF-Token"]
        headers = {"X-Forwarded-For": "203.0.113.9"}
        pages = [proxied.post("/account/password", data=form, headers=headers).text for _ in range(4)]
    assert 'data-code="bad_credentials"' in pages[0]
    assert ['data-code="rate_limited"' in page for page in pages] == [False, False, False, True]
