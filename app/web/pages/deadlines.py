"""Availability windows and pauses, and where they put the deadlines of the user's games."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Form, Request
from starlette.responses import RedirectResponse, Response

from app.clock.availability import WEEKDAYS
from app.services.deadlines import availability, calendars, deadlines, pauses
from app.services.errors import ServiceError
from app.web.deps import DB, CurrentUser, Now, render
from app.web.forms import FormFields

router = APIRouter()


def _back(moved: int) -> RedirectResponse:
    return RedirectResponse(f"/time?moved={moved}", 303)


@router.get("/time")
def time_page(
    request: Request, session: DB, user: CurrentUser, now: Now, moved: int | None = None
) -> Response:
    context = {
        "weekdays": WEEKDAYS,
        "days": availability.day_texts(calendars.windows_of(session, user.id)),
        "pauses": pauses.pause_infos(session, user, now),
        "deadlines": deadlines.user_deadlines(session, user.id),
        "today": pauses.today_for(user, now).isoformat(),
        "moved": moved,
    }
    return render(request, "clock/time.html", user, context)


@router.post("/time/windows")
def save_windows(session: DB, user: CurrentUser, now: Now, fields: FormFields) -> Response:
    windows = [
        window for day in range(7) for window in availability.parse_day(day, str(fields.get(f"day{day}", "")))
    ]
    return _back(len(availability.set_windows(session, user, windows, now)))


def _day(text: str, field: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError("invalid_input", "Give the day as YYYY-MM-DD.", field) from None


@router.post("/time/pauses")
def request_pause(
    session: DB,
    user: CurrentUser,
    now: Now,
    first_day: Annotated[str, Form(max_length=20)],
    last_day: Annotated[str, Form(max_length=20)],
    reason: Annotated[str, Form(max_length=400)] = "",
) -> Response:
    result = pauses.request_pause(
        session, user, _day(first_day, "first_day"), _day(last_day, "last_day"), reason, now
    )
    return _back(len(result.changes))


@router.post("/time/pauses/{pause_id}/remove")
def remove_pause(pause_id: int, session: DB, user: CurrentUser, now: Now) -> Response:
    return _back(len(pauses.remove_pause(session, user, pause_id, now).changes))
