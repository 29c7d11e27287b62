from starlette.testclient import TestClient

from tests.conftest import sign_up


def test_lobby_renders(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "Ostraca" in response.text


def test_sign_up_then_me(client: TestClient) -> None:
    me = sign_up(client, "Alice")
    assert me["display_name"] == "Alice"
    assert client.get("/api/v1/me").json()["email"] == "alice@example.com"
