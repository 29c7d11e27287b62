"""A game's history in the browser: the game page links to the whole log and to the replay; the replay steps
through the versions with its buttons, the board drawn as the viewer's seat saw it. Both sizes, both
languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api


def play(page: Any, base: str, game_id: int, order: dict[str, Any]) -> None:
    version = api(page, base, "GET", f"/games/{game_id}")["game"]["version"]
    api(page, base, "POST", f"/games/{game_id}/orders", {"order": order, "expected_version": version})


@pytest.mark.parametrize(("phone", "language"), [(False, "en"), (True, "fr")])
def test_the_replay_steps_through_a_tigris_game(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    alice, bruno = new_page(phone=phone), new_page()
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    sign_up_in_browser(bruno, live_server, "Bruno")
    game = api(alice, live_server, "POST", "/games", {"game_type": "tigris", "players": 2})
    api(bruno, live_server, "POST", f"/games/{game['id']}/join")
    first = alice if api(alice, live_server, "GET", f"/games/{game['id']}")["your_seat"] == 0 else bruno
    play(first, live_server, game["id"], {"type": "leader", "colour": "red", "square": "I6"})
    play(first, live_server, game["id"], {"type": "pass"})  # the turn's second action

    alice.goto(f"{live_server}/games/{game['id']}")
    alice.locator("#replay-link").click()
    alice.wait_for_url(f"{live_server}/games/{game['id']}/replay")
    step = alice.locator("#replay-step")
    assert step.inner_text().startswith("Étape 2 sur 2" if language == "fr" else "Step 2 of 2")
    assert alice.locator(".tg-map .sq").count() == 176
    assert alice.locator(".tg-map .leader").count() >= 1  # the first turn's leader is on the board
    alice.locator("a[rel=prev]").click()
    alice.wait_for_url("**/replay?step=1")
    assert "1" in step.inner_text()
    alice.locator("a[rel=prev]").click()
    alice.wait_for_url("**/replay?step=0")
    assert alice.locator(".tg-map .leader").count() == 0  # the board as set up
    assert alice.locator("a[rel=prev]").count() == 0
    keep_screenshot(alice, f"replay-{size_name(phone, language)}")
    width = alice.evaluate("document.documentElement.scrollWidth")
    assert width <= alice.viewport_size["width"] + 1  # nothing sticks out sideways

    alice.goto(f"{live_server}/games/{game['id']}")
    alice.locator("#whole-log").click()
    alice.wait_for_url(f"{live_server}/games/{game['id']}/log")
    assert alice.locator("#log-entries li").count() >= 2
    keep_screenshot(alice, f"game-log-{size_name(phone, language)}")
