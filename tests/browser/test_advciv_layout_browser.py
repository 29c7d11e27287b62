"""Advanced Civilization's map and tables on a desk (1366×900) and a phone (390×844, a touch screen), in
English and French: area names readable at the first zoom on a desk, the start areas lit on a flood plain,
the zoom buttons clear of every stack, a tap on the map that leaves the page where it was, and tables that
fit the screen or scroll inside their own box; the seat draft's map of where each nation starts. Screenshots
of the draft, the map, the market, the shop and the final score at both sizes, in both languages, are kept
under test-artifacts/advciv-layout/ for review."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games.advciv import RULES
from app.games.advciv.model import State
from app.games.advciv.rules import AdvcivOptions
from app.games.kit.model import evolve
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_advciv_browser import game_of_three, watched_pages
from tests.browser.test_advciv_market_browser import put_now
from tests.browser.test_tigris_browser import api
from tests.games.advciv.helpers import begin, blank, deal, key, units

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "advciv-layout"
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
LANGUAGES = ("en", "fr")


@pytest.fixture
def touch_screens(browser: Any) -> Iterator[Any]:
    yield from watched_pages(browser, touch=True)


def shoot(page: Any, name: str, selector: str | None = None) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    if selector:
        page.locator(selector).scroll_into_view_if_needed()
        page.locator(selector).screenshot(path=str(ARTIFACTS / f"{name}-part.png"))
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def speak(page: Any, base: str, language: str) -> None:
    api(page, base, "PATCH", "/api/v1/me", {"language": language})


def open_game(page: Any, base: str, game_id: int) -> None:
    page.goto(f"{base}/games/{game_id}")
    page.locator("#ac-map").wait_for()
    page.wait_for_function("document.querySelector('#ac-map').style.getPropertyValue('--ac-px') !== ''")


def no_sideways_scroll(page: Any, where: str) -> None:
    sizes = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sizes[0] <= sizes[1], f"{where}: the page scrolls sideways ({sizes})"


def tables_fit_or_scroll_inside(page: Any, where: str) -> None:
    """Each table box ends inside the screen, and a table wider than its box scrolls inside it."""
    boxes = page.evaluate(
        """() => Array.from(document.querySelectorAll('.ac .ac-scroll')).map((box) => {
            const rect = box.getBoundingClientRect();
            return {right: rect.right, width: window.innerWidth, inner: box.scrollWidth,
                    shown: box.clientWidth, overflow: getComputedStyle(box).overflowX,
                    last: box.querySelector('thead th:last-child').getBoundingClientRect().width};
        })"""
    )
    assert boxes, where
    for box in boxes:
        assert box["right"] <= box["width"] + 0.5, f"{where}: a table box runs off the screen {box}"
        assert box["inner"] <= box["shown"] or box["overflow"] in ("auto", "scroll"), f"{where}: {box}"
        assert box["last"] > 0, f"{where}: the last column is squeezed out {box}"
    wide = page.evaluate(
        """() => Array.from(document.querySelectorAll('.ac-points .ac-scroll'))
            .filter((box) => box.scrollWidth > box.clientWidth).length"""
    )
    assert wide == 0, f"{where}: the points table is wider than the screen"
    total = page.evaluate(
        """() => Array.from(document.querySelectorAll('.ac-final .ac-scroll')).map((box) =>
            box.querySelector('th.total').getBoundingClientRect().right
                <= box.getBoundingClientRect().right)"""
    )
    assert all(total), f"{where}: the final score's Total is out of sight"
    hidden = page.evaluate(
        """() => Array.from(document.querySelectorAll('.ac .ac-scroll')).filter((box) => {
            box.scrollLeft = box.scrollWidth;
            const last = box.querySelector('thead th:last-child').getBoundingClientRect();
            const shown = box.getBoundingClientRect();
            box.scrollLeft = 0;
            return last.right > shown.right + 1;
        }).length"""
    )
    assert hidden == 0, f"{where}: the last column cannot be scrolled into its box"


def overlapping(first: dict[str, float], second: dict[str, float]) -> bool:
    return not (
        first["x"] + first["width"] <= second["x"]
        or second["x"] + second["width"] <= first["x"]
        or first["y"] + first["height"] <= second["y"]
        or second["y"] + second["height"] <= first["y"]
    )


def zoom_buttons_clear_the_stacks(page: Any, where: str) -> None:
    """No zoom button lies on a stack shown now, nor anywhere on the map, where a stack may come."""
    buttons = [button.bounding_box() for button in page.locator(".ac-zoom button").all()]
    drawing = page.locator("#ac-map").bounding_box()
    assert all(not overlapping(button, drawing) for button in buttons), f"{where}: a zoom button on the map"
    stacks = [stack.bounding_box() for stack in page.locator(".ac-map .ac-stack").all()]
    assert buttons and stacks, where
    for button in buttons:
        for stack in stacks:
            if stack is not None:
                assert not overlapping(button, stack), f"{where}: a zoom button covers a stack"


def draft_of(seats: dict[str, int], nations: tuple[str, str, str]) -> dict[int, str]:
    return {seats[name]: nation for name, nation in zip(("alice", "bruno", "carla"), nations, strict=True)}


def crowded_move(seats: dict[str, int]) -> State:
    """Movement: Alice (Africa) and Bruno (Crete) each have tokens to move, several nations share areas."""
    a, b, c = seats["alice"], seats["bruno"], seats["carla"]
    state = blank(3, draft_of(seats, ("africa", "crete", "thrace")))
    state = units(state, a, {"numidia": 4, "cyrene": 2, "carthago": 3, "cyrenaica": 2}, cities=["carthago"])
    state = units(state, b, {"knossos": 3, "cyrene": 1, "athens": 2}, cities=["knossos"], ships=["knossos"])
    state = units(state, c, {"thrace": 3, "athens": 1, "corinth": 2}, cities=["athens", "corinth"])
    return begin(state, "move")


def test_the_map_reads_on_a_desk_and_a_tap_on_a_phone_keeps_the_page_in_place(
    live_server: str, touch_screens: Any, tmp_path: Path
) -> None:
    game_id, seats, (alice, bruno, _carla) = game_of_three(live_server, touch_screens)
    put_now(tmp_path, game_id, crowded_move(seats))
    for language in LANGUAGES:
        for page, size in ((alice, "desktop"), (bruno, "phone")):
            speak(page, live_server, language)
            open_game(page, live_server, game_id)
            where = f"{size}-{language}"
            zoom_buttons_clear_the_stacks(page, where)
            names = page.evaluate(
                """() => Array.from(document.querySelectorAll('.ac-map .ac-name'))
                    .filter((name) => getComputedStyle(name).display !== 'none')
                    .map((name) => name.getBoundingClientRect().height)"""
            )
            assert len(names) > 20, f"{where}: the area names are hidden at the first zoom"
            assert min(names) >= 10, f"{where}: area names {min(names)} pixels high"
            page.locator("#ac-map").scroll_into_view_if_needed()
            shoot(page, f"map-{where}")
            if size == "phone":
                a_tap_keeps_the_page_in_place(page, where)
            tables_fit_or_scroll_inside(page, where)
            no_sideways_scroll(page, where)
            page.locator(".ac-census").scroll_into_view_if_needed()
            shoot(page, f"census-{where}", ".ac-tables")


def a_tap_keeps_the_page_in_place(page: Any, where: str) -> None:
    """Tap one of the player's stacks, then a place it may go: the page does not scroll, and the count to
    move shows on the screen."""
    page.evaluate("window.scrollBy(0, document.querySelector('#ac-map').getBoundingClientRect().top - 40)")
    before = page.evaluate("window.scrollY")
    stack = page.locator(".ac-map .ac-stack.mine.movable").first
    box = stack.bounding_box()
    assert box is not None
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function("document.querySelectorAll('.ac-map .ac-area.dest').length > 0")
    assert abs(page.evaluate("window.scrollY") - before) < 2, f"{where}: the page jumped after a tap"
    target = page.evaluate(
        """() => {
            const map = document.querySelector('#ac-map').getBoundingClientRect();
            for (const area of document.querySelectorAll('.ac-map .ac-area.dest')) {
                const name = document.querySelector(`.ac-map .ac-name[data-area="${area.dataset.area}"]`);
                const box = (name || area).getBoundingClientRect();
                const x = box.x + box.width / 2, y = box.y + box.height / 2 + (name ? 14 : 0);
                if (x > map.left + 5 && x < map.right - 5 && y > map.top + 5 && y < map.bottom - 5) {
                    const hit = document.elementFromPoint(x, y);
                    if (hit && hit.closest('.ac-area.dest')) { return [x, y]; }
                }
            }
            return null;
        }"""
    )
    assert target is not None, f"{where}: no place to go on the screen"
    page.touchscreen.tap(target[0], target[1])
    chooser = page.locator(".ac-chooser")
    chooser.wait_for(state="visible")
    assert abs(page.evaluate("window.scrollY") - before) < 2, f"{where}: the page jumped to the count"
    box = chooser.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"] + 0.5 and box["y"] >= 0
    shoot(page, f"map-tapped-{where}")
    page.locator(".ac-chooser-cancel").click()


def test_the_start_areas_are_lit_on_a_flood_plain(
    live_server: str, touch_screens: Any, tmp_path: Path
) -> None:
    game_id, seats, (alice, bruno, _carla) = game_of_three(live_server, touch_screens)
    draft = draft_of(seats, ("italy", "africa", "crete"))  # Etruria, a start area of Italy, is a flood plain
    state = RULES.new_game(AdvcivOptions(draft=draft), 3, 1)
    while RULES.waits(state)[0].seat != seats["alice"]:
        (wait,) = RULES.waits(state)
        from app.games.advciv import flow

        area = flow.start_areas(state, wait.seat)[0]
        state = RULES.apply(state, wait.seat, {"type": "start", "area": key(area)}).state
    put_now(tmp_path, game_id, state)
    for page, size in ((alice, "desktop"), (bruno, "phone")):
        open_game(page, live_server, game_id)
        if size == "phone":
            continue
        lit = page.evaluate(
            """() => Array.from(document.querySelectorAll('.ac-map .ac-area.dest')).map((area) =>
                [area.dataset.area, area.classList.contains('flood'), getComputedStyle(area).fill])"""
        )
        plain = page.evaluate(
            "getComputedStyle(document.querySelector('.ac-map .ac-area.flood:not(.dest)')).fill"
        )
        floods = [fill for _area, flood, fill in lit if flood]
        dry = {fill for _area, flood, fill in lit if not flood}
        assert floods, f"Italy's start areas include a flood plain: {lit}"
        assert all(fill != plain and fill in dry for fill in floods), lit
        shoot(page, f"start-{size}")


def test_the_draft_shows_where_each_nation_starts_and_who_took_it(
    live_server: str, touch_screens: Any
) -> None:
    alice, bruno, carla = (
        touch_screens(DESKTOP, "en-GB"),
        touch_screens(PHONE, "fr-FR"),
        touch_screens(DESKTOP, "en-GB"),
    )
    for page, name in ((alice, "Alice"), (bruno, "Bruno"), (carla, "Carla")):
        sign_up_in_browser(page, live_server, name)
    game_id = api(alice, live_server, "POST", "/api/v1/games", {"game_type": "advciv", "players": 3})["id"]
    for page in (bruno, carla):
        api(page, live_server, "POST", f"/api/v1/games/{game_id}/join")
    first = next(
        p
        for p in (alice, bruno, carla)
        if api(p, live_server, "GET", f"/api/v1/games/{game_id}")["your_seat"] == 0
    )
    chooser = api(first, live_server, "GET", "/api/v1/me")["display_name"]
    api(first, live_server, "POST", f"/api/v1/games/{game_id}/draft", {"choice": "italy"})
    for language in LANGUAGES:
        for page, size in ((alice, "desktop"), (bruno, "phone")):
            speak(page, live_server, language)
            page.goto(f"{live_server}/games/{game_id}")
            drawing = page.locator(".ac-draft-map")
            drawing.wait_for()
            where = f"draft-{size}-{language}"
            nations = page.locator(".ac-draft-map .ac-start")
            assert nations.count() == 5, where
            italy = page.locator('.ac-draft-map .ac-start[data-nation="italy"]')
            assert "taken" in (italy.get_attribute("class") or ""), where
            assert chooser in page.locator(".ac-start-labels text.taken").text_content() or "", where
            assert page.locator(".ac-draft-map .ac-start.free").count() == 4, where
            box = drawing.bounding_box()
            assert (
                box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
            )
            for area in page.locator(".ac-draft-map .ac-start path").all():
                shape = area.bounding_box()
                assert shape is not None and shape["width"] > 2, where
                inside = shape["x"] + shape["width"] / 2, shape["y"] + shape["height"] / 2
                assert box["x"] <= inside[0] <= box["x"] + box["width"], f"{where}: a start area off the map"
                assert box["y"] <= inside[1] <= box["y"] + box["height"], f"{where}: a start area off the map"
            listed = page.locator('.ac-start-list li[data-nation="italy"]').inner_text()
            assert "Cisalpina" in listed and "Etruria" in listed and "Pannonia" in listed, where
            no_sideways_scroll(page, where)
            drawing.scroll_into_view_if_needed()
            shoot(page, where, ".draft-body")


def test_the_market_the_shop_and_the_final_score_fit_a_phone(
    live_server: str, touch_screens: Any, tmp_path: Path
) -> None:
    game_id, seats, (alice, bruno, _carla) = game_of_three(live_server, touch_screens)
    a, b, c = seats["alice"], seats["bruno"], seats["carla"]
    state = blank(3, draft_of(seats, ("africa", "crete", "thrace")))
    state = units(
        state, a, {"numidia": 2}, cities=["carthago", "cyrene"], cards=["pottery", "mysticism"], treasury=30
    )
    state = units(state, b, {"thebes": 2}, cities=["knossos"], cards=["astronomy"], treasury=12)
    state = units(state, c, {}, cities=["athens"])
    # more trade cards than the hand limit: both must give some up in the shop, so both are asked
    state = deal(
        state, a, ["ochre", "ochre", "ochre", "hides", "hides", "wine", "salt", "salt", "iron", "grain"]
    )
    state = deal(
        state, b, ["salt", "salt", "timber", "grain", "ochre", "ochre", "ochre", "hides", "hides", "wine"]
    )
    state = deal(state, c, ["iron", "iron", "papyrus"])
    screens = {
        "market": ("#ac-market", begin(state, "trade")),
        "shop": ("#ac-advances", begin(state, "advances")),
    }
    screens["final"] = ("#ac-final", evolve(state, phase="over", end="last_turn"))
    for name, (selector, position) in screens.items():
        put_now(tmp_path, game_id, position)
        for language in LANGUAGES:
            for page, size in ((alice, "desktop"), (bruno, "phone")):
                speak(page, live_server, language)
                open_game(page, live_server, game_id)
                where = f"{name}-{size}-{language}"
                page.locator(selector).wait_for()
                shoot(page, where, selector)
                no_sideways_scroll(page, where)
                tables_fit_or_scroll_inside(page, where)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_rules_page_shows_what_each_card_does_without_opening_it(
    live_server: str, touch_screens: Any, locale: str
) -> None:
    for viewport, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
        page = touch_screens(viewport, locale)
        page.goto(f"{live_server}/rules/advciv#civ-cards")
        lines = page.locator("#civ-cards summary .ac-effect")
        assert lines.count() == 24
        assert all(line.is_visible() for line in lines.all())
        no_sideways_scroll(page, f"rules-{size}-{locale}")
        shoot(page, f"rules-{size}-{locale[:2]}")
