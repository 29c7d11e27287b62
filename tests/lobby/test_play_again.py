"""The end of a game: where it moved each player in the ranking (ranks as they stood then, never the
ratings' numbers), and "play again with the same players" (a new forming game like the finished one, the
others invited; a second press, or a table-mate's, finds that game instead of making another)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Game, GameInvitation, Notification
from app.services.players import friends, ratings
from app.services.players.ratings import RankMove
from app.services.social import lobby
from tests.lobby.helpers import HOUR, NOW, finish, make_users, refused, running_game

LATER = NOW + timedelta(days=2)


def test_each_player_sees_where_the_game_moved_them_in_the_ranking(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    first = running_game(db, [ann, ben])
    finish(db, first, winner=ann)
    assert ratings.rank_moves(db, first) == {ann.id: RankMove(None, 1, 2), ben.id: RankMove(None, 2, 2)}
    second = running_game(db, [ben, cat], now=NOW + 3 * HOUR)
    finish(db, second, winner=ben, start=4 * HOUR)
    moves = ratings.rank_moves(db, second)
    assert moves[cat.id] == RankMove(None, 3, 3)
    assert moves[ben.id].before == 2 and moves[ben.id].total == 3
    now_ranked = {row.user_id: row.rank for row in ratings.ranking(db, "fake")}
    assert {user: move.after for user, move in moves.items()} == {ben.id: now_ranked[ben.id], cat.id: 3}
    assert ratings.rank_moves(db, first)[ann.id] == RankMove(None, 1, 2)  # as it stood then
    game = db.get(Game, second)
    assert game is not None
    by_seat = ratings.seat_rank_moves(db, game)
    assert sorted(by_seat.values(), key=lambda move: move.after) == sorted(
        moves.values(), key=lambda move: move.after
    )


def test_play_again_makes_a_like_game_and_invites_the_others(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    old = running_game(db, [ann, ben, cat], limit_hours=12)
    finish(db, old)
    again = lobby.play_again(db, ben, old, LATER)
    previous = db.get(Game, old)
    assert previous is not None
    assert (again.status, again.game_type, again.players, again.time_limit_hours) == ("open", "fake", 3, 12)
    assert again.options == previous.options and again.id != old
    assert [seat.user_id for seat in again.seats] == [ben.id]
    invited = set(db.scalars(select(GameInvitation.user_id).where(GameInvitation.game_id == again.id)))
    assert invited == {ann.id, cat.id}
    told = db.scalars(
        select(Notification.user_id).where(
            Notification.kind == "game_invitation", Notification.game_id == again.id
        )
    )
    assert set(told) == {ann.id, cat.id}
    assert lobby.play_again(db, ben, old, LATER).id == again.id  # pressed twice: one game
    assert lobby.play_again(db, ann, old, LATER).id == again.id  # a table-mate's press finds it


def test_only_a_player_of_a_finished_game_plays_it_again(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben])
    refused(db, "wrong_status", lambda: lobby.play_again(db, ann, game_id, LATER))
    finish(db, game_id)
    refused(db, "not_your_game", lambda: lobby.play_again(db, cat, game_id, LATER))
    assert db.scalars(select(Game).where(Game.creator_id == cat.id)).all() == []


def test_a_blocked_player_is_not_invited_again(db: Session) -> None:
    ann, ben, cat = make_users(db, "Ann", "Ben", "Cat")
    game_id = running_game(db, [ann, ben, cat])
    finish(db, game_id)
    friends.block(db, cat, "Ann", LATER)
    db.commit()
    again = lobby.play_again(db, ann, game_id, LATER)
    invited = set(db.scalars(select(GameInvitation.user_id).where(GameInvitation.game_id == again.id)))
    assert invited == {ben.id}
