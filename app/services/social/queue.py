"""The player queue: per game type, the time limits a player accepts, whether to be put into new games (on
by default) and into open seats of running games (off by default).

A queued player is placed, oldest entry first, in the first of:
1. (joining games in progress) an open seat of a running game of the type: the longest open first, not
   offered to someone else, whose time limit they accept and that they may take (never held a seat of that
   game, the anti-collusion cap, blocks, the creator's reliability gate);
2. (joining new games) a game of the type still forming, whoever created it (errata 1): the oldest first,
   whose time limit they accept and whose table they may sit at;
3. (joining new games) a new game, when enough queued players can sit together and accept a common time
   limit and table size: it is made for exactly the players found, at the smallest size they all accept
   (the type's minimum when nobody says more), with the time limit nearest QUEUE_LIMIT_HOURS that they
   all accept, so that it starts at once. The oldest entry is the game's creator.
Table sizes: an entry may name the smallest and largest tables it accepts (`min_players`,
`max_players`); one that says nothing accepts every size of the type. A forming game (2.) takes a queued
player only if its size is one the player accepts.
A placed player leaves the queue and is told (`queue_placed`). Placing runs when a player enters or
changes their entry, and every minute (a periodic job) for the games made and the seats opened since.

Concurrency: each placement is one short transaction that first locks the type's `QueueBook` row (placements
of a type never interleave), then the one game it seats someone at (as every join does), so a game is
never over-filled and a player never placed twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.base import BaseScheduler
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.db import insert_ignoring_conflicts
from app.games import registry
from app.games.contract import GameRules
from app.models import Game, QueueBook, QueueEntry, Seat, User
from app.models.records import UserFacts
from app.services.errors import ServiceError
from app.services.jobs.jobs import PeriodicJob, run_periodic
from app.services.mail import notify
from app.services.play import play, seats
from app.services.players import matchmaking
from app.services.sanctions import sanctions
from app.services.social import lobby

log = logging.getLogger(__name__)
QUEUE_LIMIT_HOURS = 48  # a queue-made game's time limit, when the players accept it
MAX_HOURS = lobby.MAX_TIME_LIMIT_HOURS
HOUR_CHOICES = (1, 2, 4, 8, 12, 24, 36, 48, 72, 96, 120, 168, 336)  # what the page offers
CANDIDATES = 50  # games or seats looked at per queued player


class QueuePreferences(BaseModel):
    """What a player accepts; `max_hours` None: no maximum (and games without a time limit too)."""

    model_config = ConfigDict(extra="forbid")

    min_hours: int = Field(12, ge=1, le=MAX_HOURS)
    max_hours: int | None = Field(72, ge=1, le=MAX_HOURS)
    new_games: bool = True
    in_progress: bool = False
    min_players: int | None = Field(None, ge=2, le=8)  # the smallest table accepted; None: any
    max_players: int | None = Field(None, ge=2, le=8)  # the largest table accepted; None: any

    @model_validator(mode="after")
    def _ordered(self) -> QueuePreferences:
        if self.max_hours is not None and self.max_hours < self.min_hours:
            raise ValueError("the maximum time limit is below the minimum")
        if self.min_players and self.max_players and self.max_players < self.min_players:
            raise ValueError("the largest table is below the smallest")
        if not (self.new_games or self.in_progress):
            raise ValueError("choose new games, games in progress, or both")
        return self


def preferences(raw: dict[str, object]) -> QueuePreferences:
    try:
        return QueuePreferences.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or None
        raise ServiceError(
            "invalid_input",
            "Queue: time limits of 1 to 336 hours, the maximum not below the minimum; tables of 2 to 8 "
            "players; new games, games in progress, or both.",
            field,
        ) from None


def table_sizes(entry: QueueEntry, rules: GameRules[Any]) -> range:
    """The table sizes the entry accepts, within the game type's."""
    smallest = max(rules.min_players, entry.min_players or rules.min_players)
    largest = min(rules.max_players, entry.max_players or rules.max_players)
    return range(smallest, largest + 1)


def accepts(entry: QueueEntry, hours: int | None) -> bool:
    if hours is None:
        return entry.max_hours is None
    return entry.min_hours <= hours and (entry.max_hours is None or hours <= entry.max_hours)


# --- entering and leaving ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Placement:
    user_id: int
    game_id: int
    how: str  # seat (an open seat of a running game), forming (a forming game), new (a new game)


def enter(
    session: Session, user: UserFacts, game_type: str, chosen: QueuePreferences, now: datetime
) -> list[Placement]:
    """Enter (or change one's entry in) the queue of a game type; then place whoever can be placed."""
    if not registry.known(game_type):
        raise ServiceError("invalid_input", "There is no such game type.", "game_type")
    sanctions.check_may_join(user, now)
    locked_book(session, game_type)
    entry = session.scalar(
        select(QueueEntry).where(QueueEntry.user_id == user.id, QueueEntry.game_type == game_type)
    )
    if entry is None:
        entry = QueueEntry(user_id=user.id, game_type=game_type, created_at=now)
        session.add(entry)
    for name, value in chosen.model_dump().items():
        setattr(entry, name, value)
    session.commit()
    return match_type(session, game_type, now)


def leave(session: Session, user: UserFacts, game_type: str) -> None:
    entry = session.scalar(
        select(QueueEntry).where(QueueEntry.user_id == user.id, QueueEntry.game_type == game_type)
    )
    if entry is None:
        raise ServiceError("not_found", "You are not in this queue.")
    session.delete(entry)
    session.commit()


def entries_of(session: Session, user: UserFacts) -> list[QueueEntry]:
    return list(session.scalars(select(QueueEntry).where(QueueEntry.user_id == user.id)))


def waiting_counts(session: Session) -> dict[str, int]:
    rows = session.execute(select(QueueEntry.game_type, func.count()).group_by(QueueEntry.game_type))
    return {game_type: count for game_type, count in rows}


# --- placing ----------------------------------------------------------------------------------------


def locked_book(session: Session, game_type: str) -> QueueBook:
    insert_ignoring_conflicts(session, QueueBook, game_type=game_type, placed=0)
    book = session.scalar(select(QueueBook).where(QueueBook.game_type == game_type).with_for_update())
    assert book is not None
    return book


def match_all(session: Session, now: datetime) -> None:
    """Place every queued player who can be placed, in every game type (the periodic job)."""
    for game_type in session.scalars(select(QueueEntry.game_type).distinct()).all():
        if registry.known(game_type):
            match_type(session, game_type, now)


def match_type(session: Session, game_type: str, now: datetime) -> list[Placement]:
    """Placements one transaction at a time, until nobody queued for the type can be placed."""
    placed: list[Placement] = []
    while True:
        placements = _place_next(session, game_type, now)
        session.commit()
        if not placements:
            return placed
        placed += placements


def _place_next(session: Session, game_type: str, now: datetime) -> list[Placement]:
    session.expire_all()  # every read below is fresh: other transactions committed since the last pass
    book = locked_book(session, game_type)
    entries = list(
        session.scalars(
            select(QueueEntry)
            .where(QueueEntry.game_type == game_type)
            .order_by(QueueEntry.created_at, QueueEntry.id)
        )
    )
    for entry in entries:
        user = session.get(User, entry.user_id)
        assert user is not None
        placement = _into_open_seat(session, entry, user, now) if entry.in_progress else None
        if placement is None and entry.new_games:
            placement = _into_forming_game(session, entry, user, now)
        if placement is not None:
            session.delete(entry)
            book.placed += 1
            return [placement]
    return _into_new_game(session, [entry for entry in entries if entry.new_games], now)


def fresh_locked_game(session: Session, game_id: int) -> Game:
    """The game locked, its row and seats read again (another transaction may have changed them)."""
    query = select(Game).where(Game.id == game_id).with_for_update()
    return session.scalars(query.execution_options(populate_existing=True)).one()


def _into_open_seat(session: Session, entry: QueueEntry, user: UserFacts, now: datetime) -> Placement | None:
    query = (
        select(Seat.game_id, Seat.number)
        .join(Game, Game.id == Seat.game_id)
        .where(
            Game.game_type == entry.game_type,
            Game.status == "active",
            Game.quarantined_at.is_(None),
            Seat.status == "open",
            Seat.number.is_not(None),
        )
        .order_by(Seat.opened_at, Seat.id)
        .limit(CANDIDATES)
    )
    found = [(session.get(Game, game_id), number) for game_id, number in session.execute(query).all()]
    candidates = [(game, number) for game, number in found if game and accepts(entry, game.time_limit_hours)]
    if not candidates:
        return None
    standing = matchmaking.standing_of(session, user.id)
    for candidate, number in candidates:
        if standing.obstacles(matchmaking.members_of(candidate), candidate.min_reliability, {}):
            continue
        game = fresh_locked_game(session, candidate.id)
        seat = next((s for s in game.seats if s.number == number), None)
        if game.status != "active" or seat is None:
            continue
        try:
            seats.install_replacement(session, game, seat, user, now)
        except ServiceError:
            continue  # reserved, held before, the cap, a block or the gate: the next seat
        _tell(session, user, game, "seat")
        return Placement(user.id, game.id, "seat")
    return None


def _into_forming_game(
    session: Session, entry: QueueEntry, user: UserFacts, now: datetime
) -> Placement | None:
    query = (
        select(Game)
        .where(Game.game_type == entry.game_type, Game.status == "open")
        .order_by(Game.created_at, Game.id)
        .limit(CANDIDATES)
    )
    sizes = table_sizes(entry, registry.get(entry.game_type))
    games = [
        game
        for game in session.scalars(query).all()
        if accepts(entry, game.time_limit_hours) and game.players in sizes
    ]
    games = [game for game in games if user.id not in matchmaking.members_of(game)]
    if not games:
        return None
    standing = matchmaking.standing_of(session, user.id)
    for candidate in games:
        if standing.obstacles(matchmaking.members_of(candidate), candidate.min_reliability, {}):
            continue
        game = fresh_locked_game(session, candidate.id)
        if game.status != "open" or len(game.seats) >= game.players:
            continue
        try:
            matchmaking.check_may_sit(session, game, user)
        except ServiceError:
            continue
        lobby.seat_player(session, game, user, now, kind="queue_placed", data={"how": "forming"})
        play.announce(session, game)
        return Placement(user.id, game.id, "forming")
    return None


def _into_new_game(session: Session, entries: list[QueueEntry], now: datetime) -> list[Placement]:
    """A new game for the first group of queued players who can sit together, if there is one."""
    if not entries:
        return []
    rules = registry.get(entries[0].game_type)
    for start, first in enumerate(entries):
        group = _group_from(session, first, entries[start + 1 :], rules)
        if len(group) not in _common_sizes(group, rules):
            continue
        ids = [entry.user_id for entry in group]
        matchmaking.lock_users(session, ids)  # then check again: a join elsewhere may have come first
        return (
            _make_game(session, group, len(group), now) if matchmaking.may_sit_together(session, ids) else []
        )
    return []


def _group_from(
    session: Session, first: QueueEntry, others: list[QueueEntry], rules: GameRules[Any]
) -> list[QueueEntry]:
    """The oldest entries that can sit together, until they are as many as the smallest table they all
    accept."""
    group = [first]
    for entry in others:
        sizes = _common_sizes(group, rules)
        if not sizes or len(group) >= sizes.start:
            break
        candidate = [*group, entry]
        common = _common_sizes(candidate, rules)
        if (
            common
            and len(candidate) <= common[-1]
            and _common_hours(candidate) is not None
            and matchmaking.may_sit_together(session, [member.user_id for member in candidate])
        ):
            group = candidate
    return group


def _common_sizes(group: list[QueueEntry], rules: GameRules[Any]) -> range:
    """The table sizes every entry of the group accepts (empty if none)."""
    ranges = [table_sizes(entry, rules) for entry in group]
    return range(max(r.start for r in ranges), min(r.stop for r in ranges))


def _common_hours(group: list[QueueEntry]) -> int | None:
    """The time limit nearest QUEUE_LIMIT_HOURS that every entry accepts, if any."""
    low = max(entry.min_hours for entry in group)
    highs = [entry.max_hours for entry in group if entry.max_hours is not None]
    high = min(highs) if highs else MAX_HOURS
    return min(max(QUEUE_LIMIT_HOURS, low), high) if low <= high else None


def _make_game(session: Session, group: list[QueueEntry], players: int, now: datetime) -> list[Placement]:
    users = [session.get(User, entry.user_id) for entry in group]
    hours = _common_hours(group)
    creator = users[0]
    assert creator is not None and hours is not None
    game = lobby.new_game(
        session, creator, game_type=group[0].game_type, players=players, time_limit_hours=hours, now=now
    )
    _tell(session, creator, game, "new")
    for user in users[1:]:
        assert user is not None
        lobby.seat_player(session, game, user, now, kind="queue_placed", data={"how": "new"})
    for entry in group:
        session.delete(entry)
    locked_book(session, group[0].game_type).placed += len(group)
    play.announce(session, game)
    return [Placement(entry.user_id, game.id, "new") for entry in group]


def _tell(session: Session, user: UserFacts, game: Game, how: str) -> None:
    notify.notify_users(session, [user.id], "queue_placed", {"how": how}, game.id)


# --- the periodic job -------------------------------------------------------------------------------

QUEUE_JOB = PeriodicJob("queue", timedelta(minutes=1), match_all)


def scheduler_job(sessions: sessionmaker[Session]) -> Callable[[BaseScheduler], None]:
    """For `Jobs.more_jobs`: place queued players every minute, once per minute across all processes."""

    def run() -> None:
        try:
            run_periodic(sessions, datetime.now(UTC), [QUEUE_JOB])
        except Exception:
            log.exception("the queue job failed; the next minute will retry")

    def register(scheduler: BaseScheduler) -> None:
        scheduler.add_job(run, "interval", minutes=1, id="queue")

    return register
