"""The lobby's pages in English and French, their forms (CSRF on every change) and clear 4xx refusals."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import sign_up

PAGES = ["/queue", "/friends", "/rankings", "/rankings?game_type=fakedraft", "/", "/games/new"]


def form(client: TestClient, url: str, data: dict[str, str]) -> Any:
    token = client.headers["X-CSRF-Token"]
    return client.post(
        url, data={**data, "csrf_token": token}, headers={"X-CSRF-Token": ""}, follow_redirects=False
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_page_in_both_languages(make_client: Any, language: str) -> None:
    client = make_client()
    me = sign_up(client, "Alice", language=language)
    for path in [*PAGES, f"/users/{me['id']}"]:
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.headers["content-language"] == language
    queue_page = client.get("/queue").text
    assert ("Player queue" in queue_page) == (language == "en")
    assert ("Classement" in client.get("/rankings").text) == (language == "fr")


def test_queue_friends_and_blocks_through_the_forms(make_client: Any) -> None:
    alice, bruno = make_client(), make_client()
    sign_up(alice, "Alice")
    bruno_id = sign_up(bruno, "Bruno")["id"]
    assert form(alice, "/friends", {"name": "Bruno"}).status_code == 303
    assert "Bruno" in alice.get("/friends").text
    assert form(alice, f"/friends/{bruno_id}/remove", {}).status_code == 303
    assert form(alice, "/blocks", {"name": "Bruno"}).status_code == 303
    assert form(alice, "/friends", {"name": "Bruno"}).status_code == 403  # blocked
    assert form(alice, f"/blocks/{bruno_id}/remove", {}).status_code == 303
    entered = form(
        alice, "/queue", {"game_type": "fake", "min_hours": "12", "max_hours": "none", "new_games": "on"}
    )
    assert entered.headers["location"] == "/queue"
    placed = form(
        bruno, "/queue", {"game_type": "fake", "min_hours": "12", "max_hours": "72", "new_games": "on"}
    )
    assert placed.status_code == 303 and placed.headers["location"].startswith("/games/")
    lobby = alice.get("/").text
    assert "Recommended" not in lobby or "Your games" in lobby


def test_every_change_needs_the_csrf_token(make_client: Any) -> None:
    alice = make_client()
    sign_up(alice, "Alice")
    for path, data in [
        ("/queue", {"game_type": "fake", "new_games": "on"}),
        ("/friends", {"name": "Alice"}),
        ("/blocks", {"name": "Alice"}),
        ("/games/1/draft", {"choice": "Africa"}),
    ]:
        refused = alice.post(path, data=data, headers={"X-CSRF-Token": ""}, follow_redirects=False)
        assert refused.status_code == 403, path
    assert alice.put("/api/v1/queue/fake", json={}, headers={"X-CSRF-Token": "wrong"}).status_code == 403


@pytest.mark.parametrize(
    ("method", "path", "data", "status"),
    [
        ("POST", "/queue", {"game_type": "fake", "min_hours": "abc", "new_games": "on"}, 422),
        (
            "POST",
            "/queue",
            {"game_type": "fake", "min_hours": "48", "max_hours": "12", "new_games": "on"},
            422,
        ),
        ("POST", "/queue", {"game_type": "fake"}, 422),  # neither new games nor games in progress
        ("POST", "/queue", {"game_type": "chess", "new_games": "on"}, 422),
        ("POST", "/friends", {"name": "Nobody"}, 422),
        ("POST", "/friends", {"name": "x" * 200}, 422),
        ("POST", "/games/999/draft", {"choice": "Africa"}, 404),
        ("POST", "/games/1/draft", {}, 422),
        ("GET", "/games/999/draft", {}, 404),
        ("GET", "/rankings?game_type=chess", {}, 404),
        ("GET", "/rankings?page=abc", {}, 422),
        ("GET", "/users/999", {}, 404),
        ("GET", "/users/abc", {}, 404),  # no such page
        ("GET", "/games/1/seats/abc/summary", {}, 404),
        ("POST", "/games", {"game_type": "fake", "players": "2", "min_reliability": "x"}, 422),
        ("POST", "/games", {"game_type": "fake", "players": "3", "friends": "Nobody"}, 422),
    ],
)
def test_bad_input_is_a_clear_refusal(
    make_client: Any, method: str, path: str, data: dict[str, str], status: int
) -> None:
    alice = make_client()
    sign_up(alice, "Alice")
    response = form(alice, path, data) if method == "POST" else alice.get(path)
    assert response.status_code == status, response.text[:300]
    assert "Traceback" not in response.text


def test_api_bad_input(make_client: Any) -> None:
    alice = make_client()
    sign_up(alice, "Alice")
    assert alice.put("/api/v1/queue/fake", json={"min_hours": 500}).status_code == 422
    assert alice.put("/api/v1/queue/nope", json={}).status_code == 422
    assert alice.post("/api/v1/friends", json={"name": ""}).status_code == 422
    assert (
        alice.post(
            "/api/v1/games", json={"game_type": "fake", "players": 2, "min_reliability": 150}
        ).status_code
        == 422
    )
    assert alice.get("/api/v1/rankings/nope").status_code == 404
    assert alice.get("/api/v1/users/999").status_code == 404
    assert alice.post("/api/v1/games/999/draft", json={"choice": "x" * 41}).status_code == 422


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_queued_player_sees_the_home_page_and_where_they_wait(make_client: Any, language: str) -> None:
    alice = make_client()
    sign_up(alice, "Alice", language=language)
    assert alice.put("/api/v1/queue/fake", json={}).status_code == 200
    home = alice.get("/")
    assert home.status_code == 200, home.text[-500:]
    status = home.text.split('class="queue-status"')[1].split("</p>")[0]
    assert "Fake." in status  # the game type waited for, by its title
