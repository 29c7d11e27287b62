"""Sanctions and conflicts of interest: a moderator may not ban or mute a player they share a game with (a
short ban would take an opponent's seat), nor lift such a sanction; an unseated moderator may, and a seat
that a ban opened goes back to its holder when the ban is lifted soon enough."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import AuditEntry, User
from app.services.moderation import moderation
from app.services.play import seats
from tests.moderation.helpers import (
    api_client,
    audit_actions,
    ban,
    holder,
    make_user,
    make_users,
    now,
    refused,
    running_game,
)

REASON = "Insults"


def _entries(db: Session, action: str) -> list[AuditEntry]:
    db.expire_all()
    found = list(db.scalars(select(AuditEntry).where(AuditEntry.action == action).order_by(AuditEntry.id)))
    db.commit()
    return found


def _seated_world(db: Session) -> tuple[User, User, User, int, int]:
    """A moderator seated with an opponent (and a third player) in a running game: (mod, opponent, the
    moderator who is not seated, the game's id, the opponent's seat)."""
    mod = make_user(db, "Mod", "moderator")
    colleague = make_user(db, "Colleague", "moderator")
    opponent, third = make_users(db, "Opp", "Third")
    game = running_game(db, [mod, opponent, third])
    number = next(s.number for s in game.seats if s.user_id == opponent.id)
    assert number is not None
    db.commit()  # end the read: on SQLite an open transaction holds the write lock
    return mod, opponent, colleague, game.id, number


def test_a_seated_moderator_may_not_ban_nor_mute_an_opponent_through_the_api(
    db: Session, make_client: Any
) -> None:
    _mod, opponent, _colleague, game_id, number = _seated_world(db)
    client = api_client(make_client, "mod@example.com")
    remove = {"seat": number, "reason": REASON}
    removal = client.post(f"/api/v1/moderation/games/{game_id}/remove", json=remove)
    for kind in ("ban", "mute", "join_ban"):
        body = {"kind": kind, "hours": 1, "reason": REASON}
        answer = client.post(f"/api/v1/moderation/users/{opponent.id}/sanctions", json=body)
        assert answer.status_code == removal.status_code == 403, answer.text
        assert answer.json()["error"]["code"] == removal.json()["error"]["code"] == "conflict_of_interest"
        assert "another moderator" in answer.json()["error"]["message"]
    assert holder(db, game_id, number) == opponent.id
    db.refresh(opponent)
    assert opponent.banned_until is None and opponent.muted_until is None
    db.commit()
    assert audit_actions(db) == []


def test_a_seated_moderator_may_not_lift_an_opponents_sanction(db: Session) -> None:
    mod, opponent, colleague, _game_id, _number = _seated_world(db)
    mute = moderation.impose(db, colleague, opponent.id, moderation.SanctionOrder("mute", 24, REASON), now())
    refused(db, "conflict_of_interest", lambda: moderation.lift(db, mod, mute.id, "Forgiven", now()))
    db.refresh(opponent)
    assert opponent.muted_until is not None
    db.commit()


def test_an_unseated_moderators_ban_opens_the_seat_and_is_audited_with_the_check(db: Session) -> None:
    _mod, opponent, colleague, game_id, number = _seated_world(db)
    ban(db, colleague, opponent, hours=1)
    assert holder(db, game_id, number) is None
    [entry] = _entries(db, "sanction.impose")
    assert entry.after is not None
    assert (entry.after["conflict_checked"], entry.after["shared_games"]) == (True, [])
    assert (entry.conflict, entry.game_id) == (None, None)


def test_lifting_a_ban_within_the_window_gives_the_seat_back(db: Session, make_client: Any) -> None:
    _mod, opponent, colleague, game_id, number = _seated_world(db)
    sanction = ban(db, colleague, opponent, hours=1)
    assert holder(db, game_id, number) is None
    moderation.lift(db, colleague, sanction.id, "A mistake", now())
    assert holder(db, game_id, number) == opponent.id
    [entry] = _entries(db, "sanction.lift")
    assert entry.after is not None and entry.after["seats_given_back"] == [game_id]
    client = api_client(make_client, "opp@example.com")
    seat = client.get(f"/api/v1/games/{game_id}").json()
    assert seat["your_seat"] == number, seat


def test_lifting_a_ban_after_the_window_leaves_the_seat_open(db: Session) -> None:
    _mod, opponent, colleague, game_id, number = _seated_world(db)
    start = now()
    sanction = moderation.impose(
        db, colleague, opponent.id, moderation.SanctionOrder("ban", 24 * 7, REASON), start
    )
    late = start + timedelta(hours=seats.GIVE_BACK_HOURS, minutes=1)
    moderation.lift(db, colleague, sanction.id, "Served enough", late)
    assert holder(db, game_id, number) is None
    [entry] = _entries(db, "sanction.lift")
    assert entry.after is not None and entry.after["seats_given_back"] == []


def test_a_seat_taken_since_the_ban_is_not_given_back(db: Session) -> None:
    _mod, opponent, colleague, game_id, number = _seated_world(db)
    sanction = ban(db, colleague, opponent, hours=1)
    newcomer = make_user(db, "Newcomer")
    seats.take_seat(db, newcomer, game_id, number, now())
    moderation.lift(db, colleague, sanction.id, "A mistake", now())
    assert holder(db, game_id, number) == newcomer.id


def test_a_seated_administrator_may_sanction_and_the_audit_entry_names_the_shared_game(db: Session) -> None:
    admin = make_user(db, "Boss", "admin")
    opponent = make_user(db, "Opp")
    game = running_game(db, [admin, opponent])
    ban(db, admin, opponent, hours=1)
    [entry] = _entries(db, "sanction.impose")
    assert entry.after is not None and entry.after["shared_games"] == [game.id]
    assert (entry.conflict, entry.game_id) == ("own_game", game.id)
