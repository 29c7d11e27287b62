"""Tigris & Euphrates in a real browser: two players play a turn with a revolt by clicking the board, on a
desktop screen and on a phone-sized one."""

from __future__ import annotations

from typing import Any

from tests.browser.test_accounts_browser import sign_up_in_browser


def api(page: Any, base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """Call the JSON API with the page's own session cookie and CSRF token."""
    token = page.request.get(f"{base}/api/v1/me").json()["csrf_token"]
    response = page.request.fetch(f"{base}{path}", method=method, data=body, headers={"X-CSRF-Token": token})
    assert response.ok, response.text()
    return response.json()


def place(page: Any, piece: str, square: str, preview: str = "") -> None:
    """Pick a piece, check that the square is highlighted (and the strength preview shown on hover), click
    it, and wait for the board to show it."""
    page.click(f'button[data-piece="{piece}"]')
    target = page.locator(f'.tg-map .sq[data-sq="{square}"]')
    assert "legal" in (target.get_attribute("class") or "")
    assert page.locator(".tg-map .sq.legal").count() > 1
    target.hover()
    assert preview in page.locator("#tg-preview").inner_text()
    target.click()
    page.locator(f'.tg-map .sq[data-sq="{square}"] .leader').wait_for()


def test_two_players_play_a_revolt_on_the_board(live_server: str, new_page: Any) -> None:
    alice = new_page()
    bob = new_page(phone=True)
    sign_up_in_browser(alice, live_server, "Alice")
    sign_up_in_browser(bob, live_server, "Bob")
    game = api(alice, live_server, "POST", "/api/v1/games", {"game_type": "tigris", "players": 2})
    api(bob, live_server, "POST", f"/api/v1/games/{game['id']}/join")
    seats = {api(p, live_server, "GET", f"/api/v1/games/{game['id']}")["your_seat"]: p for p in (alice, bob)}
    first, second = seats[0], seats[1]
    url = f"{live_server}/games/{game['id']}"

    # the first player: the priest beside the temple I7, then the end of the turn
    first.goto(url)
    assert first.locator(".tg-map .sq").count() == 176
    place(first, "leader:red", "I6")
    first.locator('.tg-orders button:has-text("End my turn")').click()
    first.locator(".tg-orders").wait_for(state="detached")

    # the second player: his priest beside the same temple starts a revolt
    second.goto(url)
    place(second, "leader:red", "J7", preview="revolt")
    panel = second.locator(".tg-asked")
    panel.wait_for()
    assert "You attack" in panel.inner_text()
    panel.locator("button").last.click()  # the most support he can give
    panel.wait_for(state="detached")

    # the first player is asked to defend, live on the page he already has open
    defence = first.locator(".tg-asked")
    defence.wait_for(timeout=20_000)
    assert "You are attacked" in defence.inner_text()
    defence.locator("button").first.click()  # no support
    first.locator("#game-log li", has_text="wins").first.wait_for()
    second.reload()
    assert second.locator("#game-log li", has_text="wins").count() >= 1
    bob.reload()
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"
