"""Deleting an account: finished games still replay, other players' ratings stay, running seats open, and no
row holds the address any more."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.db import Base
from app.models import AuditEntry, OutgoingMail, Rating, User
from tests.conftest import PASSWORD, sign_up
from tests.test_orders import play_to_the_end

ADDRESS = "carol@example.com"


def fake_game(clients: list[TestClient]) -> int:
    game = clients[0].post("/api/v1/games", json={"game_type": "fake", "players": len(clients)}).json()
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game['id']}/join").status_code == 200
    game_id: int = game["id"]
    return game_id


def by_seat(clients: list[TestClient], game_id: int) -> dict[int, TestClient]:
    return {client.get(f"/api/v1/games/{game_id}").json()["your_seat"]: client for client in clients}


def rows_holding(db: Session, text: str) -> list[str]:
    """Every table's rows whose columns (text, JSON, anything) hold `text`."""
    found = []
    for table in Base.metadata.sorted_tables:
        for row in db.execute(select(table)):
            if text in repr(tuple(row)).lower():
                found.append(table.name)
    db.rollback()
    return found


def ratings_of(db: Session, user_ids: list[int]) -> list[tuple[Any, ...]]:
    rows = db.execute(
        select(Rating.user_id, Rating.mu, Rating.sigma, Rating.games).where(Rating.user_id.in_(user_ids))
    ).all()
    db.rollback()
    return sorted(tuple(row) for row in rows)


def test_a_player_with_finished_and_running_games_deletes_their_account(
    make_client: Any, db: Session
) -> None:
    clients = [make_client() for _ in range(3)]
    alice, bob, carol = clients
    ids = [
        sign_up(client, name)["id"] for client, name in zip(clients, ("Alice", "Bob", "Carol"), strict=True)
    ]
    finished = fake_game(clients)
    play_to_the_end({"id": finished, "by_seat": by_seat(clients, finished)})
    running = fake_game(clients)
    carol_seat = carol.get(f"/api/v1/games/{running}").json()["your_seat"]
    carol.post(f"/api/v1/games/{running}/messages", json={"body": "good luck all"})
    carol.post("/api/v1/friends", json={"name": "Alice"})
    carol.post("/api/v1/me/tokens", json={"name": "bot", "scopes": ["read"]})
    db.add(
        OutgoingMail(
            user_id=ids[2],
            kind="your_turn",
            to_address=ADDRESS,
            subject="Your turn",
            message_id="<1@test>",
            raw=f"To: {ADDRESS}\n\nYour turn",
            next_attempt_at=datetime.now(UTC),
        )
    )
    db.commit()
    others_before = ratings_of(db, ids[:2])
    assert rows_holding(db, ADDRESS)

    wrong = carol.post("/api/v1/me/delete", json={"password": "not my password"})
    assert (wrong.status_code, wrong.json()["error"]["code"]) == (401, "bad_credentials")
    assert carol.post("/api/v1/me/delete", json={"password": PASSWORD}).status_code == 204

    assert rows_holding(db, ADDRESS) == []
    assert carol.get("/api/v1/me").status_code == 401
    relog = make_client()
    relog.headers["X-CSRF-Token"] = relog.get("/api/v1/auth/csrf").json()["csrf_token"]
    assert relog.post("/api/v1/auth/login", json={"email": ADDRESS, "password": PASSWORD}).status_code == 401

    replay = alice.get(f"/api/v1/games/{finished}/replay").json()
    assert replay["matches_stored_state"] is True
    finished_players = alice.get(f"/api/v1/games/{finished}").json()["players"]
    assert f"deleted player {ids[2]}" in finished_players and "Carol" not in finished_players
    assert ratings_of(db, ids[:2]) == others_before

    seats = alice.get(f"/api/v1/games/{running}").json()["players"]
    assert seats[carol_seat] is None  # open, for a replacement
    assert alice.get("/api/v1/friends").json() == [] or "Carol" not in str(
        alice.get("/api/v1/friends").json()
    )
    messages = alice.get(f"/api/v1/games/{running}/messages").json()
    assert "Carol" not in str(messages) and f"deleted player {ids[2]}" in str(messages)
    user = db.get(User, ids[2])
    assert user is not None and user.deleted_at is not None
    entry = db.scalars(select(AuditEntry).where(AuditEntry.action == "account.delete")).one()
    assert (entry.actor_id, entry.subject_id) == (ids[2], ids[2])
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    # The name is free again, and nobody can take the deleted one.
    newcomer = make_client()
    sign_up(newcomer, "Carol")
    assert bob.get("/api/v1/me").status_code == 200


def test_nobody_may_take_a_deleted_players_name(make_client: Any) -> None:
    client: TestClient = make_client()
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    body = {"email": "eve@example.com", "password": PASSWORD, "display_name": "Deleted player 3"}
    response = client.post("/api/v1/auth/signup", json=body)
    assert (response.status_code, response.json()["error"]["field"]) == (422, "display_name")


def test_an_administrator_deletes_an_account_with_a_reason(make_client: Any, db: Session) -> None:
    admin, bob = make_client(), make_client()
    admin_id = sign_up(admin, "Root")["id"]
    bob_id = sign_up(bob, "Bob")["id"]
    row = db.get(User, admin_id)
    assert row is not None
    row.role = "admin"
    db.commit()
    refused = bob.post(f"/api/v1/admin/users/{admin_id}/delete", json={"reason": "no"})
    assert refused.status_code == 403
    done = admin.post(f"/api/v1/admin/users/{bob_id}/delete", json={"reason": "asked us by mail"})
    assert done.status_code == 204
    assert bob.get("/api/v1/me").status_code == 401
    entry = db.scalars(select(AuditEntry).where(AuditEntry.action == "account.delete")).one()
    assert (entry.actor_id, entry.subject_id, entry.reason) == (admin_id, bob_id, "asked us by mail")
    assert "bob@example.com" not in repr((entry.before, entry.after))
    db.rollback()
    assert admin.post(f"/api/v1/admin/users/{bob_id}/delete", json={"reason": "again"}).status_code == 404


def test_the_account_page_deletes_after_the_password(make_client: Any) -> None:
    client: TestClient = make_client()
    sign_up(client, "Alice", language="fr")
    page = client.get("/account").text
    assert "Supprimer mon compte" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    response = client.post("/account/delete", data={"csrf_token": token.group(1), "password": PASSWORD})
    assert response.status_code == 200
    assert client.get("/api/v1/me").status_code == 401


def test_an_administrator_deletes_an_account_from_its_moderation_page(make_client: Any, db: Session) -> None:
    admin, bob = make_client(), make_client()
    admin_id = sign_up(admin, "Root")["id"]
    bob_id = sign_up(bob, "Bob")["id"]
    row = db.get(User, admin_id)
    assert row is not None
    row.role = "admin"
    db.commit()
    page = admin.get(f"/moderation/users/{bob_id}").text
    assert 'id="delete-account-form"' in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    form = {"csrf_token": token.group(1), "reason": "asked us by mail"}
    done = admin.post(f"/admin/users/{bob_id}/delete", data=form, follow_redirects=False)
    assert done.status_code == 303
    assert f"deleted player {bob_id}" in admin.get(f"/moderation/users/{bob_id}").text
    assert bob.get("/api/v1/me").status_code == 401
