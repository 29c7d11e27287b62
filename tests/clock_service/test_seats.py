"""Quit and replace: open seats, named replacements, hidden information, tenures, a fresh deadline."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from app.models import User
from app.services.errors import ServiceError
from app.services.play import play, seats, turns
from app.services.players import friends
from app.services.social import lobby
from tests.clock_service.factory import (
    HOUR,
    NOW,
    events,
    game,
    make_users,
    notifications,
    running_game,
    seat_of,
    waits,
)


def pick(db: Session, user: User, game_id: int, value: int) -> None:
    play.submit(db, user, game_id, {"type": "pick", "value": value}, game(db, game_id).version, NOW + HOUR)


def test_quitting_opens_the_seat_to_everyone(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben, cat])
    seat = seat_of(db, game_id, cat)
    seats.quit_game(db, cat, game_id, None, NOW + 2 * HOUR)
    after = next(s for s in game(db, game_id).seats if s.number == seat)
    assert (after.status, after.user_id, after.opened_at, after.offered_to) == (
        "open",
        None,
        NOW + 2 * HOUR,
        None,
    )
    assert [e.data for e in events(db, game_id, "platform:seat_quit")] == [{"seat": seat, "offered": False}]
    assert len(notifications(db, ann, "player_quit")) == 1
    assert game_id not in [g.game_id for g in turns.turns_of(db, cat).games]
    assert play.viewer_seat(game(db, game_id), cat) is None
    (dan,) = make_users(db, "Dan")
    assert [(o.game.id, o.seat, o.reserved) for o in seats.open_seats(db, dan, NOW + 3 * HOUR)] == [
        (game_id, seat, False)
    ]
    assert seats.open_seats(db, ann, NOW + 3 * HOUR) == []  # not one's own game's seats


def test_a_replacement_gets_the_seats_hidden_information_and_a_full_fresh_time_limit(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    game_id = running_game(db, [ann, ben, cat])
    seat = seat_of(db, game_id, cat)
    pick(db, cat, game_id, 3)  # Cat's secret pick, and the private event that tells her
    pick(db, ann, game_id, 2)
    seats.quit_game(db, cat, game_id, None, NOW + 2 * HOUR)
    seats.take_seat(db, dan, game_id, seat, NOW + 5 * HOUR)
    view = play.game_view(db, game_id, dan)
    assert view.seat == seat
    assert view.board is not None and view.board["my_pick"] == 3
    assert [e.data for e in view.log if e.kind == "my_pick"] == [{"value": 3}]
    left = play.game_view(db, game_id, cat).board
    assert left is not None and left["my_pick"] is None
    db.commit()
    history = [
        (t.user_id, t.started_at, t.ended_at, t.end_reason) for t in seats.tenures(db, game(db, game_id))
    ]
    assert (cat.id, NOW, NOW + 2 * HOUR, "quit") in history
    assert (dan.id, NOW + 5 * HOUR, None, None) in history


def test_the_replacements_first_deadline_is_a_full_time_limit_from_taking_the_seat(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    game_id = running_game(db, [ann, ben, cat])
    seat = seat_of(db, game_id, cat)
    seats.quit_game(db, cat, game_id, None, NOW + 2 * HOUR)
    assert waits(db, game_id)[seat].deadline_at == NOW + 8 * HOUR  # open: a quarter of 24 h
    seats.take_seat(db, dan, game_id, seat, NOW + 5 * HOUR)
    row = waits(db, game_id)[seat]
    assert (row.started_at, row.deadline_at) == (NOW + 5 * HOUR, NOW + 29 * HOUR)
    assert row.warn_at == NOW + 5 * HOUR + 24 * HOUR * 8 / 10


def test_a_named_replacement_has_the_seat_to_themselves_for_a_while(db: Session) -> None:
    ann, ben, cat, dan, eve = make_users(db, "Ann", "Ben", "Cat", "Dan", "Eve")
    game_id = running_game(db, [ann, ben, cat])
    seat = seat_of(db, game_id, cat)
    friends.add_friend(db, cat, "Dan", NOW)  # the site's rule: the named replacement is a friend
    seats.quit_game(db, cat, game_id, "Dan", NOW)
    assert len(notifications(db, dan, "seat_offered")) == 1
    with pytest.raises(ServiceError) as reserved:
        seats.take_seat(db, eve, game_id, seat, NOW + HOUR)
    assert reserved.value.code == "seat_taken"
    db.rollback()
    listed = seats.open_seats(db, dan, NOW + HOUR)
    assert [(o.offered_to_you, o.reserved) for o in listed] == [(True, False)]
    assert [(o.offered_to_you, o.reserved) for o in seats.open_seats(db, eve, NOW + HOUR)] == [(False, True)]
    seats.take_seat(db, eve, game_id, seat, NOW + (seats.OFFER_HOURS + 1) * HOUR)  # the offer has lapsed
    assert play.viewer_seat(game(db, game_id), eve) == seat


def test_a_named_replacement_may_decline(db: Session) -> None:
    ann, ben, cat, dan, eve = make_users(db, "Ann", "Ben", "Cat", "Dan", "Eve")
    game_id = running_game(db, [ann, ben, cat])
    seat = seat_of(db, game_id, cat)
    friends.add_friend(db, cat, "Dan", NOW)
    seats.quit_game(db, cat, game_id, "Dan", NOW)
    with pytest.raises(ServiceError) as refused:
        seats.decline_offer(db, eve, game_id, seat)
    assert refused.value.code == "forbidden"
    db.rollback()
    seats.decline_offer(db, dan, game_id, seat)
    seats.take_seat(db, eve, game_id, seat, NOW + HOUR)
    assert play.viewer_seat(game(db, game_id), eve) == seat


@pytest.mark.parametrize(
    ("name", "field"), [("Nobody", "replacement"), ("Ben", "replacement"), ("Cat", "replacement")]
)
def test_the_named_replacement_must_be_another_user_not_in_the_game(
    db: Session, name: str, field: str
) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben, cat])
    with pytest.raises(ServiceError) as refused:
        seats.quit_game(db, cat, game_id, name, NOW)
    assert (refused.value.code, refused.value.field) == ("invalid_input", field)


def test_who_may_take_a_seat(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben, cat])
    seat = seat_of(db, game_id, cat)
    ann_seat = seat_of(db, game_id, ann)
    seats.quit_game(db, cat, game_id, None, NOW)
    for user, number, code in (
        (cat, seat, "already_joined"),
        (ben, seat, "already_joined"),
        (ann, ann_seat, "seat_taken"),
    ):
        with pytest.raises(ServiceError) as refused:
            seats.take_seat(db, user, game_id, number, NOW + HOUR)
        assert refused.value.code == code
        db.rollback()


def test_only_running_games_can_be_quit(db: Session) -> None:
    (ann,) = make_users(db, "Ann")
    open_game = lobby.create_game(db, ann, game_type="fake", players=3, time_limit_hours=24, now=NOW)
    with pytest.raises(ServiceError) as refused:
        seats.quit_game(db, ann, open_game.id, None, NOW)
    assert refused.value.code == "wrong_status"
