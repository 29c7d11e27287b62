"""The game page on a phone (390x844) and a wide screen: the navigation collapses to one line on the phone
(a Menu button opens the rest), the Tigris & Euphrates board scales to the width instead of being cut, the
move panel comes before the rules of eviction (folded away), and numbers line up under their headers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api


def tigris_game(live_server: str, alice: Any, bruno: Any) -> tuple[int, Any]:
    game = api(alice, live_server, "POST", "/games", {"game_type": "tigris", "players": 2})
    api(bruno, live_server, "POST", f"/games/{game['id']}/join")
    first = alice if api(alice, live_server, "GET", f"/games/{game['id']}")["your_seat"] == 0 else bruno
    return game["id"], first


@pytest.mark.parametrize(("phone", "language"), [(True, "en"), (True, "fr"), (False, "en"), (False, "fr")])
def test_the_tigris_game_page_fits_the_screen(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    alice, bruno = new_page(phone=phone), new_page(phone=phone)
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    sign_up_in_browser(bruno, live_server, "Bruno", language=language)
    game_id, first = tigris_game(live_server, alice, bruno)
    first.goto(f"{live_server}/games/{game_id}")
    first.locator("#game-seats").wait_for()
    viewport = first.viewport_size["width"]
    board = first.locator(".tg-map-wrap").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= viewport  # the board's box, A to P inside
    square = first.locator('.tg-map .sq[data-sq="A1"]').bounding_box()
    if phone:  # a thumb's target: the board scrolls sideways in its own box
        assert square["width"] >= 40
    assert first.evaluate("document.documentElement.scrollWidth") <= viewport
    orders = first.locator("#game-orders").bounding_box()
    seats = first.locator("#game-seats").bounding_box()
    rules = first.locator(".eviction-rules p")
    assert not rules.is_visible()  # folded away
    if phone:
        assert orders["y"] < seats["y"]  # the move before the seats and their rules
    header = first.locator("header.top").bounding_box()
    toggle = first.locator(".menu-toggle")
    if phone:
        assert header["height"] < 60  # one line
        assert first.locator("nav a.keep").is_visible()
        assert not first.locator('nav a[href="/friends"]').is_visible()
        toggle.click()
        assert first.locator('nav a[href="/friends"]').is_visible()
        assert toggle.get_attribute("aria-expanded") == "true"
        toggle.click()
    else:
        assert not toggle.is_visible() and first.locator('nav a[href="/friends"]').is_visible()
    for column in ("num",):
        header_cell = first.locator(f"#game-seats th.{column}").first.bounding_box()
        cell = first.locator(f"#game-seats td.{column}").first.bounding_box()
        if header_cell and cell:
            assert abs((header_cell["x"] + header_cell["width"]) - (cell["x"] + cell["width"])) < 2
    keep_screenshot(first, f"tigris-page-{size_name(phone, language)}")


@pytest.mark.parametrize(("phone", "language"), [(True, "fr"), (False, "en")])
def test_the_calendar_address_fits_and_copies(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    alice = new_page(phone=phone)
    alice.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    alice.goto(f"{live_server}/account/notifications")
    field = alice.locator("#calendar-url")
    button = alice.locator("#calendar button.copy-button")
    box, card = field.bounding_box(), alice.locator("#calendar").bounding_box()
    assert box["x"] + box["width"] <= card["x"] + card["width"]  # not cut off
    button.click()
    assert alice.evaluate("navigator.clipboard.readText()") == field.input_value()
    assert button.inner_text() == ("Copié" if language == "fr" else "Copied")
    alice.locator("#calendar").scroll_into_view_if_needed()
    keep_screenshot(alice, f"calendar-{size_name(phone, language)}")
