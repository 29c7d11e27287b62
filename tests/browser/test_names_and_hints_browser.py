"""A generated game name in its creator's language, the same for every reader; hints that do not look
filled in; the calendar address as served."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser

SIZES = [(phone, language) for phone in (False, True) for language in ("en", "fr")]
GENERATED = re.compile(r"[A-Z][a-z]+ [A-Z][a-z]+ \d{3}")


def _rgb(colour: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", colour)[:3])


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_names_hints_and_the_calendar_address(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    page = new_page(phone=phone, locale="fr-FR" if language == "fr" else "en-GB")
    sign_up_in_browser(page, live_server, "Alice", language=language)
    shots = size_name(phone, language)

    page.goto(f"{live_server}/games/new")
    page.select_option("select[name=game_type]", "tigris")
    page.fill("input[name=players]", "2")
    page.click("main button[type=submit]")
    page.wait_for_url(re.compile(r"/games/\d+$"))
    heading = page.locator("main h1").first.inner_text()
    assert bool(GENERATED.fullmatch(heading)) == (language == "en"), heading  # French words, French order
    keep_screenshot(page, f"game-name-{shots}")
    other = "fr" if language == "en" else "en"
    reader = new_page(phone=phone, locale="fr-FR" if other == "fr" else "en-GB")
    sign_up_in_browser(reader, live_server, "Bruno", language=other)
    reader.goto(page.url)
    assert reader.locator("main h1").first.inner_text() == heading  # one name per game
    keep_screenshot(reader, f"game-name-read-{size_name(phone, other)}")

    page.goto(f"{live_server}/time")
    window = page.locator("input[name=day0]")
    assert window.get_attribute("placeholder").startswith("e.g. " if language == "en" else "ex. : ")
    hint = _rgb(window.evaluate("e => getComputedStyle(e, '::placeholder').color"))
    typed = _rgb(window.evaluate("e => getComputedStyle(e).color"))
    assert sum(hint) > sum(typed) + 150  # clearly lighter than what one types
    assert window.evaluate("e => getComputedStyle(e, '::placeholder').fontStyle") == "italic"
    window.scroll_into_view_if_needed()
    keep_screenshot(page, f"time-windows-{shots}")

    page.goto(f"{live_server}/account/notifications#calendar")
    address = page.locator("#calendar-url").input_value()
    assert address.startswith(f"{live_server}/calendar/"), address  # the port served, not 8000
    page.locator("#calendar").scroll_into_view_if_needed()
    keep_screenshot(page, f"calendar-{shots}")
