from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool
from starlette.responses import RedirectResponse, Response

from app.games import registry
from app.services.errors import ServiceError
from app.services.ops import metrics as ops_metrics
from app.services.play import play
from app.services.play.live import BUS
from app.services.social import lobby
from app.web import advciv_map
from app.web.deps import DB, CurrentUser, Limiter, MaybeUser, Now, optional_user, render
from app.web.forms import FormFields
from app.web.pages.messages import look, look_from_stream, message_context

router = APIRouter()
LIVE_PING_SECONDS = 20
# Games whose board template needs the view laid out in Python first (a map drawn from polygons): the
# layout goes into the template's context under the game's id.
BOARD_DRAWINGS: dict[
    str, Callable[[dict[str, Any], int | None, play.WaitInfo | None, datetime], dict[str, Any]]
] = {
    "advciv": advciv_map.page_context,
}


def _back(game_id: int) -> RedirectResponse:
    return RedirectResponse(f"/games/{game_id}", 303)


def _context(view: play.GameView, now: datetime) -> dict[str, Any]:
    rules = registry.get(view.game.game_type)
    my_wait = view.my_wait
    context = {
        "view": view,
        "game": view.game,
        "rules": rules,
        "board": view.board,
        "my_wait": my_wait,
        "prompt_since": my_wait.since_version if my_wait else "",
        "template_dir": f"games/{view.game.game_type}",
        "now": now,
    }
    drawing = BOARD_DRAWINGS.get(view.game.game_type)
    if drawing is not None and view.board is not None:
        context[view.game.game_type] = drawing(view.board, view.seat, my_wait, now)
    return context


@router.get("/games/{game_id}")
def game_page(request: Request, game_id: int, session: DB, user: MaybeUser, now: Now) -> Response:
    view = play.game_view(session, game_id, user)
    look(session, user, game_id, now)
    invited = {"invited": lobby.is_invited(session, user, view.game)}
    return render(
        request, "game.html", user, {**_context(view, now), **message_context(session, view, user), **invited}
    )


@router.get("/games/{game_id}/fragment")
def game_fragment(
    request: Request, game_id: int, session: DB, user: MaybeUser, now: Now, since: str = ""
) -> Response:
    """What a live page swaps in when the game moves; the order forms only when the question changed."""
    view = play.game_view(session, game_id, user)
    look(session, user, game_id, now)
    context = {**_context(view, now), **message_context(session, view, user)}
    context["orders_changed"] = str(context["prompt_since"]) != since
    return render(request, "partials/game_live.html", user, context)


@router.get("/games/{game_id}/live")
async def game_live(request: Request, game_id: int) -> EventSourceResponse:
    """The game's versions as they move (a 404 for a game that does not exist), as the viewer may hear of
    them: news meant for some users only, such as a private message, reaches only their streams."""
    viewer = await run_in_threadpool(_stream_viewer, request, game_id)

    async def versions() -> AsyncIterator[dict[str, str]]:
        async with BUS.subscribe(game_id, viewer) as queue, ops_metrics.live_connection():
            while not await request.is_disconnected():
                await look_from_stream(request, game_id)  # an open live stream counts as looking
                try:
                    version = await asyncio.wait_for(queue.get(), timeout=LIVE_PING_SECONDS)
                except TimeoutError:
                    continue
                yield {"event": "moved", "data": str(version), "id": str(version)}

    return EventSourceResponse(versions(), ping=LIVE_PING_SECONDS)


def _stream_viewer(request: Request, game_id: int) -> int | None:
    """The user watching (None: anonymous) of a game that exists; a stream holds no database session."""
    with request.app.state.sessions() as session:
        play.get_game(session, game_id)
        user = optional_user(request, session)
        return user.id if user is not None else None


@router.post("/games/{game_id}/join")
def join(game_id: int, session: DB, user: CurrentUser, now: Now) -> Response:
    lobby.join_game(session, user, game_id, now)
    return _back(game_id)


@router.post("/games/{game_id}/invitation/accept")
def accept_invitation(game_id: int, session: DB, user: CurrentUser, now: Now) -> Response:
    lobby.accept_invitation(session, user, game_id, now)
    return _back(game_id)


@router.post("/games/{game_id}/invitation/decline")
def decline_invitation(game_id: int, session: DB, user: CurrentUser) -> Response:
    lobby.decline_invitation(session, user, game_id)
    return RedirectResponse("/", 303)


@router.post("/games/{game_id}/leave")
def leave(game_id: int, session: DB, user: CurrentUser) -> Response:
    lobby.leave_game(session, user, game_id)
    return RedirectResponse("/", 303)


@router.post("/games/{game_id}/cancel")
def cancel(game_id: int, session: DB, user: CurrentUser) -> Response:
    lobby.cancel_game(session, user, game_id)
    return RedirectResponse("/", 303)


@router.post("/games/{game_id}/rename")
def rename(
    game_id: int,
    session: DB,
    user: CurrentUser,
    limiter: Limiter,
    now: Now,
    name: Annotated[str, Form(max_length=200)],
) -> Response:
    limiter.rename(user.id)
    lobby.rename_game(session, user, game_id, name, now)
    return _back(game_id)


@router.post("/games/{game_id}/orders")
def submit_order(
    request: Request,
    game_id: int,
    session: DB,
    user: CurrentUser,
    now: Now,
    limiter: Limiter,
    fields: FormFields,
) -> Response:
    limiter.order(user.id)
    try:
        expected_version = int(fields.pop("expected_version", ""))
    except (TypeError, ValueError):
        raise ServiceError("invalid_input", "This form has no game version: reload the page.") from None
    play.submit(session, user, game_id, fields, expected_version, now)
    if request.headers.get("hx-request"):
        view = play.game_view(session, game_id, user)
        context = {**_context(view, now), **message_context(session, view, user), "orders_changed": True}
        return render(request, "partials/game_live.html", user, context)
    return _back(game_id)
