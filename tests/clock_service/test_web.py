"""The clock's pages and API: availability, pauses, seats, quitting, open seats, admins; CSRF and errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import User
from tests.conftest import sign_up


@pytest.fixture
def table(make_client: Any) -> dict[str, Any]:
    """A running 3-seat fake game made through the API; `by_seat[n]` is the client of seat n."""
    clients = [make_client() for _ in range(3)]
    for client, name in zip(clients, ("Alice", "Bob", "Carol"), strict=True):
        sign_up(client, name)
    body = {"game_type": "fake", "players": 3, "absence": {"warning_percent": 75, "eviction_preset": 3}}
    game = clients[0].post("/api/v1/games", json=body).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{game['id']}/join")
    by_seat = {c.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: c for c in clients}
    return {"id": game["id"], "by_seat": by_seat}


def form(client: TestClient, url: str, data: dict[str, str]) -> Any:
    token = client.headers["X-CSRF-Token"]
    return client.post(
        url, data={**data, "csrf_token": token}, headers={"X-CSRF-Token": ""}, follow_redirects=False
    )


@pytest.mark.parametrize(("language", "title"), [("en", "Your time"), ("fr", "")])
def test_the_time_page_in_both_languages(client: TestClient, language: str, title: str) -> None:
    sign_up(client, "Alice", language=language)
    page = client.get("/time")
    assert page.status_code == 200
    assert page.headers["content-language"] == language
    assert title in page.text and 'name="day0"' in page.text and 'name="csrf_token"' in page.text


def test_windows_through_the_form_and_the_api(client: TestClient) -> None:
    sign_up(client, "Alice", time_zone="Europe/Paris")
    saved = form(client, "/time/windows", {f"day{d}": "08:00-23:00" for d in range(7)})
    assert (saved.status_code, saved.headers["location"]) == (303, "/time?moved=0")
    got = client.get("/api/v1/me/availability").json()
    assert got["time_zone"] == "Europe/Paris"
    assert got["windows"][0] == {"weekday": 0, "start": "08:00", "end": "23:00"}
    assert "08:00-23:00" in client.get("/time").text
    cleared = client.put("/api/v1/me/availability", json={"windows": []})
    assert cleared.status_code == 200 and client.get("/api/v1/me/availability").json()["windows"] == []


@pytest.mark.parametrize(
    ("windows", "field"),
    [
        ([{"weekday": 7, "start": "08:00", "end": "23:00"}], "windows"),
        ([{"weekday": 0, "start": "8h", "end": "23:00"}], "windows"),
        ([{"weekday": 0, "start": "08:00", "end": "09:00"}], "windows"),
    ],
)
def test_bad_windows_are_refused_with_a_code(client: TestClient, windows: list[Any], field: str) -> None:
    sign_up(client, "Alice")
    refused = client.put("/api/v1/me/availability", json={"windows": windows})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid_input" and refused.json()["error"]["field"] == field


def test_a_bad_form_shows_the_error_page_not_a_500(client: TestClient) -> None:
    sign_up(client, "Alice")
    refused = form(client, "/time/windows", {"day0": "all day"})
    assert refused.status_code == 422 and "HH:MM" in refused.text
    refused = form(client, "/time/pauses", {"first_day": "tomorrow", "last_day": "2030-01-01"})
    assert refused.status_code == 422


def test_every_change_needs_the_csrf_token(client: TestClient) -> None:
    sign_up(client, "Alice")
    client.headers.pop("X-CSRF-Token")
    assert client.post("/time/windows", data={"day0": ""}).status_code == 403
    assert (
        client.post(
            "/api/v1/me/pauses", json={"first_day": "2030-01-01", "last_day": "2030-01-02"}
        ).status_code
        == 403
    )


def test_pauses_through_the_api_move_the_deadlines_and_tell_the_others(
    table: dict[str, Any], db: Session
) -> None:
    alice = table["by_seat"][0]
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date()
    pause = {"first_day": str(tomorrow), "last_day": str(tomorrow + timedelta(days=1)), "reason": "x"}
    made = alice.post("/api/v1/me/pauses", json=pause)  # the 48-hour deadlines fall inside it
    assert made.status_code == 201
    assert {change["seat"] for change in made.json()["moved"]} == {0, 1, 2}
    (listed,) = alice.get("/api/v1/me/pauses").json()
    assert (listed["status"], listed["days"], listed["reason"]) == ("coming", 2, "x")
    removed = alice.post(f"/api/v1/me/pauses/{listed['id']}/remove")
    assert removed.status_code == 200
    assert alice.get("/api/v1/me/pauses").json()[0]["status"] == "cancelled"
    past = alice.post("/api/v1/me/pauses", json={"first_day": "2000-01-01", "last_day": "2000-01-02"})
    assert (past.status_code, past.json()["error"]["field"]) == (422, "first_day")
    mine = alice.get("/api/v1/me/deadlines").json()
    assert len(mine) == 3 and sum(row["mine"] for row in mine) == 1


def test_the_game_page_loads_the_seats_and_shows_the_ladder(table: dict[str, Any]) -> None:
    game_id, alice = table["id"], table["by_seat"][0]
    page = alice.get(f"/games/{game_id}")
    assert f'hx-get="/games/{game_id}/seats"' in page.text
    fragment = alice.get(f"/games/{game_id}/seats", headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "<html" not in fragment.text
    assert "75%" in fragment.text and "Quit this game" in fragment.text
    seats = alice.get(f"/api/v1/games/{game_id}/seats").json()
    assert seats["absence"] == {"warning_percent": 75, "eviction_preset": 3, "vote_after": 2}
    assert [row["threshold"] for row in seats["seats"]] == [3, 3, 3]
    assert alice.get(f"/games/{game_id}/seats").status_code == 200  # the page without JavaScript


def test_quit_then_a_replacement_takes_the_seat_from_the_lobby(
    table: dict[str, Any], make_client: Any
) -> None:
    game_id, carol = table["id"], table["by_seat"][2]
    quit_ = form(carol, f"/games/{game_id}/quit", {"replacement": ""})
    assert (quit_.status_code, quit_.headers["location"]) == (303, f"/games/{game_id}")
    dan = make_client()
    sign_up(dan, "Dan")
    lobby = dan.get("/?tab=open")
    assert f"/games/{game_id}/seats/2/take" in lobby.text
    assert dan.get("/api/v1/open-seats").json()[0]["seat"] == 2
    taken = form(dan, f"/games/{game_id}/seats/2/take", {})
    assert taken.status_code == 303
    assert dan.get(f"/api/v1/games/{game_id}").json()["your_seat"] == 2
    again = carol.post(f"/api/v1/games/{game_id}/seats/2/take")
    assert (again.status_code, again.json()["error"]["code"]) == (409, "seat_taken")


def test_votes_and_quitting_through_the_api_refuse_with_codes(table: dict[str, Any]) -> None:
    game_id, alice = table["id"], table["by_seat"][0]
    early = alice.post(f"/api/v1/games/{game_id}/seats/1/evict-vote")
    assert (early.status_code, early.json()["error"]["code"]) == (409, "vote_not_open")
    unknown = alice.post(f"/api/v1/games/{game_id}/quit", json={"replacement": "Nobody"})
    assert (unknown.status_code, unknown.json()["error"]["field"]) == (422, "replacement")


def test_admins_see_the_clock_others_do_not(client: TestClient, db: Session) -> None:
    me = sign_up(client, "Boss")
    assert client.get("/admin/clock").status_code == 403
    assert client.get("/api/v1/admin/clock").status_code == 403
    db.execute(update(User).where(User.id == me["id"]).values(role="admin"))
    db.commit()
    page = client.get("/admin/clock")
    assert page.status_code == 200 and "Quarantined games" in page.text
    assert client.get("/api/v1/admin/clock").json() == {"last_sweep": None, "late": [], "quarantined": []}


def test_the_new_game_form_takes_the_absence_settings(client: TestClient) -> None:
    sign_up(client, "Alice")
    assert 'name="absence.eviction_preset"' in client.get("/games/new").text
    fields = {"game_type": "fake", "players": "2", "time_limit_hours": "24", "absence.vote_after": "3"}
    made = form(client, "/games", fields)
    assert made.status_code == 303
    refused = form(client, "/games", {**fields, "absence.warning_percent": "5"})
    assert refused.status_code == 422
    bad = client.post("/api/v1/games", json={"game_type": "fake", "players": 2, "absence": {"vote_after": 0}})
    assert (bad.status_code, bad.json()["error"]["field"]) == (422, "absence.vote_after")
