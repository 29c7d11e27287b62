"""A moderator's "replace" offers the seat to the named player, who holds it (and sees its hand) only once
they accept it; the moderator may never name themself, nor act in a game they play in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import AuditEntry, Notification, User
from app.services.moderation import interventions
from app.services.play import seats
from tests.moderation.helpers import (
    api_client,
    audit_actions,
    holder,
    make_user,
    make_users,
    now,
    page_token,
    refused,
    running_game,
    seat_of,
)

REASON = "Ann asked to leave"


@dataclass(frozen=True)
class World:
    """Ids, not rows: a row expired by a helper would be read again in a transaction holding SQLite's lock."""

    mod: User
    ann: int  # holds the seat
    zoe: int  # is offered it
    game: int
    seat: int  # Ann's


def _world(db: Session, *, mod_plays: bool = False) -> World:
    mod = make_user(db, "Mod", "moderator")
    ann, ben, zoe = make_users(db, "Ann", "Ben", "Zoe")
    game = running_game(db, [mod if mod_plays else ben, ann])
    world = World(mod, ann.id, zoe.id, game.id, seat_of(game, ann))
    db.commit()
    return world


def _kinds(db: Session, user_id: int) -> list[str]:
    found = list(db.scalars(select(Notification.kind).where(Notification.user_id == user_id)))
    db.commit()
    return found


def _user(db: Session, user_id: int) -> User:
    user = db.get_one(User, user_id)
    db.commit()
    return user


def _replace(db: Session, w: World, name: str) -> Any:
    return lambda: interventions.replace_player(db, w.mod, w.game, w.seat, name, REASON, now())


def test_the_named_player_holds_the_seat_and_sees_its_hand_only_once_they_accept(
    db: Session, make_client: Any
) -> None:
    w = _world(db)
    moderator = api_client(make_client, "mod@example.com")
    body = {"seat": w.seat, "replacement": "Zoe", "reason": REASON}
    answer = moderator.post(f"/api/v1/moderation/games/{w.game}/replace", json=body)
    assert answer.status_code == 200, answer.text
    assert holder(db, w.game, w.seat) is None  # Ann is out, Zoe not in yet
    assert "seat_offered" in _kinds(db, w.zoe) and "removed_from_game" in _kinds(db, w.ann)
    found = moderator.get(f"/api/v1/moderation/games/{w.game}")
    assert found.status_code == 200, found.text
    assert [(o["seat"], o["offered_to"]) for o in found.json()["offers"]] == [(w.seat, "Zoe")]
    zoe = api_client(make_client, "zoe@example.com")
    assert zoe.get(f"/api/v1/games/{w.game}").json()["your_seat"] is None  # a spectator's view: no hand
    taken = zoe.post(f"/api/v1/games/{w.game}/seats/{w.seat}/take")
    assert taken.status_code == 200, taken.text
    assert holder(db, w.game, w.seat) == w.zoe
    assert zoe.get(f"/api/v1/games/{w.game}").json()["your_seat"] == w.seat
    entry = db.scalar(select(AuditEntry).where(AuditEntry.action == "game.replace_player"))
    db.commit()
    assert entry is not None and entry.after is not None and entry.conflict is None
    assert entry.after["offered_to"] == w.zoe and entry.after["conflict_checked"] is True


def test_the_named_player_may_decline(db: Session) -> None:
    w = _world(db)
    _replace(db, w, "Zoe")()
    seats.decline_offer(db, _user(db, w.zoe), w.game, w.seat)
    assert holder(db, w.game, w.seat) is None
    other = make_user(db, "Other")
    seats.take_seat(db, other, w.game, w.seat, now())  # open to everyone now
    assert holder(db, w.game, w.seat) == other.id


def test_a_moderator_may_not_offer_a_seat_to_themself(db: Session, make_client: Any) -> None:
    w = _world(db)
    error = refused(db, "forbidden", _replace(db, w, "Mod"))
    assert "yourself" in error.message
    assert holder(db, w.game, w.seat) == w.ann
    client = api_client(make_client, "mod@example.com")
    body = {"seat": w.seat, "replacement": "Mod", "reason": REASON}
    answer = client.post(f"/api/v1/moderation/games/{w.game}/replace", json=body)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden"
    assert audit_actions(db) == []


def test_a_seated_moderator_may_not_offer_a_seat_of_their_game(db: Session) -> None:
    w = _world(db, mod_plays=True)
    for name in ("Zoe", "Mod"):
        refused(db, "conflict_of_interest", _replace(db, w, name))
    assert holder(db, w.game, w.seat) == w.ann
    assert "seat_offered" not in _kinds(db, w.zoe)
    assert audit_actions(db) == []


def test_the_moderation_page_offers_the_seat(db: Session, make_client: Any) -> None:
    w = _world(db)
    client = api_client(make_client, "mod@example.com")
    assert "Offer the seat" in client.get(f"/moderation/games/{w.game}").text
    form = {"seat": str(w.seat), "replacement": "Zoe", "reason": REASON, "csrf_token": page_token(client)}
    answer = client.post(f"/moderation/games/{w.game}/replace", data=form, follow_redirects=False)
    assert answer.status_code == 303
    assert holder(db, w.game, w.seat) is None
    page = client.get(f"/moderation/games/{w.game}").text
    assert f'id="seat-offer-{w.seat}"' in page and "offered to Zoe" in page
    zoe = api_client(make_client, "zoe@example.com")
    take = f"/games/{w.game}/seats/{w.seat}/take"
    offered = zoe.get(f"/games/{w.game}/seats").text
    assert f'action="{take}"' in offered and f'action="/games/{w.game}/seats/{w.seat}/decline"' in offered
    taken = zoe.post(take, data={"csrf_token": page_token(zoe)}, follow_redirects=False)
    assert taken.status_code == 303
    assert holder(db, w.game, w.seat) == w.zoe
