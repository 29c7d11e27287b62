"""The server's status: every figure for administrators, and the phases resolved on time for everyone."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.services.ops import status
from app.web.deps import DB, CurrentUser, MaybeUser, Now, render

router = APIRouter()


@router.get("/status")
def public_status(request: Request, session: DB, user: MaybeUser, now: Now) -> Response:
    return render(request, "status/public.html", user, {"on_time": status.public_status(session, now)})


@router.get("/admin/status")
def admin_status(request: Request, session: DB, user: CurrentUser, now: Now) -> Response:
    return render(request, "status/admin.html", user, {"status": status.admin_status(session, user, now)})
