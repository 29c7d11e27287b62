"""What the rules page of Dragonstones (templates/rules/dragonstones.html) counts, from its catalogues."""

from __future__ import annotations

from typing import Any

from app.games.dragonstones import characters
from app.games.dragonstones.rules import DragonstonesOptions


def reference() -> dict[str, Any]:
    specials = characters.SPECIAL_COUNTS
    return {
        "witch": characters.WITCH,
        "base": characters.BASE_PILE,
        "specials": [(card, specials[card]) for card in characters.canonical(specials)],
        "special_cards": len(characters.SPECIAL_DECK),
        "points_to_win": DragonstonesOptions().points_to_win,
    }
