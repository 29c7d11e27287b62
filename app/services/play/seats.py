"""Quitting, open seats and replacements.

A seat keeps its number for the whole game; who holds it changes. Quitting (or being evicted) ends the
holder's tenure and opens the seat: it keeps playing the defaults (an open seat's waits are short, see
`app.services.deadlines.deadlines`) until someone takes it. A quitting player may name a replacement: the seat
is then offered to that user alone for OFFER_HOURS, after which anyone may take it. Whoever takes it gets the
seat's whole hidden information (the rules' view is per seat number) and a full fresh time limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.models import EvictionVote, Game, Notification, Seat, SeatTenure, User
from app.models.records import UserFacts
from app.services.deadlines import deadlines, notices
from app.services.errors import ServiceError, not_found
from app.services.players import friends, matchmaking

if TYPE_CHECKING:
    from app.services.players.open_places import GameListing

OFFER_HOURS = 72
GIVE_BACK_HOURS = OFFER_HOURS  # a seat a ban opened goes back to its holder if the ban is lifted this soon
LIST_LIMIT = 100


def locked_game(session: Session, game_id: int) -> Game:
    games = deadlines.locked_games(session, [game_id])
    if not games:
        raise not_found("This game does not exist.")
    return games[0]


def require_active(game: Game) -> None:
    if game.status != "active":
        raise ServiceError("wrong_status", "This game is not running.")


def seat_numbered(game: Game, number: int) -> Seat:
    seat = next((seat for seat in game.seats if seat.number == number), None)
    if seat is None:
        raise ServiceError("invalid_input", "This game has no such seat.", "seat")
    return seat


def held_seat(game: Game, user: UserFacts) -> Seat:
    seat = next((s for s in game.seats if s.user_id == user.id and s.status == "playing"), None)
    if seat is None:
        raise ServiceError("not_your_game", "You do not hold a seat in this game.")
    return seat


def current_tenure(session: Session, seat: Seat) -> SeatTenure | None:
    return session.scalar(
        select(SeatTenure).where(SeatTenure.seat_id == seat.id, SeatTenure.ended_at.is_(None))
    )


def tenures(session: Session, game: Game) -> list[SeatTenure]:
    """The history of every seat of the game: who held which seat when."""
    seat_ids = [seat.id for seat in game.seats]
    query = select(SeatTenure).where(SeatTenure.seat_id.in_(seat_ids)).order_by(SeatTenure.id)
    return list(session.scalars(query))


def open_seat(session: Session, game: Game, seat: Seat, reason: str, now: datetime) -> None:
    """End the holder's tenure; the seat is open (it keeps playing defaults) until someone takes it."""
    tenure = current_tenure(session, seat)
    if tenure is not None:
        tenure.ended_at = now
        tenure.end_reason = reason
    former = seat.user_id
    seat.user_id = None
    seat.status = "open"
    seat.opened_at = now
    seat.missed_turns = 0
    session.execute(
        delete(EvictionVote).where(
            EvictionVote.game_id == game.id,
            (EvictionVote.seat == seat.number) | (EvictionVote.voter_id == former),
        )
    )
    session.flush()
    deadlines.recompute_game(session, game, now)


# --- quitting -----------------------------------------------------------------------------------------


def may_name_as_replacement(session: Session, quitter: UserFacts, candidate: UserFacts, game: Game) -> bool:
    """Who a quitting player may name: another user who is not, and never was, in the game."""
    return candidate.id != quitter.id and not _has_played(session, game, candidate)


def _has_played(session: Session, game: Game, user: UserFacts) -> bool:
    """Whether the user holds, or ever held, a seat of this game."""
    if any(seat.user_id == user.id for seat in game.seats):
        return True
    seat_ids = [seat.id for seat in game.seats]
    query = select(SeatTenure.id).where(SeatTenure.seat_id.in_(seat_ids), SeatTenure.user_id == user.id)
    return session.scalar(query.limit(1)) is not None


def _replacement(session: Session, quitter: UserFacts, game: Game, name: str) -> User:
    candidate = session.scalar(select(User).where(User.display_name == name.strip()))
    if candidate is None:
        raise ServiceError("invalid_input", "There is no player with this name.", "replacement")
    if not may_name_as_replacement(session, quitter, candidate, game):
        raise ServiceError("invalid_input", "This player is, or was, in the game.", "replacement")
    if not friends.is_friend(session, quitter.id, candidate.id):  # the site's rule: a friend
        raise ServiceError("invalid_input", "Name a player from your friends list.", "replacement")
    matchmaking.check_may_sit(session, game, candidate, leaving=quitter.id, gate=False)
    return candidate


def quit_game(
    session: Session, user: UserFacts, game_id: int, replacement: str | None, now: datetime
) -> Game:
    """The user leaves a running game; the seat opens, offered to `replacement` (a name) if given."""
    game = locked_game(session, game_id)
    require_active(game)
    seat = held_seat(game, user)
    named = _replacement(session, user, game, replacement) if replacement and replacement.strip() else None
    open_seat(session, game, seat, "quit", now)
    if named is not None:
        seat.offered_to = named.id
        seat.offered_until = now + timedelta(hours=OFFER_HOURS)
        data = {"seat": seat.number, "from": user.display_name}
        session.add(Notification(user_id=named.id, game_id=game.id, kind="seat_offered", data=data))
    notices.public_notice(
        session, game, "platform:seat_quit", {"seat": seat.number, "offered": named is not None}, now
    )
    notices.notify_players(session, game, "player_quit", {"seat": seat.number, "user_id": user.id})
    session.commit()
    return game


# --- taking an open seat ------------------------------------------------------------------------------


def take_seat(session: Session, user: UserFacts, game_id: int, seat_number: int, now: datetime) -> Game:
    """The user takes an open seat: its hidden information, its position and a full fresh time limit."""
    game = locked_game(session, game_id)
    require_active(game)
    install_replacement(session, game, seat_numbered(game, seat_number), user, now)
    session.commit()
    return game


def install_replacement(session: Session, game: Game, seat: Seat, user: UserFacts, now: datetime) -> None:
    """Checks, then the user holds the open seat of the locked game (in the caller's transaction)."""
    assert seat.number is not None
    seat_number = seat.number
    _check_may_take(session, game, seat, user, now)
    seat.user_id = user.id
    seat.status = "playing"
    seat.opened_at = None
    seat.offered_to = None
    seat.offered_until = None
    seat.missed_turns = 0
    session.add(SeatTenure(seat_id=seat.id, user_id=user.id, started_at=now))
    session.flush()
    deadlines.restart_seat(session, game, seat_number, now)
    deadlines.recompute_game(session, game, now)
    notices.public_notice(
        session, game, "platform:seat_taken", {"seat": seat_number, "player": user.display_name}, now
    )
    notices.notify_players(
        session, game, "player_joined", {"seat": seat_number, "user_id": user.id}, skip=user.id
    )


def _check_may_take(session: Session, game: Game, seat: Seat, user: UserFacts, now: datetime) -> None:
    if seat.status != "open":
        raise ServiceError("seat_taken", "This seat is not open.")
    if _has_played(session, game, user):
        raise ServiceError("already_joined", "You are, or were, in this game.")
    if is_reserved(seat, now) and seat.offered_to != user.id:
        raise ServiceError("seat_taken", "This seat is offered to another player for now.")
    matchmaking.check_may_sit(session, game, user, gate=seat.offered_to != user.id)


def give_back_after_ban(session: Session, game: Game, seat: Seat, user: UserFacts, now: datetime) -> bool:
    """The seat a ban took from `user` is theirs again, if nobody held it since and the ban was lifted
    within GIVE_BACK_HOURS: their tenure goes on (the seat was theirs all along) with a fresh time limit.
    A pending offer of the seat to a replacement lapses. Returns whether the seat was given back."""
    if seat.status != "open" or seat.user_id is not None or seat.number is None:
        return False
    last = session.scalar(
        select(SeatTenure).where(SeatTenure.seat_id == seat.id).order_by(SeatTenure.id.desc()).limit(1)
    )
    if last is None or last.user_id != user.id or last.end_reason != "banned" or last.ended_at is None:
        return False
    if now - last.ended_at > timedelta(hours=GIVE_BACK_HOURS):
        return False
    last.ended_at, last.end_reason = None, None
    seat.user_id, seat.status, seat.opened_at = user.id, "playing", None
    seat.offered_to, seat.offered_until, seat.missed_turns = None, None, 0
    session.flush()
    deadlines.restart_seat(session, game, seat.number, now)
    deadlines.recompute_game(session, game, now)
    notices.public_notice(
        session, game, "platform:seat_taken", {"seat": seat.number, "player": user.display_name}, now
    )
    notices.notify_players(
        session, game, "player_joined", {"seat": seat.number, "user_id": user.id}, skip=user.id
    )
    return True


def is_reserved(seat: Seat, now: datetime) -> bool:
    return seat.offered_to is not None and seat.offered_until is not None and now < seat.offered_until


def decline_offer(session: Session, user: UserFacts, game_id: int, seat_number: int) -> Game:
    """The named replacement says no: the seat is open to everyone at once."""
    game = locked_game(session, game_id)
    seat = seat_numbered(game, seat_number)
    if seat.status != "open" or seat.offered_to != user.id:
        raise ServiceError("forbidden", "This seat is not offered to you.")
    seat.offered_to = None
    seat.offered_until = None
    session.commit()
    return game


# --- listing ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenSeat:
    game: Game | GameListing
    seat: int
    opened_at: datetime | None
    offered_to_you: bool
    reserved: bool  # offered to someone else for now


def open_seats(session: Session, user: UserFacts | None, now: datetime) -> list[OpenSeat]:
    """The open seats of running games, oldest first; the user's own games are left out."""
    query = (
        select(Seat)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.status == "open", Game.status == "active", Seat.number.is_not(None))
        .order_by(Seat.opened_at, Seat.id)
        .limit(LIST_LIMIT)
    )
    found = []
    for seat in session.scalars(query):
        if user is not None and any(other.user_id == user.id for other in seat.game.seats):
            continue
        mine = user is not None and seat.offered_to == user.id
        assert seat.number is not None
        found.append(
            OpenSeat(seat.game, seat.number, seat.opened_at, mine, is_reserved(seat, now) and not mine)
        )
    return found


@dataclass(frozen=True)
class TenureInfo:
    seat: int
    player: str
    started_at: datetime
    ended_at: datetime | None
    end_reason: str | None


def history(session: Session, game: Game) -> list[TenureInfo]:
    """Who held which seat when, seat by seat."""
    numbers = {seat.id: seat.number for seat in game.seats if seat.number is not None}
    found = tenures(session, game)
    names = dict(
        session.execute(
            select(User.id, User.display_name).where(User.id.in_({t.user_id for t in found}))
        ).all()
    )
    rows = [
        TenureInfo(numbers[t.seat_id], names.get(t.user_id, "?"), t.started_at, t.ended_at, t.end_reason)
        for t in found
        if t.seat_id in numbers
    ]
    return sorted(rows, key=lambda row: (row.seat, row.started_at))
