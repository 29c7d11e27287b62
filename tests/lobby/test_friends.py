"""Friends and blocks: the lists, friends invited into a new game (told, and seated only if they accept),
the named replacement who must be a friend, and blocked players never seated together whichever way in."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Notification
from app.services.play import seats
from app.services.players import friends
from app.services.social import lobby, open_games, queue
from tests.conftest import sign_up
from tests.lobby.helpers import NOW, forming_game, make_users, members, refused, running_game, seat_of


def test_adding_removing_and_listing_friends(db: Session) -> None:
    ann, ben, _cat = make_users(db, "Ann", "Ben", "Cat")
    friends.add_friend(db, ann, "Ben", NOW)
    friends.add_friend(db, ann, " Cat ", NOW)
    friends.add_friend(db, ann, "Ben", NOW)  # twice is once
    assert [p.name for p in friends.lists_of(db, ann).friends] == ["Ben", "Cat"]
    assert friends.lists_of(db, ben).friends == []  # a list is one person's own
    friends.remove_friend(db, ann, ben.id)
    assert [p.name for p in friends.lists_of(db, ann).friends] == ["Cat"]
    refused(db, "invalid_input", lambda: friends.add_friend(db, ann, "Nobody", NOW))
    refused(db, "invalid_input", lambda: friends.add_friend(db, ann, "Ann", NOW))


def test_blocking_ends_friendship_both_ways_and_stops_new_ones(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    friends.add_friend(db, ann, "Ben", NOW)
    friends.add_friend(db, ben, "Ann", NOW)
    friends.block(db, ben, "Ann", NOW)
    assert friends.lists_of(db, ann).friends == [] and friends.lists_of(db, ben).friends == []
    assert [p.name for p in friends.lists_of(db, ben).blocked] == ["Ann"]
    refused(db, "blocked", lambda: friends.add_friend(db, ann, "Ben", NOW))
    friends.unblock(db, ben, ann.id)
    friends.add_friend(db, ann, "Ben", NOW)


def test_friends_are_invited_into_a_new_game_and_told_but_not_seated(db: Session) -> None:
    ann, ben, _cat = make_users(db, "Ann", "Ben", "Cat")
    friends.add_friend(db, ann, "Ben", NOW)
    made = lobby.create_game(
        db, ann, game_type="fake", players=3, time_limit_hours=24, friends_invited=["Ben"], now=NOW
    )
    assert members(db, made.id) == {ann.id}  # nobody is seated without their consent
    told = db.scalars(select(Notification).where(Notification.user_id == ben.id)).all()
    assert [(n.kind, n.game_id, n.data) for n in told] == [("game_invitation", made.id, {"by": "Ann"})]
    assert [game.id for game in lobby.invitations_of(db, ben)] == [made.id]
    lobby.accept_invitation(db, ben, made.id, NOW)
    assert members(db, made.id) == {ann.id, ben.id}
    assert lobby.invitations_of(db, ben) == []
    refused(
        db,
        "invalid_input",
        lambda: lobby.create_game(
            db, ann, game_type="fake", players=3, time_limit_hours=24, friends_invited=["Cat"], now=NOW
        ),
    )  # Cat is not on Ann's list


def test_friends_filling_every_seat_start_the_game_once_they_accept(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    friends.add_friend(db, ann, "Ben", NOW)
    made = lobby.create_game(
        db, ann, game_type="fake", players=2, time_limit_hours=24, friends_invited=["Ben"], now=NOW
    )
    assert made.status == "open"
    assert lobby.accept_invitation(db, ben, made.id, NOW).status == "active"


def test_the_named_replacement_must_be_a_friend(db: Session) -> None:
    ann, ben, _cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben])
    refused(db, "invalid_input", lambda: seats.quit_game(db, ben, game_id, "Cat", NOW))
    friends.add_friend(db, ben, "Cat", NOW)
    seats.quit_game(db, ben, game_id, "Cat", NOW)


def test_blocked_players_never_sit_together(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    friends.block(db, ann, "Ben", NOW)
    open_game = forming_game(db, [ben])
    refused(db, "blocked", lambda: lobby.join_game(db, ann, open_game, NOW))  # the blocker
    mine = forming_game(db, [ann])
    refused(db, "blocked", lambda: lobby.join_game(db, ben, mine, NOW))  # the blocked one
    running = running_game(db, [ben, cat])
    seat = seat_of(db, running, cat)
    seats.quit_game(db, cat, running, None, NOW)
    refused(db, "blocked", lambda: seats.take_seat(db, ann, running, seat, NOW))
    friends.add_friend(db, dan, "Ann", NOW)
    friends.add_friend(db, dan, "Ben", NOW)
    # Inviting both tells Dan nothing of their block; the second to accept is refused (and knows why).
    both = lobby.create_game(
        db, dan, game_type="fake", players=3, time_limit_hours=24, friends_invited=["Ann", "Ben"], now=NOW
    )
    lobby.accept_invitation(db, ann, both.id, NOW)
    refused(db, "blocked", lambda: lobby.accept_invitation(db, ben, both.id, NOW))
    hidden = {t.game.id: [o.kind for o in t.obstacles] for t in open_games.open_tables(db, ann, NOW).hidden}
    assert hidden == {open_game: ["blocked"], running: ["blocked"]}, hidden


def test_the_queue_never_seats_blocked_players_together(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    friends.block(db, ben, "Ann", NOW)
    only_new = queue.QueuePreferences()
    assert queue.enter(db, ann, "fake", only_new, NOW) == []
    assert queue.enter(db, ben, "fake", only_new, NOW) == []
    placed = queue.enter(db, cat, "fake", only_new, NOW)
    assert members(db, placed[0].game_id) == {ann.id, cat.id}


def test_a_name_is_found_without_its_accents_or_capitals(db: Session) -> None:
    ann, chloe, _zoe = make_users(db, "Ann", "Chloé Dubois", "Zoë")
    assert friends.add_friend(db, ann, "chloe   DUBOIS", NOW).id == chloe.id
    assert friends.user_named(db, "zoe").display_name == "Zoë"
    assert friends.user_named(db, "Chloé Dubois").id == chloe.id  # exact, of course


def test_an_unknown_or_ambiguous_name_is_refused_with_the_nearest_names(db: Session) -> None:
    ann, *_ = make_users(db, "Ann", "Chloé", "Chloe", "Chlothilde", "Bruno")
    ambiguous = refused(db, "invalid_input", lambda: friends.add_friend(db, ann, "CHLOE", NOW))
    assert ambiguous.params == {"names": "Chloe, Chloé"}
    unknown = refused(db, "invalid_input", lambda: friends.add_friend(db, ann, "chlo", NOW))
    assert unknown.params == {"name": "chlo", "names": "Chloe, Chloé, Chlothilde"}
    assert friends.names_like(db, "run") == ["Bruno"]  # a name that contains what was typed comes after
    assert friends.names_like(db, "%") == [] and friends.names_like(db, "b") == []  # no wildcard, 2 letters
    assert friends.lists_of(db, ann).friends == []


def test_the_name_field_suggests_names_as_one_types(make_client: Any) -> None:
    client = make_client()
    sign_up(client, "Alice")
    other = make_client()
    sign_up(other, "Élodie Marchand", email="elodie@example.com")
    options = client.get("/players/names", params={"name": "elo"}, headers={"HX-Request": "true"})
    assert options.status_code == 200 and '<option value="Élodie Marchand">' in options.text
    assert "<option" not in client.get("/players/names", params={"name": "zz"}).text
    page = client.get("/friends").text
    assert 'list="friend-names"' in page and 'hx-get="/players/names"' in page
