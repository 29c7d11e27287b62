"""Security throughout: CSRF on every state change (the mail links excepted by design), cookie flags,
security headers, no user text rendered as HTML, no account enumeration, rate limits."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import routing
from fastapi.routing import APIRoute
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.main import create_app
from app.models import MailSettings, Notification, User
from app.settings import Settings
from tests.conftest import PASSWORD
from tests.moderation.helpers import api_client, ban, make_user, now, page_token

# Links that arrive by mail or from another server carry their own proof instead of a session (a signed
# token, a shared secret): RFC 8058 one-click unsubscribe, the address check, the bounce hook.
CSRF_EXEMPT = {
    ("POST", "/unsubscribe/{token}"),
    ("POST", "/account/verify/{token}"),
    ("POST", "/hooks/bounce"),
}
SAFE = {"GET", "HEAD", "OPTIONS"}


def state_changing_routes(app: Any) -> list[tuple[str, str]]:
    return sorted(
        (method, context.path)
        for context in routing.iter_route_contexts(app.routes)
        if isinstance(context.original_route, APIRoute) and context.path is not None
        for method in (context.methods or set()) - SAFE
    )


def _url(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "1", path)


def test_every_state_change_needs_the_csrf_token(app: Any, db: Session, make_client: Any) -> None:
    make_user(db, "Root", "admin")
    client = api_client(make_client, "root@example.com")
    token = client.headers.pop("X-CSRF-Token")
    routes = state_changing_routes(app)
    assert len(routes) > 80
    for method, path in routes:
        if (method, path) in CSRF_EXEMPT:
            continue
        bodies: list[tuple[dict[str, str] | None, dict[str, str] | None]] = [({}, None), (None, {"x": "1"})]
        for json_body, form in bodies:
            response = client.request(method, _url(path), follow_redirects=False, json=json_body, data=form)
            assert response.status_code == 403, (method, path, response.status_code)
            assert "csrf_failed" in response.text, (method, path)
    assert {route for route in CSRF_EXEMPT if route in routes} == CSRF_EXEMPT
    forged = client.post(
        "/api/v1/auth/logout", headers={"X-CSRF-Token": token, "Origin": "https://evil.example"}
    )
    assert forged.status_code == 403


def test_security_headers_on_pages_api_errors_and_files(client: TestClient) -> None:
    for path in ("/", "/api/v1/games", "/no-such-page", "/static/css/app.css", "/api/v1/me"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        scripts = next(part for part in policy.split(";") if part.strip().startswith("script-src"))
        assert scripts.strip() == "script-src 'self'", path  # no 'unsafe-inline', no 'unsafe-eval'
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        assert headers["referrer-policy"] == "same-origin"
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
        assert "strict-transport-security" not in headers  # plain HTTP here


def test_no_inline_script_in_any_template() -> None:
    root = Path(__file__).resolve().parents[2] / "templates"
    for template in root.rglob("*.html"):
        text = template.read_text()
        # data islands (type="application/json") are never run: the policy forbids inline code only
        assert not re.search(r"<script(?![^>]*\b(src=|type=\"application/json\"))[^>]*>", text), template
        assert not re.search(r"\son[a-z]+\s*=", text), template  # no onclick= and the like
        assert "|safe" not in text, template


def test_session_cookie_flags(tmp_path: Path, client: TestClient) -> None:
    cookie = client.get("/api/v1/auth/csrf").headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    production = Settings(
        environment="production",
        secret_key="a-real-secret-of-some-length-32-bytes",
        base_url="https://ostraca.example.com",
        data_dir=tmp_path,
        run_jobs=False,
        _env_file=None,
    )
    app = create_app(production)
    with TestClient(app, base_url="https://ostraca.example.com") as secure:
        response = secure.get("/api/v1/auth/csrf")
        cookie = response.headers["set-cookie"]
        assert cookie.startswith("__Host-ostraca_session=")
        assert "; secure" in cookie.lower() and "httponly" in cookie.lower() and "path=/" in cookie.lower()
        assert response.headers["strict-transport-security"].startswith("max-age=")


def test_error_messages_are_text_never_html(app: Any) -> None:
    templates = app.state.templates.env
    html = templates.get_template("partials/error.html").render(
        {"code": "x", "message": "<b>bold</b>", "details": {"reason": "<i>r</i>"}, "_": lambda m, **k: m % k}
    )
    assert "<b>" not in html and "&lt;b&gt;" in html and "<i>" not in html


# --- no account enumeration --------------------------------------------------------------------------


@pytest.fixture
def by_mail(settings: Settings) -> Any:
    """The app as on a public server: a sign-up waits for the address check."""
    return create_app(settings.model_copy(update={"signup_confirmation": True}))


def _sign_up(client: TestClient, email: str, name: str) -> Any:
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    body = {"email": email, "password": PASSWORD, "display_name": name}
    return client.post("/api/v1/auth/signup", json=body)


def test_sign_up_answers_the_same_for_a_new_a_taken_and_a_banned_address(by_mail: Any, db: Session) -> None:
    owner, mod, eve = make_user(db, "Owner"), make_user(db, "Mod", "moderator"), make_user(db, "Eve")
    ban(db, mod, eve)
    with TestClient(by_mail) as client:
        answers = [
            _sign_up(client, "new@example.com", "Newcomer"),
            _sign_up(client, "owner@example.com", "Someone Else"),
            _sign_up(client, "eve+x@example.com", "Eve Again"),
        ]
        assert {(a.status_code, a.text) for a in answers} == {(202, '{"status":"check_your_mail"}')}
        assert _sign_up(client, "other@example.com", "Owner").json()["error"]["code"] == "name_taken"
        login = {"email": "new@example.com", "password": PASSWORD}
        before = client.post("/api/v1/auth/login", json=login)
        assert before.status_code == 401 and before.json()["error"]["code"] == "bad_credentials"
        db.expire_all()
        newcomer = db.scalar(select(User).where(User.email == "new@example.com"))
        assert newcomer is not None and newcomer.signup_pending
        kinds = {(n.user_id, n.kind) for n in db.scalars(select(Notification))}
        assert (newcomer.id, "verify_email") in kinds and (owner.id, "signup_attempt") in kinds
        assert db.scalar(select(User).where(User.email.like("eve+%"))) is None
        db.add(MailSettings(user_id=newcomer.id, digest_hour=8, your_turn_always=False,
                            verified_email="new@example.com", verified_at=now()))  # fmt: skip
        db.commit()
        assert client.post("/api/v1/auth/login", json=login).status_code == 200


def test_sign_up_page_by_mail_says_the_same_for_every_address(by_mail: Any, db: Session) -> None:
    make_user(db, "Owner")
    with TestClient(by_mail) as client:
        for email, name in (("fresh@example.com", "Fresh One"), ("owner@example.com", "Fresh Two")):
            form = {"email": email, "password": PASSWORD, "display_name": name}
            response = client.post("/signup", data={**form, "csrf_token": page_token(client, "/signup")},
                                   follow_redirects=False)  # fmt: skip
            assert (response.status_code, response.headers["location"]) == (303, "/signup?sent=true")
        assert "Nearly there" in client.get("/signup?sent=true").text


def test_password_reset_answers_the_same_whether_or_not_the_address_is_known(
    client: TestClient, db: Session
) -> None:
    make_user(db, "Owner")
    answers = []
    for email in ("owner@example.com", "nobody@example.com"):
        form = {"email": email, "csrf_token": page_token(client, "/password/forgot")}
        response = client.post("/password/forgot", data=form, follow_redirects=False)
        answers.append((response.status_code, response.headers["location"]))
    assert answers[0] == answers[1]


# --- rate limits -------------------------------------------------------------------------------------


def test_rate_limits_on_log_in_sign_up_reset_and_reports(settings: Settings, db: Session) -> None:
    tight = settings.model_copy(update={"login_attempts_per_minute": 2, "signups_per_hour": 2})
    make_user(db, "Owner")
    with TestClient(create_app(tight)) as client:
        client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
        wrong = {"email": "owner@example.com", "password": "wrong password!"}
        codes = [client.post("/api/v1/auth/login", json=wrong).status_code for _ in range(3)]
        assert codes == [401, 401, 429]
        signups = [_sign_up(client, f"n{n}@example.com", f"Newbie {n}").status_code for n in range(3)]
        assert signups == [201, 201, 429]
        resets = []
        for _ in range(4):
            form = {"email": "owner@example.com", "csrf_token": page_token(client, "/password/forgot")}
            resets.append(client.post("/password/forgot", data=form, follow_redirects=False).status_code)
        assert resets[-1] == 429
