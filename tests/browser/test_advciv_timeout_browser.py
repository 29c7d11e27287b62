"""A timeout in Advanced Civilization as the other players meet it (Chromium, 1366×900 and 390×844, English
and French): the log names it ("Time ran out: the server played the default for …") with the seat's turns
missed in a row, and the seats table counts the missed turn. Screenshots are kept under
test-artifacts/advciv/."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.orm import sessionmaker

from app.services.jobs import sweeper
from tests.browser.test_advciv_browser import ARTIFACTS, DESKTOP, PHONE, game_of_three, screens
from tests.browser.test_advciv_market_browser import server_db
from tests.browser.test_tigris_browser import api

__all__ = ["screens"]  # the fixture, used by name

SAID = {
    "en": ("Time ran out: the server played the default for {name}.", "(1 turn missed in a row)"),
    "fr": ("Temps écoulé : le serveur a joué l'ordre par défaut pour {name}.", "(1 tour manqué d'affilée)"),
}


def test_the_other_players_see_a_timeout_in_the_log_with_the_turns_missed(
    live_server: str, screens: Any, tmp_path: Path
) -> None:
    game_id, _seats, pages = game_of_three(live_server, screens)
    detail = api(pages[0], live_server, "GET", f"/api/v1/games/{game_id}")
    (late,) = detail["view"]["awaiting"]
    players = {api(page, live_server, "GET", f"/api/v1/games/{game_id}")["your_seat"]: page for page in pages}
    late_name = api(players[late], live_server, "GET", "/api/v1/me")["display_name"]
    engine = server_db(tmp_path)
    later = datetime.now(UTC) + timedelta(days=10)  # past any deadline of the first wait
    report = sweeper.sweep(sessionmaker(engine), lambda: later, sweeper.SweepSettings())
    engine.dispose()
    assert report.timeouts >= 1, report
    watcher = next(page for seat, page in sorted(players.items()) if seat != late)
    for language, (line, missed) in SAID.items():
        api(watcher, live_server, "PATCH", "/api/v1/me", {"language": language})
        for viewport, size in ((DESKTOP, "desktop"), (PHONE, "phone")):
            watcher.set_viewport_size(viewport)
            watcher.goto(f"{live_server}/games/{game_id}")
            entry = watcher.locator("#game-log li", has_text=line.format(name=late_name))
            entry.first.wait_for()
            assert missed in entry.first.inner_text()
            seat_row = watcher.locator("#game-seats tbody tr", has_text=late_name)
            assert seat_row.locator("td.num").first.inner_text().strip() == "1"  # missed in a row
            entry.first.scroll_into_view_if_needed()
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            watcher.screenshot(path=str(ARTIFACTS / f"timeout-{size}-{language}.png"))
