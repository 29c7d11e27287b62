"""A moderator, in a real browser: handles a report, mutes one player and bans another. The banned
player's session dies on their next request, log-in tells them why, and their seat is open in the lobby."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.db import make_engine, session_factory
from app.models import User
from app.settings import Settings
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def _api(page: Any, base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    token = page.request.get(f"{base}/api/v1/auth/csrf").json()["csrf_token"]
    response = page.request.fetch(f"{base}{path}", method=method, data=body, headers={"X-CSRF-Token": token})
    assert response.ok, response.text()
    return response.json()


def _make_moderator(tmp_path: Path, name: str) -> None:
    settings = Settings(data_dir=tmp_path / "var", run_jobs=False, _env_file=None)
    engine = make_engine(settings.sqlalchemy_url)
    with session_factory(engine)() as session:
        user = session.scalar(select(User).where(User.display_name == name))
        assert user is not None
        user.role = "moderator"
        session.commit()
    engine.dispose()


def _sanction(page: Any, kind: str, duration: str, reason: str) -> None:
    form = page.locator("#sanction-form")
    form.locator("select[name=kind]").select_option(kind)
    form.locator("select[name=duration]").select_option(duration)
    form.locator("input[name=reason]").fill(reason)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def test_a_moderator_handles_a_report_mutes_and_bans(live_server: str, new_page: Any, tmp_path: Path) -> None:
    base = live_server
    mod, ann, ben, eve = (new_page() for _ in range(4))
    for page, name in ((mod, "Warden"), (ann, "Ann"), (ben, "Ben"), (eve, "Eve")):
        sign_up_in_browser(page, base, name)
    _make_moderator(tmp_path, "Warden")
    game = _api(ann, base, "POST", "/api/v1/games", {"game_type": "fake", "players": 3})["id"]
    _api(ben, base, "POST", f"/api/v1/games/{game}/join")
    _api(eve, base, "POST", f"/api/v1/games/{game}/join")

    # Ben is rude on the board; Ann reports the message.
    ben.goto(f"{base}/games/{game}")
    ben.fill("#game-message-form textarea[name=body]", "You are all losers")
    ben.click("#game-message-form button[type=submit]")
    ben.get_by_text("You are all losers").first.wait_for()
    ann.goto(f"{base}/games/{game}")
    ann.locator("li.message", has_text="You are all losers").get_by_role("link", name="Report").click()
    ann.select_option("#report-form select[name=reason]", "insults")
    ann.fill("#report-form textarea[name=details]", "Third time this week")
    ann.click("#report-form button[type=submit]")
    ann.wait_for_url(f"{base}/reports?filed=true")

    # The moderator takes the report, mutes Ben, resolves the report.
    mod.goto(f"{base}/")
    mod.get_by_role("link", name="Moderation").click()
    mod.locator("#report-queue a").first.click()
    assert mod.locator(".excerpt").inner_text() == "You are all losers"
    mod.locator("form[action$='/assign'] button").click()
    assert "Warden" in mod.locator("#report-status").inner_text()
    report_url = mod.url
    mod.get_by_role("link", name="Ben").click()
    _sanction(mod, "mute", "24", "Insults on the board")
    assert "Insults on the board" in mod.locator("#sanctions").inner_text()
    mod.goto(report_url)
    mod.select_option("#resolve-form select[name=outcome]", "action_taken")
    mod.fill("#resolve-form textarea[name=note]", "muted for a day")
    mod.click("#resolve-form button[type=submit]")
    assert "closed" in mod.locator("#report-status").inner_text()

    # Ben can no longer post; Ann sees the outcome, not the sanction.
    ben.goto(f"{base}/games/{game}")
    ben.fill("#game-message-form textarea[name=body]", "Still here")
    ben.click("#game-message-form button[type=submit]")
    refusal = ben.locator("#game-message-form .refusal .error")  # beside the form, not at the top
    refusal.wait_for()
    assert "muted" in refusal.inner_text()
    ann.goto(f"{base}/reports")
    assert "A moderator took action" in ann.locator("#my-reports").inner_text()
    assert "Insults on the board" not in ann.content()

    # The moderator bans Eve.
    mod.goto(f"{base}/moderation/users?q=Eve")
    mod.get_by_role("link", name="Eve").click()
    _sanction(mod, "ban", "168", "Cheating with a second account")

    # Eve's session dies on her next request; log-in says why and until when.
    eve.goto(f"{base}/account")
    assert eve.url == f"{base}/login?next=/account"  # logged out: sent to log in, and back after
    assert eve.get_by_role("link", name="Log in").first.is_visible()
    eve.goto(f"{base}/login")
    eve.fill("input[name=email]", "eve@example.com")
    eve.fill("input[name=password]", PASSWORD)
    eve.click("main button[type=submit]")
    assert eve.locator("#banned").is_visible()
    assert "Cheating with a second account" in eve.locator("#banned").inner_text()
    assert "The ban ends on" in eve.locator("#banned").inner_text()

    # Her seat is open in the lobby, for a replacement (offered to those not in the game).
    mod.goto(f"{base}/")
    row = mod.locator("table.list tr", has=mod.locator(f"a[href='/games/{game}']"))
    assert row.get_by_role("button", name="Take this seat").is_visible()
    ann.goto(f"{base}/games/{game}")
    assert "the seat is open for a replacement" in ann.locator("#game-log").inner_text()
