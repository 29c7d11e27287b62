"""What the tests of a game's pages share: a game with every seat taken through the API, and everything one
visitor can read of it (page, live fragment, API view, log), for the leak tests that compare the two; and
the live stream as a browser hears it."""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio
from starlette.testclient import TestClient

from app.web.deps import get_now
from tests.conftest import sign_up

CSRF = re.compile(r'(name="csrf_token" value="|"X-CSRF-Token": ")[^"]+')


def seated_game(
    make_client: Any, game_type: str, players: int, name: str = "Player"
) -> tuple[int, dict[int, TestClient], TestClient]:
    """A game of `game_type` created and joined by `players` new accounts; their clients by seat, and one
    more client for a spectator. The app's clock stops at the start, so that a page read twice in a row
    says the same "in 3 hr" even when a minute turns between the two reads."""
    clients = [make_client() for _ in range(players)]
    stop_clock(clients[0], datetime.now(UTC))
    for index, client in enumerate(clients):
        sign_up(client, f"{name}{index}")
    game = clients[0].post("/api/v1/games", json={"game_type": game_type, "players": players}).json()
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game['id']}/join").status_code == 200
    by_seat = {client.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: client for client in clients}
    return game["id"], by_seat, make_client()


def stop_clock(client: Any, at: datetime) -> None:
    """The app's clock (every client of it) reads `at` from now on."""
    client.app.dependency_overrides[get_now] = lambda: at


def responses(client: TestClient, game_id: int) -> tuple[Any, ...]:
    """Everything one visitor can read about the game, with the per-session CSRF token blanked."""
    page = CSRF.sub(r"\1", client.get(f"/games/{game_id}").text)
    fragment = CSRF.sub(r"\1", client.get(f"/games/{game_id}/fragment").text)
    detail = client.get(f"/api/v1/games/{game_id}").json()
    log = client.get(f"/api/v1/games/{game_id}/log").json()
    return page, fragment, detail, log


# --- the live stream -------------------------------------------------------------------------------------

LIVE_SECONDS = 10.0  # the bound on one read of a live stream: one that tells nothing fails, and never hangs
SSE_FIELD = re.compile(r"^(event|data|id|retry|):? ?(.*)$")


@dataclass
class Heard:
    """What a live stream said before its listener went away."""

    status: int = 0
    content_type: str = ""
    events: list[dict[str, str]] = field(default_factory=list)
    body: str = ""


def hear_live(client: TestClient, path: str, awaited: str) -> Heard:
    """Open the live stream at `path` as `client`'s browser does, and go away once it has told `awaited`
    (or answered anything but a stream). The stream ends through the server's own end: the client's
    disconnection, which the response listens for; `LIVE_SECONDS` only bounds a stream that never tells."""
    assert client.portal is not None, "an entered client"
    return client.portal.call(_hear, client, path, awaited)


async def _hear(client: TestClient, path: str, awaited: str) -> Heard:
    heard = Heard()
    gone = anyio.Event()
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            heard.status = message["status"]
            headers = {key.decode().lower(): value.decode() for key, value in message["headers"]}
            heard.content_type = headers.get("content-type", "")
            if heard.status != 200:
                gone.set()
        elif message["type"] == "http.response.body":
            heard.body += message.get("body", b"").decode()
            *told, heard.body = re.split(r"\r?\n\r?\n", heard.body)
            heard.events += [_sse_event(block) for block in told if block.strip()]
            if not message.get("more_body") or any(event.get("data") == awaited for event in heard.events):
                gone.set()

    with anyio.fail_after(LIVE_SECONDS):
        await client.app(_scope(client, path), receive, send)
    return heard


def _sse_event(block: str) -> dict[str, str]:
    event: dict[str, str] = {}
    for line in block.splitlines():
        found = SSE_FIELD.match(line)
        key, value = found.groups() if found else ("?", line)
        event[key] = f"{event[key]}\n{value}" if key in event else value
    return event


def _scope(client: TestClient, path: str) -> dict[str, Any]:
    """An HTTP request's scope as the test client builds it, with the client's headers and cookies."""
    route, _, query = path.partition("?")
    named = {key.lower(): value for key, value in client.headers.items()}
    named.update(host=client.base_url.netloc.decode(), accept="text/event-stream")
    cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in client.cookies.jar)
    if cookies:
        named["cookie"] = cookies
    headers = [(key.encode(), value.encode()) for key, value in named.items()]
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": client.base_url.scheme,
        "path": route,
        "raw_path": route.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("testclient", 50000),
        "server": (client.base_url.host, client.base_url.port or 80),
        "extensions": {"http.response.debug": {}},
        "state": dict(getattr(client, "app_state", {})),
    }
