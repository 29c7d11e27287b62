"""A newcomer's first hour, in a real browser at both sizes and in both languages: refusals in people's
words, forms that keep what was typed, help at hand, and players one click from their profiles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api

SIZES = [(False, "en"), (True, "en"), (False, "fr"), (True, "fr")]


def locale(language: str) -> str:
    return "fr-FR" if language == "fr" else "en-GB"


SignUp = Callable[..., Any]
Seat = Callable[..., tuple[list[Any], int]]


@pytest.fixture
def signed_up(live_server: str, new_page: Any) -> SignUp:
    """`signed_up(name, phone, language)`: a page of its own, signed up as `name` in the language."""

    def sign_up(name: str, phone: bool = False, language: str = "en") -> Any:
        page = new_page(phone=phone, locale=locale(language))
        sign_up_in_browser(page, live_server, name, language=language)
        return page

    return sign_up


@pytest.fixture
def seat(live_server: str, signed_up: SignUp) -> Seat:
    """`seat(names, game_type, phone, language)`: each name signed up in a browser of its own, in the
    language, and seated at a new game (the first creates it); the first on a phone if asked, the others on
    a desktop. Returns the pages, in the order of the names, and the game's id."""

    def seated(
        names: Sequence[str], game_type: str = "fake", phone: bool = False, language: str = "en"
    ) -> tuple[list[Any], int]:
        pages = [signed_up(name, phone and index == 0, language) for index, name in enumerate(names)]
        game = api(pages[0], live_server, "POST", "/games", {"game_type": game_type, "players": len(pages)})
        for page in pages[1:]:
            api(page, live_server, "POST", f"/games/{game['id']}/join")
        game_id: int = game["id"]
        return pages, game_id

    return seated


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_an_empty_sign_up_and_an_over_long_name_get_sentences(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    page = new_page(phone=phone, locale=locale(language))
    page.goto(f"{live_server}/signup")
    page.evaluate("document.querySelector('main form').noValidate = true")  # as a browser that checks nothing
    page.click("main button[type=submit]")
    refusal = page.locator("form .refusal")
    refusal.wait_for()
    wanted = "Le nom est obligatoire." if language == "fr" else "The name is required."
    assert refusal.inner_text().strip() == wanted
    assert page.locator("input[name=display_name]").get_attribute("aria-invalid") == "true"
    keep_screenshot(page, f"signup-empty-{size_name(phone, language)}")

    page.evaluate("document.querySelector('input[name=display_name]').removeAttribute('maxlength')")
    page.evaluate("document.querySelector('main form').noValidate = true")
    page.fill("input[name=display_name]", "x" * 300)
    page.fill("input[name=email]", "long@example.com")
    page.fill("input[name=password]", "a long enough password")
    page.click("main button[type=submit]")
    refusal = page.locator("form .refusal", has_text="80")
    refusal.wait_for()
    wanted = (
        "Le nom doit compter au plus 80 caractères."
        if language == "fr"
        else "The name must have at most 80 characters."
    )
    assert refusal.inner_text().strip() == wanted
    assert page.locator("input[name=email]").input_value() == "long@example.com"


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_a_refused_quit_keeps_the_name_and_says_why_beside_it(
    live_server: str, seat: Seat, phone: bool, language: str
) -> None:
    (alice, _), game_id = seat(["Alice", "Bruno"], phone=phone, language=language)
    alice.goto(f"{live_server}/games/{game_id}")
    quitting = alice.locator("details", has=alice.locator("form[action$='/quit']"))
    quitting.locator("summary").click()
    alice.fill("form[action$='/quit'] input[name=replacement]", "Nobody Known")
    alice.click("form[action$='/quit'] button[type=submit]")

    refusal = alice.locator("form[action$='/quit'] .refusal")
    refusal.wait_for()
    assert quitting.get_attribute("open") is not None
    assert alice.locator("form[action$='/quit'] input[name=replacement]").input_value() == "Nobody Known"
    assert alice.locator("#flash").inner_text().strip() == ""
    refusal.scroll_into_view_if_needed()
    keep_screenshot(alice, f"quit-refused-{size_name(phone, language)}")


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_a_newcomer_follows_the_first_steps_into_the_queue(
    live_server: str, signed_up: SignUp, phone: bool, language: str
) -> None:
    page = signed_up("Nina", phone, language)
    card = page.locator("#first-steps")
    assert card.is_visible()
    assert ("quelques secondes" if language == "fr" else "a few seconds") in card.inner_text()
    assert card.bounding_box()["y"] < page.viewport_size["height"]  # seen without scrolling
    keep_screenshot(page, f"first-steps-{size_name(phone, language)}")

    card.locator("#first-steps-queue").click()
    page.wait_for_url(f"{live_server}/queue")
    page.select_option("select[name=game_type]", "tigris")
    page.click("form[action='/queue'] button[type=submit]")
    page.wait_for_url(f"{live_server}/queue")
    if page.locator(".menu-toggle").is_visible():
        page.click(".menu-toggle")
    page.click("header a[href='/']")
    page.wait_for_url(f"{live_server}/")
    assert "tigris" in page.locator(".queue-status").inner_text().lower()
    done = page.locator("#first-steps li.done")
    assert done.count() == 1 and ("partie" if language == "fr" else "game") in done.inner_text()

    page.locator("#first-steps a[href='/rules/dragonstones']").click()
    page.wait_for_url(f"{live_server}/rules/dragonstones")
    page.goto(f"{live_server}/")
    assert page.locator("#first-steps li.done").count() == 2
    keep_screenshot(page, f"first-steps-queued-{size_name(phone, language)}")


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_help_is_one_click_away(live_server: str, signed_up: SignUp, phone: bool, language: str) -> None:
    page = signed_up("Hugo", phone, language)
    if page.locator(".menu-toggle").is_visible():
        page.click(".menu-toggle")
    page.click("header a[href='/help']")
    page.wait_for_url(f"{live_server}/help")
    assert page.locator("#help-rules-list a").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    keep_screenshot(page, f"help-{size_name(phone, language)}")


@pytest.mark.parametrize(("phone", "language"), SIZES)
def test_a_player_opens_an_opponents_profile_from_the_game_page(
    live_server: str, seat: Seat, phone: bool, language: str
) -> None:
    (alice, _), game_id = seat(["Alice", "Bruno"], phone=phone, language=language)
    alice.goto(f"{live_server}/games/{game_id}")
    keep_screenshot(alice, f"game-names-{size_name(phone, language)}")
    alice.locator("#game-status a.player", has_text="Bruno").first.click()
    alice.wait_for_url(f"{live_server}/users/*")
    assert "Bruno" in alice.locator("main h1").inner_text()
    keep_screenshot(alice, f"profile-from-game-{size_name(phone, language)}")


def top(page: Any, selector: str) -> float:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return float(box["y"])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_amun_re_on_a_phone_says_whose_turn_first(live_server: str, seat: Seat, language: str) -> None:
    pages, game_id = seat(["Ada", "Ben", "Cyril"], "amunre", phone=True, language=language)
    for page in pages:
        page.goto(f"{live_server}/games/{game_id}")
        assert top(page, "#game-status") <= top(page, "#game-board")  # above it, or beside it on a desktop
        if page.locator("#game-orders").is_visible():
            assert top(page, "#game-status") < top(page, "#game-orders")
    keep_screenshot(pages[0], f"amunre-first-{size_name(True, language)}")
    keep_screenshot(pages[1], f"amunre-first-{size_name(False, language)}")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_tigris_on_a_phone_fits_the_thumb(live_server: str, seat: Seat, language: str) -> None:
    (alice, bob), game_id = seat(["Alice", "Bob"], "tigris", phone=True, language=language)
    first = alice if api(alice, live_server, "GET", f"/games/{game_id}")["your_seat"] == 0 else bob
    first.set_viewport_size({"width": 390, "height": 844})
    first.goto(f"{live_server}/games/{game_id}")
    assert first.evaluate("document.documentElement.scrollWidth") <= 390
    square = first.locator('.tg-map .sq[data-sq="A1"]').bounding_box()
    assert square is not None and square["width"] >= 40
    assert top(first, "#game-status") < top(first, "#game-orders")
    first.click('button[data-piece="leader:red"]')
    legal = first.locator(".tg-map .sq.legal").first
    first.wait_for_function(
        "() => { const r = document.querySelector('.tg-map .sq.legal').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; }"
    )
    assert legal.is_visible()
    keep_screenshot(first, f"tigris-picked-{size_name(True, language)}")
    players = first.locator(".tg-players .tg-scroll")
    players.scroll_into_view_if_needed()
    box = players.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    keep_screenshot(first, f"tigris-players-{size_name(True, language)}")
