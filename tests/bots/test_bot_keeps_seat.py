"""A bot keeps an open seat (the game's `bots_keep_seats`): a player quits, the bot plays the seat through
two turns of its own, then a replacement takes it with the nation as the bot left it."""

from __future__ import annotations

import itertools

from sqlalchemy.orm import Session, sessionmaker

from app.games import registry
from app.models import Game, GameOrder, User
from app.services.play import absence, play, seats
from app.services.social import lobby
from tests.bots.helpers import human_waits, play_human, run_bots
from tests.clock_service.factory import HOUR, NOW, make_users, orders, seat_of, waits


def two_player_game(db: Session, ann: User, cat: User, keep: bool) -> int:
    game = lobby.create_game(
        db, ann, game_type="tigris", players=2, time_limit_hours=24, bots_keep_seats=keep, now=NOW
    )
    lobby.join_game(db, cat, game.id, NOW)
    return game.id


def bot_turns(played: list[GameOrder], seat: int) -> int:
    """The runs of the seat's bot orders, each ended by another seat's order: the bot's turns."""
    return sum(
        1
        for (mover, origin), _ in itertools.groupby((o.seat, o.origin) for o in played)
        if mover == seat and origin == "bot"
    )


def test_a_bot_holds_a_quitters_seat_through_two_turns_and_the_replacement_takes_it_as_the_bot_left_it(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, cat, dan = make_users(db, "Ann", "Cat", "Dan")
    game_id = two_player_game(db, ann, cat, keep=True)
    seat = seat_of(db, game_id, cat)
    seats.quit_game(db, cat, game_id, None, NOW + HOUR)
    table = absence.absence_table(db, db.get(Game, game_id), ann, NOW + HOUR)  # type: ignore[arg-type]
    held = next(row for row in table if row.seat == seat)
    assert (held.status, held.bot_since) == ("open", NOW + HOUR)  # the page: open, a bot holds it since
    db.commit()
    while bot_turns(orders(db, game_id), seat) < 2:
        run_bots(sessions, NOW + HOUR)
        assert not waits(db, game_id).get(seat) or waits(db, game_id)[seat].bot
        if human_waits(db, game_id):
            play_human(db, ann, game_id, NOW + HOUR)
    run_bots(sessions, NOW + HOUR)
    assert {o.origin for o in orders(db, game_id) if o.seat == seat} == {"bot"}
    game = db.get(Game, game_id, populate_existing=True)
    assert game is not None and game.status == "active"
    rules = registry.get("tigris")
    left = rules.view(rules.load(game.state or {}), seat)
    version = game.version
    db.commit()

    seats.take_seat(db, dan, game_id, seat, NOW + 2 * HOUR)
    taken = play.game_view(db, game_id, dan, with_log=False)
    assert (taken.seat, taken.game.version, taken.board) == (seat, version, left)  # the nation as left
    db.commit()
    run_bots(sessions, NOW + 2 * HOUR)
    assert all(not row.bot for row in waits(db, game_id).values())  # the bot is gone
    assert play.game_view(db, game_id, dan, with_log=False).game.version == version


def test_without_the_option_an_open_seat_plays_the_timeout_defaults_not_a_bot(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    ann, cat = make_users(db, "Ann", "Cat")
    game_id = two_player_game(db, ann, cat, keep=False)
    seats.quit_game(db, cat, game_id, None, NOW + HOUR)
    assert run_bots(sessions, NOW + 100 * HOUR).claimed == 0
    assert all(not row.bot for row in waits(db, game_id).values())
