"""A moderator's interventions go through the order path: the game row locked, one transaction, a public
moderator action in the game's log, the players told, an audit entry, a live announcement."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Game, GameEvent, GameOrder, RatingChange, SeatTenure, User, WaitRow
from app.services.jobs import sweeper
from app.services.moderation import interventions
from app.services.play import play, seats
from tests.moderation.helpers import (
    api_client,
    audit_actions,
    holder,
    kinds_for,
    make_user,
    make_users,
    now,
    refused,
    running_game,
    seat_of,
)

PICK = {"type": "pick", "value": 1}


def _world(db: Session, players: int = 2) -> tuple[User, list[User], Game]:
    mod = make_user(db, "Mod", "moderator")
    users = make_users(db, *["Ann", "Ben", "Cat", "Dan"][:players])
    return mod, users, running_game(db, users)


def _waits(db: Session, game_id: int) -> dict[int, WaitRow]:
    db.expire_all()
    rows = {row.seat: row for row in db.scalars(select(WaitRow).where(WaitRow.game_id == game_id))}
    db.commit()
    return rows


def _notices(db: Session, game_id: int) -> list[str]:
    found = list(
        db.scalars(select(GameEvent.kind).where(GameEvent.game_id == game_id).order_by(GameEvent.seq))
    )
    db.commit()
    return [kind for kind in found if kind.startswith("platform:moderation_")]


def _submit(db: Session, user: User, game_id: int, order: dict[str, Any] = PICK) -> int:
    game = db.get(Game, game_id)
    assert game is not None
    db.refresh(game)
    version = game.version
    db.commit()
    return play.submit(db, user, game_id, order, version, now()).version


def test_a_paused_game_refuses_orders_and_its_clock_stands_still_until_it_resumes(db: Session) -> None:
    mod, (ann, ben), game = _world(db)
    start = now()
    before = _waits(db, game.id)[seat_of(game, ann)].deadline_at
    assert before is not None
    interventions.hold(db, mod, game.id, "paused", "Server maintenance", start)
    error = refused(db, "game_paused", lambda: _submit(db, ann, game.id))
    assert error.details == {"reason": "Server maintenance"}
    assert all(row.check_at is None for row in _waits(db, game.id).values())
    wait_id = _waits(db, game.id)[seat_of(game, ann)].id
    assert sweeper.handle_wait(db, wait_id, before + timedelta(hours=1)) == "gone"  # not played for her
    interventions.resume(db, mod, game.id, "Done", start + timedelta(hours=5))
    after = _waits(db, game.id)[seat_of(game, ann)]
    assert after.deadline_at == before + timedelta(hours=5) and after.check_at is not None
    _submit(db, ann, game.id)
    assert _notices(db, game.id) == ["platform:moderation_paused", "platform:moderation_resumed"]
    assert audit_actions(db) == ["game.pause", "game.resume"]
    assert "game_held" in kinds_for(db, ben) and "game_resumed" in kinds_for(db, ben)


def test_a_locked_game_tells_its_players_why(db: Session, make_client: Any) -> None:
    mod, _players, game = _world(db)
    interventions.hold(db, mod, game.id, "locked", "Suspected collusion", now())
    client = api_client(make_client, "ann@example.com")
    answer = client.post(f"/api/v1/games/{game.id}/orders", json={"order": PICK, "expected_version": 1})
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "game_locked"
    assert answer.json()["error"]["details"] == {"reason": "Suspected collusion"}
    page = client.get(f"/games/{game.id}").text
    assert 'id="game-held"' in page and "Suspected collusion" in page
    refused(db, "wrong_status", lambda: interventions.hold(db, mod, game.id, "locked", "again", now()))
    interventions.hold(db, mod, game.id, "paused", "Only a pause now", now())
    db.refresh(game)
    assert game.hold_kind == "paused"


def test_extending_a_deadline(db: Session) -> None:
    mod, (ann, _ben), game = _world(db)
    seat = seat_of(game, ann)
    before = _waits(db, game.id)[seat].deadline_at
    assert before is not None
    interventions.extend_deadline(db, mod, game.id, seat, 12, "Family emergency", now())
    assert _waits(db, game.id)[seat].deadline_at == before + timedelta(hours=12)
    assert _notices(db, game.id) == ["platform:moderation_deadline_extended"]
    refused(db, "invalid_input", lambda: interventions.extend_deadline(db, mod, game.id, seat, 0, "x", now()))
    refused(db, "invalid_input", lambda: interventions.extend_deadline(db, mod, game.id, 7, 2, "x", now()))


def test_removing_and_replacing_players(db: Session) -> None:
    mod, (ann, ben, cat), game = _world(db, 3)
    zoe = make_user(db, "Zoe")
    bens, cats = seat_of(game, ben), seat_of(game, cat)
    interventions.remove_player(db, mod, game.id, bens, "Abusive", now())
    assert holder(db, game.id, bens) is None
    assert "removed_from_game" in kinds_for(db, ben) and "player_removed" in kinds_for(db, ann)
    interventions.replace_player(db, mod, game.id, cats, "Zoe", "Cat asked to leave", now())
    assert holder(db, game.id, cats) is None  # offered to Zoe, who has to accept
    assert "seat_offered" in kinds_for(db, zoe)
    seats.take_seat(db, zoe, game.id, cats, now())
    assert holder(db, game.id, cats) == zoe.id
    tenures = db.scalars(select(SeatTenure.end_reason).where(SeatTenure.user_id == cat.id)).all()
    db.commit()
    assert tenures == ["replaced"]
    _submit(db, zoe, game.id)  # the newcomer plays the seat
    refused(
        db, "already_joined", lambda: interventions.replace_player(db, mod, game.id, 0, "Cat", "back", now())
    )
    assert audit_actions(db) == ["game.remove_player", "game.replace_player"]


def test_aborting_a_game_changes_no_rating(db: Session) -> None:
    mod, (ann, _ben), game = _world(db)
    interventions.abort(db, mod, game.id, "Both players cheated", now())
    db.refresh(game)
    assert game.status == "aborted" and _waits(db, game.id) == {}
    assert db.scalar(select(func.count()).select_from(RatingChange)) == 0
    db.commit()
    refused(db, "wrong_status", lambda: _submit(db, ann, game.id))
    refused(db, "wrong_status", lambda: interventions.abort(db, mod, game.id, "again", now()))


def test_a_rollback_keeps_the_log_marks_the_orders_and_replays_from_the_chosen_one(
    db: Session, make_client: Any
) -> None:
    mod, (ann, ben), game = _world(db)
    game_id = game.id
    _submit(db, ann, game_id)
    first = _submit(db, ben, game_id)  # both picked: the chooser is to choose
    db.refresh(game)
    assert game.state is not None
    chooser = next(user for user in (ann, ben) if seat_of(game, user) == game.state["chooser"])
    db.commit()
    stale = _submit(db, chooser, game_id, {"type": "choose", "take": True})
    state_after_first = db.scalar(select(GameOrder.payload).where(GameOrder.seq == first))
    db.commit()
    assert state_after_first == PICK
    interventions.rollback(db, mod, game_id, first, "The take was scored twice (rules bug)", now())
    db.refresh(game)
    assert game.state is not None
    version, back_to = game.version, game.state["chooser"]
    assert version == stale + 1 and back_to is not None  # back before the choice
    assert play.rolled_back_seqs(db, game_id) == {stale}
    assert db.scalar(select(func.count()).select_from(GameOrder).where(GameOrder.game_id == game_id)) == 3
    db.commit()
    assert set(_waits(db, game_id)) == {back_to}
    client = api_client(make_client, "ann@example.com")
    assert client.get(f"/api/v1/games/{game_id}/replay").json()["matches_stored_state"] is True
    refused(
        db,
        "stale_version",
        lambda: play.submit(db, chooser, game_id, {"type": "choose", "take": False}, stale, now()),
    )
    _submit(db, chooser, game_id, {"type": "choose", "take": False})
    assert client.get(f"/api/v1/games/{game_id}/replay").json()["matches_stored_state"] is True
    assert 'class=" rolled-back"' in client.get(f"/games/{game_id}").text
    interventions.rollback(db, mod, game_id, 1, "Start again", now())
    db.refresh(game)
    assert game.state is not None
    assert game.state["scores"] == [0, 0] and game.state["picks"] == [None, None]
    assert len(play.effective_orders(db, game_id)) == 0
    db.commit()
    assert client.get(f"/api/v1/games/{game_id}/replay").json()["orders"] == 0
    assert _notices(db, game_id) == ["platform:moderation_rolled_back"] * 2


def test_a_rollback_needs_an_order_of_the_log(db: Session) -> None:
    mod, (ann, _ben), game = _world(db)
    refused(
        db, "invalid_input", lambda: interventions.rollback(db, mod, game.id, 1, "nothing to undo", now())
    )
    seq = _submit(db, ann, game.id)
    refused(db, "invalid_input", lambda: interventions.rollback(db, mod, game.id, seq + 5, "x", now()))
    refused(db, "invalid_input", lambda: interventions.rollback(db, mod, game.id, seq, "x", now()))


def test_a_rollback_whose_kept_orders_no_longer_replay_is_refused_and_changes_nothing(db: Session) -> None:
    mod, (ann, ben), game = _world(db)
    _submit(db, ann, game.id)
    second = _submit(db, ben, game.id)
    db.refresh(game)
    assert game.state is not None
    chooser = next(user for user in (ann, ben) if seat_of(game, user) == game.state["chooser"])
    db.commit()
    _submit(db, chooser, game.id, {"type": "choose", "take": True})
    db.refresh(game)
    before = (game.version, game.state)
    order = db.scalar(select(GameOrder).where(GameOrder.game_id == game.id, GameOrder.seq == second))
    assert order is not None
    order.payload = {"type": "pick", "value": 99}  # as if a rule fix made this stored order illegal
    db.commit()
    refused(db, "replay_failed", lambda: interventions.rollback(db, mod, game.id, second, "undo", now()))
    db.refresh(game)
    assert (game.version, game.state) == before
    assert play.rolled_back_seqs(db, game.id) == frozenset()


def test_only_moderators_intervene_and_always_with_a_reason(db: Session) -> None:
    _mod, (ann, ben), game = _world(db)
    refused(db, "forbidden", lambda: interventions.hold(db, ann, game.id, "paused", "x", now()))
    refused(
        db, "forbidden", lambda: interventions.remove_player(db, ann, game.id, seat_of(game, ben), "x", now())
    )
    refused(db, "forbidden", lambda: interventions.reveal(db, ann, game.id, "curious", now()))
    refused(db, "invalid_input", lambda: interventions.abort(db, _mod, game.id, "   ", now()))
    assert audit_actions(db) == []


def test_reveal_shows_the_secrets_and_is_audited_first(db: Session) -> None:
    mod, (ann, _ben), game = _world(db)
    _submit(db, ann, game.id, {"type": "pick", "value": 3})
    found = interventions.reveal(db, mod, game.id, "Report 4: collusion", now())
    assert found.orders[0]["order"] == {"type": "pick", "value": 3}
    assert any(event["visible_to"] is not None for event in found.events)
    assert audit_actions(db) == ["game.reveal"]
