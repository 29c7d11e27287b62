"""Whose turn: the home page's "Your games", the navigation's and the title's count, /api/v1/me."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import User
from app.services.play import turns
from tests.conftest import sign_up


def create(client: TestClient, players: int = 2, hours: int | None = 24) -> int:
    body = {"game_type": "fake", "players": players, "time_limit_hours": hours}
    response = client.post("/api/v1/games", json=body)
    assert response.status_code == 201, response.text
    game_id: int = response.json()["id"]
    return game_id


def pick(client: TestClient, game_id: int) -> None:
    version = client.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    body = {"order": {"type": "pick", "value": 2}, "expected_version": version}
    assert client.post(f"/api/v1/games/{game_id}/orders", json=body).status_code == 200


def two_players(make_client: Any) -> tuple[TestClient, TestClient]:
    alice, bruno = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bruno, "Bruno")
    return alice, bruno


def test_each_player_sees_whose_turn_it_is_soonest_first(make_client: Any) -> None:
    alice, bruno = two_players(make_client)
    long_game, short_game = create(alice, hours=72), create(alice, hours=6)
    for game_id in (long_game, short_game):
        assert bruno.post(f"/api/v1/games/{game_id}/join").json()["status"] == "active"
    forming = create(alice)
    pick(alice, long_game)

    assert alice.get("/api/v1/me").json()["games_waiting_on_you"] == 1
    assert bruno.get("/api/v1/me").json()["games_waiting_on_you"] == 2
    home = alice.get("/").text
    assert "<title>(1) Games · Ostraca</title>" in home
    assert 'id="turn-count"' in home and "1 game waits on you" in home
    ordered = [home.index(f'href="/games/{game_id}"') for game_id in (short_game, long_game, forming)]
    assert ordered == sorted(ordered)  # her turn first, then the game waiting for Bruno, then forming
    assert 'your turn</strong> · <time datetime="' in home and 'class="time-left">in 6 hr</time>' in home
    assert 'waiting for <a class="player" href="/players/Bruno">Bruno</a>' in home and "forming" in home
    bruno_home = bruno.get("/").text
    assert "<title>(2) Games" in bruno_home and "2 games wait on you" in bruno_home
    assert bruno_home.index(f'href="/games/{short_game}"') < bruno_home.index(f'href="/games/{long_game}"')


def test_the_count_in_french_and_none_when_nothing_waits(make_client: Any) -> None:
    alice, bruno = two_players(make_client)
    game_id = create(alice)
    bruno.post(f"/api/v1/games/{game_id}/join")
    alice.post("/language", data={"language": "fr", "next": "/", "csrf_token": alice.headers["X-CSRF-Token"]})
    page = alice.get("/").text
    assert "1 partie vous attend" in page and "à vous de jouer" in page
    pick(alice, game_id)
    page = alice.get("/").text
    assert (
        'data-count="0" hidden' in page
        and "<title>Parties" in page
        and 'attend <a class="player" href="/players/Bruno">Bruno</a>' in page
    )
    assert alice.get("/api/v1/me").json()["games_waiting_on_you"] == 0


def test_the_list_is_read_in_one_query(make_client: Any, db: Session) -> None:
    alice, bruno = two_players(make_client)
    for _ in range(3):  # three shared unfinished games at most
        joined = bruno.post(f"/api/v1/games/{create(alice)}/join")
        assert joined.status_code == 200, joined.text
    create(alice)
    user = db.query(User).filter_by(display_name="Alice").one()
    statements: list[str] = []

    def count(*_args: Any) -> None:
        statements.append("one")

    engine = db.get_bind()
    event.listen(engine, "before_cursor_execute", count)
    try:
        found = turns.turns_of(db, user)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(statements) == 1
    assert [game.my_turn for game in found.games] == [True] * 3 + [False]
    assert found.waiting_on_you == 3


def test_favicon_and_a_typed_games_address(client: TestClient) -> None:
    icon = client.get("/favicon.ico", follow_redirects=False)
    assert icon.status_code == 301 and icon.headers["location"] == "/static/favicon.svg"
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200 and "svg" in svg.headers["content-type"]
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").text
    games = client.get("/games", follow_redirects=False)
    assert games.status_code == 302 and games.headers["location"] == "/"
