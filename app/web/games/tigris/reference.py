"""What Tigris & Euphrates' rules page (templates/rules/tigris.html) counts, from the game's own board."""

from __future__ import annotations

from typing import Any

from app.games.tigris import board as tigris


def reference() -> dict[str, Any]:
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
