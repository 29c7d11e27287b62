"""Seats of a running game: the absence ladder, the vote to evict, quitting, taking an open seat."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from starlette.responses import RedirectResponse, Response

from app.models.records import UserFacts
from app.services.deadlines import deadlines
from app.services.play import absence, play, seats
from app.web.deps import DB, CurrentUser, MaybeUser, Now, render

router = APIRouter()


def _to(target: str) -> RedirectResponse:
    return RedirectResponse(target, 303)


def seats_context(session: DB, game_id: int, user: UserFacts | None, now: datetime) -> dict[str, Any]:
    game = play.get_game(session, game_id)
    return {
        "game": game,
        "table": absence.absence_table(session, game, user, now) if game.status == "active" else [],
        "ladder": deadlines.ladder_of(game),
        "my_seat": play.viewer_seat(game, user),
        "history": seats.history(session, game),
    }


@router.get("/games/{game_id}/seats")
def seats_page(request: Request, game_id: int, session: DB, user: MaybeUser, now: Now) -> Response:
    """The whole page without JavaScript; the game page loads the same part (htmx) into itself."""
    context = seats_context(session, game_id, user, now)
    template = "partials/game_seats.html" if request.headers.get("hx-request") else "clock/seats.html"
    return render(request, template, user, context)


@router.post("/games/{game_id}/quit")
def quit_game(
    game_id: int,
    session: DB,
    user: CurrentUser,
    now: Now,
    replacement: Annotated[str, Form(max_length=80)] = "",
) -> Response:
    seats.quit_game(session, user, game_id, replacement or None, now)
    return _to(f"/games/{game_id}")


@router.post("/games/{game_id}/seats/{seat}/take")
def take_seat(game_id: int, seat: int, session: DB, user: CurrentUser, now: Now) -> Response:
    seats.take_seat(session, user, game_id, seat, now)
    return _to(f"/games/{game_id}")


@router.post("/games/{game_id}/seats/{seat}/decline")
def decline_offer(game_id: int, seat: int, session: DB, user: CurrentUser) -> Response:
    seats.decline_offer(session, user, game_id, seat)
    return _to("/seats")


@router.post("/games/{game_id}/seats/{seat}/evict-vote")
def vote_to_evict(game_id: int, seat: int, session: DB, user: CurrentUser, now: Now) -> Response:
    absence.vote_to_evict(session, user, game_id, seat, now)
    return _to(f"/games/{game_id}/seats")


@router.get("/seats")
def open_seats_page(request: Request, session: DB, user: MaybeUser, now: Now) -> Response:
    return render(
        request, "clock/open_seats.html", user, {"open_seats": seats.open_seats(session, user, now)}
    )
