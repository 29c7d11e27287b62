"""The calendar feed: a secret URL per user, one event per current wait, valid RFC 5545 text."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from fastapi import FastAPI
from icalendar import Calendar
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.cli import served_settings
from app.main import create_app
from app.models import WaitRow
from app.services.mail import ical, notify
from app.services.play import play
from app.settings import Settings
from tests.conftest import NOW, sign_up
from tests.notify.conftest import log_in, make_user, seat_of, start_game


def _feed(client: TestClient, token: str) -> str:
    response = client.get(f"/calendar/{token}.ics")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    return response.text


def _unfolded(feed: str) -> list[str]:
    return feed.replace("\r\n ", "").split("\r\n")


def _events(feed: str) -> list[dict[str, str]]:
    events: list[dict[str, str]] = []
    current: dict[str, str] | None = None
    for line in _unfolded(feed):
        if line == "BEGIN:VEVENT":
            current = {}
        elif line == "END:VEVENT" and current is not None:
            events.append(current)
            current = None
        elif current is not None and ":" in line and "ACTION" not in line and "TRIGGER" not in line:
            key, value = line.split(":", 1)
            current.setdefault(key.split(";")[0], value)
    return events


def assert_valid_rfc5545(feed: str) -> None:
    assert feed.endswith("\r\n") and "\n" not in feed.replace("\r\n", "")
    lines = feed.split("\r\n")[:-1]
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert all(len(line.encode()) <= 75 for line in lines)
    unfolded = _unfolded(feed)
    assert "VERSION:2.0" in unfolded and any(line.startswith("PRODID:") for line in unfolded)
    assert unfolded.count("BEGIN:VEVENT") == unfolded.count("END:VEVENT")
    for event in _events(feed):
        assert {"UID", "DTSTAMP", "DTSTART"} <= set(event)
        assert re.fullmatch(r"\d{8}T\d{6}Z", event["DTSTART"])


def test_the_feed_lists_my_current_deadlines_and_follows_them(
    db: Session, mail_client: TestClient, mail_app: FastAPI
) -> None:
    alice, bruno = make_user(db, "Alice", "fr"), make_user(db, "Bruno")
    game = start_game(db, [alice, bruno], hours=24)
    log_in(mail_client, alice)
    page = mail_client.get("/account/notifications").text
    found = re.search(r"/calendar/([\w-]+)\.ics", page)
    assert found is not None
    token = found.group(1)

    with TestClient(mail_app) as calendar_app:  # no cookies: a calendar application
        feed = _feed(calendar_app, token)
        assert_valid_rfc5545(feed)
        (event,) = _events(feed)
        assert event["DTSTART"] == "20261201T120000Z"
        assert event["URL"] == f"https://games.example.com/games/{game.id}#game-orders"
        assert event["SUMMARY"] == f"À vous de jouer dans {game.name}"  # Alice reads French, the one name
        uid = event["UID"]

        wait = db.scalar(
            select(WaitRow).where(WaitRow.game_id == game.id, WaitRow.seat == seat_of(game, alice))
        )
        assert wait is not None
        wait.deadline_at = datetime(2026, 12, 2, 9, 30, tzinfo=UTC)  # a pause moved it
        db.commit()
        (moved,) = _events(_feed(calendar_app, token))
        assert (moved["UID"], moved["DTSTART"]) == (uid, "20261202T093000Z")

        play.submit(db, alice, game.id, {"type": "pick", "value": 1}, game.version, NOW)
        assert _events(_feed(calendar_app, token)) == []  # no longer awaited
        play.submit(db, bruno, game.id, {"type": "pick", "value": 3}, game.version, NOW)
        play.submit(db, bruno, game.id, {"type": "choose", "take": False}, game.version, NOW)
        (new,) = _events(_feed(calendar_app, token))
        assert new["UID"] != uid  # a new wait, a new event

        log_in(mail_client, alice)
        regenerated = mail_client.post(
            "/account/notifications/calendar", data={"csrf_token": str(mail_client.headers["X-CSRF-Token"])}
        )
        assert regenerated.status_code == 200
        assert calendar_app.get(f"/calendar/{token}.ics").status_code == 404


def test_a_game_without_time_limit_has_no_event(db: Session) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    start_game(db, [alice, bruno], hours=None)
    assert ical.deadlines_of(db, alice) == []


def test_unknown_tokens_are_not_found(mail_client: TestClient, db: Session) -> None:
    assert mail_client.get("/calendar/nothing-here.ics").status_code == 404
    assert notify.user_by_calendar_token(db, "") is None


def test_text_is_escaped_and_long_lines_are_folded_between_characters() -> None:
    entry = ical.Entry(
        uid="wait-1-0-1@example.com",
        start=datetime(2026, 12, 1, 12, 0, tzinfo=UTC),
        summary="Ton tour; « Élan, vite » \\ " + "é" * 60,
        description="line one\nline two",
        url="https://games.example.com/games/1#game-orders",
        alarm="soon",
    )
    feed = ical.feed("Échéances", [entry], datetime(2026, 11, 30, tzinfo=UTC) + timedelta(hours=1))
    assert_valid_rfc5545(feed)
    (event,) = _events(feed)
    assert event["SUMMARY"].startswith("Ton tour\\; « Élan\\, vite » \\\\ é")
    assert event["DESCRIPTION"] == "line one\\nline two"
    feed.encode().decode("utf-8")  # folding never split a character
    (parsed,) = Calendar.from_ical(feed).walk("VEVENT")
    assert (str(parsed["SUMMARY"]), str(parsed["UID"])) == (entry.summary, entry.uid)


def _calendar_url_shown(client: TestClient, name: str) -> str:
    sign_up(client, name)
    page = client.get("/account/notifications").text
    found = re.search(r'id="calendar-url" readonly value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_the_calendar_address_is_the_one_served_unless_base_url_is_set(settings: Settings) -> None:
    served = served_settings(settings, "0.0.0.0", 8123)
    with TestClient(create_app(served), base_url="http://192.168.1.20:8123") as client:
        assert _calendar_url_shown(client, "Alice").startswith("http://192.168.1.20:8123/calendar/")
    chosen = settings.model_copy(update={"base_url": "https://games.example.com"})
    with TestClient(create_app(chosen), base_url="http://127.0.0.1:8123") as client:
        assert _calendar_url_shown(client, "Bruno").startswith("https://games.example.com/calendar/")
