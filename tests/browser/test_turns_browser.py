"""Two players at both sizes, in English and French: the home page says whose turn each game waits for,
the navigation and the tab title count the games waiting on you, and the favicon is served."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_accounts_browser import sign_up_in_browser


def api(page: Any, base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    token = page.request.get(f"{base}/api/v1/me").json()["csrf_token"]
    response = page.request.fetch(
        f"{base}/api/v1{path}", method=method, data=body, headers={"X-CSRF-Token": token}
    )
    assert response.ok, response.text()
    return response.json()


@pytest.mark.parametrize(("alice_on_phone", "language"), [(False, "en"), (True, "fr")])
def test_whose_turn_on_the_home_page_in_the_navigation_and_the_title(
    live_server: str, new_page: Any, alice_on_phone: bool, language: str
) -> None:
    alice, bruno = new_page(phone=alice_on_phone), new_page(phone=not alice_on_phone)
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    sign_up_in_browser(bruno, live_server, "Bruno")
    body = {"game_type": "fake", "players": 2, "time_limit_hours": 24}
    game = api(alice, live_server, "POST", "/games", body)
    api(bruno, live_server, "POST", f"/games/{game['id']}/join")

    alice.goto(f"{live_server}/")
    count = alice.locator("header #turn-count")
    assert count.is_visible() and count.inner_text().strip().startswith("1")
    assert alice.title().startswith("(1) ")
    yours = alice.locator("#your-games li", has_text=game["name"])
    assert (
        yours.locator(".turn").inner_text().startswith("à vous de jouer" if language == "fr" else "your turn")
    )
    assert (
        yours.locator(".turn").is_visible() and yours.bounding_box()["width"] <= alice.viewport_size["width"]
    )
    icon = alice.request.get(f"{live_server}/favicon.ico")
    assert icon.ok and "svg" in icon.headers["content-type"]

    version = api(alice, live_server, "GET", f"/games/{game['id']}")["game"]["version"]
    api(
        alice,
        live_server,
        "POST",
        f"/games/{game['id']}/orders",
        {"order": {"type": "pick", "value": 1}, "expected_version": version},
    )
    alice.reload()
    assert alice.locator("header #turn-count").is_hidden() and not alice.title().startswith("(")
    waiting = "attend Bruno" if language == "fr" else "waiting for Bruno"
    alice.locator("#your-games li .turn", has_text=waiting).wait_for()
    bruno.goto(f"{live_server}/")
    assert bruno.title().startswith("(1) ")
    assert bruno.locator("#your-games li .turn", has_text="your turn").is_visible()


def test_the_count_and_the_title_follow_a_live_game_page(live_server: str, new_page: Any) -> None:
    alice, bruno = new_page(), new_page(phone=True)
    sign_up_in_browser(alice, live_server, "Alice")
    sign_up_in_browser(bruno, live_server, "Bruno")
    body = {"game_type": "fake", "players": 2, "time_limit_hours": 24}
    game = api(alice, live_server, "POST", "/games", body)
    api(bruno, live_server, "POST", f"/games/{game['id']}/join")
    errors: list[str] = []
    bruno.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    bruno.goto(f"{live_server}/games/{game['id']}")
    assert bruno.title().startswith("(1) ") and bruno.locator("#turn-count").is_visible()

    version = api(bruno, live_server, "GET", f"/games/{game['id']}")["game"]["version"]
    order = {"order": {"type": "pick", "value": 1}, "expected_version": version}
    api(bruno, live_server, "POST", f"/games/{game['id']}/orders", order)  # from elsewhere: the API
    bruno.locator("#turn-count").wait_for(state="hidden")  # the live update, no reload
    bruno.wait_for_function("!document.title.startsWith('(')")
    assert not [e for e in errors if "Content Security Policy" in e]
