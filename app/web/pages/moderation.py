"""Moderators' pages: the reports queue, users and their sanctions, a game with its interventions."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Form, Path, Query, Request
from starlette.responses import RedirectResponse, Response

from app.services.errors import ServiceError
from app.services.moderation import audit, interventions, moderation, reports
from app.web.deps import DB, AdminUser, ModeratorUser, Now, render

router = APIRouter()
MAX_ID = 2**31 - 1
Id = Annotated[int, Path(ge=1, le=MAX_ID)]
Reason = Annotated[str, Form(max_length=500)]
Note = Annotated[str, Form(max_length=2000)]
Number = Annotated[str, Form(max_length=12)]
DURATIONS = (1, 24, 72, 168, 720, 2160, 8760)  # hours the sanction form offers (an hour to a year)


def _to(target: str) -> RedirectResponse:
    return RedirectResponse(target, 303)


def _number(text: str, field: str, low: int = 0, high: int = MAX_ID) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ServiceError("invalid_input", "Give a whole number.", field) from None
    if not low <= value <= high:
        raise ServiceError("invalid_input", "This number is out of range.", field)
    return value


# --- the reports queue -------------------------------------------------------------------------------


@router.get("/moderation")
def queue_page(
    request: Request, session: DB, user: ModeratorUser, status: Literal["open", "mine", "closed"] = "open"
) -> Response:
    context = {"items": reports.queue(session, user, status), "status": status}
    return render(request, "moderation/queue.html", user, context)


@router.get("/moderation/reports/{report_id}")
def report_page(request: Request, report_id: Id, session: DB, user: ModeratorUser) -> Response:
    context = {
        "item": reports.get_report(session, user, report_id),
        "staff": moderation.staff(session),
        "outcomes": reports.OUTCOMES,
    }
    return render(request, "moderation/report.html", user, context)


@router.post("/moderation/reports/{report_id}/assign")
def assign_report(
    report_id: Id, session: DB, user: ModeratorUser, now: Now, assignee: Number = ""
) -> Response:
    chosen = _number(assignee, "assignee", 1) if assignee.strip() else None
    reports.assign(session, user, report_id, chosen, now)
    return _to(f"/moderation/reports/{report_id}")


@router.post("/moderation/reports/{report_id}/resolve")
def resolve_report(
    report_id: Id,
    session: DB,
    user: ModeratorUser,
    now: Now,
    outcome: Annotated[str, Form(max_length=32)],
    note: Note = "",
) -> Response:
    reports.resolve(session, user, report_id, outcome, note, now)
    return _to(f"/moderation/reports/{report_id}")


@router.post("/moderation/reports/{report_id}/dismiss")
def dismiss_report(report_id: Id, session: DB, user: ModeratorUser, now: Now, note: Note = "") -> Response:
    reports.dismiss(session, user, report_id, note, now)
    return _to(f"/moderation/reports/{report_id}")


# --- users and sanctions -----------------------------------------------------------------------------


@router.get("/moderation/users")
def users_page(
    request: Request, session: DB, user: ModeratorUser, q: Annotated[str, Query(max_length=80)] = ""
) -> Response:
    context = {"q": q, "found": moderation.find_users(session, user, q)}
    return render(request, "moderation/users.html", user, context)


@router.get("/moderation/users/{user_id}")
def user_page(request: Request, user_id: Id, session: DB, user: ModeratorUser, now: Now) -> Response:
    context = {
        "record": moderation.user_record(session, user, user_id, now),
        "durations": DURATIONS,
        "roles": tuple(moderation.RANKS),
    }
    return render(request, "moderation/user.html", user, context)


@router.post("/moderation/users/{user_id}/sanctions")
def impose_sanction(
    user_id: Id,
    session: DB,
    user: ModeratorUser,
    now: Now,
    kind: Annotated[str, Form(max_length=16)],
    duration: Annotated[str, Form(max_length=16)],
    reason: Reason,
    note: Annotated[str, Form(max_length=1000)] = "",
) -> Response:
    """`duration`: hours, or "permanent"."""
    hours = None if duration == "permanent" else _number(duration, "duration", 1, moderation.MAX_HOURS)
    moderation.impose(session, user, user_id, moderation.SanctionOrder(kind, hours, reason, note), now)
    return _to(f"/moderation/users/{user_id}")


@router.post("/moderation/sanctions/{sanction_id}/lift")
def lift_sanction(sanction_id: Id, session: DB, user: ModeratorUser, now: Now, reason: Reason) -> Response:
    sanction = moderation.lift(session, user, sanction_id, reason, now)
    return _to(f"/moderation/users/{sanction.user_id}")


# --- games -------------------------------------------------------------------------------------------


@router.get("/moderation/games/{game_id}")
def game_page(request: Request, game_id: Id, session: DB, user: ModeratorUser) -> Response:
    found = interventions.moderator_view(session, user, game_id)
    context = {"found": found, "game": found.view.game, "view": found.view}
    return render(request, "moderation/game.html", user, context)


def _back(game_id: int) -> RedirectResponse:
    return _to(f"/moderation/games/{game_id}")


@router.post("/moderation/games/{game_id}/hold")
def hold_game(
    game_id: Id,
    session: DB,
    user: ModeratorUser,
    now: Now,
    kind: Annotated[str, Form(max_length=16)],
    reason: Reason,
) -> Response:
    interventions.hold(session, user, game_id, kind, reason, now)
    return _back(game_id)


@router.post("/moderation/games/{game_id}/resume")
def resume_game(game_id: Id, session: DB, user: ModeratorUser, now: Now, reason: Reason) -> Response:
    interventions.resume(session, user, game_id, reason, now)
    return _back(game_id)


@router.post("/moderation/games/{game_id}/extend")
def extend_deadline(
    game_id: Id, session: DB, user: ModeratorUser, now: Now, seat: Number, hours: Number, reason: Reason
) -> Response:
    seat_number = _number(seat, "seat", 0, 15)
    extension = _number(hours, "hours", 1, interventions.MAX_EXTENSION_HOURS)
    interventions.extend_deadline(session, user, game_id, seat_number, extension, reason, now)
    return _back(game_id)


@router.post("/moderation/games/{game_id}/remove")
def remove_player(
    game_id: Id, session: DB, user: ModeratorUser, now: Now, seat: Number, reason: Reason
) -> Response:
    interventions.remove_player(session, user, game_id, _number(seat, "seat", 0, 15), reason, now)
    return _back(game_id)


@router.post("/moderation/games/{game_id}/replace")
def replace_player(
    game_id: Id,
    session: DB,
    user: ModeratorUser,
    now: Now,
    seat: Number,
    replacement: Annotated[str, Form(max_length=80)],
    reason: Reason,
) -> Response:
    interventions.replace_player(
        session, user, game_id, _number(seat, "seat", 0, 15), replacement, reason, now
    )
    return _back(game_id)


@router.post("/moderation/games/{game_id}/abort")
def abort_game(game_id: Id, session: DB, user: ModeratorUser, now: Now, reason: Reason) -> Response:
    interventions.abort(session, user, game_id, reason, now)
    return _back(game_id)


@router.post("/moderation/games/{game_id}/rollback")
def roll_back(
    game_id: Id, session: DB, user: ModeratorUser, now: Now, to_seq: Number, reason: Reason
) -> Response:
    interventions.rollback(session, user, game_id, _number(to_seq, "to_seq", 1), reason, now)
    return _back(game_id)


@router.post("/moderation/games/{game_id}/reveal")
def reveal(
    request: Request, game_id: Id, session: DB, user: ModeratorUser, now: Now, reason: Reason
) -> Response:
    """The hidden information, shown once, audited first, never cached."""
    found = interventions.reveal(session, user, game_id, reason, now)
    response = render(request, "moderation/reveal.html", user, {"found": found, "game": found.game})
    response.headers["Cache-Control"] = "no-store"
    return response


# --- admins ------------------------------------------------------------------------------------------


@router.get("/admin/audit")
def audit_page(
    request: Request,
    session: DB,
    user: AdminUser,
    action: Annotated[str, Query(max_length=48)] = "",
    subject_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    game_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    before_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
) -> Response:
    """Read-only, newest first."""
    wanted = audit.AuditFilter(action or None, None, subject_id, game_id, before_id)
    rows = audit.entries(session, user, wanted)
    context = {"rows": rows, "actions": audit.ACTIONS, "wanted": wanted, "page": audit.PAGE}
    return render(request, "moderation/audit.html", user, context)


@router.post("/admin/users/{user_id}/role")
def change_role(
    user_id: Id,
    session: DB,
    user: AdminUser,
    now: Now,
    role: Annotated[str, Form(max_length=16)],
    reason: Reason,
) -> Response:
    moderation.change_role(session, user, user_id, role, reason, now)
    return _to(f"/moderation/users/{user_id}")


@router.post("/admin/users/{user_id}/profile")
def edit_user(
    user_id: Id,
    session: DB,
    user: AdminUser,
    now: Now,
    display_name: Annotated[str, Form(max_length=80)],
    email: Annotated[str, Form(max_length=254)],
    reason: Reason,
) -> Response:
    moderation.edit_user(session, user, user_id, display_name, email, reason, now)
    return _to(f"/moderation/users/{user_id}")
