from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from app.games import registry
from app.services import lobby
from app.services.errors import ServiceError
from app.web.deps import DB, CurrentUser, MaybeUser, Now, render
from app.web.forms import FormFields

router = APIRouter()
TABS = ("open", "active", "finished")


@router.get("/")
def lobby_page(
    request: Request, session: DB, user: MaybeUser, tab: Literal["open", "active", "finished"] = "open"
) -> Response:
    context = {
        "tab": tab,
        "tabs": TABS,
        "games": lobby.list_games(session, tab),
        "mine": lobby.my_games(session, user) if user else [],
        "counts": lobby.count_games(session),
        "titles": {rules.id: rules.title for rules in registry.all_games()},
    }
    return render(request, "lobby.html", user, context)


@router.get("/games/new")
def new_game_page(request: Request, user: CurrentUser) -> Response:
    return render(request, "new_game.html", user, {"game_types": registry.all_games()})


@router.post("/games")
def create_game(session: DB, user: CurrentUser, now: Now, fields: FormFields) -> Response:
    options = fields.pop("options", {})
    time_limit = str(fields.get("time_limit_hours", "")).strip()
    try:
        players = int(str(fields.get("players", "")))
        limit_hours = int(time_limit) if time_limit else None
    except ValueError:
        raise ServiceError(
            "invalid_input", "Give the number of players and the time limit as numbers."
        ) from None
    game = lobby.create_game(
        session,
        user,
        game_type=str(fields.get("game_type", "")),
        players=players,
        time_limit_hours=limit_hours,
        options=options if isinstance(options, dict) else {},
        name=str(fields.get("name", "")).strip() or None,
        now=now,
    )
    return RedirectResponse(f"/games/{game.id}", 303)
