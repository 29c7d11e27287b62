"""A browser's refused form goes back to its page with what was typed (never a password) and the reason; a
page that needs a log-in sends there with a `next` that stays on this site; other clients keep their 4xx."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from app.services.accounts import accounts
from app.services.errors import ServiceError
from app.web.refusals import local_path
from tests.conftest import PASSWORD

BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example",
        "/\\evil.example",
        "https://evil.example/",
        "javascript:alert(1)",
        "/a\r\nb",
        "games",
        "",
    ],
)
def test_a_next_that_leaves_the_site_falls_back_home(target: str) -> None:
    assert local_path(target) == "/"


@pytest.mark.parametrize("target", ["/", "/friends", "/games/5?play=1", "/games/5#game-orders"])
def test_a_path_of_this_site_is_kept(target: str) -> None:
    assert local_path(target) == target


def csrf(client: TestClient) -> str:
    token: str = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    return token


def test_a_refused_sign_up_comes_back_with_the_values_but_not_the_password(client: TestClient) -> None:
    form = {
        "csrf_token": csrf(client),
        "display_name": "Alice",
        "email": "alice@example.com",
        "password": "alice-in-wonderland",
    }
    headers = {**BROWSER, "referer": "http://testserver/signup"}
    refused = client.post("/signup", data=form, headers=headers, follow_redirects=False)
    assert (refused.status_code, refused.headers["location"]) == (303, "/signup")
    page = client.get("/signup", headers=BROWSER)
    assert 'data-code="weak_password"' in page.text and 'data-field="password"' in page.text
    assert "(alice)" in page.text and '"Alice"' in page.text
    assert "alice-in-wonderland" not in page.text  # a password is never kept nor sent back
    again = client.get("/signup", headers=BROWSER)
    assert "weak_password" not in again.text  # shown once


def test_without_a_referer_or_for_the_api_the_refusal_is_a_4xx(client: TestClient) -> None:
    form = {"csrf_token": csrf(client), "display_name": "Al", "email": "x@example.com", "password": PASSWORD}
    assert client.post("/signup", data=form, headers=BROWSER).status_code == 422
    elsewhere = {**BROWSER, "referer": "http://evil.example/signup"}
    assert client.post("/signup", data=form, headers=elsewhere, follow_redirects=False).status_code == 422


def test_a_page_that_needs_a_log_in_sends_there_a_client_gets_401(client: TestClient) -> None:
    page = client.get("/friends?tab=x", headers=BROWSER, follow_redirects=False)
    assert (page.status_code, page.headers["location"]) == (303, "/login?next=/friends%3Ftab%3Dx")
    assert client.get("/friends").status_code == 401
    htmx = client.get(
        "/friends", headers={"hx-request": "true", "hx-current-url": "http://testserver/games/3"}
    )
    assert (htmx.status_code, htmx.headers["hx-redirect"]) == (401, "/login?next=/games/3")


def test_a_play_link_asks_a_visitor_to_log_in_first(client: TestClient) -> None:
    page = client.get("/games/1?play=1", headers=BROWSER, follow_redirects=False)
    assert page.headers["location"] == "/login?next=/games/1%3Fplay%3D1"
    login = client.get("/login?next=/games/1%3Fplay%3D1")
    assert 'name="next" value="/games/1?play=1"' in login.text


@pytest.mark.parametrize(
    ("password", "rule"),
    [
        ("short", "at least 10 characters"),
        ("abababababab", "4 different characters"),
        ("Password123", "most common"),
        ("my-alice-password", "name of your e-mail address (alice)"),
    ],
)
def test_each_password_rule_says_itself(password: str, rule: str) -> None:
    with pytest.raises(ServiceError) as refused:
        accounts.check_password(password, "Alice@example.com")
    assert rule in refused.value.template % refused.value.params
    assert refused.value.field == "password"


def test_a_short_address_name_is_no_rule() -> None:
    accounts.check_password("a long passphrase", "al@example.com")
