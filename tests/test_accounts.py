from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import PASSWORD, sign_up


def _csrf(client: TestClient) -> None:
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]


def _error(response: Any) -> dict[str, Any]:
    body: dict[str, Any] = response.json()["error"]
    return body


def test_sign_up_logs_in_and_hashes_with_argon2(client: TestClient, db: Any) -> None:
    sign_up(client, "Alice", language="fr", time_zone="Europe/Paris")
    me = client.get("/api/v1/me").json()
    assert (me["language"], me["time_zone"]) == ("fr", "Europe/Paris")
    from app.models import User

    stored = db.query(User).one()
    assert stored.password_hash.startswith("$argon2id$")
    assert PASSWORD not in stored.password_hash


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"password": "short"}, 422, "weak_password", "password"),
        ({"password": "aaaaaaaaaaaa"}, 422, "weak_password", "password"),
        ({"email": "not-an-address"}, 422, "invalid_input", "email"),
        ({"display_name": "x"}, 422, "invalid_input", "display_name"),
        ({"time_zone": "Mars/Olympus"}, 422, "invalid_input", "time_zone"),
        ({"language": "de"}, 422, "invalid_input", "language"),
    ],
)
def test_sign_up_refusals(
    client: TestClient, body: dict[str, str], status: int, code: str, field: str
) -> None:
    _csrf(client)
    full = {"email": "bob@example.com", "password": PASSWORD, "display_name": "Bob", **body}
    response = client.post("/api/v1/auth/signup", json=full)
    assert response.status_code == status
    assert _error(response)["code"] == code
    assert _error(response)["field"] == field
    assert client.get("/api/v1/me").status_code == 401


def test_duplicate_email_and_name(make_client: Any) -> None:
    first, second = make_client(), make_client()
    sign_up(first, "Alice")
    _csrf(second)
    same_email = {"email": "ALICE@example.com", "password": PASSWORD, "display_name": "Other"}
    response = second.post("/api/v1/auth/signup", json=same_email)
    assert (response.status_code, _error(response)["code"]) == (409, "email_taken")
    same_name = {"email": "other@example.com", "password": PASSWORD, "display_name": "alice"}
    response = second.post("/api/v1/auth/signup", json=same_name)
    assert (response.status_code, _error(response)["code"]) == (409, "name_taken")


def test_wrong_credentials_do_not_tell_which_accounts_exist(make_client: Any) -> None:
    sign_up(make_client(), "Alice")
    client = make_client()
    _csrf(client)
    wrong_password = client.post(
        "/api/v1/auth/login", json={"email": "alice@example.com", "password": "nope-nope"}
    )
    unknown = client.post("/api/v1/auth/login", json={"email": "nobody@example.com", "password": "nope-nope"})
    assert wrong_password.status_code == unknown.status_code == 401
    assert wrong_password.json() == unknown.json()
    good = client.post("/api/v1/auth/login", json={"email": "Alice@Example.com", "password": PASSWORD})
    assert good.status_code == 200


def test_login_is_rate_limited(client: TestClient) -> None:
    _csrf(client)
    statuses = [
        client.post(
            "/api/v1/auth/login", json={"email": "x@example.com", "password": "wrong-password"}
        ).status_code
        for _ in range(12)
    ]
    assert statuses[:10] == [401] * 10
    assert statuses[10:] == [429, 429]


def test_logout_and_logout_everywhere(make_client: Any) -> None:
    laptop, phone = make_client(), make_client()
    sign_up(laptop, "Alice")
    _csrf(phone)
    assert (
        phone.post(
            "/api/v1/auth/login", json={"email": "alice@example.com", "password": PASSWORD}
        ).status_code
        == 200
    )
    phone.headers["X-CSRF-Token"] = phone.get("/api/v1/me").json()["csrf_token"]
    assert laptop.post("/api/v1/auth/logout-everywhere").status_code == 204
    assert laptop.get("/api/v1/me").status_code == 401
    assert phone.get("/api/v1/me").status_code == 401


def test_password_change_keeps_this_session_and_ends_others(make_client: Any) -> None:
    laptop, phone = make_client(), make_client()
    sign_up(laptop, "Alice")
    _csrf(phone)
    phone.post("/api/v1/auth/login", json={"email": "alice@example.com", "password": PASSWORD})
    wrong = laptop.post(
        "/api/v1/me/password", json={"current_password": "bad", "new_password": "new password 42"}
    )
    assert (wrong.status_code, _error(wrong)["field"]) == (401, "current_password")
    changed = laptop.post(
        "/api/v1/me/password", json={"current_password": PASSWORD, "new_password": "new password 42"}
    )
    assert changed.status_code == 204
    laptop.headers["X-CSRF-Token"] = laptop.get("/api/v1/me").json()["csrf_token"]
    assert laptop.get("/api/v1/me").status_code == 200
    assert phone.get("/api/v1/me").status_code == 401


def test_profile_update(make_client: Any) -> None:
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    response = alice.patch(
        "/api/v1/me", json={"display_name": "Alicia", "language": "fr", "time_zone": "Asia/Tokyo"}
    )
    assert response.status_code == 200
    assert response.json()["display_name"] == "Alicia"
    taken = alice.patch("/api/v1/me", json={"display_name": "Bob"})
    assert (taken.status_code, _error(taken)["code"]) == (409, "name_taken")
    assert alice.get("/api/v1/me").json()["display_name"] == "Alicia"


def test_state_changes_need_the_csrf_token(client: TestClient) -> None:
    sign_up(client, "Alice")
    del client.headers["X-CSRF-Token"]
    response = client.patch("/api/v1/me", json={"display_name": "Mallory"})
    assert (response.status_code, _error(response)["code"]) == (403, "csrf_failed")
    client.headers["X-CSRF-Token"] = "forged"
    assert client.patch("/api/v1/me", json={"display_name": "Mallory"}).status_code == 403
    assert client.get("/api/v1/me").json()["display_name"] == "Alice"


def test_cross_site_origin_is_refused(client: TestClient) -> None:
    sign_up(client, "Alice")
    response = client.patch(
        "/api/v1/me", json={"display_name": "Mallory"}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 403


def test_html_sign_up_and_log_in_forms(client: TestClient) -> None:
    page = client.get("/signup")
    token = page.text.split('name="csrf_token" value="')[1].split('"')[0]
    form = {
        "csrf_token": token,
        "email": "carol@example.com",
        "password": PASSWORD,
        "display_name": "Carol",
        "language": "fr",
        "time_zone": "Europe/Paris",
    }
    response = client.post("/signup", data=form, follow_redirects=False)
    assert response.status_code == 303
    home = client.get("/")
    assert "Carol" in home.text
    assert 'lang="fr"' in home.text
    refused = client.post("/signup", data={**form, "csrf_token": "wrong"})
    assert refused.status_code == 403
    assert "<html" in refused.text and "Traceback" not in refused.text


def test_sign_ups_never_confirmed_are_purged_once_their_link_has_expired(db: Any) -> None:
    from datetime import timedelta

    from sqlalchemy import select

    from app.models import Notification, User
    from app.services.accounts import accounts
    from tests.conftest import NOW

    def account(name: str, pending: bool, age: timedelta) -> User:
        user = User(
            email=f"{name}@example.com",
            display_name=name,
            password_hash="x",
            signup_pending=pending,
            created_at=NOW - age,
        )
        db.add(user)
        db.flush()
        db.add(Notification(user_id=user.id, kind="verify_email", data={"email": user.email}))
        return user

    link_life = accounts.UNCONFIRMED_SIGN_UPS_KEPT
    account("Stale", pending=True, age=link_life + timedelta(minutes=1))
    account("Fresh", pending=True, age=link_life - timedelta(minutes=1))
    account("Veteran", pending=False, age=link_life * 10)
    db.commit()
    assert accounts.purge_unconfirmed_sign_ups(db, NOW) == 1
    db.commit()
    assert sorted(db.scalars(select(User.display_name))) == ["Fresh", "Veteran"]
    assert (
        db.scalar(select(Notification).where(Notification.data["email"].as_string() == "stale@example.com"))
        is None
    )


# --- log-out ends the session on the server ----------------------------------------------------------


def _copy_of(app: Any, original: TestClient) -> TestClient:
    """Another browser holding a copy of `original`'s cookie (a stolen cookie, say)."""
    thief = TestClient(app)
    thief.cookies.update(original.cookies)
    thief.headers["X-CSRF-Token"] = original.headers["X-CSRF-Token"]
    return thief


@pytest.mark.parametrize("route", ["/api/v1/auth/logout", "/logout"])
def test_a_copied_cookie_stops_working_after_log_out(app: Any, client: TestClient, route: str) -> None:
    sign_up(client, "Alice")
    with _copy_of(app, client) as thief:
        assert thief.get("/api/v1/me").status_code == 200
        if route.startswith("/api/"):
            assert client.post(route).status_code == 204
        else:
            token = client.headers["X-CSRF-Token"]
            assert client.post(route, data={"csrf_token": token}, follow_redirects=False).status_code == 303
        assert client.get("/api/v1/me").status_code == 401
        assert thief.get("/api/v1/me").status_code == 401
        assert thief.get("/account", follow_redirects=False).status_code == 401


def test_log_out_ends_only_its_own_session(make_client: Any, db: Any) -> None:
    from sqlalchemy import func, select

    from app.models import LoginSession

    laptop, phone = make_client(), make_client()
    sign_up(laptop, "Alice")
    _csrf(phone)
    phone.post("/api/v1/auth/login", json={"email": "alice@example.com", "password": PASSWORD})
    assert db.scalar(select(func.count()).select_from(LoginSession)) == 2
    db.commit()  # no read transaction left open (SQLite would lock the writers out)
    assert laptop.post("/api/v1/auth/logout").status_code == 204
    assert phone.get("/api/v1/me").status_code == 200
    assert db.scalar(select(func.count()).select_from(LoginSession)) == 1
    keys = db.scalars(select(LoginSession.key_hash)).all()
    assert all(len(key) == 64 and key not in str(phone.cookies) for key in keys)  # only a hash is stored


def test_a_session_ends_after_its_lifetime_and_is_purged(db: Any) -> None:
    from datetime import timedelta

    from app.models import LoginSession
    from app.services.accounts import accounts
    from tests.conftest import NOW
    from tests.moderation.helpers import make_user

    alice = make_user(db, "Alice")
    key = accounts.open_login_session(db, alice, NOW, timedelta(days=30))
    found = accounts.user_of_login_session(db, key, NOW + timedelta(days=29))  # a record of the row
    assert found is not None and found.id == alice.id
    assert accounts.user_of_login_session(db, key, NOW + timedelta(days=30)) is None
    assert accounts.purge_expired_login_sessions(db, NOW + timedelta(days=31)) == 1
    db.commit()
    assert db.query(LoginSession).count() == 0


# --- address change ----------------------------------------------------------------------------------


def _ask_for(client: TestClient, email: str, password: str | None = PASSWORD) -> Any:
    body = {"email": email} if password is None else {"email": email, "current_password": password}
    return client.patch("/api/v1/me", json=body)


def test_an_address_change_answers_the_same_whether_or_not_the_address_is_taken(make_client: Any) -> None:
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    free, taken = _ask_for(alice, "free@example.com"), _ask_for(alice, "bob@example.com")
    assert (free.status_code, taken.status_code) == (200, 200)
    free_body, taken_body = free.json(), taken.json()
    assert (free_body["pending_email"], taken_body["pending_email"]) == (
        "free@example.com",
        "bob@example.com",
    )
    assert {k: v for k, v in free_body.items() if k != "pending_email"} == {
        k: v for k, v in taken_body.items() if k != "pending_email"
    }


def test_an_address_change_needs_the_current_password(make_client: Any) -> None:
    alice = make_client()
    sign_up(alice, "Alice")
    for password in (None, "not the password"):
        refused = _ask_for(alice, "thief@example.com", password)
        assert (refused.status_code, _error(refused)["code"], _error(refused)["field"]) == (
            401,
            "bad_credentials",
            "current_password",
        )
    assert alice.get("/api/v1/me").json()["pending_email"] is None
    other_fields = alice.patch("/api/v1/me", json={"language": "fr"})  # the rest needs no password
    assert other_fields.status_code == 200
    token = alice.headers["X-CSRF-Token"]
    form = {"display_name": "Alice", "email": "thief@example.com", "language": "en", "time_zone": "UTC"}
    form["current_password"] = PASSWORD
    page = alice.post("/account", data={**form, "csrf_token": token}, follow_redirects=False)
    assert page.status_code == 303
    assert alice.get("/api/v1/me").json()["pending_email"] == "thief@example.com"


def test_address_changes_are_rate_limited_per_account_and_per_address(make_client: Any) -> None:
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    asked = ["target", "a1", "target", "a2"]
    assert [_ask_for(alice, f"{name}@example.com").status_code for name in asked] == [200, 200, 200, 429]
    # one address: a few check mails an hour, whichever accounts ask for it
    asked = ["target", "b1", "target"]
    assert [_ask_for(bob, f"{name}@example.com").status_code for name in asked] == [200, 200, 429]
    assert bob.get("/api/v1/me").json()["pending_email"] == "b1@example.com"
    wrong_guesses = [_ask_for(bob, f"c{n}@example.com", "guess").status_code for n in range(2)]
    assert wrong_guesses == [429, 429]  # the password is not guessed through this form either


CYRILLIC_ES = "\u0441"  # "с", which looks like a Latin "c"


@pytest.mark.parametrize("look_alike", [f"{CYRILLIC_ES}iv0", "civO", f"{CYRILLIC_ES}IV0", " civ0 "])
def test_a_name_that_looks_like_a_taken_one_is_refused_at_sign_up(make_client: Any, look_alike: str) -> None:
    first, second = make_client(), make_client()
    sign_up(first, "civ0")
    _csrf(second)
    body = {"email": "other@example.com", "password": PASSWORD, "display_name": look_alike}
    response = second.post("/api/v1/auth/signup", json=body)
    assert (response.status_code, _error(response)["code"]) == (409, "name_taken")


def test_a_rename_to_a_look_alike_is_refused(make_client: Any) -> None:
    alice, bob = make_client(), make_client()
    sign_up(alice, "civ0")
    sign_up(bob, "Bob")
    taken = bob.patch("/api/v1/me", json={"display_name": f"{CYRILLIC_ES}iv0"})
    assert (taken.status_code, _error(taken)["code"]) == (409, "name_taken")
    assert bob.get("/api/v1/me").json()["display_name"] == "Bob"


def test_look_alikes_taken_before_the_rule_keep_their_names(make_client: Any, db: Any) -> None:
    from app.models import User

    alice, bob = make_client(), make_client()
    sign_up(alice, "civ0")
    bob_id = sign_up(bob, "Bob")["id"]
    db.get(User, bob_id).display_name = f"{CYRILLIC_ES}iv0"  # as an older server let it be
    db.commit()
    kept = bob.patch("/api/v1/me", json={"display_name": f"{CYRILLIC_ES}iv0", "language": "fr"})
    assert kept.status_code == 200 and kept.json()["display_name"] == f"{CYRILLIC_ES}iv0"
    other = bob.patch("/api/v1/me", json={"display_name": "civO"})  # a new name is checked
    assert (other.status_code, _error(other)["code"]) == (409, "name_taken")
