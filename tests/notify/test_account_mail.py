"""Password reset (no account enumeration, signed, expiring, single use) and address verification."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import MailSettings
from app.services.accounts import tokens
from app.services.errors import ServiceError
from app.services.mail import account_mail
from app.settings import Settings
from tests.conftest import PASSWORD
from tests.notify.conftest import RunMail, Sink, make_user, notifications_of, text_of

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _link(sink: Sink, address: str, path: str) -> str:
    (message,) = sink.to(address)
    found = re.search(rf"https://games\.example\.com({re.escape(path)}[\w.-]+)", text_of(message))
    assert found is not None
    return found.group(1)


def _csrf(client: TestClient, page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', client.get(page).text)
    assert found is not None
    return found.group(1)


def test_the_reset_flow(db: Session, mail_client: TestClient, run_mail: RunMail, sink: Sink) -> None:
    alice = make_user(db, "Alice")
    alice_id, old_version = alice.id, alice.session_version
    db.commit()
    token = _csrf(mail_client, "/password/forgot")
    for address in ("alice@example.com", "nobody@example.com", "not an address"):
        answer = mail_client.post("/password/forgot", data={"email": address, "csrf_token": token})
        assert answer.status_code == 200 and "If an account has this address" in answer.text
    run_mail()
    assert [m["To"] for m in sink.messages] == ["Alice <alice@example.com>"]  # only the real account
    link = _link(sink, "alice@example.com", "/password/reset/")

    page = mail_client.get(link)
    assert page.status_code == 200 and "new_password" in page.text
    token = _csrf(mail_client, link)
    weak = mail_client.post(link, data={"new_password": "short", "csrf_token": token})
    assert weak.status_code == 422
    done = mail_client.post(link, data={"new_password": "a brand new passphrase", "csrf_token": token})
    assert done.status_code == 200 and done.url.path == "/login"
    login = {"email": "alice@example.com", "password": "a brand new passphrase"}
    mail_client.headers["X-CSRF-Token"] = mail_client.get("/api/v1/auth/csrf").json()["csrf_token"]
    assert mail_client.post("/api/v1/auth/login", json=login).status_code == 200
    db.expire_all()
    reloaded = db.get(type(alice), alice_id)
    assert reloaded is not None and reloaded.session_version == old_version + 1
    db.commit()
    assert mail_client.get(link).status_code == 400  # spent


def test_a_reset_token_expires(db: Session, mail_settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    alice = make_user(db, "Alice")
    token = tokens.reset_token(mail_settings.secret_key, alice.id, alice.password_hash)
    assert account_mail.user_for_reset(db, mail_settings.secret_key, token).id == alice.id
    later = time.time() + tokens.RESET_MAX_AGE_SECONDS + 5
    monkeypatch.setattr("itsdangerous.timed.time.time", lambda: later)
    with pytest.raises(ServiceError) as refused:
        account_mail.user_for_reset(db, mail_settings.secret_key, token)
    assert refused.value.code == "invalid_token"


def test_a_reset_token_is_not_a_verification_token(db: Session, mail_settings: Settings) -> None:
    alice = make_user(db, "Alice")
    reset = tokens.reset_token(mail_settings.secret_key, alice.id, alice.password_hash)
    with pytest.raises(ServiceError):
        tokens.read_verify_token(mail_settings.secret_key, reset)
    with pytest.raises(ServiceError):
        tokens.read_unsubscribe_token(mail_settings.secret_key, reset)


def test_verification(
    db: Session, mail_client: TestClient, run_mail: RunMail, sink: Sink, mail_app: Any
) -> None:
    from tests.notify.conftest import log_in

    alice = make_user(db, "Alice")
    alice_id = alice.id
    log_in(mail_client, alice)
    page = mail_client.get("/account/notifications")
    assert "is not confirmed yet" in page.text
    answer = mail_client.post(
        "/account/verify", data={"csrf_token": str(mail_client.headers["X-CSRF-Token"])}
    )
    assert answer.status_code == 200 and "We sent you a verification link" in answer.text
    run_mail()
    link = _link(sink, "alice@example.com", "/account/verify/")
    with TestClient(mail_app) as stranger:  # the mail may be opened anywhere, without a session
        shown = stranger.get(link)
        assert shown.status_code == 200 and 'method="post"' in shown.text
        own = db.get(MailSettings, alice_id)
        assert own is None or own.verified_at is None  # a GET verifies nothing
        db.commit()
        confirmed = stranger.post(link)
        assert confirmed.status_code == 200 and "is confirmed" in confirmed.text
    assert "is confirmed." in mail_client.get("/account/notifications").text
    assert [row.outcome for row in notifications_of(db, alice)] == ["mailed"]


def test_a_verification_link_for_an_old_address_is_refused(db: Session, mail_settings: Settings) -> None:
    from datetime import UTC, datetime

    alice = make_user(db, "Alice")
    credentials = tokens.password_fingerprint(alice.password_hash)
    token = tokens.verify_token(mail_settings.secret_key, alice.id, "old@example.com", credentials)
    with pytest.raises(ServiceError):
        account_mail.verify_email(db, mail_settings.secret_key, token, datetime.now(UTC))


def test_the_reset_mail_answer_is_the_same_for_unknown_addresses(db: Session) -> None:
    alice = make_user(db, "Alice")
    account_mail.request_password_reset(db, "nobody@example.com")  # answers nothing, either way
    account_mail.request_password_reset(db, "alice@example.com")
    assert [row.kind for row in notifications_of(db, alice)] == ["password_reset"]


def test_a_new_address_is_used_once_its_link_is_followed(
    db: Session, mail_client: TestClient, run_mail: RunMail, sink: Sink
) -> None:
    from tests.notify.conftest import log_in

    alice = make_user(db, "Alice")
    log_in(mail_client, alice)
    asked = mail_client.patch(
        "/api/v1/me", json={"email": "Alice.New@example.com", "current_password": PASSWORD}
    )
    assert asked.status_code == 200
    assert (asked.json()["email"], asked.json()["pending_email"]) == (
        "alice@example.com",
        "alice.new@example.com",
    )
    assert "We sent a link to alice.new@example.com" in mail_client.get("/account").text
    run_mail()
    assert [m["To"] for m in sink.messages] == ["Alice <alice.new@example.com>"]
    assert "until then your mail goes to your old address" in text_of(sink.messages[0])
    link = _link(sink, "alice.new@example.com", "/account/verify/")
    confirmed = mail_client.post(link)
    assert confirmed.status_code == 200 and "alice.new@example.com" in confirmed.text
    me = mail_client.get("/api/v1/me").json()
    assert (me["email"], me["pending_email"]) == ("alice.new@example.com", None)
    assert "is confirmed." in mail_client.get("/account/notifications").text
    mail_client.post("/api/v1/auth/logout")
    mail_client.headers["X-CSRF-Token"] = mail_client.get("/api/v1/auth/csrf").json()["csrf_token"]
    login = {"email": "alice.new@example.com", "password": PASSWORD}
    assert mail_client.post("/api/v1/auth/login", json=login).status_code == 200


def test_asking_for_a_taken_address_looks_the_same_and_tells_its_owner(
    db: Session, mail_client: TestClient, run_mail: RunMail, sink: Sink, mail_settings: Settings
) -> None:
    from tests.notify.conftest import log_in

    alice, bob = make_user(db, "Alice"), make_user(db, "Bob")
    alice_id = alice.id
    log_in(mail_client, alice)
    free = mail_client.patch("/api/v1/me", json={"email": "free@example.com", "current_password": PASSWORD})
    taken = mail_client.patch("/api/v1/me", json={"email": "bob@example.com", "current_password": PASSWORD})
    assert free.status_code == taken.status_code == 200
    assert taken.json()["email"] == "alice@example.com"
    assert free.json()["pending_email"] == "free@example.com"
    assert taken.json()["pending_email"] == "bob@example.com"  # pending as any other (no link is sent)
    assert [row.kind for row in notifications_of(db, bob)] == ["address_attempt"]
    run_mail()
    to_bob = sink.to("bob@example.com")
    assert len(to_bob) == 1 and "nothing was changed" in text_of(to_bob[0])
    assert sink.to("free@example.com") == []  # the withdrawn request's mail is not sent
    credentials = tokens.password_fingerprint(alice.password_hash)
    withdrawn = tokens.verify_token(mail_settings.secret_key, alice_id, "free@example.com", credentials)
    db.commit()  # no read transaction left open (SQLite would lock the writers out)
    assert mail_client.post(f"/account/verify/{withdrawn}").status_code == 400
    assert mail_client.get("/api/v1/me").json()["email"] == "alice@example.com"


def test_an_address_taken_between_the_request_and_the_link_is_refused(
    db: Session, mail_settings: Settings
) -> None:
    from datetime import UTC, datetime

    from app.services.accounts import accounts

    alice = make_user(db, "Alice")
    accounts.ask_for_address(db, alice, "shared@example.com", datetime.now(UTC))
    db.commit()
    make_user(db, "Shared")  # its address is shared@example.com
    credentials = tokens.password_fingerprint(alice.password_hash)
    token = tokens.verify_token(mail_settings.secret_key, alice.id, "shared@example.com", credentials)
    with pytest.raises(ServiceError) as refused:
        account_mail.verify_email(db, mail_settings.secret_key, token, datetime.now(UTC))
    assert refused.value.code == "email_taken"
    db.rollback()
    assert alice.email == "alice@example.com"


# --- a second sign-up on a pending address --------------------------------------------------------------

MALLORY_PASSWORD = "mallory's own password 7"


def _log_in_status(client: TestClient, password: str) -> int:
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    login = {"email": "victim@example.com", "password": password}
    status: int = client.post("/api/v1/auth/login", json=login).status_code
    return status


def _request_sign_up(db: Session, password: str, name: str) -> None:
    from datetime import UTC, datetime

    from app.services.accounts import accounts

    accounts.request_sign_up(
        db, email="victim@example.com", password=password, display_name=name, now=datetime.now(UTC)
    )


def test_the_owners_first_link_never_confirms_a_later_sign_up(
    db: Session, mail_app: Any, run_mail: RunMail, sink: Sink
) -> None:
    _request_sign_up(db, PASSWORD, "Victim")
    run_mail()
    owners_link = _link(sink, "victim@example.com", "/account/verify/")
    sink.clear()
    _request_sign_up(db, MALLORY_PASSWORD, "Mallory")  # replaces the pending password
    with TestClient(mail_app) as browser:
        refused = browser.post(owners_link)
        assert refused.status_code == 400 and "invalid or has expired" in refused.text
        assert _log_in_status(browser, MALLORY_PASSWORD) == 401
        assert _log_in_status(browser, PASSWORD) == 401  # nothing was confirmed
        run_mail()  # the newest sign-up's own mail, to the address's owner
        newest_link = _link(sink, "victim@example.com", "/account/verify/")
        assert newest_link != owners_link


def test_a_check_mail_superseded_before_it_went_out_is_not_sent(
    db: Session, mail_app: Any, run_mail: RunMail, sink: Sink
) -> None:
    _request_sign_up(db, PASSWORD, "Victim")
    _request_sign_up(db, MALLORY_PASSWORD, "Mallory")  # before the mail job rendered the first mail
    run_mail()
    assert len(sink.to("victim@example.com")) == 1  # one link, bound to the newest credentials only
    link = _link(sink, "victim@example.com", "/account/verify/")
    with TestClient(mail_app) as browser:
        assert browser.post(link).status_code == 200
        assert _log_in_status(browser, PASSWORD) == 401
        assert _log_in_status(browser, MALLORY_PASSWORD) == 200
