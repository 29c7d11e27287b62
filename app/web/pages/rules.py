"""The rules and reference pages: one per game, built from the game's own catalogues so that the page
and the rules engine never disagree. What the code does not hold (how a turn goes, the site's defaults at
timeout, as `docs/<game>.md` documents them) is written in the game's template, `templates/rules/`; what a
page counts from the code, each game's `app/web/games/<game>/reference.py` gathers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.games import registry
from app.services.errors import not_found
from app.web.deps import MaybeUser, render
from app.web.games.advciv import reference as advciv
from app.web.games.amunre import reference as amunre
from app.web.games.dragonstones import reference as dragonstones
from app.web.games.tigris import reference as tigris

router = APIRouter()
RULES_READ = "rules_read"


REFERENCES: dict[str, Callable[[], dict[str, Any]]] = {
    "dragonstones": dragonstones.reference,
    "tigris": tigris.reference,
    "amunre": amunre.reference,
    "advciv": advciv.reference,
}


def has_rules_page(game_type: str) -> bool:
    return game_type in REFERENCES


@router.get("/rules")
def rules_index(request: Request, user: MaybeUser) -> Response:
    games = [rules for rules in registry.all_games() if has_rules_page(rules.id)]
    return render(request, "rules/index.html", user, {"games": games})


@router.get("/help")
def help_page(request: Request, user: MaybeUser) -> Response:
    """How the site works for a newcomer: each game's rules, a game's course, the clock, pauses, the queue."""
    games = [rules for rules in registry.all_games() if has_rules_page(rules.id)]
    return render(request, "help.html", user, {"games": games})


@router.get("/rules/{game_type}")
def rules_page(request: Request, game_type: str, user: MaybeUser) -> Response:
    reference = REFERENCES.get(game_type)
    if reference is None:
        raise not_found("This game has no rules page.")
    request.session[RULES_READ] = True  # a newcomer's first step (app.services.social.first_steps)
    context = {"rules": registry.get(game_type), "template_dir": f"games/{game_type}", **reference()}
    return render(request, f"rules/{game_type}.html", user, context)
