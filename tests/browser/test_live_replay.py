"""A live stream that comes back with `Last-Event-ID` first hears the versions it missed while away; a
page's first stream, which names with `?since=` the version it was drawn at, hears the moves made while it
was connecting. A player's page draws its own order once (from the order's answer, not again from the live
news of it), and still draws what comes later at the same version, such as a message.
"""

from __future__ import annotations

from typing import Any

import httpx2 as httpx

from tests.browser.test_accounts_browser import sign_up_in_browser
from tests.browser.test_turns_browser import api
from tests.conftest import sign_up


def versions_heard(base: str, game_id: int, last_heard: int, count: int, *, first: bool = False) -> list[int]:
    """The versions a stream hears, as one coming back (`Last-Event-ID`) or as a page's first (`since`)."""
    heard: list[int] = []
    url, headers = f"/games/{game_id}/live", {"Last-Event-ID": str(last_heard)}
    if first:
        url, headers = f"{url}?since={last_heard}", {}
    with (
        httpx.Client(base_url=base, timeout=httpx.Timeout(10)) as client,
        client.stream("GET", url, headers=headers) as stream,
    ):
        for line in stream.iter_lines():
            if line.startswith("data:"):
                heard.append(int(line.removeprefix("data:").strip()))
                if len(heard) == count:
                    return heard
    return heard


def test_a_stream_back_with_its_last_event_hears_what_it_missed(live_server: str) -> None:
    clients: list[Any] = [httpx.Client(base_url=live_server) for _ in range(3)]
    for index, client in enumerate(clients):
        sign_up(client, f"Listener{index}")
    game = clients[0].post("/api/v1/games", json={"game_type": "fake", "players": 3}).json()
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game['id']}/join").status_code == 200
    by_seat = {c.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: c for c in clients}
    for _ in range(3):  # three orders while nobody listens
        detail = by_seat[0].get(f"/api/v1/games/{game['id']}").json()
        wait = detail["waits"][0]
        client = by_seat[wait["seat"]]
        mine = client.get(f"/api/v1/games/{game['id']}").json()
        body = next(w for w in mine["waits"] if w["seat"] == wait["seat"])["default_order"]
        version = mine["game"]["version"]
        answer = client.post(
            f"/api/v1/games/{game['id']}/orders", json={"order": body, "expected_version": version}
        )
        assert answer.status_code == 200, answer.text
    current = by_seat[0].get(f"/api/v1/games/{game['id']}").json()["game"]["version"]
    assert versions_heard(live_server, game["id"], current - 3, 3) == [current - 2, current - 1, current]
    # a page drawn at current - 1 whose stream connects only now hears the move it would have missed
    assert versions_heard(live_server, game["id"], current - 1, 1, first=True) == [current]
    for client in clients:
        client.close()


def test_a_player_s_page_draws_its_own_order_once_and_a_message_after_it(
    live_server: str, new_page: Any
) -> None:
    alice, bruno, chloe = new_page(), new_page(), new_page()
    for page, name in ((alice, "Alice"), (bruno, "Bruno"), (chloe, "Chloe")):
        sign_up_in_browser(page, live_server, name)
    game = api(alice, live_server, "POST", "/games", {"game_type": "dragonstones", "players": 3})
    for player in (bruno, chloe):
        api(player, live_server, "POST", f"/games/{game['id']}/join")
    fetched: dict[str, list[str]] = {"alice": [], "bruno": []}
    for name, page in (("alice", alice), ("bruno", bruno)):
        page.on("request", lambda request, seen=fetched[name]: seen.append(request.url))
        page.goto(f"{live_server}/games/{game['id']}")
        page.evaluate(
            "window.newsHeard = 0; document.addEventListener('htmx:sseMessage', () => window.newsHeard++)"
        )
        page.locator("#bid-form").wait_for()

    alice.fill("#bid-form input[name=fairy]", "3")
    alice.click("#bid-form button[type=submit]")
    alice.locator("#game-orders", has_text="Nothing to do").wait_for()
    bruno.locator("text=✓").first.wait_for()  # Bruno's page learns live that Alice has bid
    alice.wait_for_function("() => window.newsHeard >= 1")  # and Alice's hears the same news
    alice.wait_for_timeout(300)
    assert not [url for url in fetched["alice"] if "/fragment" in url]  # drawn from the answer only
    assert [url for url in fetched["bruno"] if "/fragment" in url]

    # a message does not move the game's version: its news, at the version of Alice's order, is drawn
    api(chloe, live_server, "POST", f"/games/{game['id']}/messages", {"body": "Good luck, all"})
    alice.locator("#game-messages li", has_text="Good luck, all").wait_for()
