"""Three people sign up, one creates a Dragonstones game, the others join, all three bid, and every page
shows the reveal without being reloaded (live updates)."""

from __future__ import annotations

import re
from typing import Any

from tests.browser.test_accounts_browser import sign_up_in_browser


def test_three_players_bid_and_see_the_reveal(live_server: str, new_page: Any) -> None:
    alice, bruno = new_page(), new_page(locale="fr-FR")
    chloe = new_page(phone=True)
    for page, name in ((alice, "Alice"), (bruno, "Bruno"), (chloe, "Chloe")):
        sign_up_in_browser(page, live_server, name)

    alice.goto(f"{live_server}/games/new")
    alice.select_option("select[name=game_type]", "dragonstones")
    alice.fill("input[name=players]", "3")
    alice.fill("input[name=name]", "Three fists")
    alice.click("main button[type=submit]")
    alice.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = alice.url

    for page in (bruno, chloe):
        page.goto(f"{live_server}/?tab=open")
        page.click("text=Three fists")
        page.click("main form[action$='/join'] button")
        page.wait_for_url(game_url)
    alice.reload()

    for page in (alice, bruno, chloe):
        page.locator("#bid-form").wait_for()
    alice.fill("#bid-form input[name=fairy]", "")  # an emptied field is asked for, not sealed as nothing
    alice.click("#bid-form button[type=submit]")
    assert alice.locator("#bid-form input[name=fairy]").evaluate("e => e.matches(':invalid')")
    assert alice.locator("#bid-form").is_visible()  # nothing sealed: the bid is still to make
    alice.fill("#bid-form input[name=fairy]", "3")
    alice.click("#bid-form button[type=submit]")
    alice.locator("#game-orders", has_text="Nothing to do").wait_for()
    bruno.locator("text=✓").first.wait_for()  # Bruno's page learns live that Alice has bid

    bruno.fill("#bid-form input[name=fairy]", "1")
    bruno.fill("#bid-form input[name=gold]", "1")
    bruno.click("#bid-form button[type=submit]")
    chloe.click("form.ds-choice button")  # Chloé keeps an empty fist

    for page in (alice, bruno, chloe):  # nobody reloads: the reveal arrives through the live updates
        reveal = page.locator(".ds-last-reveal")
        reveal.wait_for(timeout=45_000)  # three browsers and the server on two loaded cores
        text = reveal.inner_text()
        assert "Alice" in text and "Bruno" in text and "Chloe" in text
    assert "Alice wins the Witch" in alice.locator("#game-log").inner_text()
    assert "cursed coin" in alice.locator(".ds-screen").inner_text()
