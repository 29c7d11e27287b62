"""A newcomer's first hour over plain HTTP: forms that ask before they assume, help at hand, people one click
away, and the smaller things."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import Notification
from app.services.mail import notify
from tests.conftest import sign_up
from tests.moderation.helpers import page_token


def test_the_report_form_assumes_no_reason_and_asks_what_happened(client: TestClient) -> None:
    sign_up(client, "Alice")
    sign_up(TestClient(client.app), "Bruno")
    form = client.get("/reports/new?kind=player&player=Bruno").text
    assert '<option value="" selected disabled>' in form
    assert 'value="insults" selected' not in form and 'name="details" required' in form
    fields = {
        "kind": "player",
        "reason": "insults",
        "player": "Bruno",
        "csrf_token": page_token(client, "/reports"),
    }
    refused = client.post("/reports", data=fields, headers={"Accept": "application/json"})
    assert refused.status_code == 422
    assert refused.json()["error"] == {
        "code": "invalid_input",
        "message": "Say what happened.",
        "field": "details",
    }
    unchosen = {**fields, "reason": "", "details": "Rude words"}
    refused = client.post("/reports", data=unchosen, headers={"Accept": "application/json"})
    assert refused.json()["error"]["message"] == "The reason is required."


def test_help_is_in_the_navigation_and_links_each_games_rules(client: TestClient) -> None:
    for logged_in in (False, True):
        if logged_in:
            sign_up(client, "Alice")
        home = client.get("/").text
        assert '<a href="/help">Help</a>' in home
        help_page = client.get("/help").text
        for game_type in ("advciv", "amunre", "dragonstones", "tigris"):
            assert f'href="/rules/{game_type}"' in help_page
        for section in ("help-game", "help-clock", "help-pauses", "help-queue"):
            assert f'id="{section}"' in help_page
    visitor = TestClient(client.app)
    assert '<a href="/help">Aide</a>' in visitor.get("/help", headers={"Accept-Language": "fr"}).text


def test_the_first_steps_card_goes_away_once_done(client: TestClient, db: Session) -> None:
    me = sign_up(client, "Alice")
    card = client.get("/").text
    assert 'id="first-steps"' in card and "may take a few seconds" in card and 'href="/queue"' in card
    client.put("/api/v1/queue/tigris", json={})
    card = client.get("/").text
    assert 'id="first-steps"' in card and "You are on your way into a game." in card
    assert client.get("/rules/tigris").status_code == 200
    assert "You have read a game's rules." in client.get("/").text
    settings = notify.mail_settings(db, me["id"])
    settings.verified_email, settings.verified_at = "alice@example.com", datetime.now(UTC)
    db.commit()
    assert 'id="first-steps"' not in client.get("/").text


def test_a_player_name_leads_to_the_profile(make_client: Any) -> None:
    alice, bruno = make_client(), make_client()
    sign_up(alice, "Alice")
    bruno_id = sign_up(bruno, "Bruno")["id"]
    game = alice.post("/api/v1/games", json={"game_type": "fake", "players": 2}).json()
    bruno.post(f"/api/v1/games/{game['id']}/join")
    bruno.post(f"/api/v1/games/{game['id']}/messages", json={"body": "Good luck"})
    page = alice.get(f"/games/{game['id']}").text
    assert '<a class="player" href="/players/Bruno">Bruno</a>' in page
    version = alice.get(f"/api/v1/games/{game['id']}").json()["game"]["version"]
    order = {"order": {"type": "pick", "value": 1}, "expected_version": version}
    alice.post(f"/api/v1/games/{game['id']}/orders", json=order)
    assert 'waiting for <a class="player" href="/players/Bruno">Bruno</a>' in alice.get("/").text
    found = alice.get("/players/Bruno", follow_redirects=False)
    assert found.status_code == 303 and found.headers["location"] == f"/users/{bruno_id}"
    assert alice.get("/players/Nobody%20Here", headers={"Accept": "text/html"}).status_code == 404


def test_the_smaller_things(make_client: Any) -> None:
    alice, bruno = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bruno, "Bruno", language="fr")
    game = alice.post("/api/v1/games", json={"game_type": "fake", "players": 3}).json()
    page = alice.get(f"/games/{game['id']}").text
    assert '<a class="skip-link" href="#main">Skip to the content</a>' in page and '<main id="main"' in page
    french_lobby = bruno.get("/").text
    assert "1 place prise sur 3" in french_lobby and "1 places" not in french_lobby
    alice.post(f"/api/v1/games/{game['id']}/join")  # already in: refused, nothing else changes
    bruno.post(f"/api/v1/games/{game['id']}/join")
    carol = make_client()
    sign_up(carol, "Carol")
    carol.post(f"/api/v1/games/{game['id']}/join")
    running = alice.get(f"/games/{game['id']}").text
    assert '<li class="muted">No messages yet.</li>' not in running and "No messages yet." in running
    assert alice.get("/signup", follow_redirects=False).status_code == 303  # logged in: no second account
    form = {"display_name": "Other", "email": "other@example.com", "password": "a long enough password"}
    form["csrf_token"] = page_token(alice, "/account")
    made = alice.post("/signup", data=form, follow_redirects=False)
    assert made.status_code == 303 and alice.get("/api/v1/me").json()["display_name"] == "Alice"


def test_one_pause_tells_a_player_sharing_two_games_once(make_client: Any, db: Session) -> None:
    alice, bruno = make_client(), make_client()
    sign_up(alice, "Alice")
    bruno_id = sign_up(bruno, "Bruno")["id"]
    for _ in range(2):
        game = alice.post("/api/v1/games", json={"game_type": "fake", "players": 2}).json()
        bruno.post(f"/api/v1/games/{game['id']}/join")
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date()
    pause = {"first_day": str(tomorrow), "last_day": str(tomorrow), "reason": "away"}
    assert alice.post("/api/v1/me/pauses", json=pause).status_code == 201
    told = select(func.count()).where(
        Notification.user_id == bruno_id, Notification.kind == "pause_requested"
    )
    assert db.scalar(told) == 1
