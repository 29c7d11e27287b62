"""The end of a game in the browser: the winner line first, one place a row (ties as ties), scores as the
game counts them, lined up under their header, where the game moved each player in the ranking; no "1.
Rank 1"; and "play again with the same players". Both sizes, both languages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.shots import keep_screenshot, size_name
from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api


def order(page: Any, base: str, game_id: int, body: dict[str, Any]) -> None:
    version = api(page, base, "GET", f"/games/{game_id}")["game"]["version"]
    api(page, base, "POST", f"/games/{game_id}/orders", {"order": body, "expected_version": version})


def is_awaited(page: Any, base: str, game_id: int) -> bool:
    me = api(page, base, "GET", "/me")
    detail = api(page, base, "GET", f"/games/{game_id}")
    return any(wait["player"] == me["display_name"] for wait in detail["waits"])


@pytest.mark.parametrize(("phone", "language"), [(False, "en"), (True, "fr")])
def test_the_end_of_a_game_reads_as_a_result(
    live_server: str, new_page: Any, phone: bool, language: str
) -> None:
    alice, bruno, chloe = new_page(phone=phone), new_page(), new_page()
    sign_up_in_browser(alice, live_server, "Alice", language=language)
    sign_up_in_browser(bruno, live_server, "Bruno")
    sign_up_in_browser(chloe, live_server, "Chloe")
    body = {"game_type": "fake", "players": 3, "time_limit_hours": 24, "options": {"target": 3}}
    game = api(alice, live_server, "POST", "/games", body)
    for player in (bruno, chloe):
        api(player, live_server, "POST", f"/games/{game['id']}/join")
    for player in (alice, bruno, chloe):
        order(player, live_server, game["id"], {"type": "pick", "value": 3})
    chooser = next(p for p in (alice, bruno, chloe) if is_awaited(p, live_server, game["id"]))
    order(chooser, live_server, game["id"], {"type": "choose", "take": True})  # the tie goes to seat 1
    winner_name = "Alice" if chooser is alice else "Bruno" if chooser is bruno else "Chloe"
    losers = sorted({"Alice", "Bruno", "Chloe"} - {winner_name})

    alice.goto(f"{live_server}/games/{game['id']}")
    winner = alice.locator(".winner-line")
    assert winner.inner_text() == f"{winner_name} gagne." if language == "fr" else f"{winner_name} wins."
    rows = alice.locator("table.standings tbody tr")
    assert rows.count() == 3
    tied = "ex æquo" if language == "fr" else "tied"
    cells = [rows.nth(i).locator("td").all_inner_texts() for i in range(3)]
    of = "sur" if language == "fr" else "of"
    new = "nouveau :" if language == "fr" else "new:"
    assert cells[0] == ["1", winner_name, "9", f"{new} 1 {of} 3"]
    assert sorted(cell[:3] for cell in cells[1:]) == [[f"2 ({tied})", name, "0"] for name in losers]
    assert {cell[3] for cell in cells[1:]} <= {f"{new} 2 {of} 3", f"{new} 3 {of} 3"}
    assert "Rank " not in alice.locator("#game-status").inner_text()  # no "1. Rank 1"
    for column in (0, 1):  # the score and the ranking: right edges line up under their headers
        header = alice.locator("table.standings th.num").nth(column).bounding_box()
        cell = rows.nth(0).locator("td.num").nth(column).bounding_box()
        assert abs((header["x"] + header["width"]) - (cell["x"] + cell["width"])) < 2
    alice.locator("table.standings").scroll_into_view_if_needed()
    keep_screenshot(alice, f"game-end-{size_name(phone, language)}")


def test_play_again_invites_the_same_players_into_one_new_game(live_server: str, new_page: Any) -> None:
    alice, bruno = new_page(phone=True), new_page()
    sign_up_in_browser(alice, live_server, "Alice", language="fr")
    sign_up_in_browser(bruno, live_server, "Bruno")
    body = {"game_type": "fake", "players": 2, "time_limit_hours": 12, "options": {"target": 3}}
    game = api(alice, live_server, "POST", "/games", body)
    api(bruno, live_server, "POST", f"/games/{game['id']}/join")
    for player in (alice, bruno):
        order(player, live_server, game["id"], {"type": "pick", "value": 3})
    chooser = alice if is_awaited(alice, live_server, game["id"]) else bruno
    order(chooser, live_server, game["id"], {"type": "choose", "take": True})

    alice.goto(f"{live_server}/games/{game['id']}")
    alice.get_by_role("button", name="Rejouer avec les mêmes joueurs").click()
    alice.wait_for_url(lambda url: not url.endswith(f"/games/{game['id']}"))
    new_id = int(alice.url.rsplit("/", 1)[1])
    assert new_id != game["id"]
    assert "(1/2)" in alice.locator("h2").first.inner_text()
    detail = api(alice, live_server, "GET", f"/games/{new_id}")["game"]
    assert (detail["status"], detail["game_type"], detail["time_limit_hours"]) == ("open", "fake", 12)
    keep_screenshot(alice, "play-again-phone-fr")

    bruno.goto(f"{live_server}/games/{game['id']}")
    bruno.get_by_role("button", name="Play again with the same players").click()
    bruno.wait_for_url(f"{live_server}/games/{new_id}")  # the game Alice made, not a second one
    bruno.get_by_role("button", name="Accept the invitation").click()
    bruno.wait_for_url(f"{live_server}/games/{new_id}")
    assert api(bruno, live_server, "GET", f"/games/{new_id}")["game"]["status"] == "active"
