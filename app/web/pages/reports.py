"""A player's reports: the form (a message, a player or a game) and the list with each outcome."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Form, Query, Request
from starlette.responses import RedirectResponse, Response

from app.services.errors import ServiceError
from app.services.moderation import reports
from app.services.play import play
from app.web.deps import DB, CurrentUser, Now, render

router = APIRouter()
MAX_ID = 2**31 - 1
OptionalId = Annotated[int | None, Query(ge=1, le=MAX_ID)]


@router.get("/reports")
def my_reports_page(request: Request, session: DB, user: CurrentUser, filed: bool = False) -> Response:
    context = {"reports": reports.reports_of(session, user), "filed": filed}
    return render(request, "moderation/my_reports.html", user, context)


@router.get("/reports/new")
def report_form(
    request: Request,
    session: DB,
    user: CurrentUser,
    kind: Literal["message", "player", "game"] = "game",
    game_id: OptionalId = None,
    message_id: OptionalId = None,
    player: Annotated[str, Query(max_length=80)] = "",
) -> Response:
    game = play.get_game(session, game_id) if game_id is not None else None
    message = reports.readable_message(session, user, message_id) if message_id is not None else None
    players = (
        [name for name in play.game_view(session, game.id, user, with_log=False).members] if game else []
    )
    context = {
        "kind": kind,
        "game": game,
        "message": message,
        "player": player,
        "players": [name for name in players if name != user.display_name],
        "reasons": reports.REASONS,
    }
    return render(request, "moderation/report_form.html", user, context)


@router.post("/reports")
def file_report(
    session: DB,
    user: CurrentUser,
    now: Now,
    kind: Annotated[str, Form(max_length=16)],
    reason: Annotated[str, Form(max_length=32)],
    details: Annotated[str, Form(max_length=2000)] = "",
    game_id: Annotated[str, Form(max_length=12)] = "",
    message_id: Annotated[str, Form(max_length=12)] = "",
    player: Annotated[str, Form(max_length=80)] = "",
) -> Response:
    if not details.strip():  # the moderators judge from what the reporter saw: the form asks for it
        raise ServiceError("invalid_input", "Say what happened.", "details")
    draft = reports.ReportDraft(
        kind=kind,
        reason=reason,
        details=details,
        game_id=_optional_id(game_id, "game_id"),
        message_id=_optional_id(message_id, "message_id"),
        player=player or None,
    )
    reports.file_report(session, user, draft, now)
    return RedirectResponse("/reports?filed=true", 303)


def _optional_id(text: str, field: str) -> int | None:
    if not text.strip():
        return None
    try:
        value = int(text)
    except ValueError:
        raise ServiceError("invalid_input", "This form is damaged: reload the page.", field) from None
    if not 1 <= value <= MAX_ID:
        raise ServiceError("invalid_input", "This form is damaged: reload the page.", field)
    return value
