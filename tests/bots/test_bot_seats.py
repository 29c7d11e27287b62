"""Bot seats: a game created with bots starts when its human seats are taken, its bots play at once
through the order path (origin "bot"), it is unrated, no bot is mailed, and bad bot seat counts are
refused."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.models import Game, GameOrder, Notification, RatedGame, Seat, WaitRow
from app.services.deadlines import bot_seats
from app.services.errors import ServiceError
from app.services.play import play
from app.services.players import profiles
from app.services.social import lobby
from tests.bots.helpers import human_waits, orders_by_origin, play_human, run_bots
from tests.clock_service.factory import NOW, make_users


def create(
    session: Session, creator: object, game_type: str, players: int, bots: int, **extra: object
) -> int:
    game = lobby.create_game(
        session,
        creator,  # type: ignore[arg-type]
        game_type=game_type,
        players=players,
        time_limit_hours=24,
        bot_seats=bots,
        now=NOW,
        **extra,  # type: ignore[arg-type]
    )
    return game.id


def test_a_game_with_all_but_one_seat_bots_starts_at_once_and_the_bots_play_through_the_order_path(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    (ann,) = make_users(db, "Ann")
    game_id = create(db, ann, "dragonstones", 4, 3)
    game = db.get(Game, game_id)
    assert game is not None and game.status == "active" and game.bot_seats == 3
    assert sorted(seat.status for seat in game.seats) == ["bot", "bot", "bot", "playing"]
    db.commit()
    for _ in range(400):
        run_bots(sessions)
        waiting = human_waits(db, game_id)
        game = db.get(Game, game_id, populate_existing=True)
        assert game is not None
        if game.status == "finished":
            break
        assert waiting, "the game waits on a bot after the bots job ran"
        play_human(db, ann, game_id)
    assert game.status == "finished"
    origins = orders_by_origin(db, game_id)
    assert origins.get("bot", 0) > 0 and origins.get("player", 0) > 0 and "timeout" not in origins
    assert db.scalar(select(RatedGame).where(RatedGame.game_id == game_id)) is None  # unrated
    assert profiles.game_counts(db, ann.id).played == 0  # in no one's statistics
    kinds = set(db.scalars(select(Notification.kind).where(Notification.game_id == game_id)))
    assert "game_over" in kinds
    assert db.scalar(select(func.count()).where(Notification.user_id.is_(None))) == 0


def test_the_bots_are_named_with_the_bot_mark_and_shown_as_seated(db: Session) -> None:
    (ann,) = make_users(db, "Ann")
    game_id = create(db, ann, "tigris", 3, 2)
    view = play.game_view(db, game_id, ann, with_log=False)
    names = [name for name in view.players if name != "Ann"]
    assert sorted(names) == ["Bot 1 🤖", "Bot 2 🤖"]  # type: ignore[type-var]
    assert all(bot_seats.is_bot_name(name) for name in names if name)


def test_a_game_with_bots_waits_for_its_other_humans_before_it_starts(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, bob = make_users(db, "Ann", "Bob")
    game_id = create(db, ann, "amunre", 4, 2)
    game = db.get(Game, game_id)
    assert game is not None and game.status == "open" and game.seats_taken == 3
    lobby.join_game(db, bob, game_id, NOW)
    assert game.status == "active"
    run_bots(sessions)
    assert all(not row.bot for row in human_waits(db, game_id))
    bots = db.scalar(select(func.count()).where(WaitRow.game_id == game_id, WaitRow.bot.is_(True)))
    assert bots == 0  # every bot's turn is played


@pytest.mark.parametrize(
    ("game_type", "players", "bots", "field"),
    [("dragonstones", 4, 4, "bot_seats"), ("dragonstones", 4, -1, "bot_seats"), ("fake", 2, 1, "bot_seats")],
)
def test_bad_bot_seats_are_refused_and_nothing_is_written(
    db: Session, game_type: str, players: int, bots: int, field: str
) -> None:
    (ann,) = make_users(db, "Ann")
    with pytest.raises(ServiceError) as refused:
        create(db, ann, game_type, players, bots)
    assert refused.value.status == 422 and refused.value.field == field
    db.rollback()
    assert db.scalar(select(func.count()).select_from(Game)) == 0
    assert db.scalar(select(func.count()).select_from(Seat)) == 0
    assert db.scalar(select(func.count()).select_from(GameOrder)) == 0


def test_a_game_without_bots_is_still_rated_and_a_late_human_gets_the_default_not_a_bot(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, bob = make_users(db, "Ann", "Bob")
    game_id = create(db, ann, "tigris", 2, 0, bots_keep_seats=True)
    lobby.join_game(db, bob, game_id, NOW)
    assert run_bots(sessions).claimed == 0  # late or not, a held seat is never a bot's
    assert all(not row.bot for row in human_waits(db, game_id))
    game = db.get(Game, game_id)
    assert game is not None and bot_seats.rated(game)
