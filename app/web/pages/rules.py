"""The rules and reference pages: one per game, built from the game's own catalogues so that the page
and the rules engine never disagree. What the code does not hold (how a turn goes, the site's defaults at
timeout, as `docs/<game>.md` documents them) is written in the game's template, `templates/rules/`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from starlette.responses import Response

from app.games import registry
from app.games.advciv import cards as civ
from app.games.advciv import trade_cards
from app.games.amunre import cards as amunre_cards
from app.games.amunre import flow as amunre_flow
from app.games.amunre import scoring as amunre_scoring
from app.games.dragonstones import characters
from app.games.dragonstones.rules import DragonstonesOptions
from app.games.tigris import board as tigris
from app.services.errors import not_found
from app.web.deps import MaybeUser, render
from app.web.games.advciv import market as advciv_market

router = APIRouter()
RULES_READ = "rules_read"


def _dragonstones() -> dict[str, Any]:
    specials = characters.SPECIAL_COUNTS
    return {
        "witch": characters.WITCH,
        "base": characters.BASE_PILE,
        "specials": [(card, specials[card]) for card in characters.canonical(specials)],
        "special_cards": len(characters.SPECIAL_DECK),
        "points_to_win": DragonstonesOptions().points_to_win,
    }


def _tigris() -> dict[str, Any]:
    return {
        "colours": list(zip(tigris.COLOURS, tigris.LEADERS, tigris.TILES_PER_COLOUR, strict=True)),
        "tiles": sum(tigris.TILES_PER_COLOUR),
        "monuments": tigris.MONUMENT_IDS,
        "hand_size": tigris.HAND_SIZE,
        "catastrophes": tigris.CATASTROPHES_PER_PLAYER,
        "actions": tigris.ACTIONS_PER_TURN,
        "treasures_to_end": tigris.TREASURES_TO_END,
        "dynasties": tigris.DYNASTIES,
    }


def _amunre() -> dict[str, Any]:
    return {
        "powers": amunre_cards.POWER_COUNTS,
        "power_total": sum(amunre_cards.POWER_COUNTS.values()),
        "bonus_points": amunre_scoring.BONUS_POINTS,
        "card_symbols": amunre_scoring.CARD_BONUS_SYMBOLS,
        "bonus_farmers": amunre_scoring.FARMER_BONUS_FARMERS,
        "gold_points": amunre_scoring.GOLD_POINTS,
        "eight_gold": amunre_flow.EIGHT_GOLD,
    }


def _advciv() -> dict[str, Any]:
    return {
        "civ_cards": list(civ.CIV_CARDS.values()),
        "card_names": {key: card.name for key, card in civ.CIV_CARDS.items()},
        "groups": civ.GROUPS,
        "effects": _effects_by_card(),
        "credits": _credits_by_card(),
        "card_facts": advciv_market.card_facts(),
        "copies": civ.COPIES,
        "calamities": trade_cards.CALAMITY_LIST,
    }


def _effects_by_card() -> dict[str, list[civ.Effect]]:
    effects: dict[str, list[civ.Effect]] = {}
    for effect in civ.EFFECTS:
        effects.setdefault(effect.card, []).append(effect)
    return effects


def _credits_by_card() -> dict[str, list[tuple[str, int]]]:
    """For each card, the cards it takes something off and how much, dearest credit first."""
    return {
        giver: sorted(
            ((target, civ.credit(giver, target)) for target in civ.CIV_CARDS if civ.credit(giver, target)),
            key=lambda pair: -pair[1],
        )
        for giver in civ.CIV_CARDS
    }


REFERENCES: dict[str, Callable[[], dict[str, Any]]] = {
    "dragonstones": _dragonstones,
    "tigris": _tigris,
    "amunre": _amunre,
    "advciv": _advciv,
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
