"""On a phone, a player opens the rules from the game page and taps an entry; a card chip of the board
opens that character's entry."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_accounts_browser import sign_up_in_browser


@pytest.fixture
def phone(browser: Any, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """A touch screen of 390×844 (taps, not clicks); each page's last view is kept as a screenshot."""
    contexts: list[Any] = []

    def make() -> Any:
        context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for number, context in enumerate(contexts):
        for page in context.pages:
            page.screenshot(path=str(tmp_path / f"phone-{number}.png"), full_page=True)
        context.close()


def test_a_phone_opens_the_rules_from_the_game_and_taps_a_character(
    live_server: str, phone: Callable[[], Any], tmp_path: Path
) -> None:
    alice, bruno, chloe = phone(), phone(), phone()
    for page, name in ((alice, "Alice"), (bruno, "Bruno"), (chloe, "Chloe")):
        sign_up_in_browser(page, live_server, name)
    alice.goto(f"{live_server}/games/new")
    alice.select_option("select[name=game_type]", "dragonstones")
    alice.fill("input[name=players]", "3")
    alice.fill("input[name=name]", "Rules at hand")
    alice.click("main button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = alice.url
    for page in (bruno, chloe):
        page.goto(game_url)
        page.click("main form[action$='/join'] button")
        page.wait_for_url(game_url)
    alice.goto(game_url)

    alice.click("#rules-link")
    alice.wait_for_url(f"{live_server}/rules/dragonstones")
    thief = alice.locator("details#thief")
    power = thief.locator("p").first
    assert not power.is_visible()
    thief.locator("summary").tap()
    power.wait_for(state="visible")
    assert "second-highest bidder" in power.inner_text()
    alice.screenshot(path=str(tmp_path / "rules-dragonstones-phone.png"), full_page=True)

    alice.goto(game_url)
    chip = alice.locator("a.card-chip").first
    card = re.sub(r".*#", "", chip.get_attribute("href") or "")
    chip.tap()
    alice.wait_for_url(f"{live_server}/rules/dragonstones#{card}")
    entry = alice.locator(f"details#{card}")
    entry.locator("p").first.wait_for(state="visible")
    assert entry.get_attribute("open") is not None
