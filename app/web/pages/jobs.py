"""Admins: late waits (the sweeper is behind or failing) and quarantined games, with a release button."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from app.services.jobs import admin_clock
from app.web.deps import DB, CurrentUser, Now, render

router = APIRouter()


@router.get("/admin/clock")
def clock_page(request: Request, session: DB, user: CurrentUser, now: Now) -> Response:
    return render(request, "clock/admin.html", user, {"report": admin_clock.clock_report(session, user, now)})


@router.post("/admin/clock/games/{game_id}/release")
def release(game_id: int, session: DB, user: CurrentUser, now: Now) -> Response:
    admin_clock.release(session, user, game_id, now)
    return RedirectResponse("/admin/clock", 303)
