"""Users' availability windows and pauses, read from the database as the clock's values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from sqlalchemy import (
    BindParameter,
    CompoundSelect,
    Date,
    Integer,
    String,
    bindparam,
    cast,
    literal_column,
    null,
    select,
    text,
    union_all,
)
from sqlalchemy.orm import Session

from app import clock
from app.db import UTCDateTime, table_of
from app.models import AvailabilityWindow, PauseRequest, User
from app.models.records import GameFacts
from app.services.deadlines.bot_seats import bot_played

# Pause bounds are local dates; no zone is more than 14 hours from UTC, so two days of margin is plenty.
_ZONE_MARGIN = timedelta(days=2)


def clock_time(minute: int) -> time:
    return time(minute // 60, minute % 60)


def minute_of(moment: time) -> int:
    return moment.hour * 60 + moment.minute


def as_window(row: AvailabilityWindow) -> clock.Window:
    return clock.Window(row.weekday, clock_time(row.start_minute), clock_time(row.end_minute))


def windows_of(session: Session, user_id: int) -> list[clock.Window]:
    rows = session.scalars(
        select(AvailabilityWindow)
        .where(AvailabilityWindow.user_id == user_id)
        .order_by(AvailabilityWindow.weekday, AvailabilityWindow.start_minute)
    )
    return [as_window(row) for row in rows]


def as_pause(row: PauseRequest) -> clock.Pause:
    return clock.Pause(row.first_day, row.last_day, row.zone, row.reason, row.removed_at)


UserPauses = dict[int, list[tuple[int, clock.Pause]]]  # user id -> (the pause row's id, the pause)


def _calendars_statement() -> CompoundSelect:
    """The zones, the windows and the pauses of the users `ids` as the three parts of one UNION ALL, in
    columns that each part fills in its own way (pauses that ended before `earliest_day` left out)."""
    users, windows, pauses = table_of(User), table_of(AvailabilityWindow), table_of(PauseRequest)
    ids: BindParameter[int] = bindparam("ids", expanding=True)
    number, day, word, moment = (cast(null(), kind) for kind in (Integer, Date, String, UTCDateTime))
    zones = select(
        users.c.id, literal_column("0"), number, number, number, day, day, users.c.time_zone, word, moment
    ).where(users.c.id.in_(ids))
    weekly = select(
        windows.c.user_id,
        literal_column("1"),
        windows.c.weekday,
        windows.c.start_minute,
        windows.c.end_minute,
        day,
        day,
        word,
        word,
        moment,
    ).where(windows.c.user_id.in_(ids))
    paused = select(
        pauses.c.user_id,
        literal_column("2"),
        pauses.c.id,
        number,
        number,
        pauses.c.first_day,
        pauses.c.last_day,
        pauses.c.zone,
        pauses.c.reason,
        pauses.c.removed_at,
    ).where(pauses.c.user_id.in_(ids), pauses.c.last_day >= bindparam("earliest_day", type_=Date))
    return union_all(zones, weekly, paused).order_by(text("1, 2, 3, 4"))


_CALENDARS = _calendars_statement()  # built once: each wait that starts reads it


def read_calendars(
    session: Session, user_ids: Iterable[int], since: datetime
) -> tuple[dict[int, clock.Availability], UserPauses]:
    """Each user's availability (zone and windows) and the pauses that may still be in force at or after
    `since` (cancelled ones too), in one query whatever the number of users."""
    ids = sorted(set(user_ids))
    if not ids:
        return {}, {}
    rows = session.execute(_CALENDARS, {"ids": ids, "earliest_day": (since - _ZONE_MARGIN).date()})
    zone_of: dict[int, str] = {}
    weeks: dict[int, list[clock.Window]] = {user_id: [] for user_id in ids}
    found: UserPauses = {user_id: [] for user_id in ids}
    for user_id, kind, a, b, c, first_day, last_day, zone, reason, removed_at in rows:
        if kind == 0:
            zone_of[user_id] = zone
        elif kind == 1:
            weeks[user_id].append(clock.Window(a, clock_time(b), clock_time(c)))
        else:
            found[user_id].append((a, clock.Pause(first_day, last_day, zone, reason, removed_at)))
    available = {
        user_id: clock.Availability(zone, tuple(weeks[user_id])) for user_id, zone in zone_of.items()
    }
    return available, found


@dataclass(frozen=True)
class ClockInputs:
    """The availabilities and pauses of many games' players, read at once for a batch of timeouts;
    `game_clock` takes them from here (for the same `since`) instead of reading them game by game."""

    since: datetime
    available: dict[int, clock.Availability]
    pauses: UserPauses

    KEY = "deadlines.clock_inputs"

    @classmethod
    def read(cls, session: Session, user_ids: Iterable[int], since: datetime) -> ClockInputs:
        inputs = session.info[cls.KEY] = cls(since, *read_calendars(session, user_ids, since))
        return inputs

    def close(self, session: Session) -> None:
        session.info.pop(self.KEY, None)

    @classmethod
    def held(cls, session: Session, user_ids: list[int], since: datetime) -> ClockInputs | None:
        inputs: ClockInputs | None = session.info.get(cls.KEY)
        if inputs is None or inputs.since != since or not all(u in inputs.pauses for u in user_ids):
            return None
        return inputs


@dataclass(frozen=True)
class GameClock:
    """What the clock needs to know about one game to compute its deadlines."""

    game: GameFacts
    limit: timedelta | None
    pauses: list[clock.Pause]  # of every player seated in the game
    holders: dict[int, int | None]  # seat number -> the user holding it, None for an open seat
    opened: dict[int, datetime | None]  # seat number -> when it became open
    available: dict[int, clock.Availability]  # user id -> availability
    bots: frozenset[int] = frozenset()  # the seats a bot plays: their waits are due at once

    def seat_availability(self, seat: int) -> clock.Availability:
        holder = self.holders.get(seat)
        return self.available.get(holder, clock.ALWAYS) if holder is not None else clock.ALWAYS

    def by_seat(self, seats: Iterable[int]) -> dict[int, clock.Availability]:
        return {seat: self.seat_availability(seat) for seat in seats}


def time_limit(game: GameFacts) -> timedelta | None:
    return timedelta(hours=game.time_limit_hours) if game.time_limit_hours is not None else None


def game_clock(session: Session, game: GameFacts, since: datetime) -> GameClock:
    """The game's clock inputs; `since` bounds the pauses read (none that ended before it matter)."""
    seats = [seat for seat in game.seats if seat.number is not None]
    holders = {seat.number: seat.user_id if seat.status == "playing" else None for seat in seats}
    user_ids = [user_id for user_id in holders.values() if user_id is not None]
    held = ClockInputs.held(session, user_ids, since)
    available, by_user = (held.available, held.pauses) if held else read_calendars(session, user_ids, since)
    pauses = [pause for _id, pause in sorted(p for user_id in set(user_ids) for p in by_user[user_id])]
    available = {user_id: available[user_id] for user_id in user_ids if user_id in available}
    return GameClock(
        game=game,
        limit=time_limit(game),
        pauses=pauses,
        holders={number: holder for number, holder in holders.items() if number is not None},
        opened={seat.number: seat.opened_at for seat in seats if seat.number is not None},
        available=available,
        bots=bot_played(game),
    )
