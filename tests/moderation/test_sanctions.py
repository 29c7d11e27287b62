"""Sanctions: a ban acts at once (sessions, log-in, queues, seats, the address), a game-joining ban keeps
the current games, a mute stops messages; lifting is logged; moderators act on players only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import GameEvent, QueueEntry, Seat, User
from app.services.accounts import accounts
from app.services.moderation import moderation
from app.services.play import seats
from app.services.social import lobby, messages, queue
from tests.conftest import PASSWORD
from tests.moderation.helpers import (
    api_client,
    audit_actions,
    ban,
    holder,
    kinds_for,
    make_user,
    make_users,
    now,
    page_token,
    refused,
    running_game,
    seat_of,
)

ACCEPT_ALL = queue.QueuePreferences(min_hours=1, max_hours=None, new_games=True, in_progress=True)


def test_a_ban_ends_every_session_at_once_and_log_in_says_why_and_until_when(
    db: Session, make_client: Any
) -> None:
    mod = make_user(db, "Mod", "moderator")
    eve = make_user(db, "Eve")
    browser = api_client(make_client, "eve@example.com")
    assert browser.get("/api/v1/me").status_code == 200
    sanction = ban(db, mod, eve, hours=48, reason="Insults in game 12")
    assert browser.get("/api/v1/me").status_code == 401  # the next request
    again = browser.post("/api/v1/auth/login", json={"email": "eve@example.com", "password": PASSWORD})
    error = again.json()["error"]
    assert again.status_code == 403 and error["code"] == "account_banned"
    assert error["details"]["reason"] == "Insults in game 12"
    assert error["details"]["until"] == sanction.ends_at.isoformat()
    wrong = browser.post(
        "/api/v1/auth/login", json={"email": "eve@example.com", "password": "not the password"}
    )
    assert wrong.status_code == 401  # without the password, nothing about the ban
    visitor = make_client()
    form = {"email": "eve@example.com", "password": PASSWORD, "csrf_token": page_token(visitor)}
    page = visitor.post("/login", data=form, follow_redirects=False)
    assert page.status_code == 403 and "Insults in game 12" in page.text and 'id="banned"' in page.text


def test_a_permanent_ban_says_so(db: Session, make_client: Any) -> None:
    admin = make_user(db, "Root", "admin")
    eve = make_user(db, "Eve")
    ban(db, admin, eve, hours=None, reason="Cheating")
    client = make_client()
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    answer = client.post("/api/v1/auth/login", json={"email": "eve@example.com", "password": PASSWORD}).json()
    assert answer["error"]["details"] == {"reason": "Cheating", "until": None}
    db.refresh(eve)
    assert eve.banned_until == moderation.PERMANENT


def test_a_ban_opens_the_seats_leaves_queues_and_forming_games_and_tells_the_others(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    ann, ben, eve, cat = make_users(db, "Ann", "Ben", "Eve", "Cat")
    game = running_game(db, [ann, eve, ben])
    forming = lobby.create_game(db, eve, game_type="fake", players=3, time_limit_hours=24, now=now())
    lobby.join_game(db, cat, forming.id, now())
    queue.enter(db, eve, "dragonstones", ACCEPT_ALL, now())
    number = seat_of(game, eve)
    ban(db, mod, eve)
    assert holder(db, game.id, number) is None
    seat = db.scalar(select(Seat).where(Seat.game_id == game.id, Seat.number == number))
    assert seat is not None and seat.status == "open"
    assert [o.seat for o in seats.open_seats(db, cat, now())] == [number]  # the lobby lists it
    assert db.scalar(select(QueueEntry).where(QueueEntry.user_id == eve.id)) is None
    db.refresh(forming)
    assert forming.creator_id == cat.id and [s.user_id for s in forming.seats] == [cat.id]
    notices = db.scalars(select(GameEvent.kind).where(GameEvent.game_id == game.id)).all()
    assert "platform:moderation_seat_opened" in notices
    assert "player_removed" in kinds_for(db, ann) and "player_removed" in kinds_for(db, ben)
    assert "sanctioned" in kinds_for(db, eve)
    assert audit_actions(db) == ["sanction.impose"]


def test_a_banned_address_cannot_sign_up_again_even_with_a_tag(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    eve = make_user(db, "Eve")
    ban(db, mod, eve)
    eve.email = "eve.renamed@example.com"  # an admin may change it; the barred address stays barred
    db.commit()
    for address in ("eve@example.com", "Eve+again@Example.com"):
        refused(
            db,
            "email_banned",
            lambda address=address: accounts.sign_up(
                db, email=address, password=PASSWORD, display_name="Eve Again"
            ),
        )


def test_lifting_a_ban_is_logged_and_lets_the_user_back(db: Session, make_client: Any) -> None:
    mod = make_user(db, "Mod", "moderator")
    eve = make_user(db, "Eve")
    sanction = ban(db, mod, eve)
    refused(db, "invalid_input", lambda: moderation.lift(db, mod, sanction.id, "  ", now()))
    moderation.lift(db, mod, sanction.id, "Apologised", now())
    db.refresh(eve)
    assert eve.banned_until is None
    assert audit_actions(db) == ["sanction.impose", "sanction.lift"]
    assert "sanction_lifted" in kinds_for(db, eve)
    api_client(make_client, "eve@example.com")  # logs in again
    refused(db, "wrong_status", lambda: moderation.lift(db, mod, sanction.id, "twice", now()))
    accounts.sign_up(db, email="eve+2@example.com", password=PASSWORD, display_name="Eve Two")


def test_a_temporary_ban_simply_runs_out(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    eve = make_user(db, "Eve")
    moderation.impose(
        db, mod, eve.id, moderation.SanctionOrder("ban", 1, "Cool down"), now() - timedelta(hours=2)
    )
    assert accounts.authenticate(db, "eve@example.com", PASSWORD, now()).id == eve.id


def test_a_join_ban_keeps_current_games_but_no_new_one(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    ann, ben, eve = make_users(db, "Ann", "Ben", "Eve")
    game = running_game(db, [ann, eve])
    forming = lobby.create_game(db, ann, game_type="fake", players=3, time_limit_hours=24, now=now())
    queue.enter(db, eve, "dragonstones", ACCEPT_ALL, now())
    moderation.impose(db, mod, eve.id, moderation.SanctionOrder("join_ban", 24 * 7, "Rage quits"), now())
    assert db.scalar(select(QueueEntry).where(QueueEntry.user_id == eve.id)) is None
    assert holder(db, game.id, seat_of(game, eve)) == eve.id  # still plays
    error = refused(db, "join_banned", lambda: lobby.join_game(db, eve, forming.id, now()))
    assert error.details is not None and error.details["until"] is not None
    refused(
        db,
        "join_banned",
        lambda: lobby.create_game(db, eve, game_type="fake", players=2, time_limit_hours=24, now=now()),
    )
    refused(db, "join_banned", lambda: queue.enter(db, eve, "fake", ACCEPT_ALL, now()))
    seats.quit_game(db, ann, game.id, None, now())
    other = running_game(db, [ben, make_user(db, "Dan")])
    number = seat_of(other, ben)
    seats.quit_game(db, ben, other.id, None, now())
    refused(db, "join_banned", lambda: seats.take_seat(db, eve, other.id, number, now()))


def test_a_mute_stops_messages_until_it_ends(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    ann, eve = make_users(db, "Ann", "Eve")
    game = running_game(db, [ann, eve])
    refused(
        db,
        "invalid_input",
        lambda: moderation.impose(db, mod, eve.id, moderation.SanctionOrder("mute", None, "x"), now()),
    )
    moderation.impose(db, mod, eve.id, moderation.SanctionOrder("mute", 2, "Spam"), now())
    refused(db, "muted", lambda: messages.post(db, eve, game.id, "hello", now=now(), per_minute=10))
    later = now() + timedelta(hours=3)
    messages.post(db, eve, game.id, "hello again", now=later, per_minute=10)


def test_a_new_sanction_of_a_kind_replaces_the_one_in_force(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    eve = make_user(db, "Eve")
    first = moderation.impose(db, mod, eve.id, moderation.SanctionOrder("mute", 2, "Spam"), now())
    second = moderation.impose(db, mod, eve.id, moderation.SanctionOrder("mute", 48, "Spam again"), now())
    db.refresh(first)
    db.refresh(eve)
    assert first.lifted_at is not None and eve.muted_until == second.ends_at


def test_moderators_act_on_players_admins_on_moderators_nobody_on_themselves(db: Session) -> None:
    admin, other_admin = make_user(db, "Root", "admin"), make_user(db, "Boss", "admin")
    mod, other_mod = make_user(db, "Mod", "moderator"), make_user(db, "Mad", "moderator")
    player = make_user(db, "Ann")
    mute = moderation.SanctionOrder("mute", 2, "x")
    refused(db, "forbidden", lambda: moderation.impose(db, player, mod.id, mute, now()))
    refused(db, "forbidden", lambda: moderation.impose(db, mod, other_mod.id, mute, now()))
    refused(db, "forbidden", lambda: moderation.impose(db, mod, mod.id, mute, now()))
    refused(db, "forbidden", lambda: moderation.impose(db, admin, other_admin.id, mute, now()))
    moderation.impose(db, admin, other_mod.id, mute, now())
    moderation.impose(db, mod, player.id, mute, now())
    refused(db, "not_found", lambda: moderation.impose(db, mod, 9999, mute, now()))
    refused(
        db,
        "invalid_input",
        lambda: moderation.impose(db, mod, player.id, moderation.SanctionOrder("jail", 2, "x"), now()),
    )


def test_the_user_record_shows_sanctions_to_moderators_only(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    eve = make_user(db, "Eve")
    ban(db, mod, eve)
    record = moderation.user_record(db, mod, eve.id, now())
    assert [info.sanction.kind for info in record.sanctions] == ["ban"] and record.sanctions[0].in_force
    refused(db, "forbidden", lambda: moderation.user_record(db, eve, eve.id, now()))
    assert [u.display_name for u in moderation.find_users(db, mod, "ev")] == ["Eve"]
    assert moderation.find_users(db, mod, "eve@example") == []  # addresses: admins only


def _user(db: Session, user_id: int) -> User:
    user = db.get(User, user_id)
    assert user is not None
    return user
