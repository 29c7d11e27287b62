"""A game's messages on its page (the public board and the viewer's private threads), and presence:
the game page, its live fragment and its live stream record that the viewer is looking at the game."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import RedirectResponse, Response

from app.models.records import GameFacts, UserFacts
from app.services.accounts import accounts
from app.services.errors import ServiceError
from app.services.mail import notify
from app.services.play import play
from app.services.social import messages
from app.web.deps import DB, AppSettings, CurrentUser, Now, render
from app.web.forms import FormFields

router = APIRouter()


def message_context(
    session: Any, game: GameFacts, seat: int | None, players: Sequence[str | None], user: UserFacts | None
) -> dict[str, Any]:
    """What the messages section of a game page needs (`players`: the seats' names)."""
    others = [
        (number, name)
        for number, name in enumerate(players)
        if seat is not None and number != seat and game.status == "active"
    ]
    member = user is not None and any(s.user_id == user.id and s.status == "playing" for s in game.seats)
    return {
        "messages": messages.visible_messages(session, game, user),
        "message_seats": others,
        "can_post": member and game.status != "cancelled",
        "message_limit": messages.MAX_LENGTH,
        "seat_names": list(players),
    }


def look(session: Any, user: UserFacts | None, game_id: int, now: datetime) -> None:
    """The viewer has the game open now (for "none while you are looking" in notifications)."""
    if user is not None:
        notify.mark_looking(session, user.id, game_id, now)


async def look_from_stream(request: Request, game_id: int, now: datetime) -> None:
    """Presence from a live stream, which has no database session of its own: a short one, in a thread."""
    key = request.session.get("sid")
    if key is None:
        return

    def touch() -> None:
        with request.app.state.sessions() as session:
            user = accounts.user_of_login_session(session, str(key), now)
            if user is not None:
                notify.mark_looking(session, user.id, game_id, now)

    await run_in_threadpool(touch)


def _recipients(fields: dict[str, Any]) -> list[int]:
    """The ticks decide: none is the board, read by everyone; some, a private message to those seats."""
    chosen = fields.get("to")
    if not chosen and fields.get("scope") != "private":
        return []
    seats = []
    for key in chosen if isinstance(chosen, dict) else {}:
        if not key.isdigit():
            raise ServiceError("invalid_input", "Choose other seats of this game.", "to")
        seats.append(int(key))
    if not seats:
        raise ServiceError("invalid_input", "Tick the players who should read this private message.", "to")
    return seats


@router.post("/games/{game_id}/messages")
def post_message(
    request: Request,
    game_id: int,
    session: DB,
    user: CurrentUser,
    now: Now,
    settings: AppSettings,
    fields: FormFields,
) -> Response:
    body = fields.get("body", "")
    recipients = _recipients(fields)
    messages.post(
        session,
        user,
        game_id,
        body if isinstance(body, str) else "",
        to_seats=recipients,
        now=now,
        per_minute=settings.messages_per_minute,
    )
    if not request.headers.get("hx-request"):
        return RedirectResponse(f"/games/{game_id}#game-messages", 303)
    view = play.game_view(session, game_id, user, with_log=False)
    context = {
        "game": view.game,
        **message_context(session, view.game, view.seat, view.players, user),
        "oob": True,
    }
    return render(request, "partials/game_message_form.html", user, context)
