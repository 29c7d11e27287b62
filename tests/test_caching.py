"""Caching and heavy endpoints: no cache keeps a player's view, a replay is computed once per game version
and limited per address, the live stream of a game that does not exist is a 404, and the API's docs work
under the site's Content-Security-Policy."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.services.play import replays
from app.web import ratelimit
from tests.moderation.helpers import api_client, fast_passwords, make_users, running_game

NO_STORE = "private, no-store"


@pytest.fixture
def seated(db: Session, make_client: Any) -> tuple[TestClient, int]:
    """A client logged in as a player of a running game, and that game's id."""
    with fast_passwords():
        ann, ben = make_users(db, "Ann", "Ben")
        game = running_game(db, [ann, ben])
        db.commit()  # end the read: on SQLite an open transaction holds the write lock
        return api_client(make_client, "ann@example.com"), game.id


def test_a_players_view_is_never_cached(seated: tuple[TestClient, int]) -> None:
    client, game_id = seated
    for path in (
        f"/api/v1/games/{game_id}",
        f"/api/v1/games/{game_id}/log",
        f"/api/v1/games/{game_id}/replay",
        f"/games/{game_id}",
        f"/games/{game_id}/fragment",
        "/api/v1/me",
        "/",
    ):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["cache-control"] == NO_STORE, path
    assert client.get("/no-such-page").headers["cache-control"] == NO_STORE
    assert NO_STORE not in client.get("/static/css/app.css").headers.get("cache-control", "")


def test_a_replay_is_computed_once_per_version(
    seated: tuple[TestClient, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, game_id = seated
    rebuilt: list[int] = []
    real = replays.KEPT.rebuild

    def counted(game: Any, seqs: Any, step: int, read: Any) -> Any:
        rebuilt.append(game.id)
        return real(game, seqs, step, read)

    monkeypatch.setattr(replays.KEPT, "rebuild", counted)
    first = client.get(f"/api/v1/games/{game_id}/replay").json()
    again = client.get(f"/api/v1/games/{game_id}/replay").json()
    assert first == again and first["matches_stored_state"] is True
    assert rebuilt == [game_id]
    version = client.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    seat = client.get(f"/api/v1/games/{game_id}").json()["your_seat"]
    assert seat is not None
    order = {"order": {"type": "pick", "value": 2}, "expected_version": version}
    assert client.post(f"/api/v1/games/{game_id}/orders", json=order).status_code == 200
    moved = client.get(f"/api/v1/games/{game_id}/replay").json()
    assert moved["version"] == version + 1 and moved["orders"] == first["orders"] + 1
    assert rebuilt == [game_id, game_id]


def test_replays_are_limited_per_address(seated: tuple[TestClient, int], make_client: Any) -> None:
    _, game_id = seated
    anonymous = make_client()
    answers = [
        anonymous.get(f"/api/v1/games/{game_id}/replay").status_code
        for _ in range(ratelimit.REPLAYS_PER_MINUTE + 1)
    ]
    assert answers == [200] * ratelimit.REPLAYS_PER_MINUTE + [429]


@pytest.mark.timeout(30)  # an endless stream, before: it answered 200 for any id
def test_the_live_stream_of_a_missing_game_is_a_404(client: TestClient) -> None:
    answer = client.get("/games/987654/live", headers={"Accept": "application/json"})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_the_api_docs_need_nothing_the_policy_forbids(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    policy = page.headers["content-security-policy"]
    assert "script-src 'self';" in policy and "https:" not in policy
    scripts = re.findall(r"<script([^>]*)>", page.text)
    assert scripts and all('src="/' in attributes for attributes in scripts)  # no inline script, no CDN
    assets = re.findall(r'(?:src|href)="(/[^"]+)"', page.text)
    assert len(assets) == 3
    for asset in assets:
        assert client.get(asset).status_code == 200, asset
    assert client.get("/openapi.json").status_code == 200


def test_replay_pages_are_limited_per_address_and_per_user(
    seated: tuple[TestClient, int], make_client: Any, app: Any
) -> None:
    ann, game_id = seated
    pages = [ann.get(f"/games/{game_id}/replay").status_code for _ in range(ratelimit.REPLAYS_PER_MINUTE + 1)]
    assert pages == [200] * ratelimit.REPLAYS_PER_MINUTE + [429]
    assert ann.get(f"/api/v1/games/{game_id}/replay").status_code == 429  # one limit for both
    with TestClient(app, client=("203.0.113.7", 50000), cookies=ann.cookies) as elsewhere:
        assert elsewhere.get(f"/games/{game_id}/replay").status_code == 429  # Ann, from another address
    with TestClient(app, client=("203.0.113.8", 50000)) as anonymous:
        assert anonymous.get(f"/games/{game_id}/replay").status_code == 200
        assert make_client().get(f"/games/{game_id}/replay").status_code == 429  # Ann's first address
