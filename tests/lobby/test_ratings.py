"""Rankings: openskill Plackett-Luce per game type, per seat tenure, with seat strength; replacements can
only gain, quitters and evicted players only lose; a recomputation from history equals the stored ratings."""

from __future__ import annotations

import random
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import RatingChange, User
from app.services.play import draft, play, seats
from app.services.players import ratings
from app.services.players.ratings import Entry, Match, SeatTally, Skill
from app.services.social import lobby
from tests.lobby.helpers import HOUR, NOW, finish, make_users, running_game, seat_of, user_at


def skill(db: Session, user: User, game_type: str = "fake") -> Skill:
    return ratings.stored_skills(db, game_type, [user.id]).get(user.id, ratings.NEW_SKILL)


def test_a_finished_game_moves_the_winner_up_and_the_loser_down(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    finish(db, game_id, winner=ann)
    assert skill(db, ann).mu > ratings.MODEL.mu > skill(db, ben).mu
    assert [(row.rank, row.name) for row in ratings.ranking(db, "fake")] == [(1, "Ann"), (2, "Ben")]
    changes = db.scalars(select(RatingChange).order_by(RatingChange.place)).all()
    assert [(c.user_id, c.place, c.outcome, c.seq) for c in changes] == [
        (ann.id, 1, "finished", 1),
        (ben.id, 2, "finished", 1),
    ]
    assert all(c.tenure_id is not None for c in changes)  # per seat tenure
    ratings.rate_finished_game(db, play.get_game(db, game_id), NOW)  # idempotent
    assert len(db.scalars(select(RatingChange)).all()) == 2


def test_a_replacement_can_only_gain_and_the_quitter_takes_the_loss(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben])
    seat = seat_of(db, game_id, ben)
    seats.quit_game(db, ben, game_id, None, NOW + HOUR)
    seats.take_seat(db, cat, game_id, seat, NOW + 2 * HOUR)
    finish(db, game_id, winner=ann, start=3 * HOUR)  # Cat, the replacement, loses to Ann, beats Ben
    assert skill(db, cat).mu >= ratings.MODEL.mu and skill(db, cat).ordinal >= ratings.NEW_SKILL.ordinal
    assert skill(db, ben).mu < ratings.MODEL.mu  # the quitter, ranked after every seat
    assert skill(db, ann).mu > ratings.MODEL.mu
    outcomes = {c.user_id: (c.outcome, c.place) for c in db.scalars(select(RatingChange))}
    assert outcomes == {ann.id: ("finished", 1), cat.id: ("replacement", 2), ben.id: ("quit", 3)}


def test_a_replacement_who_wins_gains(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben])
    seat = seat_of(db, game_id, ben)
    seats.quit_game(db, ben, game_id, None, NOW + HOUR)
    seats.take_seat(db, cat, game_id, seat, NOW + 2 * HOUR)
    finish(db, game_id, winner=cat, start=3 * HOUR)
    assert skill(db, cat).mu > ratings.MODEL.mu


def test_bounds_on_abandoned_seats_and_replacements() -> None:
    before, up, down = Skill(25.0, 8.0, 3), Skill(27.0, 7.9, 4), Skill(23.0, 7.9, 4)
    assert ratings.bounded("replacement", before, down) == Skill(25.0, 8.0, 4)
    assert ratings.bounded("replacement", before, up) == up
    assert ratings.bounded("quit", before, up) == Skill(25.0, 8.0, 4)
    assert ratings.bounded("evicted", before, down) == down
    assert ratings.bounded("finished", before, down) == down


def test_a_win_with_a_weak_seat_counts_more() -> None:
    """Seat "weak" has always come last, "strong" always first: the same win moves the winner further
    with the weak seat."""
    tallies = {
        "weak": SeatTally(40, 80, 40.0),
        "strong": SeatTally(40, 40, 0.0),
        "even": SeatTally(40, 60, 20.0),
    }
    skills = {1: Skill(25.0, 5.0, 10), 2: Skill(25.0, 5.0, 10)}

    def gain(seat: str) -> float:
        match = Match(1, 2, (Entry(1, None, seat, 1, "finished"), Entry(2, None, "even", 2, "finished")), ())
        return ratings.rate_match(skills, tallies, match)[1].mu - 25.0

    assert gain("weak") > gain("even") > gain("strong") > 0
    assert tallies["weak"].strength() < 0 < tallies["strong"].strength()


def test_seat_statistics_track_each_seats_average_place(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    for _ in range(2):
        game_id = running_game(db, [ann, ben])
        finish(db, game_id, winner=user_at(db, game_id, 0))
    rows = {row.seat_key: (row.games, row.average_place) for row in ratings.seat_statistics(db, "fake")}
    assert rows == {"seat:1": (2, 1.0), "seat:2": (2, 2.0)}


def random_history(db: Session, rng: random.Random) -> None:
    """Games of 2 to 4 players among eight, some with a quit (and a replacement) or an eviction."""
    users = make_users(db, *[f"R{n}" for n in range(8)])
    now = NOW
    for _ in range(12):
        table = rng.sample(users, rng.randint(2, 4))
        game_id = running_game(db, table, now=now)
        if rng.random() < 0.5:
            leaver = rng.choice(table)
            number = seat_of(db, game_id, leaver)
            seats.quit_game(db, leaver, game_id, None, now + HOUR)
            others = [u for u in users if u not in table]
            if others and rng.random() < 0.7:
                seats.take_seat(db, rng.choice(others), game_id, number, now + 2 * HOUR)
        finish(db, game_id, winner=rng.choice(table), start=3 * HOUR)
        now += timedelta(days=1)


def test_a_recomputation_from_history_equals_the_incremental_ratings(db: Session) -> None:
    random_history(db, random.Random(7))
    stored = ratings.describe(ratings.stored_book(db, "fake"))
    assert len(stored["skills"]) >= 6 and stored["tallies"]
    assert ratings.describe(ratings.recompute(db, "fake")) == stored
    assert ratings.rebuild(db, "fake", NOW) == 12
    assert ratings.describe(ratings.stored_book(db, "fake")) == stored


def test_only_the_order_is_shown(db: Session, client: TestClient) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    finish(db, game_id, winner=ben)
    page = client.get("/rankings?game_type=fake")
    assert page.status_code == 200 and page.text.index("Ben") < page.text.index("Ann")
    mu = f"{skill(db, ben).mu:.2f}"
    db.commit()
    assert mu not in page.text and mu not in client.get("/api/v1/rankings/fake").text


def test_a_game_type_with_a_draft_ranks_by_nation(db: Session) -> None:
    users = make_users(db, "Ann", "Ben")
    made = lobby.create_game(db, users[0], game_type="fakedraft", players=2, time_limit_hours=24, now=NOW)
    lobby.join_game(db, users[1], made.id, NOW)
    draft.choose(db, user_at(db, made.id, 1), made.id, "Babylon", NOW)
    draft.choose(db, user_at(db, made.id, 0), made.id, "Africa", NOW)
    finish(db, made.id, winner=user_at(db, made.id, 1))
    rows = {row.seat_key: row.average_place for row in ratings.seat_statistics(db, "fakedraft")}
    assert rows == {"Babylon": 1.0, "Africa": 2.0}
