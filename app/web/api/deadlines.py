"""The clock in the JSON API: availability, pauses, deadlines, seats (quit, take, vote), admins' view."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.services.deadlines import availability, calendars, deadlines, pauses
from app.services.jobs import admin_clock
from app.services.play import absence, play, seats
from app.web.api.schemas import ERROR_RESPONSES
from app.web.deps import DB, CurrentUser, MaybeUser, Now

router = APIRouter(tags=["clock"], responses=ERROR_RESPONSES)


class WindowIO(BaseModel):
    weekday: int  # 0 = Monday ... 6 = Sunday
    start: str = Field(max_length=5, description="HH:MM on the user's wall clock")
    end: str = Field(max_length=5, description="HH:MM; at or before the start: the window runs past midnight")


class AvailabilityIO(BaseModel):
    windows: list[WindowIO] = Field(max_length=100)


class AvailabilityOut(BaseModel):
    time_zone: str
    windows: list[WindowIO]


class DeadlineChangeOut(BaseModel):
    game_id: int
    seat: int
    phase: str
    before: datetime | None
    after: datetime | None


class PauseIn(BaseModel):
    first_day: date
    last_day: date
    reason: str = Field("", max_length=400)


class PauseOut(BaseModel):
    id: int
    first_day: date
    last_day: date
    days: int
    reason: str
    status: str
    ends_at: datetime | None
    removed_at: datetime | None


class Changed(BaseModel):
    moved: list[DeadlineChangeOut]


class QuitIn(BaseModel):
    replacement: str | None = Field(None, max_length=80)


def _changes(changes: list[deadlines.DeadlineChange]) -> list[DeadlineChangeOut]:
    return [
        DeadlineChangeOut(game_id=c.game_id, seat=c.seat, phase=c.phase, before=c.before, after=c.after)
        for c in changes
    ]


def _window_out(window: Any) -> WindowIO:
    return WindowIO(weekday=window.weekday, start=f"{window.start:%H:%M}", end=f"{window.end:%H:%M}")


@router.get("/me/availability")
def get_availability(session: DB, user: CurrentUser) -> AvailabilityOut:
    windows = calendars.windows_of(session, user.id)
    return AvailabilityOut(time_zone=user.time_zone, windows=[_window_out(w) for w in windows])


@router.put("/me/availability")
def put_availability(body: AvailabilityIO, session: DB, user: CurrentUser, now: Now) -> Changed:
    windows = [availability.make_window(w.weekday, w.start, w.end) for w in body.windows]
    return Changed(moved=_changes(availability.set_windows(session, user, windows, now)))


@router.get("/me/pauses")
def list_pauses(session: DB, user: CurrentUser, now: Now) -> list[PauseOut]:
    return [
        PauseOut.model_validate(info, from_attributes=True) for info in pauses.pause_infos(session, user, now)
    ]


@router.post("/me/pauses", status_code=201)
def request_pause(body: PauseIn, session: DB, user: CurrentUser, now: Now) -> Changed:
    result = pauses.request_pause(session, user, body.first_day, body.last_day, body.reason, now)
    return Changed(moved=_changes(result.changes))


@router.post("/me/pauses/{pause_id}/remove")
def remove_pause(pause_id: int, session: DB, user: CurrentUser, now: Now) -> Changed:
    return Changed(moved=_changes(pauses.remove_pause(session, user, pause_id, now).changes))


@router.get("/me/deadlines")
def my_deadlines(session: DB, user: CurrentUser) -> list[dict[str, Any]]:
    return [
        {
            "game_id": row.game_id,
            "game_name": row.game_name,
            "seat": row.seat,
            "player": row.player,
            "phase": row.phase,
            "mine": row.mine,
            "by_limit": row.by_limit,
            "deadline_at": row.deadline_at,
        }
        for row in deadlines.user_deadlines(session, user.id)
    ]


@router.get("/games/{game_id}/seats")
def game_seats(game_id: int, session: DB, user: MaybeUser, now: Now) -> dict[str, Any]:
    game = play.get_game(session, game_id)
    ladder = deadlines.ladder_of(game)
    table = absence.absence_table(session, game, user, now) if game.status == "active" else []
    return {
        "absence": absence.AbsenceSettings(
            warning_percent=ladder.warning_percent,
            eviction_preset=ladder.eviction_preset,
            vote_after=ladder.vote_after,
        ).model_dump(),
        "seats": [asdict(row) for row in table],
        "history": [asdict(row) for row in seats.history(session, game)],
    }


@router.post("/games/{game_id}/quit")
def quit_game(game_id: int, body: QuitIn, session: DB, user: CurrentUser, now: Now) -> dict[str, Any]:
    game = seats.quit_game(session, user, game_id, body.replacement, now)
    return {"game_id": game.id, "status": game.status}


@router.post("/games/{game_id}/seats/{seat}/take")
def take_seat(game_id: int, seat: int, session: DB, user: CurrentUser, now: Now) -> dict[str, Any]:
    seats.take_seat(session, user, game_id, seat, now)
    return {"game_id": game_id, "your_seat": seat}


@router.post("/games/{game_id}/seats/{seat}/decline", status_code=204)
def decline_offer(game_id: int, seat: int, session: DB, user: CurrentUser) -> None:
    seats.decline_offer(session, user, game_id, seat)


@router.post("/games/{game_id}/seats/{seat}/evict-vote")
def vote_to_evict(game_id: int, seat: int, session: DB, user: CurrentUser, now: Now) -> dict[str, Any]:
    result = absence.vote_to_evict(session, user, game_id, seat, now)
    return {"votes": result.votes, "threshold": result.threshold, "evicted": result.evicted}


@router.get("/open-seats")
def open_seats(session: DB, user: MaybeUser, now: Now) -> list[dict[str, Any]]:
    return [
        {
            "game_id": item.game.id,
            "game_name": item.game.name,
            "game_type": item.game.game_type,
            "seat": item.seat,
            "opened_at": item.opened_at,
            "offered_to_you": item.offered_to_you,
            "reserved": item.reserved,
        }
        for item in seats.open_seats(session, user, now)
    ]


@router.get("/admin/clock")
def clock_report(session: DB, user: CurrentUser, now: Now) -> dict[str, Any]:
    report = admin_clock.clock_report(session, user, now)
    return {
        "last_sweep": report.last_sweep,
        "late": [asdict(item) for item in report.late],
        "quarantined": [asdict(item) for item in report.quarantined],
    }


@router.post("/admin/clock/games/{game_id}/release")
def release(game_id: int, session: DB, user: CurrentUser, now: Now) -> dict[str, Any]:
    game = admin_clock.release(session, user, game_id, now)
    return {"game_id": game.id, "quarantined": game.quarantined_at is not None}
