"""Pauses: one request covers all the user's running games; removing one keeps it 24 more hours.

A pause is a range of whole days in the user's zone (kept with the request, so a later change of zone
does not move it). No deadline of any seat of a game falls inside a pause of one of its seated players:
it moves to the pause's end (app.clock). A request or a removal recomputes those games' deadlines.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import clock
from app.models import PauseRequest
from app.models.records import UserFacts
from app.services.deadlines import deadlines, notices
from app.services.deadlines.calendars import as_pause
from app.services.errors import ServiceError, not_found
from app.services.sanctions import sanctions

MAX_DAYS = 30  # one request
MAX_AHEAD = timedelta(days=365)  # how far ahead a pause may start
MAX_PENDING = 3  # requests not yet over at once
REASON_LENGTH = 200


@dataclass(frozen=True)
class PauseResult:
    pause: PauseRequest
    changes: list[deadlines.DeadlineChange]


def today_for(user: UserFacts, now: datetime) -> date:
    """The user's local date at `now`."""
    return now.astimezone(ZoneInfo(user.time_zone)).date()


def pauses_of(session: Session, user: UserFacts) -> list[PauseRequest]:
    query = select(PauseRequest).where(PauseRequest.user_id == user.id).order_by(PauseRequest.first_day)
    return list(session.scalars(query))


def span_of(row: PauseRequest) -> clock.Span | None:
    """When the pause is in force (None: cancelled before it started)."""
    return clock.pause_span(as_pause(row))


def is_over(row: PauseRequest, now: datetime) -> bool:
    span = span_of(row)
    return span is None or span.end <= now


def _check_request(session: Session, user: UserFacts, first_day: date, last_day: date, now: datetime) -> None:
    if last_day < first_day:
        raise ServiceError("invalid_input", "A pause ends on or after the day it starts.", "last_day")
    if first_day < today_for(user, now):
        raise ServiceError("invalid_input", "A pause cannot start in the past.", "first_day")
    if (last_day - first_day).days + 1 > MAX_DAYS:
        raise ServiceError("invalid_input", "A pause lasts at most 30 days.", "last_day")
    if first_day > today_for(user, now + MAX_AHEAD):
        raise ServiceError("invalid_input", "A pause starts within a year.", "first_day")
    pending = [row for row in pauses_of(session, user) if not is_over(row, now)]
    if len(pending) >= MAX_PENDING:
        raise ServiceError("invalid_input", "You already have three pauses to come: remove one first.")


def request_pause(
    session: Session, user: UserFacts, first_day: date, last_day: date, reason: str, now: datetime
) -> PauseResult:
    """Pause all the user's games from `first_day` to `last_day` (whole days in the user's zone)."""
    reason = " ".join(reason.split())
    if reason:  # mailed to the co-players
        sanctions.check_may_write_to_players(user, now)
    if len(reason) > REASON_LENGTH:
        raise ServiceError("invalid_input", "The reason has at most 200 characters.", "reason")
    _check_request(session, user, first_day, last_day, now)
    row = PauseRequest(
        user_id=user.id,
        first_day=first_day,
        last_day=last_day,
        zone=user.time_zone,
        reason=reason,
        created_at=now,
    )
    session.add(row)
    session.flush()
    changes = deadlines.recompute_games_of(session, user.id, now)
    data = {"user_id": user.id, "first_day": first_day.isoformat(), "last_day": last_day.isoformat()}
    _tell_the_others(session, user, "pause_requested", {**data, "reason": reason})
    session.commit()
    return PauseResult(row, changes)


def _tell_the_others(session: Session, user: UserFacts, kind: str, data: dict[str, Any]) -> None:
    """A notification to the other players of the user's running games (the site's "Reason"): one each, from
    the first game they share, since a pause covers all the user's games."""
    told: set[int] = set()
    for game in deadlines.locked_games(session, deadlines.active_games_of(session, user.id)):
        notices.notify_players(session, game, kind, data, skip=user.id, told=told)


def remove_pause(session: Session, user: UserFacts, pause_id: int, now: datetime) -> PauseResult:
    """End the pause: cancelled if it has not started, else in force 24 more hours at most."""
    row = session.get(PauseRequest, pause_id)
    if row is None or row.user_id != user.id:
        raise not_found("This pause does not exist.")
    if row.removed_at is not None or is_over(row, now):
        raise ServiceError("wrong_status", "This pause is already over or removed.")
    row.removed_at = clock.remove_pause(as_pause(row), now).removed_at
    session.flush()
    changes = deadlines.recompute_games_of(session, user.id, now)
    span = span_of(row)
    ends_at = span.end.isoformat() if span is not None else None
    _tell_the_others(session, user, "pause_removed", {"user_id": user.id, "ends_at": ends_at})
    session.commit()
    return PauseResult(row, changes)


@dataclass(frozen=True)
class PauseInfo:
    """A pause as the user's page shows it."""

    id: int
    first_day: date
    last_day: date
    days: int
    reason: str
    removed_at: datetime | None
    status: str  # coming, in_force, over, cancelled
    ends_at: datetime | None  # when it stops being in force (None: cancelled)

    @property
    def removable(self) -> bool:
        return self.status in ("coming", "in_force") and self.removed_at is None


def pause_infos(session: Session, user: UserFacts, now: datetime) -> list[PauseInfo]:
    return [_info(row, now) for row in pauses_of(session, user)]


def _info(row: PauseRequest, now: datetime) -> PauseInfo:
    span = span_of(row)
    if span is None:
        status = "cancelled"
    elif span.end <= now:
        status = "over"
    else:
        status = "in_force" if span.start <= now else "coming"
    days = (row.last_day - row.first_day).days + 1
    return PauseInfo(
        row.id,
        row.first_day,
        row.last_day,
        days,
        row.reason,
        row.removed_at,
        status,
        span.end if span else None,
    )
