"""Bot seats through HTTP: the API and the form create them or refuse them (422, nothing written), the
lobby says "with N bots · unrated" before anyone joins, a bot's name is no link, and no mail goes to a bot."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.models import Game, Notification
from tests.conftest import sign_up


def create(client: Any, **body: Any) -> Any:
    return client.post("/api/v1/games", json={"game_type": "dragonstones", "players": 4, **body})


@pytest.mark.parametrize(
    "body",
    [
        {"bot_seats": 4},  # every seat a bot's
        {"bot_seats": 7, "players": 4},
        {"bot_seats": -1},
        {"bot_seats": 1, "game_type": "fake", "players": 2},  # a game without a bot
        {"bots_keep_seats": True, "game_type": "fake", "players": 2},
    ],
)
def test_bad_bot_seats_are_a_422_and_nothing_is_written(
    make_client: Any, sessions: sessionmaker[Session], body: dict[str, Any]
) -> None:
    client = make_client()
    sign_up(client, "Alice")
    refused = create(client, **body)
    assert refused.status_code == 422
    assert refused.json()["error"]["field"] == "bot_seats"
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(Game)) == 0


def test_the_lobby_says_the_bots_and_unrated_before_anyone_joins_and_a_bot_is_no_link(
    make_client: Any, sessions: sessionmaker[Session]
) -> None:
    alice, visitor = make_client(), make_client()
    sign_up(alice, "Alice")
    made = create(alice, bot_seats=2)
    assert made.status_code == 201 and made.json()["bot_seats"] == 2 and made.json()["status"] == "open"
    listed = visitor.get("/?tab=open").text
    assert "with 2 bots" in listed and "unrated" in listed
    page = alice.get(f"/games/{made.json()['id']}").text
    assert page.count("Bot 1 🤖") >= 1 and "Bot 2 🤖" in page
    assert not re.search(r'href="[^"]*/players/Bot', page)  # a bot's name links to no profile
    assert 'href="/players/Alice"' in page
    with sessions() as session:
        assert session.scalar(select(func.count()).where(Notification.user_id.is_(None))) == 0


def test_the_form_offers_bot_seats_after_the_player_count_and_creates_them(make_client: Any) -> None:
    client = make_client()
    sign_up(client, "Alice")
    page = client.get("/games/new?game_type=dragonstones").text
    assert page.index('name="players"') < page.index('name="bot_seats"') < page.index("options.")
    assert 'name="bots_keep_seats"' in page
    token = client.headers["X-CSRF-Token"]
    data = {
        "csrf_token": token,
        "game_type": "dragonstones",
        "players": "3",
        "bot_seats": "2",
        "bots_keep_seats": "true",
        "time_limit_hours": "24",
    }
    posted = client.post("/games", data=data, headers={"X-CSRF-Token": ""}, follow_redirects=False)
    assert posted.status_code == 303
    game = client.get(f"/api/v1{posted.headers['location']}").json()["game"]
    assert (game["status"], game["bot_seats"]) == ("active", 2)  # Alice and two bots: under way at once
    refused = client.post(
        "/games", data={**data, "bot_seats": "3"}, headers={"X-CSRF-Token": ""}, follow_redirects=False
    )
    assert refused.status_code == 422
