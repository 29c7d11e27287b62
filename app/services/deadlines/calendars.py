"""Users' availability windows and pauses, read from the database as the clock's values."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import clock
from app.models import AvailabilityWindow, Game, PauseRequest, User

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


def availabilities(session: Session, user_ids: Iterable[int]) -> dict[int, clock.Availability]:
    """Each user's availability (zone and windows), in one query whatever the number of users."""
    ids = list(user_ids)
    if not ids:
        return {}
    query = (
        select(User.id, User.time_zone, AvailabilityWindow)
        .outerjoin(AvailabilityWindow, AvailabilityWindow.user_id == User.id)
        .where(User.id.in_(ids))
        .order_by(User.id, AvailabilityWindow.weekday, AvailabilityWindow.start_minute)
    )
    zones: dict[int, str] = {}
    windows: dict[int, list[clock.Window]] = {}
    for user_id, zone, window in session.execute(query):
        zones[user_id] = zone
        found = windows.setdefault(user_id, [])
        if window is not None:
            found.append(as_window(window))
    return {user_id: clock.Availability(zones[user_id], tuple(windows[user_id])) for user_id in zones}


def as_pause(row: PauseRequest) -> clock.Pause:
    return clock.Pause(row.first_day, row.last_day, row.zone, row.reason, row.removed_at)


def pauses_of(session: Session, user_ids: Iterable[int], since: datetime) -> list[clock.Pause]:
    """The pauses of these users that may still be in force at or after `since` (cancelled ones too)."""
    return [pause for _id, _user, pause in _pauses_by_user(session, user_ids, since)]


def _pauses_by_user(
    session: Session, user_ids: Iterable[int], since: datetime
) -> list[tuple[int, int, clock.Pause]]:
    """(the row's id, its user, the pause), in the order of the rows' ids."""
    ids = list(user_ids)
    if not ids:
        return []
    earliest_day = (since - _ZONE_MARGIN).date()
    rows = session.scalars(
        select(PauseRequest)
        .where(PauseRequest.user_id.in_(ids), PauseRequest.last_day >= earliest_day)
        .order_by(PauseRequest.id)
    )
    return [(row.id, row.user_id, as_pause(row)) for row in rows]


@dataclass(frozen=True)
class ClockInputs:
    """The availabilities and pauses of many games' players, read at once for a batch of timeouts;
    `game_clock` takes them from here (for the same `since`) instead of reading them game by game."""

    since: datetime
    available: dict[int, clock.Availability]
    pauses: dict[int, list[tuple[int, clock.Pause]]]  # user id -> (row id, pause)

    KEY = "deadlines.clock_inputs"

    @classmethod
    def read(cls, session: Session, user_ids: Iterable[int], since: datetime) -> ClockInputs:
        ids = sorted(set(user_ids))
        pauses: dict[int, list[tuple[int, clock.Pause]]] = {user_id: [] for user_id in ids}
        for row_id, user_id, pause in _pauses_by_user(session, ids, since):
            pauses[user_id].append((row_id, pause))
        inputs = session.info[cls.KEY] = cls(since, availabilities(session, ids), pauses)
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

    game: Game
    limit: timedelta | None
    pauses: list[clock.Pause]  # of every player seated in the game
    holders: dict[int, int | None]  # seat number -> the user holding it, None for an open seat
    opened: dict[int, datetime | None]  # seat number -> when it became open
    available: dict[int, clock.Availability]  # user id -> availability

    def seat_availability(self, seat: int) -> clock.Availability:
        holder = self.holders.get(seat)
        return self.available.get(holder, clock.ALWAYS) if holder is not None else clock.ALWAYS

    def by_seat(self, seats: Iterable[int]) -> dict[int, clock.Availability]:
        return {seat: self.seat_availability(seat) for seat in seats}


def time_limit(game: Game) -> timedelta | None:
    return timedelta(hours=game.time_limit_hours) if game.time_limit_hours is not None else None


def game_clock(session: Session, game: Game, since: datetime) -> GameClock:
    """The game's clock inputs; `since` bounds the pauses read (none that ended before it matter)."""
    seats = [seat for seat in game.seats if seat.number is not None]
    holders = {seat.number: seat.user_id if seat.status == "playing" else None for seat in seats}
    user_ids = [user_id for user_id in holders.values() if user_id is not None]
    held = ClockInputs.held(session, user_ids, since)
    if held is None:
        pauses, available = pauses_of(session, user_ids, since), availabilities(session, user_ids)
    else:
        pauses = [pause for _id, pause in sorted(p for user_id in user_ids for p in held.pauses[user_id])]
        available = {user_id: held.available[user_id] for user_id in user_ids if user_id in held.available}
    return GameClock(
        game=game,
        limit=time_limit(game),
        pauses=pauses,
        holders={number: holder for number, holder in holders.items() if number is not None},
        opened={seat.number: seat.opened_at for seat in seats if seat.number is not None},
        available=available,
    )
