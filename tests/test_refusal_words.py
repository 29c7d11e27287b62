"""Refusals in people's words: a validation error is a sentence about its field, in the viewer's language."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from app.games.amunre.orders import parse_order
from app.games.contract import RuleError
from tests.conftest import sign_up


def api_sign_up(client: TestClient, body: dict[str, str], language: str) -> dict[str, str]:
    client.cookies.set("lang", language)
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    response = client.post("/api/v1/auth/signup", json=body)
    assert response.status_code == 422
    error: dict[str, str] = response.json()["error"]
    return error


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "The e-mail address is required."), ("fr", "L'adresse e-mail est obligatoire.")],
)
def test_an_empty_sign_up_says_which_field_is_missing(
    client: TestClient, language: str, sentence: str
) -> None:
    error = api_sign_up(client, {}, language)
    assert error == {"code": "invalid_input", "message": sentence, "field": "email"}


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "The name must have at most 80 characters."),
        ("fr", "Le nom doit compter au plus 80 caractères."),
    ],
)
def test_an_over_long_field_says_its_limit(client: TestClient, language: str, sentence: str) -> None:
    body = {"email": "long@example.com", "password": "a long enough password", "display_name": "x" * 300}
    error = api_sign_up(client, body, language)
    assert (error["field"], error["message"]) == ("display_name", sentence)


def test_a_profile_that_is_not_a_number_does_not_exist(client: TestClient) -> None:
    sign_up(client, "Alice")
    assert client.get("/users/abc", headers={"Accept": "text/html"}).status_code == 404
    refused = client.get("/api/v1/users/abc")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"


def test_a_negative_bid_says_what_is_wrong_with_it() -> None:
    with pytest.raises(RuleError) as refused:
        parse_order({"type": "bid", "province": "giza", "amount": -1})
    assert refused.value.code == "invalid_order" and refused.value.field == "amount"
    assert refused.value.message == "The bid must be 0 or more."


def test_an_order_of_no_known_kind_says_so() -> None:
    with pytest.raises(RuleError) as refused:
        parse_order({"type": "fly"})
    assert refused.value.message == "The kind of order is not one of the choices."
