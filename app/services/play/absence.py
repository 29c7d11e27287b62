"""The absence ladder in the database: missed turns in a row, the vote to evict sooner, eviction.

A timeout is a missed turn; an order in time resets the count (and the votes against the seat). A player
is evicted after X missed turns in a row, X from `app.clock.eviction_threshold` (the game's preset, the
stage of the game, its size and the votes). Once a player has missed `vote_after` turns in a row, each
other player may vote to evict them sooner; a vote that brings X down to the count evicts at once.

The stage of the game needs its current turn and expected length: a rules module may give them with an
optional `progress(state) -> (turn, expected_turns)`; without it the game counts as in its first third.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from app import clock
from app.clock.absence import EVICTION_FLOOR
from app.games import registry
from app.models import EvictionVote, Game, Notification, Seat, User
from app.models.records import SeatFacts, UserFacts
from app.services.deadlines import bot_seats, deadlines, notices
from app.services.errors import ServiceError
from app.services.play import seats


class AbsenceSettings(BaseModel):
    """The ladder's settings a game's creator may change (defaults: the site's and docs/time.md's)."""

    model_config = ConfigDict(extra="forbid")

    warning_percent: int = Field(80, ge=50, le=95)
    eviction_preset: int = Field(4, ge=2, le=12)
    vote_after: int = Field(2, ge=1, le=6)


def absence_settings(raw: Mapping[str, Any] | None) -> AbsenceSettings:
    try:
        return AbsenceSettings.model_validate(dict(raw or {}))
    except ValidationError as error:
        field = ".".join(str(part) for part in error.errors()[0]["loc"])
        raise ServiceError(
            "invalid_input",
            "Absence settings: warning at 50 to 95%, eviction after 2 to 12 missed turns, vote after 1 to 6.",
            f"absence.{field}" if field else "absence",
        ) from None


def progress(game: Game) -> tuple[int, int]:
    """(current turn, expected length in turns) from the rules' optional `progress`, else (1, 1)."""
    rules = registry.get(game.game_type)
    hook = getattr(rules, "progress", None)
    if hook is None or game.state is None:
        return (1, 1)
    turn, length = hook(rules.load(game.state))
    return (max(1, int(turn)), max(1, int(length)))


def votes_against(session: Session, game: Game, seat_number: int) -> int:
    """Votes against the seat's holder by players who still hold another seat of the game."""
    voters = [s.user_id for s in game.seats if s.status == "playing" and s.number != seat_number]
    query = select(func.count()).where(
        EvictionVote.game_id == game.id, EvictionVote.seat == seat_number, EvictionVote.voter_id.in_(voters)
    )
    return session.scalar(query) or 0


def threshold(session: Session, game: Game, seat_number: int, stage: tuple[int, int] | None = None) -> int:
    """X: the missed turns in a row that evict this seat's holder now (`stage`: `progress(game)`)."""
    turn, length = stage or progress(game)
    votes = votes_against(session, game, seat_number)
    return clock.eviction_threshold(game.players, turn, length, votes, deadlines.ladder_of(game))


def count_missed_turn(session: Session, game: Game, seat_number: int, now: datetime) -> None:
    """A timeout of this seat: one more missed turn in a row; eviction at X."""
    seat = next((s for s in game.seats if s.number == seat_number), None)
    if seat is None or seat.status != "playing" or game.status != "active":
        return
    seat.missed_turns = clock.missed_in_row_after(seat.missed_turns, timed_out=True)
    if seat.missed_turns < EVICTION_FLOOR:  # X is never below the floor: no need to work it out
        return
    if clock.is_evicted(seat.missed_turns, threshold(session, game, seat_number)):
        evict(session, game, seat, now)


def reset_missed_turns(session: Session, game_id: int, seat: SeatFacts) -> None:
    """An order in time: the count starts again, and the votes against the seat go."""
    if not seat.missed_turns:
        return
    session.execute(
        delete(EvictionVote).where(EvictionVote.game_id == game_id, EvictionVote.seat == seat.number)
    )
    missed = clock.missed_in_row_after(seat.missed_turns, timed_out=False)
    session.execute(
        update(Seat).where(Seat.id == seat.id).values(missed_turns=missed)
    )  # a loaded Seat follows


def evict(session: Session, game: Game, seat: Seat, now: datetime) -> None:
    former = seat.user_id
    seats.open_seat(session, game, seat, "evicted", now)
    notices.public_notice(session, game, "platform:seat_evicted", {"seat": seat.number}, now)
    if former is not None:
        session.add(Notification(user_id=former, game_id=game.id, kind="evicted", data={"seat": seat.number}))
    notices.notify_players(session, game, "player_evicted", {"seat": seat.number, "user_id": former})


@dataclass(frozen=True)
class VoteResult:
    votes: int
    threshold: int
    evicted: bool


def vote_to_evict(
    session: Session, voter: UserFacts, game_id: int, seat_number: int, now: datetime
) -> VoteResult:
    """Another player's vote to evict the seat's holder sooner; evicts at once when X reaches the count."""
    game = seats.locked_game(session, game_id)
    seats.require_active(game)
    own = seats.held_seat(game, voter)
    target = seats.seat_numbered(game, seat_number)
    _check_vote(session, game, own, target, voter)
    session.add(EvictionVote(game_id=game.id, seat=seat_number, voter_id=voter.id, created_at=now))
    session.flush()
    x = threshold(session, game, seat_number)
    evicted = clock.is_evicted(target.missed_turns, x)
    votes = votes_against(session, game, seat_number)
    if evicted:
        evict(session, game, target, now)
    session.commit()
    return VoteResult(votes, x, evicted)


def _check_vote(session: Session, game: Game, own: Seat, target: Seat, voter: UserFacts) -> None:
    if own.number == target.number:
        raise ServiceError("forbidden", "You cannot vote against yourself.")
    if target.status != "playing" or not clock.may_vote_to_evict(
        target.missed_turns, deadlines.ladder_of(game)
    ):
        raise ServiceError("vote_not_open", "This player has not missed enough turns in a row for a vote.")
    existing = select(EvictionVote.id).where(
        EvictionVote.game_id == game.id, EvictionVote.seat == target.number, EvictionVote.voter_id == voter.id
    )
    if session.scalar(existing) is not None:
        raise ServiceError("already_voted", "You have already voted against this player.")


# --- reading -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatAbsence:
    """One seat as the game's absence table shows it."""

    seat: int
    player: str | None
    status: str
    missed_turns: int
    threshold: int
    votes: int
    may_vote: bool  # the viewer may vote against this seat now
    voted: bool  # the viewer has voted against it
    offered_to_viewer: bool
    reserved: bool  # offered to someone else for now
    bot_since: datetime | None = None  # an open seat a bot holds (the game's `bots_keep_seats`): since when


@dataclass(frozen=True)
class _Viewer:
    """Who looks at the table, and what they may already have done."""

    user: UserFacts | None
    seat: int | None  # the seat they hold
    voted: set[int]  # the seats they voted against


def absence_table(session: Session, game: Game, viewer: UserFacts | None, now: datetime) -> list[SeatAbsence]:
    """Each numbered seat with its missed turns, its X, the votes, and what the viewer may do about it."""
    names = dict(session.execute(select(User.id, User.display_name).where(User.id.in_(_holders(game)))).all())
    seat = next(
        (s.number for s in game.seats if viewer and s.user_id == viewer.id and s.status == "playing"), None
    )
    looker = _Viewer(viewer, seat, _voted_seats(session, game, viewer))
    stage = progress(game)
    numbered = sorted((s for s in game.seats if s.number is not None), key=lambda s: s.number or 0)
    return [_seat_absence(session, game, s, names, looker, stage, now) for s in numbered]


def _seat_absence(
    session: Session,
    game: Game,
    seat: Seat,
    names: dict[int, str],
    looker: _Viewer,
    stage: tuple[int, int],
    now: datetime,
) -> SeatAbsence:
    number = seat.number or 0
    playing = seat.status == "playing"
    may_vote = (
        game.status == "active"
        and playing
        and looker.seat is not None
        and looker.seat != number
        and number not in looker.voted
        and clock.may_vote_to_evict(seat.missed_turns, deadlines.ladder_of(game))
    )
    offered = looker.user is not None and seat.offered_to == looker.user.id
    return SeatAbsence(
        seat=number,
        player=bot_seats.seat_name(game, seat, names),
        status=seat.status,
        missed_turns=seat.missed_turns,
        threshold=threshold(session, game, number, stage),
        votes=votes_against(session, game, number),
        may_vote=may_vote,
        voted=number in looker.voted,
        offered_to_viewer=offered and not playing,
        reserved=seats.is_reserved(seat, now) and not offered,
        bot_since=seat.opened_at if seat.status == "open" and bot_seats.plays_seat(game, seat) else None,
    )


def _holders(game: Game) -> list[int]:
    return [seat.user_id for seat in game.seats if seat.user_id is not None]


def _voted_seats(session: Session, game: Game, viewer: UserFacts | None) -> set[int]:
    if viewer is None:
        return set()
    query = select(EvictionVote.seat).where(
        EvictionVote.game_id == game.id, EvictionVote.voter_id == viewer.id
    )
    return set(session.scalars(query))
