"""The new-game form in a browser: it starts on a newcomer's game, follows the game chosen (its player count,
its options and their help), creates an Advanced Civilization game with a last turn, and the game page says
it. On a desk and a phone, in English and French, with and without script."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.shots import ARTIFACTS, keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser

WORDS = {
    "en": {
        "last_turn": "Last turn",
        "ends": "ends after turn 5",
        "create": "Create the game",
        "tigris": "2 to 4 players",
    },
    "fr": {
        "last_turn": "Dernier tour",
        "ends": "se termine après le tour 5",
        "create": "Créer la partie",
        "tigris": "2 à 4 joueurs",
    },
}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("phone", [False, True])
def test_an_advanced_civilization_game_with_a_last_turn(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    words = WORDS[language]
    page = new_page(phone=phone, locale="fr-FR" if language == "fr" else "en-GB")
    sign_up_in_browser(page, live_server, f"Alice{language}{int(phone)}", language=language)
    page.goto(f"{live_server}/games/new")
    players = page.locator("input[name=players]")
    assert page.locator("#game-choice").input_value() == "dragonstones"
    assert (players.get_attribute("min"), players.get_attribute("max")) == ("3", "6")
    assert page.locator("#show-game").is_hidden()  # the script switches the form in place
    assert page.locator("#options-advciv").is_hidden()
    keep_screenshot(page, f"new-game-{size_name(phone, language)}")

    page.select_option("#game-choice", "tigris")
    assert (players.get_attribute("min"), players.get_attribute("max")) == ("2", "4")
    assert page.locator("#options-tigris").is_visible() and page.locator("#options-dragonstones").is_hidden()
    assert page.locator("#players-range").inner_text() == words["tigris"]

    page.select_option("#game-choice", "advciv")
    assert (players.get_attribute("min"), players.get_attribute("max")) == ("2", "8")
    last_turn = page.get_by_label(words["last_turn"])
    assert last_turn.is_visible()
    help_text = page.locator("#help-advciv-last_turn")
    assert help_text.is_visible() and help_text.get_attribute("id") == last_turn.get_attribute(
        "aria-describedby"
    )
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= (390 if phone else 1366), "the form must not scroll sideways"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"new-game-advciv-{size_name(phone, language)}.png"), full_page=True)

    players.fill("3")
    last_turn.fill("5")
    page.get_by_role("button", name=words["create"]).click()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    options_line = page.locator("#game-options")
    assert words["ends"] in options_line.inner_text()
    keep_screenshot(page, f"new-game-created-{size_name(phone, language)}")

    visitor = new_page(phone=phone, locale="fr-FR" if language == "fr" else "en-GB")
    visitor.goto(f"{live_server}/")
    assert words["ends"] in visitor.locator("#open-games").inner_text()  # nobody joins without knowing
    keep_screenshot(visitor, f"lobby-options-{size_name(phone, language)}")


def test_without_script_the_form_reloads_for_the_chosen_game(browser: Any, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        page = context.new_page()
        sign_up_in_browser(page, live_server, "Noscript")
        page.goto(f"{live_server}/games/new")
        page.select_option("#game-choice", "tigris")
        page.click("#show-game")
        page.wait_for_url(re.compile(r"/games/new\?game_type=tigris$"))
        keep_screenshot(page, "new-game-without-script-phone-en")
        players = page.locator("input[name=players]")
        assert (players.get_attribute("min"), players.get_attribute("max")) == ("2", "4")
        assert page.locator("#options-tigris").is_visible() and page.locator("#options-advciv").is_hidden()
        page.check("input[name='options.tigris.open_scoring'][type=checkbox]")
        page.click("#new-game-form button:has-text('Create the game')")
        page.wait_for_url(re.compile(r"/games/\d+$"))
        assert "open scoring" in page.locator("#game-options").inner_text()
    finally:
        context.close()
