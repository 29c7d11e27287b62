"""Advanced Civilization in a real browser: two players, one on a desktop screen in English, one on a phone in
French. The first moves a stack by clicking the map; the other does not see that move until it is
finalised; both enter the same area and the conflict is resolved on the map. Then, in a game of three, each
player's hand is theirs alone, and a player chooses on the map what a Famine takes. Screenshots of each
screen are kept under test-artifacts/advciv/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.db import make_engine
from app.settings import Settings
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_tigris_browser import api
from tests.games.advciv.helpers import begin, blank, deal, units
from tests.test_advciv_web import put_state, revealed

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "advciv"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
# Italy starts in Pannonia, Illyria in Germania: Illyricum (population limit 2) borders both.
ITALY_START, ILLYRIA_START, MEETING = "pannonia", "germania", "illyricum"
REPORT_CSP = """document.addEventListener("securitypolicyviolation", (e) =>
    console.error("CSP " + e.violatedDirective + " " + e.sourceFile + ":" + e.lineNumber));"""


def watched_pages(browser: Any, touch: bool) -> Iterator[Any]:
    """Browser pages of a given size and language, in separate contexts (separate cookies), phone-sized
    ones touch screens if `touch`; at the end, no script error on any of them, and no
    content-security-policy violation from this page's script."""
    contexts: list[Any] = []
    problems: list[str] = []

    def make(viewport: dict[str, int], locale: str) -> Any:
        phone = touch and viewport["width"] < 700
        context = browser.new_context(viewport=viewport, locale=locale, has_touch=phone, is_mobile=phone)
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


@pytest.fixture
def screens(browser: Any) -> Iterator[Any]:
    yield from watched_pages(browser, touch=False)


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
        if page.locator(".menu-toggle").is_visible():  # a phone: the language is behind Menu
            page.click(".menu-toggle")
        page.locator("form.lang button").click()
        page.wait_for_load_state()
        page.goto(url)
        stack(page, MEETING, "italy").wait_for()
        shoot(page, f"{name}-after-conflict")
    assert alice.locator("html").get_attribute("lang") == "fr"
    assert "Recensement" in alice.locator(".ac-tables").inner_text()


def game_of_three(live_server: str, screens: Any) -> tuple[int, dict[str, int], list[Any]]:
    """Alice (desktop, English), Bruno (phone, French) and Carla in a game past its nation draft; the seat
    of each page's player."""
    alice, bruno, carla = screens(DESKTOP, "en-GB"), screens(PHONE, "fr-FR"), screens(DESKTOP, "en-GB")
    for page, name, language in ((alice, "Alice", "en"), (bruno, "Bruno", "fr"), (carla, "Carla", "en")):
        sign_up_in_browser(page, live_server, name, language=language)
    game_id = api(alice, live_server, "POST", "/api/v1/games", {"game_type": "advciv", "players": 3})["id"]
    for page in (bruno, carla):
        api(page, live_server, "POST", f"/api/v1/games/{game_id}/join")
    seats = {}
    for page, name in ((alice, "alice"), (bruno, "bruno"), (carla, "carla")):
        seats[name] = api(page, live_server, "GET", f"/api/v1/games/{game_id}")["your_seat"]
    for name in sorted(seats, key=seats.__getitem__):
        page = {"alice": alice, "bruno": bruno, "carla": carla}[name]
        free = api(page, live_server, "GET", f"/api/v1/games/{game_id}/draft")["free"]
        api(page, live_server, "POST", f"/api/v1/games/{game_id}/draft", {"choice": free[0]})
    return game_id, seats, [alice, bruno, carla]


def put(tmp_path: Path, game_id: int, state: Any) -> None:
    """The game moved to a position built by the engine's test helpers (the server's own database)."""
    settings = Settings(data_dir=tmp_path / "var", run_jobs=False, _env_file=None)
    engine = make_engine(settings.sqlalchemy_url)
    with Session(engine) as db:
        put_state(db, game_id, state)
    engine.dispose()


def test_a_player_holds_cards_then_chooses_what_a_famine_takes_on_the_map(
    live_server: str, screens: Any, tmp_path: Path
) -> None:
    game_id, seats, (alice, bruno, carla) = game_of_three(live_server, screens)
    others = sorted(seat for seat in range(3) if seat != seats["alice"])
    nations = {seats["alice"]: "africa", others[0]: "crete", others[1]: "thrace"}
    crete, thrace = others
    state = units(
        blank(3, nations), seats["alice"], {"numidia": 4, "tunisia": 3}, cities=["carthago", "cyrene"]
    )
    state = units(state, crete, {}, cities=["knossos", "phaestos"], treasury=40)
    state = units(state, thrace, {}, cities=["athens", "corinth"])
    state = deal(state, seats["alice"], ["ochre", "ochre", "wine", "famine"])
    state = deal(state, crete, ["salt"])
    url = f"{live_server}/games/{game_id}"

    # phase 9: each sees their own hand, held calamities marked; Crete may buy stack-9 cards
    put(tmp_path, game_id, begin(deal(state, crete, ["treachery"]), "gold"))
    alice.goto(url)
    bruno.goto(url)
    hand = alice.locator("#ac-hand")
    assert "Famine" in hand.inner_text() and "non-tradable" in hand.inner_text()
    assert "set: 2² × 1 = 4" in hand.inner_text()
    theirs = bruno.locator("#ac").inner_html() + bruno.locator("#game-log").inner_html()
    assert "Famine" not in theirs and "Ocre" not in theirs and "Ochre" not in theirs  # he reads French
    alice.locator("#ac-hand").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    alice.locator("#ac-hand").screenshot(path=str(ARTIFACTS / "desktop-en-hand.png"))
    bruno.locator("#ac-hand").screenshot(path=str(ARTIFACTS / "phone-fr-hand.png"))
    if seats["bruno"] == crete:
        assert "Acheter 2 cartes (36)" in bruno.locator(".ac-command").inner_text()
        shoot(bruno, "phone-fr-gold")
        bruno.locator(".ac-side").screenshot(path=str(ARTIFACTS / "phone-fr-gold-panel.png"))

    # phase 11: the Famine revealed; Alice (Africa) loses 10 unit points and is the only one asked
    put(tmp_path, game_id, revealed(state))
    alice.reload()
    bruno.reload()
    for page in (alice, bruno):
        page.locator("#ac-calamity").wait_for()
    assert "Famine" in alice.locator("#ac-calamity").inner_text()
    assert "Famine" in bruno.locator("#ac-calamity").inner_text()
    assert bruno.locator("form.ac-lose").count() == 0
    form = alice.locator("form.ac-lose")
    assert form.locator(".ac-lose-total").get_attribute("data-due") == "10"
    shoot(alice, "desktop-en-calamity-default")

    # her choice: every token of Numidia and Tunisia, and Carthago reduced to 2 tokens (7 + 3 points)
    row = {
        area: form.locator(f'li[data-ac-loss="{area}"]')
        for area in ("numidia", "tunisia", "carthago", "cyrene")
    }
    row["numidia"].locator('input[data-ac-lose="tokens"]').fill("4")
    row["tunisia"].locator('input[data-ac-lose="tokens"]').fill("3")
    row["carthago"].locator('input[data-ac-lose="city"]').check()
    row["carthago"].locator('input[data-ac-lose="left"]').fill("2")
    if row["cyrene"].locator('input[data-ac-lose="city"]').is_checked():
        row["cyrene"].locator('input[data-ac-lose="city"]').uncheck()
    assert form.locator(".ac-lose-total strong").inner_text() == "10"
    area_class = "el => el.getAttribute('class')"
    assert "loss" in alice.locator('.ac-map .ac-area[data-area="numidia"]').evaluate(area_class)
    assert "keep" in alice.locator('.ac-map .ac-area[data-area="cyrene"]').evaluate(area_class)
    assert "lost" in (row["carthago"].get_attribute("class") or "")
    shoot(alice, "desktop-en-calamity-chosen")
    form.locator('button[type="submit"]').click()

    # the secondary victims choose next; the panel tells everyone who must answer
    alice.locator(".ac-lose").wait_for(state="detached")
    bruno.reload()
    answering = bruno.locator("#ac-calamity").inner_text()
    assert "Victime principale" in answering and "Doit répondre" in answering
    shoot(bruno, "phone-fr-calamity")
    bruno.locator(".ac-side").screenshot(path=str(ARTIFACTS / "phone-fr-calamity-panel.png"))
    assert bruno.evaluate("document.documentElement.scrollWidth") <= 390, "no sideways scrolling on a phone"
    for page, name in ((alice, "desktop-fr"), (bruno, "phone-en")):
        if page.locator(".menu-toggle").is_visible():  # a phone: the language is behind Menu
            page.click(".menu-toggle")
        page.locator("form.lang button").click()
        page.wait_for_load_state()
        page.goto(url)
        page.locator("#ac-calamity").wait_for()
        shoot(page, f"{name}-calamity")
        page.locator(".ac-side").screenshot(path=str(ARTIFACTS / f"{name}-calamity-panel.png"))
    assert "Calamité : Famine" in alice.locator("#ac-calamity").inner_text()
    assert "Famine" in bruno.locator("#ac-calamity").inner_text()

    # the others lose by default; Africa's choice is carried out on the map (the next turn begins)
    for _ in range(6):
        detail = api(alice, live_server, "GET", f"/api/v1/games/{game_id}")
        if detail["view"]["phase"] != "calamity":
            break
        (seat,) = detail["view"]["awaiting"]
        page = alice if seat == seats["alice"] else (bruno if seat == seats["bruno"] else carla)
        mine = api(page, live_server, "GET", f"/api/v1/games/{game_id}")["view"]["legal"]["default"]
        send(page, live_server, game_id, mine)
    board = api(alice, live_server, "GET", f"/api/v1/games/{game_id}")["view"]
    assert "numidia" not in board["areas"] and "tunisia" not in board["areas"]
    alice.reload()
    log = alice.locator("#game-log").inner_text()
    assert "Famine frappe Alice (Afrique)." in log and "Alice (Afrique) 10" in log  # she reads French now

    # a pick of several: Superstition reduces three of Alice's five cities, ticked by clicking the map
    five = ["carthago", "cyrene", "athens", "corinth", "argos"]
    chosen = units(blank(3, nations), seats["alice"], {}, cities=five)
    put(tmp_path, game_id, revealed(deal(chosen, seats["alice"], ["superstition"])))
    alice.goto(url)
    ticks = alice.locator('.ac-toggles.harm input[name="picks[]"]')
    assert ticks.count() == 5
    picked = [box.get_attribute("value") for box in ticks.all() if box.is_checked()]
    spared = next(key for key in five if key not in picked)
    alice.locator(f'.ac-map .ac-area[data-area="{picked[0]}"]').click()
    alice.locator(f'.ac-map .ac-area[data-area="{spared}"]').click()
    assert "loss" in alice.locator(f'.ac-map .ac-area[data-area="{spared}"]').evaluate(area_class)
    assert "keep" in alice.locator(f'.ac-map .ac-area[data-area="{picked[0]}"]').evaluate(area_class)
    shoot(alice, "desktop-fr-calamity-pick")
    alice.locator(".ac-side").screenshot(path=str(ARTIFACTS / "desktop-fr-calamity-pick-panel.png"))
    alice.locator('.ac-command form button[type="submit"]').click()
    alice.locator(".ac-toggles.harm").wait_for(state="detached")
    board = api(alice, live_server, "GET", f"/api/v1/games/{game_id}")["view"]
    assert board["areas"][picked[0]]["units"]["africa"]["city"]  # spared by the click
    assert not board["areas"][spared]["units"]["africa"]["city"]  # reduced instead
