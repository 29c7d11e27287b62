"""Nobody is seated without consent: a creator's friends are invited, and seated only if they accept (API and
page, in French too). Inviting tells the creator nothing of a friend's sanctions, and a muted player writes
nothing to other players through game names, renames or pause reasons."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Notification, User
from app.services.moderation import moderation
from app.services.players import friends
from tests.lobby.helpers import members
from tests.moderation.helpers import api_client, fast_passwords, make_user, now, page_token

GAME = {"game_type": "fake", "players": 3, "time_limit_hours": 1}


def _people(db: Session, *names: str) -> list[User]:
    with fast_passwords():
        people = [make_user(db, name) for name in names]
    for other in people[1:]:
        friends.add_friend(db, people[0], other.display_name, now())
    db.commit()
    return people


def _sanction(db: Session, user: User, kind: str) -> None:
    with fast_passwords():
        admin = make_user(db, "Root", "admin")
    moderation.impose(db, admin, user.id, moderation.SanctionOrder(kind, 48, "Spam"), now())
    db.commit()


def test_an_invited_friend_is_seated_only_after_accepting(db: Session, make_client: Any) -> None:
    ann, ben, cat = _people(db, "Ann", "Ben", "Cat")
    creator = api_client(make_client, "ann@example.com")
    made = creator.post("/api/v1/games", json={**GAME, "friends": ["Ben"]})
    assert made.status_code == 201 and made.json()["seats_taken"] == 1
    game_id = made.json()["id"]
    assert members(db, game_id) == {ann.id}
    told = db.scalars(select(Notification.kind).where(Notification.user_id == ben.id)).all()
    db.commit()
    assert [kind for kind in told if kind != "verify_email"] == ["game_invitation"]
    guest, outsider = api_client(make_client, "ben@example.com"), api_client(make_client, "cat@example.com")
    assert [game["id"] for game in guest.get("/api/v1/invitations").json()] == [game_id]
    refused = outsider.post(f"/api/v1/games/{game_id}/invitation/accept")
    assert refused.status_code == 404 and refused.json()["error"]["code"] == "not_found"
    accepted = guest.post(f"/api/v1/games/{game_id}/invitation/accept")
    assert accepted.status_code == 200 and accepted.json()["seats_taken"] == 2
    assert members(db, game_id) == {ann.id, ben.id}
    assert guest.get("/api/v1/invitations").json() == []
    assert guest.post(f"/api/v1/games/{game_id}/invitation/accept").status_code == 404  # spent
    assert cat.id not in members(db, game_id)


def test_a_declined_invitation_is_gone(db: Session, make_client: Any) -> None:
    ann, _ben = _people(db, "Ann", "Ben")
    game_id = api_client(make_client, "ann@example.com").post(
        "/api/v1/games", json={**GAME, "friends": ["Ben"]}
    )
    game_id = game_id.json()["id"]
    guest = api_client(make_client, "ben@example.com")
    assert guest.post(f"/api/v1/games/{game_id}/invitation/decline").status_code == 204
    assert guest.get("/api/v1/invitations").json() == []
    assert guest.post(f"/api/v1/games/{game_id}/invitation/accept").status_code == 404
    assert members(db, game_id) == {ann.id}


def test_the_game_page_offers_the_invitation_in_french(db: Session, make_client: Any) -> None:
    ann, ben = _people(db, "Ann", "Ben")
    ben.language = "fr"
    db.commit()
    game_id = api_client(make_client, "ann@example.com").post(
        "/api/v1/games", json={**GAME, "friends": ["Ben"]}
    )
    game_id = game_id.json()["id"]
    guest = api_client(make_client, "ben@example.com")
    page = guest.get(f"/games/{game_id}").text
    assert (
        "Accepter l'invitation</button>" in page and f'action="/games/{game_id}/invitation/decline"' in page
    )
    assert (
        f'href="/games/{game_id}"' in guest.get("/").text.split("Invitations</h2>")[1].split("</section>")[0]
    )
    token = page_token(guest, f"/games/{game_id}")
    answer = guest.post(
        f"/games/{game_id}/invitation/accept", data={"csrf_token": token}, follow_redirects=False
    )
    assert answer.status_code == 303 and answer.headers["location"] == f"/games/{game_id}"
    assert members(db, game_id) == {ann.id, ben.id}


def test_inviting_a_sanctioned_friend_tells_the_creator_nothing(db: Session, make_client: Any) -> None:
    ann, ben, _cat = _people(db, "Ann", "Ben", "Cat")
    _sanction(db, ben, "join_ban")
    creator = api_client(make_client, "ann@example.com")
    with_barred = creator.post("/api/v1/games", json={**GAME, "friends": ["Ben"]})
    with_free = creator.post("/api/v1/games", json={**GAME, "friends": ["Cat"]})
    assert with_barred.status_code == with_free.status_code == 201
    assert set(with_barred.json()) == set(with_free.json())
    assert "until" not in with_barred.text and "ban" not in with_barred.text
    # The friend learns of their own sanction, when they accept.
    refused = api_client(make_client, "ben@example.com").post(
        f"/api/v1/games/{with_barred.json()['id']}/invitation/accept"
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "join_banned"
    assert members(db, with_barred.json()["id"]) == {ann.id}


def test_a_muted_player_writes_nothing_to_the_others(db: Session, make_client: Any) -> None:
    ann, _ben = _people(db, "Ann", "Ben")
    creator = api_client(make_client, "ann@example.com")
    game_id = creator.post("/api/v1/games", json=GAME).json()["id"]
    assert api_client(make_client, "ben@example.com").post(f"/api/v1/games/{game_id}/join").status_code == 200
    _sanction(db, ann, "mute")
    before = db.scalar(select(Notification.id).order_by(Notification.id.desc()).limit(1))
    db.commit()
    named = creator.post("/api/v1/games", json={**GAME, "name": "Ben cheats"})
    assert named.status_code == 403 and named.json()["error"]["code"] == "muted"
    renamed = creator.post(f"/api/v1/games/{game_id}/rename", json={"name": "Ben cheats"})
    assert renamed.status_code == 403 and renamed.json()["error"]["code"] == "muted"
    today = now().date() + timedelta(days=1)
    pause = {"first_day": today.isoformat(), "last_day": today.isoformat(), "reason": "Ben cheats"}
    paused = creator.post("/api/v1/me/pauses", json=pause)
    assert paused.status_code == 403 and paused.json()["error"]["code"] == "muted"
    assert creator.post("/api/v1/games", json=GAME).status_code == 201  # a generated name says nothing
    assert creator.post("/api/v1/me/pauses", json={**pause, "reason": ""}).status_code == 201
    written = db.scalars(select(Notification.data).where(Notification.id > (before or 0))).all()
    db.commit()
    assert all("Ben cheats" not in str(data) for data in written)
    assert "Ben cheats" not in api_client(make_client, "ben@example.com").get(f"/games/{game_id}").text
