"""Advanced Civilization in a real browser: two players, one on a desktop screen in English, one on a phone in
French. The first moves a stack by clicking the map; the other does not see that move until it is
finalised; both enter the same area and the conflict is resolved on the map. Screenshots of each screen
are kept under test-artifacts/advciv/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_tigris_browser import api

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "advciv"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# Italy starts in Pannonia, Illyria in Germania: Illyricum (population limit 2) borders both.
ITALY_START, ILLYRIA_START, MEETING = "pannonia", "germania", "illyricum"
REPORT_CSP = """document.addEventListener("securitypolicyviolation", (e) =>
    console.error("CSP " + e.violatedDirective + " " + e.sourceFile + ":" + e.lineNumber));"""


@pytest.fixture
def screens(browser: Any) -> Iterator[Any]:
    """Browser pages of a given size and language, in separate contexts (separate cookies); at the end,
    no script error on any of them, and no content-security-policy violation from this page's script."""
    contexts: list[Any] = []
    problems: list[str] = []

    def make(viewport: dict[str, int], locale: str) -> Any:
        context = browser.new_context(viewport=viewport, locale=locale)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.add_init_script(REPORT_CSP)
        page.on("console", lambda message: problems.append(message.text) if "CSP " in message.text else None)
        return page

    yield make
    for context in contexts:
        context.close()
    assert [text for text in problems if "advciv" in text or "script error" in text] == []


def shoot(page: Any, name: str) -> None:
    """The screen as the player sees it, scrolled to the map page (the whole page in a second file)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("document.getElementById('ac').scrollIntoView()")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.screenshot(path=str(ARTIFACTS / f"{name}-full.png"), full_page=True)


def stack(page: Any, area: str, nation: str) -> Any:
    return page.locator(f'.ac-map .ac-stack[data-area="{area}"][data-nation="{nation}"][data-kind="tokens"]')


def send(page: Any, base: str, game_id: int, order: dict[str, Any]) -> None:
    """An order through the JSON API, for the steps the test does not click."""
    version = api(page, base, "GET", f"/api/v1/games/{game_id}")["game"]["version"]
    api(page, base, "POST", f"/api/v1/games/{game_id}/orders", {"order": order, "expected_version": version})


def wait_for_phase(page: Any, base: str, game_id: int, phase: str) -> None:
    """Answer the ship question with "no ships" until the game reaches `phase` (turn 1 has no other)."""
    for _ in range(10):
        detail = api(page, base, "GET", f"/api/v1/games/{game_id}")
        board = detail["view"]
        if board["phase"] == phase:
            return
        if board["phase"] == "ships" and detail["your_seat"] in board["awaiting"]:
            send(page, base, game_id, {"type": "ships"})
        else:
            page.wait_for_timeout(300)
    raise AssertionError(f"the game did not reach {phase}: {board['phase']}")


def test_a_move_by_clicking_stays_secret_until_finalised_then_the_conflict_shows(
    live_server: str, screens: Any
) -> None:
    alice = screens(DESKTOP, "en-GB")
    bruno = screens(PHONE, "fr-FR")
    sign_up_in_browser(alice, live_server, "Alice")
    sign_up_in_browser(bruno, live_server, "Bruno", language="fr")
    game = api(alice, live_server, "POST", "/api/v1/games", {"game_type": "advciv", "players": 2})
    game_id = game["id"]
    api(bruno, live_server, "POST", f"/api/v1/games/{game_id}/join")
    seats = {api(p, live_server, "GET", f"/api/v1/games/{game_id}")["your_seat"]: p for p in (alice, bruno)}

    # the nation draft, then the start tokens: Alice clicks her start area on the map
    nations = {alice: "italy", bruno: "illyria"}
    for seat in (0, 1):
        player = seats[seat]
        api(player, live_server, "POST", f"/api/v1/games/{game_id}/draft", {"choice": nations[player]})
    url = f"{live_server}/games/{game_id}"
    alice_first = seats[0] is alice
    if not alice_first:
        send(bruno, live_server, game_id, {"type": "start", "area": ILLYRIA_START})
    alice.goto(url)
    assert alice.locator(".ac-map .ac-area").count() >= 158
    alice.locator(f'.ac-map .ac-area.dest[data-area="{ITALY_START}"]').click()
    stack(alice, ITALY_START, "italy").wait_for()
    if alice_first:
        send(bruno, live_server, game_id, {"type": "start", "area": ILLYRIA_START})

    # turn 1: expansion doubles each start token; no ships
    wait_for_phase(alice, live_server, game_id, "move")
    wait_for_phase(bruno, live_server, game_id, "move")
    alice.reload()
    bruno.goto(url)
    assert stack(alice, ITALY_START, "italy").get_attribute("data-count") == "2"
    shoot(alice, "desktop-en-movement")
    shoot(bruno, "phone-fr-movement")

    # Alice: click her stack, click the destination, move them all
    stack(alice, ITALY_START, "italy").click()
    target = alice.locator(f'.ac-map .ac-area[data-area="{MEETING}"]')
    assert "dest" in (target.get_attribute("class") or "")
    target.click()
    chooser = alice.locator(".ac-chooser")
    chooser.wait_for()
    assert "Illyricum" in chooser.inner_text()
    shoot(alice, "desktop-en-choose-how-many")
    chooser.locator('button[data-count="all"]').click()
    alice.locator(".ac-moves li", has_text="Illyricum").wait_for()
    assert alice.locator(".ac-arrows line").count() == 1
    assert stack(alice, ITALY_START, "italy").get_attribute("class").find("movable") == -1  # all have moved

    # a move the rules refuse (those tokens have moved): the reason appears beside the map
    alice.evaluate(
        """([origin, to]) => {
            const form = document.querySelector("form.ac-move-form");
            form.elements.origin.value = origin; form.elements.to.value = to;
            form.elements.tokens.removeAttribute("max"); form.elements.tokens.value = "1";
            form.requestSubmit();
        }""",
        [ITALY_START, MEETING],
    )
    refusal = alice.locator("#ac-refusal .error")
    refusal.wait_for()
    assert refusal.get_attribute("data-code") == "not_enough_tokens"
    assert alice.locator("#flash").inner_text() == ""
    shoot(alice, "desktop-en-move-entered")

    # Bruno sees nothing of it: no Italian token has left Pannonia on his map
    bruno.reload()
    assert stack(bruno, ITALY_START, "italy").get_attribute("data-count") == "2"
    assert stack(bruno, MEETING, "italy").count() == 0
    assert "Illyricum" not in bruno.locator("#game-log").inner_text()

    # Bruno moves one token there too, and both say Done
    assert api(bruno, live_server, "GET", f"/api/v1/games/{game_id}")["view"]["my_moves"] == []
    send(bruno, live_server, game_id, {"type": "move", "origin": ILLYRIA_START, "to": MEETING, "tokens": 1})
    bruno.reload()
    bruno.locator(".ac-moves li").first.wait_for()
    shoot(bruno, "phone-fr-move-entered")
    bruno.locator('form[data-order="done"] button').click()
    alice.locator('form[data-order="done"] button').click()

    # finalised in census order, then the conflict: Illyria's single token goes first, Italy holds the area
    # (and the next turn's expansion has already doubled it)
    stack(bruno, MEETING, "italy").wait_for(timeout=20_000)
    bruno.reload()
    assert stack(bruno, MEETING, "illyria").count() == 0
    assert stack(bruno, MEETING, "italy").get_attribute("data-count") == "4"
    assert stack(bruno, ILLYRIA_START, "illyria").get_attribute("data-count") == "2"
    log = bruno.locator("#game-log").inner_text()
    assert "Illyricum" in log
    assert bruno.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"
    shoot(bruno, "phone-fr-after-conflict")
    alice.reload()
    assert stack(alice, MEETING, "italy").get_attribute("data-count") == "4"
    assert "Conflict in Illyricum" in alice.locator("#game-log").inner_text()
    shoot(alice, "desktop-en-after-conflict")

    # the same screens in the other language
    for page, name in ((alice, "desktop-fr"), (bruno, "phone-en")):
        page.locator("form.lang button").click()
        page.wait_for_load_state()
        page.goto(url)
        stack(page, MEETING, "italy").wait_for()
        shoot(page, f"{name}-after-conflict")
    assert alice.locator("html").get_attribute("lang") == "fr"
    assert "Recensement" in alice.locator(".ac-tables").inner_text()
