from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from markupsafe import Markup
from sqlalchemy.orm import Session
from sse_starlette.sse import EventSourceResponse
from starlette.concurrency import run_in_threadpool
from starlette.responses import RedirectResponse, Response

from app.games import registry
from app.models.records import UserFacts
from app.services.errors import ServiceError
from app.services.ops import metrics as ops_metrics
from app.services.play import draft, play
from app.services.play.live import BUS
from app.services.players.ratings import seat_rank_moves
from app.services.social import lobby
from app.web import refusals, render_cache
from app.web.deps import (
    DB,
    CurrentUser,
    Limiter,
    MaybeUser,
    Now,
    client_address,
    csrf_token,
    optional_user,
    render,
    render_text,
    translator,
    turns_waiting,
)
from app.web.etags import etag_matches, not_modified, with_etag
from app.web.forms import FormFields
from app.web.games.advciv import map as advciv_map
from app.web.games.advciv import market as advciv_market
from app.web.pages.messages import look, look_from_stream, message_context
from app.web.render_cache import CSRF_MARK, MESSAGES_MARK, Kept, Read, RenderKey, with_token

router = APIRouter()
PlayLink = Annotated[bool, Query(alias="play")]
LIVE_PING_SECONDS = 20
MISSED_REPLAYED = 64  # a stream back after a longer absence hears the newest only, then re-reads the page
# Games whose board template needs the view laid out in Python first (a map drawn from polygons): the
# layout goes into the template's context under the game's id.
BOARD_DRAWINGS: dict[
    str, Callable[[dict[str, Any], int | None, play.WaitInfo | None, datetime], dict[str, Any]]
] = {
    "advciv": advciv_map.page_context,
}
# Games whose order forms post rows that the order pairs up in lists (a card and what it is said to be):
# the form's fields become the order here, before the rules read it.
FORM_ORDERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "advciv": advciv_market.order_from_form,
}


def _back(game_id: int) -> RedirectResponse:
    return RedirectResponse(f"/games/{game_id}", 303)


def _context(session: Session, view: play.GameView, now: datetime) -> dict[str, Any]:
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
        "rank_moves": seat_rank_moves(session, view.game),
    }
    if view.board is None and view.game.status == "active":  # set-up: whose pick it is in the seat draft
        context["draft_wait"] = draft.awaited_seat(session, view.game.id)
    drawing = BOARD_DRAWINGS.get(view.game.game_type)
    if drawing is not None and view.board is not None:
        context[view.game.game_type] = drawing(view.board, view.seat, my_wait, now)
    return context


@router.get("/games/{game_id}")
def game_page(
    request: Request, game_id: int, session: DB, user: MaybeUser, now: Now, play_link: PlayLink = False
) -> Response:
    if play_link and user is None:  # a mail's "Play now": log in, then back here
        raise ServiceError("login_required", "Log in first.")
    seen = render_cache.read(session, game_id)
    look(session, user, game_id, now)

    def draw() -> Kept:
        view = play.game_view(session, game_id, user)
        context = {**_context(session, view, now), "invited": lobby.is_invited(session, user, view.game)}
        return _drawn(request, "partials/game_body.html", user, context)

    key = _key(request, seen, user, "page")
    messages = _messages(session, seen, user, oob=False)
    shell = (
        request.url.query,
        user.id if user else 0,
        user.display_name if user else "",
        turns_waiting(request, user),
    )
    etag = (
        key.etag(csrf_token(request), _said(messages), *shell)
        if key and not refusals.pending(request)
        else None
    )
    if etag and etag_matches(request, etag):
        return not_modified(etag)
    body = _filled(request, _kept(request, key, draw), _drawn_messages(request, user, messages))
    response = render(
        request, "game.html", user, {"game": seen.game, "body": body, "turns_waiting": shell[-1]}
    )
    return with_etag(response, etag)


@router.get("/games/{game_id}/log")
def log_page(
    request: Request,
    game_id: int,
    session: DB,
    user: MaybeUser,
    now: Now,
    before: Annotated[int | None, Query(ge=0)] = None,
) -> Response:
    """The whole log, a page at a time, newest first, as the viewer may see it."""
    seen = render_cache.read(session, game_id)

    def draw() -> Kept:
        page = play.log_page(session, game_id, user, before)
        context = {**_context(session, page.view, now), "older": page.older, "newest": page.newest}
        return _drawn(request, "partials/game_log_body.html", user, context)

    body = _filled(request, _kept(request, _key(request, seen, user, "log", str(before)), draw), "")
    return render(request, "game_log.html", user, {"game": seen.game, "body": body})


@router.get("/games/{game_id}/replay")
def replay_page(
    request: Request,
    game_id: int,
    session: DB,
    user: MaybeUser,
    now: Now,
    limiter: Limiter,
    step: Annotated[int | None, Query(ge=0)] = None,
) -> Response:
    """The game after any number of its orders, as the viewer may see it: a seat its own view. Limited
    as the API's replay is, and rebuilt from the states it keeps."""
    limiter.replay(client_address(request), user.id if user else None)
    replayed = play.replay_step(session, game_id, user, step)
    context = {**_context(session, replayed.view, now), "replay": replayed, "my_wait": None}
    return render(request, "game_replay.html", user, context)


@router.get("/games/{game_id}/fragment")
def game_fragment(
    request: Request, game_id: int, session: DB, user: MaybeUser, now: Now, since: str = ""
) -> Response:
    """What a live page swaps in when the game moves; the order forms only when the question changed."""
    look(session, user, game_id, now)
    return _fragment(request, session, game_id, user, now, since)


def _fragment(
    request: Request, session: Session, game_id: int, user: UserFacts | None, now: datetime, since: str | None
) -> Response:
    """The live fragment (`since`: the question the page shows; None: the order forms always)."""
    seen = render_cache.read(session, game_id)
    asked = seen.asked(play.viewer_seat(seen.game, user))
    orders_changed = since is None or str("" if asked is None else asked) != since

    def draw() -> Kept:
        view = play.game_view(session, game_id, user)
        context = {**_context(session, view, now), "oob": True, "orders_changed": orders_changed}
        return _drawn(request, "partials/game_sections.html", user, context)

    key = _key(request, seen, user, "fragment", str(orders_changed))
    messages = _messages(session, seen, user, oob=True)
    turns = turns_waiting(request, user)
    etag = key.etag(csrf_token(request), _said(messages), turns) if key else None
    if etag and etag_matches(request, etag):
        return not_modified(etag)
    body = _filled(request, _kept(request, key, draw), _drawn_messages(request, user, messages))
    return with_etag(
        render(request, "partials/game_live.html", user, {"body": body, "turns_waiting": turns}), etag
    )


@router.get("/games/{game_id}/live")
async def game_live(request: Request, game_id: int, now: Now) -> EventSourceResponse:
    """The game's versions as they move (a 404 for a game that does not exist), as the viewer may hear of
    them: news meant for some users only, such as a private message, reaches only their streams.

    A stream that comes back with `Last-Event-ID` (a browser's EventSource does it by itself) first hears
    the versions it missed while it was away, so that a dropped connection loses nothing; a page's first
    stream says with `?since=` the version it was drawn at, for the same reason. The viewer counts as
    looking on the app's clock: its time at connection, moved on by how long the stream has been open."""
    viewer = await run_in_threadpool(_stream_viewer, request, game_id)
    last_heard = _last_event_id(request)
    opened = time.monotonic()

    async def looking() -> None:  # an open live stream counts as looking, from the moment it opens
        await look_from_stream(request, game_id, now + timedelta(seconds=time.monotonic() - opened))

    async def versions() -> AsyncIterator[dict[str, str]]:
        async with BUS.subscribe(game_id, viewer) as queue, ops_metrics.live_connection():
            await looking()
            if last_heard is not None:  # read once subscribed: a version after this one is queued
                current = await run_in_threadpool(_current_version, request, game_id)
                for version in range(max(last_heard + 1, current - MISSED_REPLAYED + 1), current + 1):
                    yield _moved(version)
            while not await request.is_disconnected():
                await looking()
                try:
                    version = await asyncio.wait_for(queue.get(), timeout=LIVE_PING_SECONDS)
                except TimeoutError:
                    continue
                yield _moved(version)

    return EventSourceResponse(versions(), ping=LIVE_PING_SECONDS)


def _moved(version: int) -> dict[str, str]:
    return {"event": "moved", "data": str(version), "id": str(version)}


def _last_event_id(request: Request) -> int | None:
    """The last version this stream's page heard: the browser's `Last-Event-ID` when it comes back, else
    the version the page was drawn at (`?since=`), so that a move made while the page was still
    connecting its stream is heard too."""
    value = request.headers.get("last-event-id", "") or request.query_params.get("since", "")
    return int(value) if value.isdigit() and len(value) < 10 else None


def _current_version(request: Request, game_id: int) -> int:
    with request.app.state.sessions() as session:
        return play.get_game(session, game_id).version


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


@router.post("/games/{game_id}/again")
def play_again(game_id: int, session: DB, user: CurrentUser, now: Now, limiter: Limiter) -> Response:
    """A new forming game like this finished one, its other players invited (or the one already made)."""
    limiter.game_creation(user.id)
    game = lobby.play_again(session, user, game_id, now)
    return _back(game.id)


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
    reader = FORM_ORDERS.get(play.get_game(session, game_id).game_type)
    order = reader(fields) if reader is not None else fields
    play.submit(session, user, game_id, order, expected_version, now)
    if request.headers.get("hx-request"):
        return _fragment(request, session, game_id, user, now, None)
    return _back(game_id)


# --- kept renders (app.web.render_cache) -------------------------------------------------------------


def _key(
    request: Request, seen: Read, user: UserFacts | None, kind: str, extra: str = ""
) -> RenderKey | None:
    """The key of this render, None for a game drawn every time (forming, or its seats being drafted)."""
    if not render_cache.keepable(seen.game):
        return None
    language = translator(request, user).language
    zone = str(user.time_zone) if user is not None else "UTC"
    viewer = render_cache.viewer_key(seen.game, user)
    return RenderKey(kind, seen.game.id, seen.mark, viewer, language, zone, extra)


def _kept(request: Request, key: RenderKey | None, draw: Callable[[], Kept]) -> Kept:
    cache: render_cache.RenderCache = request.app.state.render_cache
    return draw() if key is None else cache.get_or_render(key, draw)


def _drawn(request: Request, template: str, user: UserFacts | None, context: dict[str, Any]) -> Kept:
    """A render to keep: the clock left to the browser, the CSRF token and the messages left as marks."""
    marks = {"now": None, "csrf_token": CSRF_MARK, "messages_slot": Markup(MESSAGES_MARK), "turns_waiting": 0}
    return Kept(render_text(request, template, user, {**context, **marks}))


def _messages(session: Session, seen: Read, user: UserFacts | None, oob: bool) -> dict[str, Any]:
    """The messages this viewer may read, read per request (a message moves no version)."""
    game, seat = seen.game, play.viewer_seat(seen.game, user)
    return {"game": game, "oob": oob, **message_context(session, game, seat, seen.seat_names(), user)}


def _said(messages: dict[str, Any]) -> str:
    """What of the messages a page shows beside the game's own (in the ETag; the names are in the key)."""
    return repr((messages["messages"], messages["message_seats"], messages["can_post"]))


def _drawn_messages(request: Request, user: UserFacts | None, messages: dict[str, Any]) -> str:
    return render_text(request, "partials/game_message_sections.html", user, messages)


def _filled(request: Request, kept: Kept, messages: str) -> Markup:
    """A kept render with this request's CSRF token, then its messages (whose text is never searched)."""
    return Markup(with_token(kept.text, csrf_token(request)).replace(MESSAGES_MARK, messages, 1))
