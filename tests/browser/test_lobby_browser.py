"""Eight people join the player queue of a game with a seat draft; the queue forms a game and fills it; they
draft nations in pick order, with a conflict: pick 2's secret pre-selection is taken by pick 1, and pick 2
chooses again. The pages follow the draft live; a spectator sees nothing before the set-up ends."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.lobby import draftgame  # noqa: F401  (registers the game with a draft, "fakedraft")

PLAYERS = 8
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "lobby"


def test_a_friend_is_found_by_a_name_typed_without_its_accent(live_server: str, new_page: Any) -> None:
    chloe, alice = new_page(), new_page(phone=True, locale="fr-FR")
    sign_up_in_browser(chloe, live_server, "Chloé Roy", email="chloe@example.com")
    sign_up_in_browser(alice, live_server, "Alice", language="fr")
    alice.goto(f"{live_server}/friends")
    field = alice.locator("form[action='/friends'] input[name=name]")
    field.press_sequentially("chlo")
    alice.locator("#friend-names option[value='Chloé Roy']").wait_for(state="attached")  # suggested
    field.fill("chloe roy")  # no accent, no capitals
    alice.click("form[action='/friends'] button[type=submit]")
    alice.wait_for_load_state()
    assert "Chloé Roy" in alice.locator("ul.people").first.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    alice.screenshot(path=str(ARTIFACTS / "friends-fr-phone.png"), full_page=True)


def enter_queue(page: Any, base: str) -> None:
    page.goto(f"{base}/queue")
    page.select_option("select[name=game_type]", "fakedraft")
    page.select_option("select[name=min_players]", "8")  # a full table: the queue waits for eight
    page.click("main form[action='/queue'] button[type=submit]")
    page.wait_for_load_state()


def draft_state(page: Any, base: str, game_id: str) -> dict[str, Any]:
    response = page.request.get(f"{base}/api/v1/games/{game_id}/draft")
    assert response.ok, response.text()
    state: dict[str, Any] = response.json()
    return state


def test_eight_queue_a_game_forms_and_they_draft_with_a_conflict(live_server: str, new_page: Any) -> None:
    pages = [new_page(phone=index % 3 == 2) for index in range(PLAYERS)]
    for index, page in enumerate(pages):
        sign_up_in_browser(page, live_server, f"Player{index + 1}")
    for page in pages:
        enter_queue(page, live_server)
    assert "/queue" in pages[0].url  # the first one waits: nobody to play with yet
    assert re.search(r"/games/\d+$", pages[-1].url)  # the last one was seated at once
    game_id = pages[-1].url.rsplit("/", 1)[1]

    by_pick: dict[int, Any] = {}
    for page in pages:
        by_pick[draft_state(page, live_server, game_id)["your_seat"]] = page
        page.goto(f"{live_server}/games/{game_id}")
    assert sorted(by_pick) == list(range(PLAYERS))
    for page in pages:
        page.locator("#draft").wait_for()

    watcher = new_page()
    watcher.goto(f"{live_server}/games/{game_id}")
    watcher.locator("#draft", has_text="nothing of it is shown").wait_for()

    first, second = by_pick[0], by_pick[1]
    second.click("#draft button:has-text('Pre-select Egypt')")
    second.locator("#draft", has_text="Your pre-selection (only you see it): Egypt").wait_for()
    assert "Egypt" not in first.locator("#draft table").inner_text()  # secret
    first.click("#draft button:has-text('Choose Egypt')")  # pick 1 takes it: a conflict

    second.locator("#draft", has_text="Your turn to choose").wait_for()  # live: pick 2 chooses again
    assert second.locator("#draft button:has-text('Choose Egypt')").count() == 0
    second.locator("#game-log", has_text="was taken by a lower pick number").wait_for()
    assert "lower pick number" not in by_pick[2].locator("#game-log").inner_text()  # only the loser is told
    second.click("#draft button:has-text('Choose Crete')")

    rest = ["Africa", "Assyria", "Babylon", "Iberia", "Illyria", "Italy"]
    for seat, nation in zip(range(PLAYERS - 1, 1, -1), rest, strict=True):  # picks 8 to 3; pick 3 last
        page = by_pick[seat]
        page.click(f"#draft button:has-text('{nation}')")  # pre-selections, then pick 3's choice
        if seat > 2:
            page.locator("#draft", has_text=f"Your pre-selection (only you see it): {nation}").wait_for()
    for page in pages:
        page.locator("#game-board", has_text="nations").wait_for()  # the game is on, the draft is done
    assert '"Egypt"' in first.locator("#game-board").inner_text()
    watcher.reload()
    assert "Crete" in watcher.locator("#game-board").inner_text()  # after the set-up, the public view
