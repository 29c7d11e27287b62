"""The Open tab (recommended game, rating distance, hidden games), the position summary of an open seat,
profiles and reliability (with the creator's gate)."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.models import Rating, User
from app.services.play import play, seats
from app.services.players import profiles, ratings
from app.services.social import lobby, open_games
from tests.clock_service.factory import sweep_at
from tests.lobby.helpers import HOUR, NOW, finish, forming_game, make_users, refused, running_game, seat_of


def rate(db: Session, user: User, mu: float) -> None:
    db.add(
        Rating(user_id=user.id, game_type="fake", mu=mu, sigma=2.0, ordinal=mu - 6, games=5, updated_at=NOW)
    )
    db.commit()


def test_the_recommended_game_has_the_nearest_average_rating_and_the_rest_follow(db: Session) -> None:
    me, strong, weak, middle, other = make_users(db, "Me", "Strong", "Weak", "Middle", "Other")
    rate(db, me, 30.0)
    rate(db, strong, 40.0)
    rate(db, weak, 10.0)
    rate(db, middle, 29.0)
    far = forming_game(db, [weak])  # distance 20
    near = forming_game(db, [middle, other])  # average (29 + 25) / 2 = 27: distance 3
    high = forming_game(db, [strong])  # distance 10
    tables = open_games.open_tables(db, me, NOW)
    assert tables.recommended is not None and tables.recommended.game.id == near
    assert [t.game.id for t in tables.games] == [near, high, far]


def test_an_open_seat_can_be_the_recommended_game(db: Session) -> None:
    me, ann, ben, cat = make_users(db, "Me", "Ann", "Ben", "Cat")
    rate(db, me, 35.0)
    rate(db, ann, 35.0)
    forming_game(db, [cat])  # distance 10
    game_id = running_game(db, [ann, ben])
    rate(db, ben, 35.0)
    seats.quit_game(db, ben, game_id, None, NOW)
    tables = open_games.open_tables(db, me, NOW)
    assert tables.recommended is not None and tables.recommended.key == (
        game_id,
        seat_of(db, game_id, ann) ^ 1,
    )


def test_visitors_see_the_open_games_without_a_recommendation(db: Session) -> None:
    (ann,) = make_users(db, "Ann")
    made = forming_game(db, [ann])
    tables = open_games.open_tables(db, None, NOW)
    assert tables.recommended is None and [t.game.id for t in tables.games] == [made]


def test_the_position_summary_shows_the_public_view_and_no_secret(db: Session, client: TestClient) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game_id = running_game(db, [ann, ben])
    play.submit(db, ben, game_id, {"type": "pick", "value": 3}, 1, NOW)  # Ben's secret pick
    seat = seat_of(db, game_id, ben)
    seats.quit_game(db, ben, game_id, None, NOW + HOUR)
    db.commit()
    page = client.get(f"/games/{game_id}/seats/{seat}/summary")
    assert page.status_code == 200
    assert "Ben" in page.text and '"my_pick": null' in page.text and '"my_pick": 3' not in page.text
    assert client.get(f"/games/{game_id}/seats/{1 - seat}/summary").status_code == 404
    assert client.get("/games/999/seats/0/summary").status_code == 404


def test_a_profile_counts_games_quits_timeouts_and_move_times(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    first = running_game(db, [ann, ben])
    play.submit(db, ann, first, {"type": "pick", "value": 2}, 1, NOW + 2 * HOUR)
    db.commit()
    sweep_at(sessions, NOW + 25 * HOUR)  # Ben times out
    seats.quit_game(db, ben, first, None, NOW + 26 * HOUR)
    second = running_game(db, [ann, cat], now=NOW + 27 * HOUR)
    finish(db, second, winner=ann, start=28 * HOUR)
    found = profiles.profile(db, ann.id)
    assert (found.counts.played, found.counts.finished, found.counts.quit) == (2, 1, 0)
    assert [g.id for g in found.current] == [first]
    assert found.reliability.timeouts == 0 and found.reliability.moves >= 2
    assert found.reliability.average_move_seconds is not None
    assert [(r.game_type, r.rank) for r in found.ranks] == [("fake", 1)]
    bens = profiles.profile(db, ben.id)
    assert (bens.counts.played, bens.counts.quit, bens.reliability.timeouts) == (1, 1, 1)
    assert bens.reliability.percent == 0  # no order in time, one timeout, one quit
    assert profiles.profile(db, cat.id).reliability.percent == 100


def test_the_reliability_gate_keeps_out_the_unreliable_not_the_new(db: Session) -> None:
    ann, ben, cat, dan = make_users(db, "Ann", "Ben", "Cat", "Dan")
    first = running_game(db, [ben, dan])
    seats.quit_game(db, ben, first, None, NOW)  # Ben: one quit, nothing else
    gated = lobby.create_game(
        db, ann, game_type="fake", players=4, time_limit_hours=24, min_reliability=80, now=NOW
    )
    refused(db, "reliability_gate", lambda: lobby.join_game(db, ben, gated.id, NOW))
    lobby.join_game(db, cat, gated.id, NOW)  # no history: passes
    hidden = {t.game.id: [o.kind for o in t.obstacles] for t in open_games.open_tables(db, ben, NOW).hidden}
    assert hidden == {gated.id: ["reliability"], first: ["played"]}  # and the seat he quit
    refused(
        db,
        "invalid_input",
        lambda: lobby.create_game(
            db, ann, game_type="fake", players=2, time_limit_hours=24, min_reliability=101, now=NOW
        ),
    )


def test_ranks_are_shared_by_equal_ratings(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    rate(db, ann, 30.0)
    rate(db, ben, 30.0)
    rate(db, cat, 20.0)
    assert [(r.rank, r.name) for r in ratings.ranking(db, "fake")] == [(1, "Ann"), (1, "Ben"), (3, "Cat")]
    assert [(r.rank, r.name) for r in ratings.ranking(db, "fake", offset=1)] == [(1, "Ben"), (3, "Cat")]
