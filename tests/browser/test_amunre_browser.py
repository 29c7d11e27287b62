"""Three people play an Amun-Re auction and a sealed offering in Chromium, through the page's forms; one
sells a power card while the game waits on another."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.test_accounts_browser import sign_up_in_browser


def _act_where_awaited(pages: list[Any], button_text: str) -> bool:
    """The page that has a choice button with this text clicks it; False if none has."""
    for page in pages:
        page.reload()
        button = page.locator("form.ds-choice").get_by_role("button", name=button_text)
        if button.count():
            with page.expect_response(lambda response: response.url.endswith("/orders")):
                button.first.click()
            return True
    return False


def test_an_auction_and_an_offering(live_server: str, new_page: Any) -> None:
    pages = [new_page(), new_page(), new_page(phone=True)]
    for page, name in zip(pages, ("Alice", "Bruno", "Chloe"), strict=True):
        sign_up_in_browser(page, live_server, name)
    alice = pages[0]
    alice.goto(f"{live_server}/games/new")
    alice.select_option("select[name=game_type]", "amunre")
    alice.fill("input[name=players]", "3")
    alice.fill("input[name=name]", "Nile")
    alice.click("main button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = alice.url
    for page in pages[1:]:
        page.goto(f"{live_server}/?tab=open")
        page.click("text=Nile")
        page.click("main form[action$='/join'] button")
        page.wait_for_url(game_url)

    alice.reload()
    assert alice.locator("svg.ar-nile g.ar-province").count() == 15
    assert _act_where_awaited(pages, "bid 0 on")  # the amounts are buttons, named in full
    idle = next(page for page in pages if page.locator("#offer-form, form.ds-choice").count() == 0)
    idle.reload()
    with idle.expect_response(lambda response: response.url.endswith("/orders")):
        idle.locator(".ar-hand").get_by_role("button", name="Sell for 1 gold").first.click()
    idle.reload()
    assert "sells Master Builder for 1 gold." in idle.locator("#game-log").inner_text()
    assert idle.locator(".ar-hand .ar-sell").count() == 0  # its only power card is gone
    for _ in range(2):  # the others bid 0 on a province nobody holds
        assert _act_where_awaited(pages, "bid 0 on")
    for _ in range(3):
        assert _act_where_awaited(pages, "done")

    for page in pages:
        page.reload()
        page.locator("#offer-form").wait_for()
        page.fill("#offer-form input[name='gold.1']", "1")
        with page.expect_response(lambda response: response.url.endswith("/orders")):
            page.click("#offer-form button[type=submit]")
    for page in pages:
        page.reload()
        offerings = page.locator(".ar-offerings")
        offerings.wait_for()
        text = offerings.inner_text()
        assert "Alice" in text and "Bruno" in text and "Chloe" in text
