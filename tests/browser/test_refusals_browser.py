"""A refused form comes back as typed, with its reason beside the field or the button, announced to screen
readers; a page that needs a log-in sends there and back (never to another site). Both sizes and languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api
from tests.conftest import PASSWORD

SIZES = [(False, "en"), (True, "fr")]
NAME_RULE = {"en": "name of your e-mail address (alice)", "fr": "nom de votre adresse e-mail (alice)"}


def in_view(page: Any, locator: Any, patience_ms: int = 5000) -> bool:
    """Whether the element is (or comes, once the page has scrolled to it) wholly within the screen."""
    height = page.viewport_size["height"]
    for _ in range(patience_ms // 100):
        box = locator.bounding_box()
        if box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height:
            return True
        page.wait_for_timeout(100)  # a smooth scroll still under way on a busy machine
    return False


def log_in(page: Any, email: str) -> None:
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit]")


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_a_refused_sign_up_keeps_what_was_typed_and_names_the_rule(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    page = new_page(phone=phone, locale="fr-FR" if language == "fr" else "en-GB")
    page.goto(f"{live_server}/signup")
    page.fill("input[name=display_name]", "Alice")
    page.fill("input[name=email]", "alice@example.com")
    page.fill("input[name=password]", "alice-in-wonderland")
    rules = page.locator("#password-rules")
    assert rules.locator("li[data-rule=name]").get_attribute("class") == "broken"  # said before sending
    assert rules.locator("li[data-rule=length]").get_attribute("class") == "kept"
    keep_screenshot(page, f"signup-rules-{size_name(phone, language)}")
    page.click("main button[type=submit]")

    refusal = page.locator("form .refusal")
    refusal.wait_for()
    assert page.url == f"{live_server}/signup"
    assert NAME_RULE[language] in refusal.inner_text()
    assert refusal.get_attribute("role") == "alert"
    password = page.locator("input[name=password]")
    assert password.get_attribute("aria-invalid") == "true"
    assert password.get_attribute("aria-describedby") == refusal.get_attribute("id")
    assert password.input_value() == ""  # a password never comes back
    assert page.locator("input[name=display_name]").input_value() == "Alice"
    assert page.locator("input[name=email]").input_value() == "alice@example.com"
    assert page.locator("#flash").inner_text() == ""  # moved beside the field, not at the top
    assert in_view(page, refusal)
    keep_screenshot(page, f"signup-refused-{size_name(phone, language)}")

    password.fill(PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server}/")
    page.reload()  # the refusal is shown once, not again on the next page
    assert page.locator(".refusal, #flash .error").count() == 0


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_a_page_that_needs_a_log_in_sends_there_and_back(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    page = new_page(phone=phone)
    sign_up_in_browser(page, live_server, "Alice", language=language)
    if page.locator(".menu-toggle").is_visible():  # a phone: the navigation is folded behind Menu
        page.click(".menu-toggle")
    page.click("header button:has-text('Log out'), header button:has-text('Se déconnecter')")
    page.wait_for_url(f"{live_server}/")
    page.goto(f"{live_server}/friends")
    assert page.url == f"{live_server}/login?next=/friends"
    keep_screenshot(page, f"login-next-{size_name(phone, language)}")

    page.fill("input[name=email]", "alice@example.com")
    page.fill("input[name=password]", "not the password")
    page.click("main button[type=submit]")
    refusal = page.locator("form .refusal")
    refusal.wait_for()
    assert page.locator("input[name=email]").input_value() == "alice@example.com"
    assert page.locator("main input[name=next]").input_value() == "/friends"
    log_in(page, "alice@example.com")
    page.wait_for_url(f"{live_server}/friends")

    page.fill(
        "form[action='/friends'] input[name=name]", "Nobody at all"
    )  # a friends form refused: the name stays, the reason beside
    page.click("main form[action='/friends'] button[type=submit]")
    refusal.wait_for()
    assert page.url == f"{live_server}/friends"
    assert page.locator("form[action='/friends'] input[name=name]").input_value() == "Nobody at all"
    assert in_view(page, refusal)
    keep_screenshot(page, f"friends-refused-{size_name(phone, language)}")


@pytest.mark.parametrize(
    "target", ["//evil.example/x", "/\\evil.example", "https://evil.example/", "/%0d%0a"]
)
def test_the_log_in_page_never_sends_to_another_site(live_server: str, new_page: Any, target: str) -> None:
    page = new_page()
    sign_up_in_browser(page, live_server, "Alice")
    page.context.clear_cookies()
    page.goto(f"{live_server}/login?next={target}")
    log_in(page, "alice@example.com")
    page.wait_for_load_state()
    assert page.url.startswith(live_server)
    assert page.url in (f"{live_server}/", f"{live_server}/%0d%0a")


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_a_refused_order_shows_beside_the_move_and_play_now_logs_in_first(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    alice, bruno = new_page(phone=phone), new_page()
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    sign_up_in_browser(bruno, live_server, "Bruno")
    game = api(
        alice, live_server, "POST", "/games", {"game_type": "fake", "players": 2, "time_limit_hours": 24}
    )
    api(bruno, live_server, "POST", f"/games/{game['id']}/join")

    alice.goto(f"{live_server}/games/{game['id']}")
    alice.fill("#game-orders input[name=type]", "no such order")
    alice.click("#game-orders button[type=submit]")
    refusal = alice.locator("#game-orders form .refusal")
    refusal.wait_for()
    assert refusal.locator(".error").get_attribute("data-code") == "invalid_order"
    assert alice.locator("#game-orders input[name=type]").input_value() == "no such order"
    assert alice.locator("#game-orders input[name=type]").get_attribute("aria-invalid") == "true"
    assert alice.locator("#flash").inner_text() == ""
    assert in_view(alice, refusal)
    keep_screenshot(alice, f"order-refused-{size_name(phone, language)}")

    # the mail's "Play now", opened where nobody is logged in: log in first, then the game
    alice.context.clear_cookies()
    alice.goto(f"{live_server}/games/{game['id']}?play=1")
    assert alice.url.startswith(f"{live_server}/login?next=")
    log_in(alice, "alice@example.com")
    alice.wait_for_url(f"{live_server}/games/{game['id']}?play=1")
    alice.locator("#game-orders form").wait_for()
