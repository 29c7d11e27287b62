"""The player queue: games formed from compatible queued players, queued players poured into forming games
(errata 1), open seats of running games for those who accept them, and, on Postgres, concurrent entries
and joins that never over-fill a game nor seat a player twice."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, sessionmaker

from app.models import Game, JobRun, MailSettings, Notification, QueueEntry, Seat, User
from app.services.errors import ServiceError
from app.services.jobs import jobs
from app.services.play import seats
from app.services.players import friends, matchmaking
from app.services.social import lobby, queue
from tests.conftest import POSTGRES_URL
from tests.lobby.helpers import NOW, forming_game, make_users, members, refused, running_game, seat_of

Prefs = queue.QueuePreferences


def test_a_game_forms_when_enough_compatible_players_are_queued(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    assert queue.enter(db, ann, "fake", Prefs(min_hours=24, max_hours=96), NOW) == []
    placed = queue.enter(db, ben, "fake", Prefs(min_hours=12, max_hours=36), NOW)
    assert [(p.user_id, p.how) for p in placed] == [(ann.id, "new"), (ben.id, "new")]
    game = db.get(Game, placed[0].game_id)
    # made for the players found, at the smallest size they accept: it starts at once
    assert game is not None and (game.players, game.time_limit_hours, game.creator_id) == (2, 36, ann.id)
    assert game.status == "active" and members(db, game.id) == {ann.id, ben.id}
    assert db.scalar(select(func.count()).select_from(QueueEntry)) == 0
    kinds = db.scalars(select(Notification.kind).where(Notification.user_id.in_([ann.id, ben.id]))).all()
    assert Counter(kinds)["queue_placed"] == 2
    assert queue.enter(db, cat, "fake", Prefs(), NOW) == []  # alone: waits for another player
    assert cat.id not in members(db, game.id)


def test_a_new_game_has_the_smallest_size_every_queued_player_accepts(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    assert queue.enter(db, ann, "fake", Prefs(min_players=3), NOW) == []
    assert queue.enter(db, ben, "fake", Prefs(), NOW) == []  # two would not do for Ann
    assert queue.enter(db, dan, "fake", Prefs(max_players=2), NOW) != []  # Ben and Dan: a table of 2
    placed = queue.enter(db, cat, "fake", Prefs(), NOW)
    assert placed == []  # Ann and Cat are two; Ann wants three
    (eve,) = make_users(db, "Eve")
    placed = queue.enter(db, eve, "fake", Prefs(max_players=3), NOW)
    game = db.get(Game, placed[0].game_id)
    assert game is not None and game.players == 3 and game.status == "active"
    assert members(db, game.id) == {ann.id, cat.id, eve.id}


def test_a_forming_game_of_a_size_the_player_refuses_is_not_joined(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    made = forming_game(db, [ann], players=4, limit_hours=48)
    assert queue.enter(db, ben, "fake", Prefs(max_players=3), NOW) == []
    assert queue.enter(db, ben, "fake", Prefs(min_players=4), NOW) != []
    assert ben.id in members(db, made)


def test_incompatible_time_limits_do_not_form_a_game(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    queue.enter(db, ann, "fake", Prefs(min_hours=1, max_hours=8), NOW)
    assert queue.enter(db, ben, "fake", Prefs(min_hours=24, max_hours=48), NOW) == []
    assert len(queue.entries_of(db, ann)) == len(queue.entries_of(db, ben)) == 1


def test_queued_players_are_added_to_a_forming_game_a_player_created(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    made = forming_game(db, [ann], players=4, limit_hours=48)
    placed = queue.enter(db, ben, "fake", Prefs(), NOW)
    assert [(p.user_id, p.game_id, p.how) for p in placed] == [(ben.id, made, "forming")]
    queue.enter(db, cat, "fake", Prefs(), NOW)
    queue.enter(db, dan, "fake", Prefs(), NOW)  # the fourth: the game starts
    game = db.get(Game, made)
    assert (
        game is not None and game.status == "active" and members(db, made) == {ann.id, ben.id, cat.id, dan.id}
    )


def test_a_forming_game_outside_the_accepted_time_limits_is_not_joined(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    made = forming_game(db, [ann], limit_hours=168)
    assert queue.enter(db, ben, "fake", Prefs(max_hours=72), NOW) == []
    queue.enter(db, ben, "fake", Prefs(max_hours=None), NOW)  # changing one's entry places again
    assert ben.id in members(db, made)


def test_open_seats_go_only_to_players_who_accept_games_in_progress(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    game_id = running_game(db, [ann, ben], limit_hours=24)
    seat = seat_of(db, game_id, ben)
    seats.quit_game(db, ben, game_id, None, NOW)
    assert queue.enter(db, cat, "fake", Prefs(new_games=True, in_progress=False), NOW) == []
    placed = queue.enter(db, dan, "fake", Prefs(new_games=False, in_progress=True), NOW)
    assert [(p.user_id, p.game_id, p.how) for p in placed] == [(dan.id, game_id, "seat")]
    held = db.scalar(select(Seat).where(Seat.game_id == game_id, Seat.number == seat))
    assert held is not None and held.user_id == dan.id and held.status == "playing"


def test_a_seat_offered_to_a_named_friend_is_not_given_to_the_queue(db: Session) -> None:
    ann, ben, _cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    game_id = running_game(db, [ann, ben])
    friends.add_friend(db, ben, "Cat", NOW)
    seats.quit_game(db, ben, game_id, "Cat", NOW)
    assert queue.enter(db, dan, "fake", Prefs(new_games=False, in_progress=True), NOW) == []
    later = NOW + timedelta(hours=seats.OFFER_HOURS + 1)
    assert [p.game_id for p in queue.match_type(db, "fake", later)] == [game_id]  # the offer lapsed


def test_the_periodic_job_places_players_in_games_made_after_they_queued(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    queue.enter(db, ben, "fake", Prefs(), NOW)
    made = forming_game(db, [ann], limit_hours=48)
    assert ben.id not in members(db, made)
    assert jobs.run_periodic(sessions, NOW, [queue.QUEUE_JOB]) == ["queue"]
    assert ben.id in members(db, made)
    db.commit()
    assert db.scalar(select(JobRun.job).where(JobRun.job == "queue")) == "queue"


def test_leaving_and_bad_entries(db: Session) -> None:
    (ann,) = make_users(db, "Ann")
    queue.enter(db, ann, "fake", Prefs(), NOW)
    queue.leave(db, ann, "fake")
    assert queue.entries_of(db, ann) == []
    refused(db, "not_found", lambda: queue.leave(db, ann, "fake"))
    refused(db, "invalid_input", lambda: queue.enter(db, ann, "chess", Prefs(), NOW))
    bad_entries: list[dict[str, object]] = [
        {"min_hours": 48, "max_hours": 12},
        {"new_games": False},
        {"min_hours": 0},
        {"colour": 1},
        {"min_players": 5, "max_players": 3},
        {"max_players": 9},
    ]
    for raw in bad_entries:
        with pytest.raises(ServiceError) as bad:
            queue.preferences(raw)
        assert bad.value.code == "invalid_input"


def test_a_full_queue_game_starts_with_a_draft(db: Session) -> None:
    users = make_users(db, *[f"Q{n}" for n in range(8)])
    for user in users:
        queue.enter(db, user, "fakedraft", Prefs(min_players=8), NOW)
    games = db.scalars(select(Game).where(Game.game_type == "fakedraft")).all()
    assert (
        len(games) == 1 and games[0].players == 8 and games[0].status == "active" and games[0].state is None
    )
    picks = []
    for seat in games[0].seats:
        assert seat.pick is not None
        picks.append(seat.pick)
    assert sorted(picks) == list(range(1, 9))


# --- concurrency (Postgres) -------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="needs TEST_DATABASE_URL (Postgres)")
def test_concurrent_entries_and_joins_never_over_fill_nor_seat_twice(
    database_url: str, db: Session, sessions: sessionmaker[Session]
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("Postgres only: SQLite serialises every writer anyway")
    queued = make_users(db, *[f"Q{n}" for n in range(24)])
    joiners = make_users(db, *[f"J{n}" for n in range(8)])
    (host,) = make_users(db, "Host")
    target = forming_game(db, [host], players=4, limit_hours=48)
    ids = [user.id for user in queued], [user.id for user in joiners]
    barrier = threading.Barrier(len(queued) + len(joiners))
    errors: list[str] = []

    def enter(user_id: int) -> None:
        with sessions() as session:
            user = session.get(User, user_id)
            assert user is not None
            session.commit()
            barrier.wait()
            try:
                queue.enter(session, user, "fake", Prefs(), NOW)
            except Exception as error:  # a deadlock or a lost race would land here
                errors.append(f"enter {user_id}: {error!r}")

    def join(user_id: int) -> None:
        with sessions() as session:
            user = session.get(User, user_id)
            assert user is not None
            session.commit()
            barrier.wait()
            try:
                lobby.join_game(session, user, target, NOW)
            except ServiceError as error:
                session.rollback()
                if error.code not in ("game_full", "wrong_status"):
                    errors.append(f"join {user_id}: {error.code}")

    threads = [threading.Thread(target=enter, args=(i,)) for i in ids[0]]
    threads += [threading.Thread(target=join, args=(i,)) for i in ids[1]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    with sessions() as session:
        queue.match_all(session, NOW)  # whoever is still queued and placeable
        per_game = dict(session.execute(select(Seat.game_id, func.count()).group_by(Seat.game_id)).all())
        sizes = dict(session.execute(select(Game.id, Game.players)).all())
        assert all(per_game[game_id] <= sizes[game_id] for game_id in per_game)  # never over-filled
        seated = [row for row in session.scalars(select(Seat.user_id).where(Seat.user_id.in_(ids[0])))]
        assert len(seated) == len(set(seated))  # nobody seated twice
        waiting = set(session.scalars(select(QueueEntry.user_id)))
        assert not waiting & set(seated)  # a placed player has left the queue
        assert len(seated) + len(waiting) == len(queued)
        open_games = session.scalar(
            select(func.count()).where(Game.status == "open", Game.game_type == "fake")
        )
        assert (open_games or 0) <= 1  # the queue fills forming games before it makes new ones


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="needs TEST_DATABASE_URL (Postgres)")
def test_a_seat_check_does_not_wait_for_a_mail_batch_that_refers_to_the_same_user(
    database_url: str, db: Session, sessions: sessionmaker[Session]
) -> None:
    """The mail worker makes users' settings rows in the order of its batch; a join locks its users in id
    order. Were the join's lock FOR UPDATE, it would wait on the rows' foreign keys and the two could
    deadlock (seen once in a multi-process run); here it goes through while the batch is still open."""
    if not database_url.startswith("postgresql"):
        pytest.skip("Postgres only: SQLite has no row locks")
    (user,) = make_users(db, "Referred")
    with sessions() as batch, sessions() as join:
        batch.add(MailSettings(user_id=user.id, digest_hour=8, your_turn_always=False))
        batch.flush()  # the insert's foreign key check holds a KEY SHARE lock on the user's row
        join.execute(text("SET LOCAL lock_timeout = '2s'"))
        matchmaking.lock_users(join, [user.id])  # no wait, no lock timeout
        join.rollback()
        batch.rollback()
