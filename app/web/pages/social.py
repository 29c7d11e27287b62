"""Pages of the ways into games: the player queue, friends and blocks, the seat draft, the position summary
of an open seat, rankings and profiles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from starlette.responses import RedirectResponse, Response

from app.games import registry
from app.services.errors import ServiceError, not_found
from app.services.play import draft
from app.services.players import friends, profiles, ratings
from app.services.social import queue, summaries
from app.web.deps import DB, CurrentUser, Limiter, MaybeUser, Now, render
from app.web.forms import FormFields
from app.web.games.advciv import draft as advciv_draft

router = APIRouter()
Name = Annotated[str, Form(max_length=80)]
RANKING_PAGE = 100


def _to(target: str) -> RedirectResponse:
    return RedirectResponse(target, 303)


def _titles() -> dict[str, str]:
    return {rules.id: rules.title for rules in registry.all_games()}


# --- the queue --------------------------------------------------------------------------------------


@router.get("/queue")
def queue_page(request: Request, session: DB, user: CurrentUser) -> Response:
    context = {
        "entries": queue.entries_of(session, user),
        "waiting": queue.waiting_counts(session),
        "titles": _titles(),
        "hour_choices": queue.HOUR_CHOICES,
        "defaults": queue.QueuePreferences(),
    }
    return render(request, "lobby/queue.html", user, context)


def queue_form(fields: dict[str, Any]) -> queue.QueuePreferences:
    """The form's fields: unchecked boxes are absent; a maximum of "none" accepts games with no limit."""
    maximum = str(fields.get("max_hours", "none"))
    sizes = {name: str(fields.get(name, "any")) for name in ("min_players", "max_players")}
    return queue.preferences(
        {
            "min_hours": fields.get("min_hours", queue.QueuePreferences().min_hours),
            "max_hours": None if maximum == "none" else maximum,
            "new_games": fields.get("new_games") == "on",
            "in_progress": fields.get("in_progress") == "on",
            **{name: None if value in ("", "any") else value for name, value in sizes.items()},
        }
    )


@router.post("/queue")
def enter_queue(session: DB, user: CurrentUser, now: Now, limiter: Limiter, fields: FormFields) -> Response:
    limiter.queue_change(user.id)
    placed = queue.enter(session, user, str(fields.get("game_type", "")), queue_form(fields), now)
    mine = next((placement for placement in placed if placement.user_id == user.id), None)
    return _to(f"/games/{mine.game_id}" if mine else "/queue")


@router.post("/queue/{game_type}/leave")
def leave_queue(game_type: str, session: DB, user: CurrentUser, limiter: Limiter) -> Response:
    limiter.queue_change(user.id)
    queue.leave(session, user, game_type)
    return _to("/queue")


# --- friends and blocks -----------------------------------------------------------------------------


@router.get("/friends")
def friends_page(request: Request, session: DB, user: CurrentUser) -> Response:
    return render(request, "lobby/friends.html", user, {"lists": friends.lists_of(session, user)})


@router.get("/players/names")
def player_names(request: Request, session: DB, user: CurrentUser, name: str = "") -> Response:
    """The names a player-name field suggests as one types (`<option>`s of a datalist, loaded by htmx)."""
    names = friends.names_like(session, name[:80])
    return render(request, "lobby/_name_options.html", user, {"names": names})


@router.post("/friends")
def add_friend(session: DB, user: CurrentUser, now: Now, name: Name) -> Response:
    friends.add_friend(session, user, name, now)
    return _to("/friends")


@router.post("/friends/{user_id}/remove")
def remove_friend(user_id: int, session: DB, user: CurrentUser) -> Response:
    friends.remove_friend(session, user, user_id)
    return _to("/friends")


@router.post("/blocks")
def block(session: DB, user: CurrentUser, now: Now, name: Name) -> Response:
    friends.block(session, user, name, now)
    return _to("/friends")


@router.post("/blocks/{user_id}/remove")
def unblock(user_id: int, session: DB, user: CurrentUser) -> Response:
    friends.unblock(session, user, user_id)
    return _to("/friends")


# --- the seat draft ---------------------------------------------------------------------------------


# Games whose draft shows what each choice means on a map (Advanced Civilization's start areas): the
# drawing goes into the panel's context as `draft_map`, for templates/games/<game>/draft_map.html.
DRAFT_DRAWINGS: dict[str, Callable[[draft.DraftView], dict[str, Any]]] = {"advciv": advciv_draft.draft_map}


def _draft_context(view: draft.DraftView) -> dict[str, Any]:
    drawing = DRAFT_DRAWINGS.get(view.game.game_type)
    return {"draft": view, "game": view.game, "draft_map": drawing(view) if drawing is not None else {}}


@router.get("/games/{game_id}/draft")
def draft_page(request: Request, game_id: int, session: DB, user: MaybeUser) -> Response:
    """The draft panel (htmx loads it into the game page); the whole page without JavaScript."""
    view = draft.draft_view(session, game_id, user)
    template = "lobby/_draft.html" if request.headers.get("hx-request") else "lobby/draft.html"
    return render(request, template, user, _draft_context(view))


@router.post("/games/{game_id}/draft")
def choose(
    request: Request, game_id: int, session: DB, user: CurrentUser, now: Now, fields: FormFields
) -> Response:
    choice = None if fields.get("withdraw") else str(fields.get("choice", ""))
    if choice == "":
        raise ServiceError("invalid_input", "Choose one.", "choice")
    game = draft.choose(session, user, game_id, choice, now)
    if not request.headers.get("hx-request"):
        return _to(f"/games/{game_id}")
    if game.state is not None:  # that was the last choice: the game has begun, show the whole page
        return Response(status_code=200, headers={"HX-Refresh": "true"})
    view = draft.draft_view(session, game_id, user)
    return render(request, "lobby/_draft.html", user, _draft_context(view))


# --- an open seat's position ------------------------------------------------------------------------


@router.get("/games/{game_id}/seats/{seat}/summary")
def seat_summary(
    request: Request, game_id: int, seat: int, session: DB, user: MaybeUser, now: Now
) -> Response:
    summary = summaries.seat_summary(session, game_id, seat, user, now)
    context = {
        "summary": summary,
        "game": summary.view.game,
        "view": summary.view,
        "board": summary.view.board,
        "rules": registry.get(summary.view.game.game_type),
        "template_dir": f"games/{summary.view.game.game_type}",
        "my_wait": None,
    }
    return render(request, "lobby/seat_summary.html", user, context)


# --- rankings and profiles --------------------------------------------------------------------------


@router.get("/rankings")
def rankings_page(
    request: Request, session: DB, user: MaybeUser, game_type: str = "", page: int = 1
) -> Response:
    titles = _titles()
    chosen = game_type or next(iter(sorted(titles)), "")
    if chosen not in titles:
        raise ServiceError("not_found", "There is no such game type.")
    page = max(1, min(page, 10_000))
    context = {
        "titles": titles,
        "game_type": chosen,
        "rows": ratings.ranking(session, chosen, (page - 1) * RANKING_PAGE, RANKING_PAGE),
        "seat_rows": ratings.seat_statistics(session, chosen),
        "page": page,
        "page_size": RANKING_PAGE,
    }
    return render(request, "lobby/rankings.html", user, context)


@router.get("/players/{name}")
def player_by_name(name: str, session: DB, user: MaybeUser) -> Response:
    """A name shown on a page (a seat, a message, a log entry) leads to its player's profile."""
    try:
        found = friends.user_named(session, name[:80])
    except ServiceError:
        raise not_found("There is no player with this name.") from None
    return RedirectResponse(f"/users/{found.id}", 303)


@router.get("/users/{user_id}")
def profile_page(request: Request, user_id: int, session: DB, user: MaybeUser) -> Response:
    context = {"profile": profiles.profile(session, user_id), "titles": _titles()}
    return render(request, "lobby/profile.html", user, context)
