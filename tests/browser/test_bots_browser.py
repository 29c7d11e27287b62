"""Bots at the table in a real browser: Alice creates an Advanced Civilization game with four bots on the
new-game form, chooses her nation and plays three turns through the game page while the bots answer (the
bots job run by the test, as a worker would run it, between her moves), then trades with a bot: her offer
in the market is accepted by the bot. Screenshots of the form, the lobby and the game page with bots, on
a desktop and a phone, in English and French, are kept under test-artifacts/bots/."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from app.db import make_engine, session_factory
from app.games.advciv import RULES
from app.models import Game
from app.services.jobs import bots
from app.services.play import play
from app.settings import Settings
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_advciv_browser import DESKTOP, PHONE, screens
from tests.browser.test_advciv_market_browser import make_offer
from tests.browser.test_refusals_browser import log_in
from tests.browser.test_tigris_browser import api
from tests.games.advciv.helpers import begin, blank, deal

__all__ = ["screens"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "bots"
TURNS = 3
MOVES_AT_MOST = 300


def server_engine(tmp_path: Path) -> Any:
    return make_engine(Settings(data_dir=tmp_path / "var", run_jobs=False, _env_file=None).sqlalchemy_url)


def run_bots(tmp_path: Path) -> bots.BotReport:
    """The bots job, once, on the server's database (what a worker does every second)."""
    engine = server_engine(tmp_path)
    try:
        return bots.play_bots(session_factory(engine), lambda: datetime.now(UTC))
    finally:
        engine.dispose()


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{name}: sideways scrolling"


def create_with_bots(page: Any, base: str, bot_seats: int, players: int | None = None) -> int:
    page.goto(f"{base}/games/new?game_type=advciv")
    page.fill("#new-game-form input[name=players]", str(players or bot_seats + 1))
    page.fill("#new-game-form input[name=bot_seats]", str(bot_seats))
    page.locator("#new-game-form button[type=submit]").click()
    page.wait_for_url(f"{base}/games/*")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def my_wait(detail: dict[str, Any]) -> dict[str, Any] | None:
    return next((wait for wait in detail["waits"] if wait["seat"] == detail["your_seat"]), None)


def play_my_turn(page: Any, base: str, game_id: int, wait: dict[str, Any]) -> bool:
    """Alice answers her wait on the game page: the button of the order the time limit would send (the
    page shows it as "At the time limit"), or that order sent from the page's session when the page
    asks for it by the map (moves, builds). Returns whether it was a button of the page."""
    order = wait["default_order"]
    page.goto(f"{base}/games/{game_id}")
    button = page.locator(f'form[data-order="{order["type"]}"] button[type=submit]')
    if button.count():
        with page.expect_response(lambda response: response.url.endswith(f"/games/{game_id}/orders")):
            button.first.click()
        return True
    body = {"order": order, "expected_version": wait_version(page, base, game_id)}
    api(page, base, "POST", f"/api/v1/games/{game_id}/orders", body)
    return False


def wait_version(page: Any, base: str, game_id: int) -> int:
    version: int = api(page, base, "GET", f"/api/v1/games/{game_id}")["game"]["version"]
    return version


def choose_nation(page: Any, base: str, game_id: int, tmp_path: Path) -> None:
    """The seat draft: the bots choose when their turn comes; Alice clicks her choice on the page."""
    for _ in range(10):
        run_bots(tmp_path)
        detail = api(page, base, "GET", f"/api/v1/games/{game_id}")
        if detail["view"] is not None:
            return
        draft = api(page, base, "GET", f"/api/v1/games/{game_id}/draft")
        if draft["awaited_seat"] == detail["your_seat"]:
            page.goto(f"{base}/games/{game_id}")
            with page.expect_response(lambda response: response.url.endswith(f"/games/{game_id}/draft")):
                page.locator("#draft form.choices button").first.click()
    raise AssertionError("the seat draft did not end")


def open_market(tmp_path: Path, game_id: int, alice: int, partner: int) -> None:
    """The game moved to a trade market opening now (the engine's test helpers, on the game's nations),
    Alice with three Ochre and a Wine, the bot with four different cards; the bots have not moved yet."""
    engine = server_engine(tmp_path)
    with Session(engine) as db:
        game = db.get(Game, game_id)
        assert game is not None
        drafted = {int(seat): nation for seat, nation in game.options["draft"].items()}
        state = deal(blank(game.players, drafted), alice, ["ochre", "ochre", "ochre", "wine"])
        state = deal(state, partner, ["salt", "timber", "grain", "hides"])
        state = begin(state, "trade")
        game.state = RULES.dump(state)
        play.sync_waits(db, game, RULES.waits(state), acting_seat=None, now=datetime.now(UTC))
        db.commit()
    engine.dispose()


def test_a_player_and_four_bots_play_three_turns_and_trade(
    live_server: str, screens: Any, tmp_path: Path
) -> None:
    alice = screens(DESKTOP, "en-GB")
    sign_up_in_browser(alice, live_server, "Alice")
    alice.goto(f"{live_server}/games/new?game_type=advciv")
    assert alice.locator("#bot-seats").is_visible()
    shoot(alice, "desktop-en-new-game")
    game_id = create_with_bots(alice, live_server, 4)
    detail = api(alice, live_server, "GET", f"/api/v1/games/{game_id}")
    assert detail["game"]["status"] == "active" and detail["game"]["bot_seats"] == 4
    names = [name for name in detail["players"] if name != "Alice"]
    assert sorted(names) == ["Bot 1 🤖", "Bot 2 🤖", "Bot 3 🤖", "Bot 4 🤖"]
    choose_nation(alice, live_server, game_id, tmp_path)

    clicked = sent = 0
    for _ in range(MOVES_AT_MOST):
        run_bots(tmp_path)  # the bots answer at once: afterwards the game waits on Alice, or on no bot
        detail = api(alice, live_server, "GET", f"/api/v1/games/{game_id}")
        assert all(wait["seat"] == detail["your_seat"] for wait in detail["waits"])  # never on a bot
        if detail["view"]["turn"] > TURNS:
            break
        wait = my_wait(detail)
        assert wait is not None
        if play_my_turn(alice, live_server, game_id, wait):
            clicked += 1
        else:
            sent += 1
    assert detail["view"]["turn"] == TURNS + 1, "three turns played"
    assert clicked > sent  # most of Alice's moves are the page's own buttons

    alice.goto(f"{live_server}/games/{game_id}")
    seats_text = alice.locator("#game-seats").inner_text()
    assert "Bot 1 🤖" in seats_text
    assert alice.locator('#game-seats a.player[href*="Bot"]').count() == 0  # a bot's name links nowhere
    shoot(alice, "desktop-en-game")

    # the market: Alice offers three Ochre to a bot for any three cards; the bot accepts
    seat = detail["your_seat"]
    partner = next(number for number, name in enumerate(detail["players"]) if name == "Bot 1 🤖")
    open_market(tmp_path, game_id, seat, partner)
    alice.goto(f"{live_server}/games/{game_id}")
    make_offer(alice, partner, [("ochre", "ochre")] * 3, ["dont_care"] * 3)
    alice.locator(".ac-offer.outgoing").wait_for()
    assert run_bots(tmp_path).played >= 1
    alice.goto(f"{live_server}/games/{game_id}")
    market = alice.locator("#ac-market").inner_text()
    assert "Trades agreed, waiting for the embargo" in market
    assert "Bot 1 🤖" in market
    shoot(alice, "desktop-en-market-with-a-bot")


def test_the_pages_with_bots_in_both_languages_on_a_desktop_and_a_phone(
    live_server: str, screens: Any, tmp_path: Path
) -> None:
    alice = screens(DESKTOP, "en-GB")
    sign_up_in_browser(alice, live_server, "Alice")
    waiting = create_with_bots(alice, live_server, 2, players=4)  # Alice, two bots, one place left
    running = create_with_bots(alice, live_server, 4)
    choose_nation(alice, live_server, running, tmp_path)
    run_bots(tmp_path)
    sign_up_in_browser(screens(DESKTOP, "en-GB"), live_server, "Viewer")
    sign_up_in_browser(screens(DESKTOP, "fr-FR"), live_server, "Lecteur", language="fr")
    for viewport, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
        for locale, language in (("en-GB", "en"), ("fr-FR", "fr")):
            page = screens(viewport, locale)
            page.goto(f"{live_server}/login")
            log_in(page, "viewer@example.com" if language == "en" else "lecteur@example.com")
            page.wait_for_url(f"{live_server}/")
            page.goto(f"{live_server}/games/new?game_type=advciv")
            page.locator("#bot-seats").wait_for()
            shoot(page, f"{size}-{language}-new-game")
            page.goto(f"{live_server}/?tab=open")
            listed = page.locator("main").inner_text()  # the list, or the card that recommends the game
            assert ("with 2 bots" if language == "en" else "avec 2 robots") in listed
            assert ("unrated" if language == "en" else "non classée") in listed
            shoot(page, f"{size}-{language}-lobby")
            page.goto(f"{live_server}/games/{running}")
            assert "Bot 1 🤖" in page.locator("main").inner_text()
            shoot(page, f"{size}-{language}-game")
            page.goto(f"{live_server}/games/{waiting}")
            assert page.locator("ul.seats").inner_text().count("🤖") == 2
            assert page.locator('ul.seats a.player[href*="Bot"]').count() == 0
