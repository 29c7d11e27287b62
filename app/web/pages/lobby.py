from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Request
from starlette.responses import RedirectResponse, Response

from app.games import registry
from app.models import User
from app.services import lobby, open_games, queue, seats
from app.services.errors import ServiceError
from app.web.deps import DB, CurrentUser, MaybeUser, Now, render
from app.web.forms import FormFields

router = APIRouter()
TABS = ("open", "active", "finished")


@router.get("/")
def lobby_page(
    request: Request,
    session: DB,
    user: MaybeUser,
    now: Now,
    tab: Literal["open", "active", "finished"] = "open",
) -> Response:
    tables = open_games.open_tables(session, user, now) if tab == "open" else None
    context = {
        "tab": tab,
        "tabs": TABS,
        "games": [t.game for t in tables.games] if tables else lobby.list_games(session, tab),
        "mine": lobby.my_games(session, user) if user else [],
        "counts": lobby.count_games(session),
        "titles": {rules.id: rules.title for rules in registry.all_games()},
        "open_seats": _open_seats(session, user, now, tab, tables),  # running games' seats
        "tables": tables,  # the recommended game, the hidden ones and why
        "queued": queue.entries_of(session, user) if user else [],
    }
    return render(request, "lobby.html", user, context)


def _open_seats(
    session: DB, user: User | None, now: datetime, tab: str, tables: open_games.OpenTables | None
) -> list[seats.OpenSeat]:
    if tab != "open":
        return []
    return tables.open_seats if tables else seats.open_seats(session, user, now)


def _percent(text: str) -> int | None:
    try:
        return int(text) if text else None
    except ValueError:
        raise ServiceError("invalid_input", "The reliability gate is a percentage, 0 to 100.") from None


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
        absence_options=fields.get("absence") if isinstance(fields.get("absence"), dict) else None,
        friends_invited=str(fields.get("friends", "")).split(","),
        min_reliability=_percent(str(fields.get("min_reliability", "")).strip()),
        now=now,
    )
    return RedirectResponse(f"/games/{game.id}", 303)
