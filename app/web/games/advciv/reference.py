"""What Advanced Civilization's rules page (templates/rules/advciv.html) lists, from the game's own
catalogues: the civilization cards with their effects, credits and prices, and the calamities."""

from __future__ import annotations

from typing import Any

from app.games.advciv import cards as civ
from app.games.advciv import trade_cards
from app.web.games.advciv import market as advciv_market


def reference() -> dict[str, Any]:
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
