"""Plain records of a game, its seats and a user, read with Core statements on the hot paths (a game read,
an order, the session's user), and the protocols that let a reader take either such a record or an ORM row.

Loading ORM objects costs about twice what the same row costs as a Core row (the identity map, the
instance state, the relationship loaders); a record is a dataclass filled from the row. A record is not
tracked: whoever changes one writes the change with its own statement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Protocol

from app.db import table_of
from app.models.games import Game, GameFigures, Seat, WaitRow
from app.models.users import Roles, User


class SeatFacts(Protocol):
    """What reading a seat needs: a `Seat` row or a `SeatRecord`."""

    @property
    def id(self) -> int: ...
    @property
    def game_id(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def number(self) -> int | None: ...
    @property
    def pick(self) -> int | None: ...
    @property
    def status(self) -> str: ...
    @property
    def missed_turns(self) -> int: ...
    @property
    def joined_at(self) -> datetime: ...
    @property
    def opened_at(self) -> datetime | None: ...
    @property
    def offered_to(self) -> int | None: ...
    @property
    def offered_until(self) -> datetime | None: ...


class GameSetup(Protocol):
    """What rebuilding a game from its orders needs: a `Game` row, a `GameRecord`, or a game of the replay
    corpus."""

    @property
    def id(self) -> int: ...
    @property
    def game_type(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def players(self) -> int: ...
    @property
    def seed(self) -> int: ...


class GameFacts(GameSetup, Protocol):
    """What reading a game needs: a `Game` row or a `GameRecord`."""

    @property
    def name(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def time_limit_hours(self) -> int | None: ...
    @property
    def state(self) -> dict[str, Any] | None: ...
    @property
    def version(self) -> int: ...
    @property
    def creator_id(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def started_at(self) -> datetime | None: ...
    @property
    def finished_at(self) -> datetime | None: ...
    @property
    def standings(self) -> list[dict[str, Any]] | None: ...
    @property
    def warning_percent(self) -> int: ...
    @property
    def eviction_preset(self) -> int: ...
    @property
    def vote_after(self) -> int: ...
    @property
    def quarantined_at(self) -> datetime | None: ...
    @property
    def quarantine_reason(self) -> str | None: ...
    @property
    def min_reliability(self) -> int | None: ...
    @property
    def held_at(self) -> datetime | None: ...
    @property
    def hold_kind(self) -> str | None: ...
    @property
    def hold_reason(self) -> str | None: ...
    @property
    def bot_seats(self) -> int: ...
    @property
    def bots_keep_seats(self) -> bool: ...
    @property
    def seats(self) -> Sequence[SeatFacts]: ...
    @property
    def seats_taken(self) -> int: ...
    @property
    def clock_stopped(self) -> bool: ...


class WaitFacts(Protocol):
    """What showing a wait needs: a `WaitRow` or a `WaitRecord`."""

    @property
    def seat(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def since_version(self) -> int: ...
    @property
    def deadline_at(self) -> datetime | None: ...
    @property
    def market(self) -> bool: ...
    @property
    def bot(self) -> bool: ...


class UserFacts(Protocol):
    """What reading a user needs: a `User` row or a `UserRecord`."""

    @property
    def id(self) -> int: ...
    @property
    def email(self) -> str: ...
    @property
    def pending_email(self) -> str | None: ...
    @property
    def display_name(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def time_zone(self) -> str: ...
    @property
    def role(self) -> str: ...
    @property
    def session_version(self) -> int: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def banned_until(self) -> datetime | None: ...
    @property
    def join_banned_until(self) -> datetime | None: ...
    @property
    def muted_until(self) -> datetime | None: ...
    @property
    def signup_pending(self) -> bool: ...
    @property
    def is_admin(self) -> bool: ...
    @property
    def is_moderator(self) -> bool: ...


@dataclass(slots=True)
class SeatRecord:
    id: int
    game_id: int
    user_id: int | None
    number: int | None
    pick: int | None
    status: str
    missed_turns: int
    joined_at: datetime
    opened_at: datetime | None
    offered_to: int | None
    offered_until: datetime | None


@dataclass(slots=True)
class GameRecord(GameFigures):
    """A game and its seats as read; `apply_order` moves its state and version (and its status when the
    game ends) as it writes them."""

    id: int
    game_type: str
    name: str
    status: str
    players: int
    time_limit_hours: int | None
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    creator_id: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    standings: list[dict[str, Any]] | None
    warning_percent: int
    eviction_preset: int
    vote_after: int
    quarantined_at: datetime | None
    quarantine_reason: str | None
    min_reliability: int | None
    held_at: datetime | None
    hold_kind: str | None
    hold_reason: str | None
    bot_seats: int
    bots_keep_seats: bool
    seats: tuple[SeatRecord, ...] = ()


@dataclass(frozen=True, slots=True)
class WaitRecord:
    """A wait as a reader shows it (a writer changes waits through their `WaitRow`s)."""

    seat: int
    phase: str
    since_version: int
    deadline_at: datetime | None
    market: bool
    bot: bool = False  # a bot answers it


@dataclass(frozen=True, slots=True)
class UserRecord(Roles):
    """The session's user as the pages and orders read it (no password hash: nothing here checks one)."""

    id: int
    email: str
    pending_email: str | None
    display_name: str
    language: str
    time_zone: str
    role: str
    session_version: int
    created_at: datetime
    banned_until: datetime | None
    join_banned_until: datetime | None
    muted_until: datetime | None
    signup_pending: bool


GAMES, SEATS, USERS, WAITS = table_of(Game), table_of(Seat), table_of(User), table_of(WaitRow)
GAME_COLUMNS = tuple(column.name for column in GAMES.columns)  # GameRecord's fields before its seats
SEAT_COLUMNS = tuple(column.name for column in SEATS.columns)  # SeatRecord's fields
USER_COLUMNS = tuple(field.name for field in fields(UserRecord))  # the users' columns a UserRecord holds
WAIT_COLUMNS = tuple(field.name for field in fields(WaitRecord))  # the waits' columns a WaitRecord holds
