"""Every state-changing route, called with a CSRF token or a hook secret that is not ASCII, refuses it
with a 4xx (the comparison is of bytes: a text comparison raised on such tokens and gave a 500)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from tests.conftest import sign_up
from tests.moderation.test_security import CSRF_EXEMPT, _url, state_changing_routes

# As a header carries them: UTF-8, Latin-1 and bytes that decode as neither.
NON_ASCII_TOKENS = ["é".encode(), "ééé \u2603".encode(), "é".encode("latin-1"), b"\xff\xfe"]


def _state_changing_routes(app: Any) -> list[tuple[str, str]]:
    routes = [
        (method, _url(path))
        for method, path in state_changing_routes(app)
        if (method, path) not in CSRF_EXEMPT
    ]
    assert len(routes) > 80  # the walk reaches the whole application
    return routes


@pytest.fixture
def raw_client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize("logged_in", [False, True])
def test_a_non_ascii_csrf_header_is_refused_everywhere(
    raw_client: TestClient, app: Any, logged_in: bool
) -> None:
    if logged_in:
        sign_up(raw_client, "Ann")
    failures = []
    for method, path in _state_changing_routes(app):
        for token in NON_ASCII_TOKENS:
            headers = {b"X-CSRF-Token": token}
            answer = raw_client.request(method, path, headers=headers, json={})
            if answer.status_code != 403 or "csrf_failed" not in answer.text:
                failures.append((method, path, token, answer.status_code))
    assert failures == []


def test_a_non_ascii_csrf_form_field_is_refused_everywhere(raw_client: TestClient, app: Any) -> None:
    sign_up(raw_client, "Ann")
    del raw_client.headers["X-CSRF-Token"]
    failures = []
    for method, path in _state_changing_routes(app):
        answer = raw_client.request(method, path, data={"csrf_token": "ééé"})
        if answer.status_code != 403:
            failures.append((method, path, answer.status_code))
    assert failures == []


def test_a_non_ascii_bounce_secret_is_refused(raw_client: TestClient, app: Any) -> None:
    app.state.settings = app.state.settings.model_copy(update={"bounce_secret": "s3cret"})
    for secret in NON_ASCII_TOKENS:
        headers = {b"X-Bounce-Secret": secret}
        answer = raw_client.post("/hooks/bounce", json={"email": "x@example.com"}, headers=headers)
        assert answer.status_code == 403, (secret, answer.status_code)
