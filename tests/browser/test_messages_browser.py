"""A game message goes where its ticks say, with one Send button; the line beside it names the readers
before sending. Both sizes, both languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api

ONLY_BRUNO = {"en": "Only to Bruno, privately.", "fr": "Seulement à Bruno, en privé."}


@pytest.mark.parametrize(("phone", "language"), [(False, "en"), (True, "fr")])
def test_the_ticks_decide_who_reads_a_message(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    alice, bruno, chloe = new_page(phone=phone), new_page(), new_page()
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    sign_up_in_browser(bruno, live_server, "Bruno")
    sign_up_in_browser(chloe, live_server, "Chloe")
    game = api(
        alice, live_server, "POST", "/games", {"game_type": "fake", "players": 3, "time_limit_hours": 24}
    )
    for player in (bruno, chloe):
        api(player, live_server, "POST", f"/games/{game['id']}/join")

    alice.goto(f"{live_server}/games/{game['id']}")
    form = alice.locator("#game-message-form")
    assert form.locator("button[type=submit]").count() == 1
    form.locator("textarea[name=body]").fill("Shall we ally, Bruno?")
    form.locator("label", has_text="Bruno").locator("input[type=checkbox]").check()
    assert form.locator("[data-audience]").inner_text() == ONLY_BRUNO[language]
    form.scroll_into_view_if_needed()
    keep_screenshot(alice, f"message-private-{size_name(phone, language)}")
    form.locator("button[type=submit]").click()
    alice.locator("#game-messages li.private", has_text="Shall we ally").wait_for()

    bruno.goto(f"{live_server}/games/{game['id']}")
    assert bruno.locator("#game-messages li.private", has_text="Shall we ally").is_visible()
    chloe.goto(f"{live_server}/games/{game['id']}")
    assert chloe.locator("#game-messages", has_text="Shall we ally").count() == 0

    form = alice.locator("#game-message-form")
    form.locator("textarea[name=body]").fill("Hello all")
    assert "Bruno" not in form.locator("[data-audience]").inner_text()  # no tick: the board
    form.locator("button[type=submit]").click()
    alice.locator("#game-messages li:not(.private)", has_text="Hello all").wait_for()
    chloe.reload()
    assert chloe.locator("#game-messages li", has_text="Hello all").is_visible()
