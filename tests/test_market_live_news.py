"""A private offer between two seats moves the game's version (every order is numbered by it), and every
live stream hears of that version: nothing more. A third seat's view is the same but for the version."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games.advciv.market import DONT_CARE
from app.services.play import live
from app.web.pages import play as play_pages
from tests.test_advciv_market_web import market_position
from tests.test_advciv_web import put_state, start_game

AFRICA, CRETE, THRACE = 0, 1, 2


def _send(client: TestClient, game_id: int, order: dict[str, Any]) -> None:
    version = client.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    sent = client.post(f"/api/v1/games/{game_id}/orders", json={"order": order, "expected_version": version})
    assert sent.status_code == 200, sent.text


def _without_version(view: Any) -> Any:
    if isinstance(view, dict):
        return {key: _without_version(value) for key, value in view.items() if "version" not in key}
    if isinstance(view, list):
        return [_without_version(value) for value in view]
    return view


def test_a_private_offer_tells_a_third_seat_only_that_the_version_moved(
    make_client: Any, db: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, by_seat, spectator = start_game(make_client, 3)
    put_state(db, game_id, market_position())
    published: list[tuple[Any, ...]] = []
    publish = live.BUS.publish

    def heard(*args: Any) -> None:
        published.append(args)
        publish(*args)

    monkeypatch.setattr(live.BUS, "publish", heard)
    others = (by_seat[THRACE], spectator)
    before = [client.get(f"/api/v1/games/{game_id}").json() for client in others]
    cards = ["ochre", "ochre", "hides"]
    offer = {"type": "offer", "to": CRETE, "cards": cards, "expects": [DONT_CARE] * 3}
    _send(by_seat[AFRICA], game_id, offer)
    after = [client.get(f"/api/v1/games/{game_id}").json() for client in others]
    for seen, then in zip(after, before, strict=True):
        assert seen["game"]["version"] == then["game"]["version"] + 1
        assert _without_version(seen) == _without_version(then)
    version = after[0]["game"]["version"]
    # every stream: the version, nothing more (on Postgres the NOTIFY may bring it back a second time)
    assert published and set(published) == {(game_id, version, None)}
    assert play_pages._moved(version) == {"event": "moved", "data": str(version), "id": str(version)}
