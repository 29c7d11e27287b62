"""A live stream that comes back with `Last-Event-ID` first hears the versions it missed while away; a
page's first stream, which names with `?since=` the version it was drawn at, hears the moves made while it
was connecting."""

from __future__ import annotations

from typing import Any

import httpx2 as httpx

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
