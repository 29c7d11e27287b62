"""What Amun-Re's rules page (templates/rules/amunre.html) counts, from the game's own catalogues."""

from __future__ import annotations

from typing import Any

from app.games.amunre import cards as amunre_cards
from app.games.amunre import flow as amunre_flow
from app.games.amunre import scoring as amunre_scoring


def reference() -> dict[str, Any]:
    return {
        "powers": amunre_cards.POWER_COUNTS,
        "power_total": sum(amunre_cards.POWER_COUNTS.values()),
        "bonus_points": amunre_scoring.BONUS_POINTS,
        "card_symbols": amunre_scoring.CARD_BONUS_SYMBOLS,
        "bonus_farmers": amunre_scoring.FARMER_BONUS_FARMERS,
        "gold_points": amunre_scoring.GOLD_POINTS,
        "eight_gold": amunre_flow.EIGHT_GOLD,
    }
