from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from sqlalchemy.orm import Session
from starlette.responses import RedirectResponse, Response

from app.games import options as game_options
from app.games import registry
from app.games.contract import bot_order_of
from app.models.records import UserFacts
from app.services.errors import ServiceError
from app.services.play import turns
from app.services.social import first_steps, lobby, open_games, queue
from app.web.deps import DB, CurrentUser, Limiter, MaybeUser, Now, render
from app.web.forms import FormFields
from app.web.pages.rules import RULES_READ

router = APIRouter()
TABS = ("open", "active", "finished")
NEWCOMER_GAME = "dragonstones"  # the new-game form's first choice: the shortest rules, the quickest game
DEFAULT_PLAYERS = 4


@router.get("/")
def lobby_page(
    request: Request,
    session: DB,
    user: MaybeUser,
    now: Now,
    tab: Literal["open", "active", "finished"] = "open",
    games_page: int = 1,
    seats_page: int = 1,
    hidden_page: int = 1,
) -> Response:
    wanted = open_games.Pages(games_page, seats_page, hidden_page)
    tables = open_games.open_tables(session, user, now, wanted) if tab == "open" else None
    mine = turns.turns_of(session, user) if user else turns.Turns([])
    context = {
        "tab": tab,
        "tabs": TABS,
        "games": [t.game for t in tables.games] if tables else lobby.list_games(session, tab),
        "mine": mine.games,
        "turns_waiting": mine.waiting_on_you,
        "now": now,
        "invitations": lobby.invitations_of(session, user) if user else [],
        "counts": lobby.count_games(session) | {"open": _listed(session, user, now, tables)},
        "titles": {rules.id: rules.title for rules in registry.all_games()},
        "open_seats": tables.open_seats if tables else [],  # running games' seats
        "tables": tables,  # the recommended game, the hidden ones and why, the pages of each list
        "page_link": _page_link(request),
        "queued": queue.entries_of(session, user) if user else [],
        "first_steps": _first_steps(request, session, user),
    }
    return render(request, "lobby.html", user, context)


def _first_steps(request: Request, session: Session, user: UserFacts | None) -> first_steps.FirstSteps | None:
    """The newcomer's card, until its steps are done (a rules page read is remembered by the session)."""
    if user is None:
        return None
    steps = first_steps.first_steps(session, user, rules_read=bool(request.session.get(RULES_READ)))
    return None if steps.done else steps


def _listed(
    session: Session, user: UserFacts | None, now: datetime, tables: open_games.OpenTables | None
) -> int:
    if tables is None:
        return open_games.listed_count(session, user, now)
    return tables.games_page.total + tables.seats_page.total


def _page_link(request: Request) -> Callable[[str, int], str]:
    """The link to another page of one of the Open tab's lists, the other lists staying where they are."""

    def link(parameter: str, number: int) -> str:
        return "/?" + urlencode({**request.query_params, parameter: number})

    return link


def _percent(text: str) -> int | None:
    try:
        return int(text) if text else None
    except ValueError:
        raise ServiceError("invalid_input", "The reliability gate is a percentage, 0 to 100.") from None


@router.get("/games/new")
def new_game_page(request: Request, user: CurrentUser, game_type: str = NEWCOMER_GAME) -> Response:
    """The form for the chosen game (`?game_type=`, which the game's list sets without script too): its
    player count and its options; every game's options are drawn, those of the others hidden and disabled."""
    games = registry.all_games()
    known = registry.known(game_type)
    chosen = registry.get(game_type) if known else registry.get(NEWCOMER_GAME)
    context = {
        "game_types": games,
        "chosen": chosen,
        "players": min(max(DEFAULT_PLAYERS, chosen.min_players), chosen.max_players),
        "option_fields": {rules.id: game_options.option_fields(rules.Options) for rules in games},
        "with_bots": {rules.id for rules in games if bot_order_of(rules) is not None},
    }
    return render(request, "new_game.html", user, context)


@router.get("/games")
def games_list() -> Response:
    """The lobby lists the games: an address typed by hand, or a refreshed form, lands there."""
    return RedirectResponse("/", 302)


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    return RedirectResponse("/static/favicon.svg", 301)


@router.post("/games")
def create_game(session: DB, user: CurrentUser, now: Now, limiter: Limiter, fields: FormFields) -> Response:
    limiter.game_creation(user.id)
    game_type = str(fields.get("game_type", ""))
    options = fields.get("options", {})
    chosen = options.get(game_type, {}) if isinstance(options, dict) else {}  # each game's fieldset
    time_limit = str(fields.get("time_limit_hours", "")).strip()
    try:
        players = int(str(fields.get("players", "")))
        limit_hours = int(time_limit) if time_limit else None
    except ValueError:
        raise ServiceError(
            "invalid_input", "Give the number of players and the time limit as numbers."
        ) from None
    bots = str(fields.get("bot_seats", "")).strip()
    if bots and not bots.isdigit():
        raise ServiceError("invalid_input", "Give the number of bots as a whole number.", "bot_seats")
    bot_seats = int(bots) if bots else 0
    game = lobby.create_game(
        session,
        user,
        game_type=game_type,
        players=players,
        time_limit_hours=limit_hours,
        options=chosen if isinstance(chosen, dict) else {},
        name=str(fields.get("name", "")).strip() or None,
        absence_options=fields.get("absence") if isinstance(fields.get("absence"), dict) else None,
        friends_invited=str(fields.get("friends", "")).split(","),
        min_reliability=_percent(str(fields.get("min_reliability", "")).strip()),
        bot_seats=bot_seats,
        bots_keep_seats=str(fields.get("bots_keep_seats", "")) == "true",
        now=now,
    )
    return RedirectResponse(f"/games/{game.id}", 303)
