"""Anti-collusion: nobody shares more than three unfinished games with the same person, whichever way in:
joining, the queue (a forming game, a new game, an open seat), a creator's invitation, taking an open seat,
being named as a replacement. Games that would break it are hidden, with the reason."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Game, User
from app.services.play import seats
from app.services.players import friends, matchmaking
from app.services.social import lobby, open_games, queue
from tests.lobby.helpers import NOW, forming_game, make_users, members, refused, running_game, seat_of

ACCEPT_ALL = queue.QueuePreferences(min_hours=1, max_hours=None, new_games=True, in_progress=True)


def share_three(db: Session, ann: User, ben: User) -> list[int]:
    """Three unfinished games that Ann and Ben share: two running, one still forming (created by Ann)."""
    return [
        running_game(db, [ann, ben]),
        running_game(db, [ben, ann]),
        forming_game(db, [ann, ben], players=2 + 2),
    ]


def test_three_shared_games_are_allowed_a_fourth_is_not(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    running_game(db, [ann, ben])
    running_game(db, [ben, ann])
    third = forming_game(db, [ben])
    lobby.join_game(db, ann, third, NOW)  # the third shared game is fine
    assert matchmaking.shared_counts(db, ann.id)[ben.id] == 3
    fourth = forming_game(db, [ben])
    refused(db, "shared_games_cap", lambda: lobby.join_game(db, ann, fourth, NOW))
    lobby.join_game(db, cat, fourth, NOW)  # others are not concerned
    assert members(db, fourth) == {ben.id, cat.id}


def test_the_cap_lifts_when_a_shared_game_is_quit(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    first, *_ = share_three(db, ann, ben)
    fourth = forming_game(db, [ben])
    refused(db, "shared_games_cap", lambda: lobby.join_game(db, ann, fourth, NOW))
    seats.quit_game(db, ann, first, None, NOW)
    lobby.join_game(db, ann, fourth, NOW)
    assert ann.id in members(db, fourth)


def test_the_queue_skips_a_forming_game_past_the_cap(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    share_three(db, ann, ben)
    target = forming_game(db, [ben])
    placed = queue.enter(db, ann, "fake", ACCEPT_ALL, NOW)
    assert target not in [p.game_id for p in placed] and ann.id not in members(db, target)
    queue.enter(db, cat, "fake", ACCEPT_ALL, NOW)  # into the oldest forming game: Ann and Ben's
    queue.enter(db, make_users(db, "Dan")[0], "fake", ACCEPT_ALL, NOW)
    queue.enter(db, make_users(db, "Eve")[0], "fake", ACCEPT_ALL, NOW)  # that one is full: Ben's next
    assert ann.id not in members(db, target) and len(members(db, target)) == 2


def test_the_queue_never_groups_two_players_past_the_cap(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    for _ in range(3):
        running_game(db, [ann, ben])
    only_new = queue.QueuePreferences(new_games=True)
    assert queue.enter(db, ann, "fake", only_new, NOW) == []
    assert queue.enter(db, ben, "fake", only_new, NOW) == []  # Ann and Ben may not meet again
    placed = queue.enter(db, cat, "fake", only_new, NOW)
    assert [(p.user_id, p.how) for p in placed] == [(ann.id, "new"), (cat.id, "new")]
    assert members(db, placed[0].game_id) == {ann.id, cat.id}


def test_the_queue_skips_an_open_seat_past_the_cap(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    share_three(db, ann, ben)
    target = running_game(db, [ben, cat])
    seats.quit_game(db, cat, target, None, NOW)
    queue.enter(db, ann, "fake", queue.QueuePreferences(new_games=False, in_progress=True), NOW)
    assert ann.id not in members(db, target)
    queue.enter(db, dan, "fake", queue.QueuePreferences(new_games=False, in_progress=True), NOW)
    assert dan.id in members(db, target)


def test_an_invitation_past_the_cap_is_refused_and_nothing_is_made(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    share_three(db, ann, ben)
    friends.add_friend(db, ann, "Ben", NOW)
    before = db.scalar(select(func.count()).select_from(Game))
    refused(
        db,
        "shared_games_cap",
        lambda: lobby.create_game(
            db, ann, game_type="fake", players=3, time_limit_hours=24, friends_invited=["Ben"], now=NOW
        ),
    )
    assert db.scalar(select(func.count()).select_from(Game)) == before


def test_taking_an_open_seat_past_the_cap_is_refused(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    share_three(db, ann, ben)
    target = running_game(db, [ben, cat])
    seat = seat_of(db, target, cat)
    seats.quit_game(db, cat, target, None, NOW)
    refused(db, "shared_games_cap", lambda: seats.take_seat(db, ann, target, seat, NOW))


def test_a_named_replacement_past_the_cap_is_refused(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    share_three(db, ann, ben)
    target = running_game(db, [ben, cat])
    friends.add_friend(db, cat, "Ann", NOW)
    refused(db, "shared_games_cap", lambda: seats.quit_game(db, cat, target, "Ann", NOW))


def test_games_past_the_cap_are_hidden_with_the_reason(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    share_three(db, ann, ben)
    with_ben = forming_game(db, [ben])
    without = forming_game(db, [cat])
    replacement = running_game(db, [ben, cat])
    seats.quit_game(db, cat, replacement, None, NOW)
    tables = open_games.open_tables(db, ann, NOW)
    assert without in [t.game.id for t in tables.games]
    hidden = {
        (t.game.id, t.seat is not None): [(o.kind, o.other) for o in t.obstacles] for t in tables.hidden
    }
    assert hidden[(with_ben, False)] == [("shared_games", "Ben")]
    assert hidden[(replacement, True)] == [("shared_games", "Ben")]
    assert tables.capped_with == ["Ben"]
