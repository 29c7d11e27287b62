"""The account page lists a player's log-in sessions (when, from where, last seen) and ends them."""

from __future__ import annotations

import re
from typing import Any

from starlette.testclient import TestClient

from tests.conftest import PASSWORD, sign_up


def log_in(client: TestClient, email: str, browser: str) -> None:
    client.headers["User-Agent"] = browser
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    response = client.post("/api/v1/auth/login", json={"email": email, "password": PASSWORD})
    assert response.status_code == 200, response.text
    client.headers["X-CSRF-Token"] = response.json()["csrf_token"]


def page_csrf(client: TestClient) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/account").text)
    assert match is not None
    return match.group(1)


def test_sessions_are_listed_and_ended_one_by_one_or_all_but_this_one(make_client: Any) -> None:
    home, phone, laptop = make_client(), make_client(), make_client()
    home.headers["User-Agent"] = "HomeBrowser/1.0"
    sign_up(home, "Alice")
    log_in(phone, "alice@example.com", "PhoneBrowser/2.0")
    log_in(laptop, "alice@example.com", "LaptopBrowser/3.0")

    listed = home.get("/api/v1/me/sessions").json()
    assert sorted(row["user_agent"] for row in listed) == [
        "HomeBrowser/1.0",
        "LaptopBrowser/3.0",
        "PhoneBrowser/2.0",
    ]
    assert [row["user_agent"] for row in listed if row["current"]] == ["HomeBrowser/1.0"]
    assert all(row["ip_address"] and row["last_seen_at"] for row in listed)
    page = home.get("/account").text
    assert "PhoneBrowser/2.0" in page and "This session" in page

    phone_id = next(row["id"] for row in listed if row["user_agent"] == "PhoneBrowser/2.0")
    ended = home.post(f"/account/sessions/{phone_id}/end", data={"csrf_token": page_csrf(home)})
    assert ended.status_code == 200  # back on the account page
    assert phone.get("/api/v1/me").status_code == 401
    assert laptop.get("/api/v1/me").status_code == 200
    assert home.post(f"/api/v1/me/sessions/{phone_id}/end").status_code == 404

    assert home.post("/api/v1/me/sessions/end-others").json() == {"ended": 1}
    assert laptop.get("/api/v1/me").status_code == 401
    assert home.get("/api/v1/me").status_code == 200
    assert [row["current"] for row in home.get("/api/v1/me/sessions").json()] == [True]


def test_one_player_cannot_end_anothers_session(make_client: Any) -> None:
    alice, bob = make_client(), make_client()
    sign_up(alice, "Alice")
    sign_up(bob, "Bob")
    bobs = bob.get("/api/v1/me/sessions").json()[0]["id"]
    assert alice.post(f"/api/v1/me/sessions/{bobs}/end").status_code == 404
    assert bob.get("/api/v1/me").status_code == 200


def test_tokens_are_made_shown_once_and_revoked_on_the_account_page(make_client: Any) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice")
    form = {"csrf_token": page_csrf(client), "name": "my bot", "scopes": ["read", "play"], "days": "30"}
    made = client.post("/account/tokens", data=form)
    assert made.status_code == 200
    token = re.search(r'<code id="new-token">([^<]+)</code>', made.text)
    assert token is not None
    assert made.headers["cache-control"] == "no-store"
    page = client.get("/account").text
    assert "my bot" in page and token.group(1) not in page
    token_id = client.get("/api/v1/me/tokens").json()[0]["id"]
    client.post(f"/account/tokens/{token_id}/revoke", data={"csrf_token": page_csrf(client)})
    assert client.get("/api/v1/me/tokens").json() == []


def test_the_account_page_in_french(make_client: Any) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice", language="fr")
    page = client.get("/account").text
    assert "Jetons d’API" in page and "Cette session" in page
