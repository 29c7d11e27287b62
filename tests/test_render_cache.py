"""Kept renders (app.web.render_cache): a game page, its fragment, its log and the API's reads are drawn once
per game version and viewer and reused, and never served stale or to someone else: the version, the seat, the
language and the time zone each make another render; the CSRF token and the messages are the request's own.
ETags: an unchanged read is a 304, drawn from nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from redis.exceptions import RedisError
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import User
from app.services.play import play
from app.web import dates, render_cache
from tests.moderation.helpers import api_client, fast_passwords, make_users, running_game
from tests.test_statement_budget import counted

CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')


@dataclass
class Table:
    game_id: int
    ann: TestClient  # seat holders
    ben: TestClient
    cat: TestClient  # spectators
    dan: TestClient
    visitor: TestClient  # not logged in
    users: dict[str, int]

    def paths(self) -> list[str]:
        game = f"/games/{self.game_id}"
        return [game, f"{game}/fragment", f"{game}/log", f"/api/v1{game}", f"/api/v1{game}/log"]

    def version(self) -> int:
        return int(self.ann.get(f"/api/v1/games/{self.game_id}").json()["game"]["version"])

    def pick(self, client: TestClient, value: int) -> None:
        body = {"order": {"type": "pick", "value": value}, "expected_version": self.version()}
        answer = client.post(f"/api/v1/games/{self.game_id}/orders", json=body)
        assert answer.status_code == 200, answer.text


@pytest.fixture
def table(db: Session, make_client: Any) -> Table:
    with fast_passwords():
        ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
        game = running_game(db, [ann, ben])
        ids = {user.display_name: user.id for user in (ann, ben, cat, dan)}
        db.commit()  # end the read: on SQLite an open transaction holds the write lock
        clients = [api_client(make_client, f"{name}@example.com") for name in ("ann", "ben", "cat", "dan")]
    ann_client, ben_client, cat_client, dan_client = clients
    return Table(game.id, ann_client, ben_client, cat_client, dan_client, make_client(), ids)


def cache_of(client: TestClient) -> render_cache.RenderCache:
    cache: render_cache.RenderCache = client.app.state.render_cache  # type: ignore[attr-defined]
    return cache


def set_user(db: Session, user_id: int, **values: str) -> None:
    user = db.get(User, user_id)
    assert user is not None
    for name, value in values.items():
        setattr(user, name, value)
    db.commit()


def deadline(db: Session, game_id: int, seat: int) -> Any:
    waits = {wait.seat: wait for wait in play.game_view(db, game_id, None).waits}
    db.commit()
    return waits[seat].deadline_at


def test_no_render_is_stale_or_another_viewers(table: Table, db: Session) -> None:
    everyone = [table.ann, table.ben, table.cat, table.dan, table.visitor]
    for client in everyone:  # every render kept at the first version
        for path in table.paths():
            assert client.get(path).status_code == 200, path
    table.pick(table.ann, 3)  # Ann's secret pick: only Ann's renders may show it
    version = table.version()
    page, fragment, log, api, api_log = table.paths()
    for client in everyone:  # Ann first: a key without the seat would hand her render to the others
        mine = client is table.ann
        for path in (page, fragment):
            text = client.get(path).text
            assert f'data-version="{version}"' in text, path
            assert ('"my_pick": 3' in text) is mine, path
        game = client.get(api).json()
        assert game["game"]["version"] == version
        assert game["view"]["my_pick"] == (3 if mine else None)
        private = [event for event in client.get(api_log).json() if event["private"]]
        assert bool(private) is mine
        assert client.get(log).status_code == 200

    english = table.ann.get(page)
    set_user(db, table.users["Ann"], language="fr")
    french = table.ann.get(page)
    assert english.headers["content-language"] == "en" and french.headers["content-language"] == "fr"
    assert "Game log" in english.text and "Game log" not in french.text
    assert "Historique de la partie" in french.text
    assert "Historique de la partie" not in table.ben.get(page).text  # Ben still reads English

    ben_seat = table.ben.get(api).json()["your_seat"]
    due = deadline(db, table.game_id, ben_seat)
    in_utc = dates.exact(due, "UTC", "fr")
    assert in_utc in table.ann.get(page).text
    set_user(db, table.users["Ann"], time_zone="America/New_York")
    in_new_york = dates.exact(due, "America/New_York", "fr")
    moved = table.ann.get(page).text
    assert in_new_york in moved and in_utc not in moved
    assert dates.exact(due, "UTC", "en") in table.cat.get(page).text  # Cat's zone is still UTC


def test_a_render_is_drawn_once_and_reused(table: Table) -> None:
    cache = cache_of(table.ann)
    cache.clear()
    page = table.paths()[0]
    drawn = cache.renders
    first = table.ann.get(page).text
    again = table.ann.get(page).text
    assert cache.renders == drawn + 1
    assert first == again

    table.cat.get(page)
    seen_by_dan = table.dan.get(page).text  # spectators share one render
    assert cache.renders == drawn + 2
    dan_token = CSRF_FIELD.findall(table.dan.get("/account").text)[0]
    cat_token = CSRF_FIELD.findall(table.cat.get("/account").text)[0]
    assert dan_token in seen_by_dan and cat_token not in seen_by_dan
    assert render_cache.CSRF_MARK not in seen_by_dan and render_cache.MESSAGES_MARK not in seen_by_dan

    ann_token = CSRF_FIELD.findall(first)
    assert ann_token and set(ann_token) == {CSRF_FIELD.findall(table.ann.get("/account").text)[0]}

    said = table.ben.post(
        f"/games/{table.game_id}/messages", data={"body": "Hello from Ben"}, follow_redirects=False
    )
    assert said.status_code == 303
    assert "Hello from Ben" in table.ann.get(page).text  # a message moves no version: drawn per request
    assert cache.renders == drawn + 2

    table.pick(table.ann, 2)
    drawn = cache.renders
    assert '"my_pick": 2' in table.ann.get(page).text
    assert cache.renders == drawn + 1  # a new version, a new render


def test_an_unchanged_read_is_a_304(table: Table, app: Any) -> None:
    page, fragment, _log, api, api_log = table.paths()
    for path in (page, fragment, api, api_log):
        first = table.ann.get(path)
        etag = first.headers["etag"]
        cache = cache_of(table.ann)
        drawn = cache.renders
        with counted(app.state.engine) as statements:
            again = table.ann.get(path, headers={"If-None-Match": etag})
        assert again.status_code == 304, path
        assert again.content == b"" and again.headers["etag"] == etag
        assert cache.renders == drawn  # nothing drawn
        if path.startswith("/api/"):  # the user, the game with its seats, its waits
            assert len(statements) <= 3, "\n".join(statements)
        other = table.ben.get(path, headers={"If-None-Match": etag})  # another seat: another render
        assert other.status_code == 200 and other.headers["etag"] != etag

    etags = {path: table.ann.get(path).headers["etag"] for path in (page, fragment, api, api_log)}
    table.pick(table.ann, 1)
    for path, etag in etags.items():
        moved = table.ann.get(path, headers={"If-None-Match": etag})
        assert moved.status_code == 200 and moved.headers["etag"] != etag, path

    etag = table.ann.get(fragment).headers["etag"]
    table.ben.post(f"/games/{table.game_id}/messages", data={"body": "News without a move"})
    told = table.ann.get(fragment, headers={"If-None-Match": etag})
    assert told.status_code == 200 and "News without a move" in told.text


def test_renders_are_shared_through_redis() -> None:
    url = "redis://127.0.0.1:6379/14"
    first, second = render_cache.make_cache(url), render_cache.make_cache(url)
    assert first.redis is not None
    try:
        first.redis.ping()
    except RedisError:
        pytest.skip("needs Redis at 127.0.0.1:6379")
    first.redis.flushdb()
    key = render_cache.RenderKey("page", 1, "mark", "seat0", "en", "UTC")
    assert first.get_or_render(key, lambda: render_cache.Kept("<p>seat 0</p>")).text == "<p>seat 0</p>"

    def never() -> render_cache.Kept:
        raise AssertionError("drawn again in another process")

    assert second.get_or_render(key, never).text == "<p>seat 0</p>"
    other = render_cache.RenderKey("page", 1, "mark", "seat1", "en", "UTC")
    assert second.get_or_render(other, lambda: render_cache.Kept("<p>seat 1</p>")).text == "<p>seat 1</p>"
    first.redis.flushdb()


def test_the_process_keeps_renders_within_its_budget() -> None:
    cache = render_cache.RenderCache(budget_bytes=1000)
    keys = [render_cache.RenderKey("page", 1, f"v{n}", "visitor") for n in range(5)]
    for key in keys:
        cache.get_or_render(key, lambda: render_cache.Kept("x" * 300))
    assert cache.renders == 5
    cache.get_or_render(keys[-1], lambda: render_cache.Kept("y"))  # the newest is kept
    cache.get_or_render(keys[0], lambda: render_cache.Kept("x" * 300))  # the oldest was dropped
    assert cache.renders == 6
