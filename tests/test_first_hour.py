"""A newcomer's first hour over plain HTTP: forms that ask before they assume, help at hand, people one click
away, and the smaller things."""

from __future__ import annotations

from starlette.testclient import TestClient

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
