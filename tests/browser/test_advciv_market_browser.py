"""Advanced Civilization's trade market and civilization cards shop in a real browser. Three players in a
market: Alice (desktop, English) offers with a lie, Bruno (phone, French) accepts, the trade waits for the
embargo and is carried out when the clock ends it; Carla reads only the announcement of what was said.
Then the shop's bill follows the boxes ticked. Screenshots of both screens in both languages are kept
under test-artifacts/advciv/."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from sqlalchemy.orm import Session

from app.db import make_engine
from app.games.advciv import RULES
from app.games.advciv.model import State
from app.models import Game
from app.services.deadlines import markets
from app.services.jobs.sweeper import signal_embargo
from app.services.play import play
from app.settings import Settings
from tests.browser.test_advciv_browser import ARTIFACTS, game_of_three, screens
from tests.browser.test_tigris_browser import api
from tests.games.advciv.helpers import begin, blank, deal, units

__all__ = ["screens"]


def server_db(tmp_path: Path) -> Any:
    settings = Settings(data_dir=tmp_path / "var", run_jobs=False, _env_file=None)
    return make_engine(settings.sqlalchemy_url)


def put_now(tmp_path: Path, game_id: int, state: State) -> None:
    """The game moved to `state`, its waits (and its market's window) starting now."""
    engine = server_db(tmp_path)
    with Session(engine) as db:
        game = db.get(Game, game_id)
        assert game is not None
        game.state = RULES.dump(state)
        play.sync_waits(db, game, RULES.waits(state), acting_seat=None, now=datetime.now(UTC))
        db.commit()
    engine.dispose()


def end_embargo(tmp_path: Path, game_id: int) -> None:
    """What the sweeper does when the market's embargo ends: the clock's order, applied once."""
    engine = server_db(tmp_path)
    with Session(engine) as db:
        clock = markets.market_clock(db, game_id)
        game = db.get(Game, game_id)
        assert clock is not None and game is not None
        assert signal_embargo(db, game, clock.embargo_ends_at)
        db.commit()
    engine.dispose()


def market_of_three(
    live_server: str, screens: Any, tmp_path: Path
) -> tuple[int, tuple[int, int, int], tuple[Any, Any, Any]]:
    """Alice (Africa), Bruno (Crete) and Carla (Thrace) in a trade market opening now, with a few cards each:
    the game's id, their seats and their pages."""
    game_id, seats, pages = game_of_three(live_server, screens)
    a, b, c = seats["alice"], seats["bruno"], seats["carla"]
    state = units(blank(3, {a: "africa", b: "crete", c: "thrace"}), a, {"numidia": 2}, cities=["carthago"])
    state = units(state, b, {"thebes": 2}, cities=["knossos"])
    state = units(state, c, {}, cities=["athens"])
    state = deal(state, a, ["ochre", "ochre", "hides", "wine"])
    state = deal(state, b, ["salt", "salt", "timber", "grain"])
    state = deal(state, c, ["iron", "iron", "papyrus"])
    put_now(tmp_path, game_id, begin(state, "trade"))
    alice, bruno, carla = pages
    return game_id, (a, b, c), (alice, bruno, carla)


def hand(page: Any, base: str, game_id: int) -> list[str]:
    return sorted(api(page, base, "GET", f"/api/v1/games/{game_id}")["view"]["trade"]["hand"]["cards"])


def shoot_part(page: Any, selector: str, name: str) -> None:
    """The part of the page (and the whole page in a second file), after checking nothing overflows."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    part = page.locator(selector)
    for attempt in range(3):
        # A live update (another player's move, or the mover's own when its news came before the order's
        # answer and waited longer than the page holds it) may replace the section between two steps; a
        # section no longer attached is taken again.
        try:
            part.scroll_into_view_if_needed()
            page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
            part.screenshot(path=str(ARTIFACTS / f"{name}-part.png"))
            break
        except PlaywrightError as error:
            if "not attached" not in str(error) or attempt == 2:
                raise
    page.screenshot(path=str(ARTIFACTS / f"{name}-full.png"), full_page=True)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name}: sideways scrolling"


def caught_up(page: Any, base: str, game_id: int) -> None:
    """Wait until the page shows the game's latest version: the live update of a move has been swapped in."""
    version = api(page, base, "GET", f"/api/v1/games/{game_id}")["game"]["version"]
    page.locator(f'#game-status[data-version="{version}"]').wait_for()


def shown_text(page: Any, selector: str) -> str:
    """The text of a part of the page without its select lists (they name every card one may say)."""
    script = """el => { const copy = el.cloneNode(true);
        copy.querySelectorAll("select").forEach((list) => list.remove()); return copy.textContent; }"""
    return str(page.locator(selector).evaluate(script))


def switch_language(page: Any, url: str) -> None:
    if page.locator(".menu-toggle").is_visible():  # a phone: the language is behind Menu
        page.click(".menu-toggle")
    page.locator("form.lang button").click()
    page.wait_for_load_state()
    page.goto(url)


def make_offer(page: Any, to: int, cards: list[tuple[str, str]], wants: list[str]) -> None:
    """Fill in the offer form: each (real card, said card) ticked, a lie chosen in its row's select."""
    form = page.locator("form.ac-offer-form")
    form.locator('select[name="to"]').select_option(str(to))
    rows = form.locator(".ac-give li")
    used: set[int] = set()
    for real, said in cards:
        index = next(
            i
            for i in range(rows.count())
            if i not in used and rows.nth(i).locator("input[type=checkbox]").get_attribute("value") == real
        )
        used.add(index)
        rows.nth(index).locator("input[type=checkbox]").check()
        if said != real:
            rows.nth(index).locator("select").select_option(said)
    wanted = form.locator('select[name="expects[]"]')
    for slot, key in enumerate(wants):
        wanted.nth(slot).select_option(key)
    form.locator('button[type="submit"]').click()


def test_a_trade_with_a_lie_waits_for_the_embargo_and_others_read_only_what_was_said(
    live_server: str, screens: Any, tmp_path: Path
) -> None:
    game_id, (a, b, _c), (alice, bruno, carla) = market_of_three(live_server, screens, tmp_path)
    url = f"{live_server}/games/{game_id}"
    for page in (alice, bruno, carla):
        page.goto(url)
    market = alice.locator("#ac-market")
    assert "The embargo ends in" in market.inner_text() and "The market closes in" in market.inner_text()
    assert "L'embargo prend fin dans" in bruno.locator("#ac-market").inner_text()

    # Alice offers Ochre, Ochre and Wine said to be Gold, for Salt, Salt and an unspecified card
    make_offer(
        alice, b, [("ochre", "ochre"), ("ochre", "ochre"), ("wine", "gold")], ["salt", "salt", "unspecified"]
    )
    alice.locator(".ac-offer.outgoing").wait_for()
    caught_up(alice, live_server, game_id)
    assert "Wine → said: Gold" in alice.locator(".ac-offer.outgoing").inner_text()
    shoot_part(alice, "#ac-market", "desktop-en-market")

    bruno.reload()
    said = bruno.locator(".ac-offer.incoming p").first.inner_text()
    assert "Ocre, Ocre, Or" in said and "Vin" not in said
    shoot_part(bruno, "#ac-market", "phone-fr-market")
    carla.reload()
    assert carla.locator("[data-offer]").count() == 0
    assert "Gold" not in shown_text(carla, "#ac-market")

    # Bruno accepts with the answer pre-filled (Salt, Salt, and a card said "unspecified"): the trade waits
    bruno.locator("form.ac-accept button[type=submit]").click()
    bruno.locator(".ac-offer.agreed").wait_for()
    alice.reload()
    assert "Trades agreed, waiting for the embargo" in alice.locator("#ac-market").inner_text()
    assert "wine" in hand(alice, live_server, game_id)

    # the clock ends the embargo: the trade is carried out, announced as it was said
    end_embargo(tmp_path, game_id)
    assert "wine" not in hand(alice, live_server, game_id)
    assert hand(alice, live_server, game_id) == ["hides", "salt", "salt", "timber"]
    assert "wine" in hand(bruno, live_server, game_id)
    carla.reload()
    log = carla.locator("#game-log").inner_text()
    assert "says they gave Gold, Ochre, Ochre to" in log
    assert "says they gave Salt, Salt, Unspecified in return." in log
    seen = shown_text(carla, "#ac") + log
    assert "Wine" not in seen and "Timber" not in seen and "You received" not in seen
    bruno.reload()
    assert "Vous avez reçu d'Alice" in bruno.locator("#game-log").inner_text()  # "de" elided before a vowel

    # the other language on each screen: Bruno offers with a lie, Alice reads it as said
    switch_language(alice, url)
    switch_language(bruno, url)
    make_offer(
        bruno,
        a,
        [("ochre", "ochre"), ("ochre", "ochre"), ("wine", "silver")],
        ["salt", "dont_care", "unspecified"],
    )
    bruno.locator(".ac-offer.outgoing").wait_for()
    caught_up(bruno, live_server, game_id)
    assert "Wine → said: Silver" in bruno.locator(".ac-offer.outgoing").inner_text()
    shoot_part(bruno, "#ac-market", "phone-en-market")
    alice.reload()
    assert "Ocre, Ocre, Argent" in alice.locator(".ac-offer.incoming").inner_text()
    shoot_part(alice, "#ac-market", "desktop-fr-market")


def test_an_offer_being_written_keeps_what_was_ticked_when_another_player_moves(
    live_server: str, screens: Any, tmp_path: Path
) -> None:
    game_id, (a, _b, c), (alice, bruno, carla) = market_of_three(live_server, screens, tmp_path)
    url = f"{live_server}/games/{game_id}"
    alice.goto(url)
    carla.goto(url)
    bruno.goto(url)

    # Alice is half-way through an offer to Carla: two boxes ticked, a lie chosen, a card asked for
    form = alice.locator("form.ac-offer-form")
    form.locator('select[name="to"]').select_option(str(c))
    rows = form.locator(".ac-give li")
    values = [rows.nth(i).locator("input").get_attribute("value") for i in range(rows.count())]
    ticked = [i for i, value in enumerate(values) if value == "ochre"]
    for index in ticked:
        rows.nth(index).locator("input[type=checkbox]").check()
    wine = form.locator('.ac-give li:has(input[value="wine"])')
    wine.locator("select").select_option("gold")
    form.locator('select[name="expects[]"]').first.select_option("iron")
    before = int(alice.locator("#game-status").get_attribute("data-version") or 0)

    # Carla makes an offer to Alice: Alice's page hears of it and redraws the market
    irons = [("iron", "iron"), ("iron", "iron"), ("papyrus", "papyrus")]
    make_offer(carla, a, irons, ["ochre", "ochre", "unspecified"])
    alice.locator(".ac-offer.incoming").wait_for()
    caught_up(alice, live_server, game_id)
    assert int(alice.locator("#game-status").get_attribute("data-version") or 0) > before

    form = alice.locator("form.ac-offer-form")
    assert form.locator('select[name="to"]').input_value() == str(c)
    boxes = form.locator(".ac-give li input[type=checkbox]")
    still = [boxes.nth(i).is_checked() for i in range(len(values))]
    assert still == [i in ticked for i in range(len(values))]
    assert form.locator('.ac-give li:has(input[value="wine"]) select').input_value() == "gold"
    assert form.locator('select[name="expects[]"]').first.input_value() == "iron"
    # the form still posts the game's new version, not the one it was drawn with
    version = api(alice, live_server, "GET", f"/api/v1/games/{game_id}")["game"]["version"]
    assert form.locator('input[name="expected_version"]').input_value() == str(version)

    # and the offer made from it is the one Alice prepared
    wine.locator("input[type=checkbox]").check()
    form.locator('button[type="submit"]').click()
    alice.locator(".ac-offer.outgoing").wait_for()
    assert "Wine → said: Gold" in alice.locator(".ac-offer.outgoing").inner_text()


def test_a_refusal_that_comes_back_after_a_live_update_replaced_its_form_still_shows(
    live_server: str, screens: Any, tmp_path: Path
) -> None:
    game_id, (a, _b, c), (alice, bruno, carla) = market_of_three(live_server, screens, tmp_path)
    url = f"{live_server}/games/{game_id}"
    alice.goto(url)
    carla.goto(url)
    bruno.goto(url)

    # Alice sends an offer of two cards (the rules want three); her request is held on the way
    held: list[Any] = []
    alice.route(f"**/games/{game_id}/orders", lambda route: held.append(route))
    form = alice.locator("form.ac-offer-form")
    form.locator('select[name="to"]').select_option(str(c))
    form.locator('.ac-give li:has(input[value="ochre"]) input[type=checkbox]').first.check()
    form.locator('.ac-give li:has(input[value="hides"]) input[type=checkbox]').check()
    form.locator('button[type="submit"]').click()
    alice.wait_for_function("() => document.querySelector('form.ac-offer-form.htmx-request') !== null")
    assert len(held) == 1

    # meanwhile Carla makes an offer to Alice: Alice's page redraws the market, the form that sent is gone
    irons = [("iron", "iron"), ("iron", "iron"), ("papyrus", "papyrus")]
    make_offer(carla, a, irons, ["ochre", "ochre", "unspecified"])
    alice.locator(".ac-offer.incoming").wait_for()
    held[0].continue_()

    # the refusal still reaches the player, beside the offer form now in that one's place, not by the map
    refusal = alice.locator("#ac-market form.ac-offer-form .refusal .error")
    refusal.wait_for()
    expect(refusal).to_be_in_viewport()
    assert refusal.inner_text()
    shoot_part(alice, "#ac-market form.ac-offer-form", "desktop-en-market-refusal")
    assert alice.locator("#ac-refusal .error").count() == 0

    # on a phone, in French, the refusal of a short offer is on screen beside its form too
    form = bruno.locator("form.ac-offer-form")
    form.locator('select[name="to"]').select_option(str(a))
    form.locator('.ac-give li:has(input[value="salt"]) input[type=checkbox]').first.check()
    form.locator('.ac-give li:has(input[value="timber"]) input[type=checkbox]').check()
    form.locator('button[type="submit"]').click()
    refusal = bruno.locator("#ac-market form.ac-offer-form .refusal .error")
    refusal.wait_for()
    expect(refusal).to_be_in_viewport()
    assert "3" in refusal.inner_text()
    shoot_part(bruno, "#ac-market form.ac-offer-form", "phone-fr-market-refusal")


def test_the_shop_s_bill_follows_the_boxes_ticked(live_server: str, screens: Any, tmp_path: Path) -> None:
    game_id, seats, (alice, bruno, _carla) = game_of_three(live_server, screens)
    a, b, c = seats["alice"], seats["bruno"], seats["carla"]
    nations = {a: "africa", b: "crete", c: "thrace"}
    state = units(blank(3, nations), a, {"numidia": 2}, cities=["carthago"], cards=["pottery"], treasury=30)
    state = deal(
        state, a, ["ochre", "ochre", "ochre", "hides", "hides", "salt", "salt", "grain", "wine", "iron"]
    )
    state = units(state, b, {"thebes": 2}, cities=["knossos"], treasury=12)
    state = deal(state, b, ["timber", "timber", "papyrus", "cloth", "cloth", "oil", "oil", "grain", "bronze"])
    put_now(tmp_path, game_id, begin(state, "advances"))
    url = f"{live_server}/games/{game_id}"
    alice.goto(url)
    bruno.goto(url)
    shoot_part(alice, "#ac-advances", "desktop-en-shop")
    shoot_part(bruno, "#ac-advances", "phone-fr-shop")
    shoot_part(bruno, "#ac-points", "phone-fr-points")
    switch_language(alice, url)
    switch_language(bruno, url)
    shoot_part(alice, "#ac-advances", "desktop-fr-shop")
    shoot_part(bruno, "#ac-advances", "phone-en-shop")
    shoot_part(alice, "#ac-points", "desktop-fr-points")

    form = alice.locator("form.ac-buy")
    for box in form.locator("input[type=checkbox]").all():
        if box.is_checked():
            box.uncheck()
    bill = form.locator(".ac-bill")
    submit = form.locator('button[type="submit"]')
    assert bill.locator('[data-bill="due"]').inner_text() == "0"
    # ten cards kept over a limit of eight: refused before it is sent
    assert form.locator('[data-bill="over"]').is_visible() and submit.is_disabled()
    cloth = form.locator('input[name="cart[]"][value="cloth_making"]')
    due = int(cloth.get_attribute("data-due") or 0)
    cloth.check()
    assert bill.locator('[data-bill="due"]').inner_text() == str(due)
    assert bill.locator('[data-bill="treasury"]').inner_text() == str(due)
    spend = form.locator('input[data-ac-spend][value="ochre"]')
    for index in range(3):
        spend.nth(index).check()
    assert bill.locator('[data-bill="cards"]').inner_text() == "9"  # three Ochre: 3² × 1
    assert bill.locator('[data-bill="treasury"]').inner_text() == str(max(0, due - 9))
    assert bill.locator('[data-bill="kept"]').inner_text() == "7"
    assert not form.locator('[data-bill="over"]').is_visible() and not submit.is_disabled()
    wine = form.locator('li:has(input[data-ac-discard][value="wine"])')
    wine.locator("input[data-ac-spend]").check()
    wine.locator("input[data-ac-discard]").check()
    assert not wine.locator("input[data-ac-spend]").is_checked()  # paid or discarded, not both
    assert bill.locator('[data-bill="kept"]').inner_text() == "6"
    # a cart over what the cards and the treasury can pay is refused before it is sent
    form.locator('input[name="cart[]"][value="mathematics"]').check()
    assert form.locator('[data-bill="short"]').is_visible()
    assert form.locator('button[type="submit"]').is_disabled()
    form.locator('input[name="cart[]"][value="mathematics"]').uncheck()
    assert not form.locator('button[type="submit"]').is_disabled()
    shoot_part(alice, "#ac-advances", "desktop-fr-shop-chosen")
    form.locator('button[type="submit"]').click()
    alice.locator("form.ac-buy").wait_for(state="detached")
    board = api(alice, live_server, "GET", f"/api/v1/games/{game_id}")["view"]
    assert "cloth_making" in next(row for row in board["nations"] if row["seat"] == a)["cards"]
