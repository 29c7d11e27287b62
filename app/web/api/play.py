from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import TypeAdapter

from app.games import registry
from app.models.records import UserFacts
from app.services.errors import not_found
from app.services.play import play
from app.services.social import lobby
from app.web import render_cache
from app.web.api.schemas import (
    ERROR_RESPONSES,
    EventOut,
    GameCreate,
    GameDetail,
    GameRename,
    GameSummary,
    OrderAccepted,
    OrderAnswered,
    OrderIn,
    WaitOut,
)
from app.web.deps import DB, CurrentUser, Limiter, MaybeUser, Now, client_address, request_token
from app.web.etags import etag_matches, not_modified
from app.web.render_cache import Kept, Read, RenderKey

log = logging.getLogger(__name__)
router = APIRouter(tags=["games"], responses=ERROR_RESPONSES)


@router.get("/game-types")
def game_types() -> list[dict[str, Any]]:
    return [
        {
            "id": rules.id,
            "title": rules.title,
            "min_players": rules.min_players,
            "max_players": rules.max_players,
        }
        for rules in registry.all_games()
    ]


@router.get("/game-types/{game_type}")
def game_type(game_type: str) -> dict[str, Any]:
    if not registry.known(game_type):
        raise not_found("This game type does not exist.")
    rules = registry.get(game_type)
    return {
        "id": rules.id,
        "title": rules.title,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "options_schema": rules.Options.model_json_schema(),
        "order_schema": TypeAdapter(rules.Order).json_schema(),
        "anytime_orders": sorted(getattr(rules, "anytime_orders", ())),
    }


@router.get("/games")
def list_games(session: DB, status: Literal["open", "active", "finished"] = "open") -> list[GameSummary]:
    return [GameSummary.of(game) for game in lobby.list_games(session, status)]


@router.post("/games", status_code=201)
def create_game(body: GameCreate, session: DB, user: CurrentUser, now: Now, limiter: Limiter) -> GameSummary:
    limiter.game_creation(user.id)
    game = lobby.create_game(
        session,
        user,
        game_type=body.game_type,
        players=body.players,
        time_limit_hours=body.time_limit_hours,
        options=body.options,
        name=body.name,
        absence_options=body.absence,
        friends_invited=body.friends,
        min_reliability=body.min_reliability,
        bot_seats=body.bot_seats,
        bots_keep_seats=body.bots_keep_seats,
        now=now,
    )
    return GameSummary.of(game)


@router.get("/games/{game_id}", response_model=GameDetail)
def get_game(game_id: int, request: Request, session: DB, user: MaybeUser) -> Response:
    """A 304 for an `If-None-Match` that names the ETag of the game as the caller last read it."""

    def draw() -> Kept:
        return Kept(detail(play.view_of(seen.game, user, seen.names, seen.waits)).model_dump_json())

    seen = render_cache.read(session, game_id)
    return _kept_json(request, seen, user, "api", draw)


def detail(view: play.GameView) -> GameDetail:
    game = view.game
    return GameDetail(
        game=GameSummary.of(game),
        options=game.options,
        your_seat=view.seat,
        players=view.players,
        waits=[
            WaitOut(
                seat=w.seat,
                player=w.player,
                phase=w.phase,
                deadline_at=w.deadline_at,
                default_order=dict(w.default_order) if w.default_order is not None else None,
            )
            for w in view.waits
        ],
        view=view.board,
        standings=game.standings,
    )


@router.post("/games/{game_id}/rename")
def rename_game(
    game_id: int, body: GameRename, session: DB, user: CurrentUser, limiter: Limiter, now: Now
) -> GameSummary:
    limiter.rename(user.id)
    return GameSummary.of(lobby.rename_game(session, user, game_id, body.name, now))


@router.post("/games/{game_id}/join")
def join_game(game_id: int, session: DB, user: CurrentUser, now: Now) -> GameSummary:
    return GameSummary.of(lobby.join_game(session, user, game_id, now))


@router.get("/invitations")
def my_invitations(session: DB, user: CurrentUser) -> list[GameSummary]:
    """The forming games you are invited into: you are seated only if you accept."""
    return [GameSummary.of(game) for game in lobby.invitations_of(session, user)]


@router.post("/games/{game_id}/invitation/accept")
def accept_invitation(game_id: int, session: DB, user: CurrentUser, now: Now) -> GameSummary:
    return GameSummary.of(lobby.accept_invitation(session, user, game_id, now))


@router.post("/games/{game_id}/invitation/decline", status_code=204)
def decline_invitation(game_id: int, session: DB, user: CurrentUser) -> Response:
    lobby.decline_invitation(session, user, game_id)
    return Response(status_code=204)


@router.post("/games/{game_id}/leave")
def leave_game(game_id: int, session: DB, user: CurrentUser) -> GameSummary:
    return GameSummary.of(lobby.leave_game(session, user, game_id))


@router.post("/games/{game_id}/cancel")
def cancel_game(game_id: int, session: DB, user: CurrentUser) -> GameSummary:
    return GameSummary.of(lobby.cancel_game(session, user, game_id))


@router.post("/games/{game_id}/orders")
def submit_order(
    game_id: int,
    body: OrderIn,
    request: Request,
    session: DB,
    user: CurrentUser,
    now: Now,
    limiter: Limiter,
) -> OrderAccepted | OrderAnswered:
    """With `Prefer: return=representation`, the answer carries the game as the mover now sees it, so
    that the client needs no second read."""
    limiter.order(user.id)
    token = request_token(request)
    if token is not None:
        limiter.token_order(token.id)
    submitted = play.submit(session, user, game_id, body.order, body.expected_version, now)
    if token is not None:
        log.info("order by API token %r, version %d", token.name, submitted.version)
    accepted = {"version": submitted.version, "status": submitted.game.status}
    if "return=representation" in request.headers.get("prefer", ""):
        return OrderAnswered(**accepted, game=detail(submitted.view))
    return OrderAccepted(**accepted)


@router.get("/games/{game_id}/log", response_model=list[EventOut])
def game_log(game_id: int, request: Request, session: DB, user: MaybeUser) -> Response:
    """The newest events the caller may see; a 304 for an `If-None-Match` of the log as last read."""

    def draw() -> Kept:
        seat = play.viewer_seat(seen.game, user)
        events = [
            EventOut(
                seq=e.seq, kind=e.kind, data=e.data, private=e.visible_to is not None, created_at=e.created_at
            )
            for e in play.visible_log(session, game_id, seat)
        ]
        return Kept(EVENTS.dump_json(events).decode())

    seen = render_cache.read(session, game_id)
    return _kept_json(request, seen, user, "api-log", draw)


EVENTS = TypeAdapter(list[EventOut])


def _kept_json(
    request: Request, seen: Read, user: UserFacts | None, kind: str, draw: Callable[[], Kept]
) -> Response:
    """A read kept per game version and seat (render_cache), answered 304 when the caller holds it."""
    key = RenderKey(kind, seen.game.id, seen.mark, render_cache.viewer_key(seen.game, user))
    etag = key.etag()
    if etag_matches(request, etag):
        return not_modified(etag)
    cache: render_cache.RenderCache = request.app.state.render_cache
    kept = cache.get_or_render(key, draw) if render_cache.keepable(seen.game) else draw()
    return Response(kept.text, media_type="application/json", headers={"ETag": etag})


@router.get("/games/{game_id}/replay")
def replay(game_id: int, request: Request, session: DB, user: MaybeUser, limiter: Limiter) -> dict[str, Any]:
    """The state rebuilt from the order log (cached per game version), as the caller may see it."""
    limiter.replay(client_address(request), user.id if user else None)
    return play.replay(session, game_id, user)
