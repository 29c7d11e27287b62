"""Small things seen in the browser: checkboxes beside their labels, tabs that fit or show they scroll."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser


@pytest.mark.parametrize("phone", [False, True])
def test_checkboxes_sit_beside_their_labels(live_server: str, new_page: Any, phone: bool) -> None:
    page = new_page(phone=phone)
    sign_up_in_browser(page, live_server, "Alice")
    page.goto(f"{live_server}/queue")
    label = page.locator("label", has=page.locator("input[name=new_games]"))
    box = page.locator("input[name=new_games]").bounding_box()
    text = label.bounding_box()
    assert box["x"] - text["x"] < 2  # the box starts the line
    assert box["y"] < text["y"] + text["height"] / 2 < box["y"] + box["height"] + 8  # on the text's line
    assert text["height"] < 2.5 * box["height"]  # one line, not a box above its text


SIZES = [(phone, language) for phone in (False, True) for language in ("en", "fr")]


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_the_game_list_tabs_fit_and_a_row_that_scrolls_shows_it(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    page = new_page(phone=phone, locale="fr-FR" if language == "fr" else "en-GB")
    sign_up_in_browser(page, live_server, "Alice", language=language)
    page.goto(f"{live_server}/?tab=finished")
    tabs = page.locator("nav.tabs").first
    assert tabs.evaluate("e => e.scrollWidth <= e.clientWidth")  # "Completed" and its count in sight
    keep_screenshot(page, f"game-list-tabs-{size_name(phone, language)}")

    page.goto(f"{live_server}/rankings")  # four game types: on a phone the row scrolls
    tabs = page.locator("nav.tabs").first
    backgrounds = tabs.locator("a").evaluate_all("all => all.map(a => getComputedStyle(a).backgroundColor)")
    assert set(backgrounds) == {"rgba(0, 0, 0, 0)"}  # no tab hides the shadow that says more is beside
    keep_screenshot(page, f"ranking-tabs-{size_name(phone, language)}")
