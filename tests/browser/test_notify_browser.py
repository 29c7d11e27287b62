"""A player changes their notification settings, plays, and the turn mail's link opens the game at the
orders, in a real browser. Mail goes to files (no SMTP), as in development."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from app import migrate
from app.db import make_engine, session_factory
from app.main import create_app
from app.services.mail import mail, mail_jobs
from app.settings import Settings
from app.web.emails import EmailRenderer
from tests.browser.test_accounts_browser import sign_up_in_browser

pytestmark = pytest.mark.browser


@pytest.fixture
def mail_server(tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    settings = Settings(data_dir=tmp_path / "var", base_url=base, run_jobs=False, _env_file=None)
    engine = make_engine(settings.sqlalchemy_url)
    migrate.upgrade(engine)
    engine.dispose()
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield base, settings
    server.should_exit = True
    thread.join(timeout=10)


def _api(page: Any, base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A JSON API call with the page's cookies (its session) and CSRF token."""
    token = page.request.get(f"{base}/api/v1/auth/csrf").json()["csrf_token"]
    response = page.request.fetch(f"{base}{path}", method=method, data=body, headers={"X-CSRF-Token": token})
    assert response.ok, response.text()
    return response.json()


def _send_mail(settings: Settings) -> list[EmailMessage]:
    engine = make_engine(settings.sqlalchemy_url)
    transport = mail.FileTransport(settings.mail_dir)
    mail_jobs.run_mail_once(session_factory(engine), settings, EmailRenderer(), transport)
    engine.dispose()
    found = []
    for path in sorted(settings.mail_dir.glob("*.eml")):
        parsed = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        found.append(parsed)
    return found


def test_preferences_then_the_turn_mail_opens_the_game_at_the_orders(
    mail_server: tuple[str, Settings], new_page: Any
) -> None:
    base, settings = mail_server
    alice, bruno = new_page(), new_page()
    sign_up_in_browser(alice, base, "Alice")
    sign_up_in_browser(bruno, base, "Bruno")

    alice.goto(f"{base}/")
    alice.get_by_role("link", name="Notifications").click()
    alice.wait_for_url(f"{base}/account/notifications")
    alice.select_option("select[name='mode.game_started']", "off")
    alice.check("input[name=your_turn_always]")  # she keeps the game open: mail her anyway
    alice.click("#preferences button[type=submit]")
    alice.wait_for_url(re.compile(r".*/account/notifications\?saved=preferences"))
    assert alice.locator("input[name=your_turn_always]").is_checked()
    assert alice.locator("select[name='mode.game_started']").input_value() == "off"

    game = _api(
        alice, base, "POST", "/api/v1/games", {"game_type": "fake", "players": 2, "time_limit_hours": 48}
    )
    _api(bruno, base, "POST", f"/api/v1/games/{game['id']}/join")
    alice.goto(f"{base}/games/{game['id']}")  # she is looking at the game
    for page, value in ((alice, 3), (bruno, 1)):
        version = _api(page, base, "GET", f"/api/v1/games/{game['id']}")["game"]["version"]
        order = {"order": {"type": "pick", "value": value}, "expected_version": version}
        _api(page, base, "POST", f"/api/v1/games/{game['id']}/orders", order)

    sent = [m for m in _send_mail(settings) if "alice@example.com" in str(m["To"])]
    mails = [m for m in sent if str(m["X-Ostraca-Kind"]) != "verify_email"]  # the sign-up's own mail
    kinds = [str(m["X-Ostraca-Kind"]) for m in mails]
    assert kinds == ["your_turn"]  # no "game started" (off); the pick was played already: only the choice
    assert "choose" in str(mails[0]["Subject"]) + str(mails[0].get_body(preferencelist=("plain",)))
    html = mails[0].get_body(preferencelist=("html",))
    assert html is not None
    link = re.search(r'href="([^"]+#game-orders)"', str(html.get_content()))
    assert link is not None and link.group(1) == f"{base}/games/{game['id']}?play=1#game-orders"

    alice.goto(link.group(1))
    orders = alice.locator("#game-orders")
    orders.wait_for()
    assert alice.evaluate("location.hash") == "#game-orders"
    assert orders.get_by_text("Your order").is_visible()
    top = orders.evaluate("element => element.getBoundingClientRect().top")
    assert 0 <= top < 200, "the page opens scrolled to the orders"
