"""Generated game names: two words and a number, easy to say aloud and to search."""

from __future__ import annotations

import secrets

ADJECTIVES = (
    "Amber",
    "Bronze",
    "Cedar",
    "Copper",
    "Crimson",
    "Dusky",
    "Golden",
    "Ivory",
    "Jade",
    "Lapis",
    "Ochre",
    "Olive",
    "Saffron",
    "Silver",
    "Sandy",
    "Scarlet",
    "Tidal",
    "Twilight",
    "Violet",
    "Windy",
)
NOUNS = (
    "Agora",
    "Amphora",
    "Caravan",
    "Citadel",
    "Delta",
    "Galley",
    "Harbour",
    "Lyre",
    "Obelisk",
    "Oracle",
    "Papyrus",
    "Pharos",
    "Satrap",
    "Scribe",
    "Stele",
    "Trireme",
    "Vineyard",
    "Wadi",
    "Ziggurat",
    "Zither",
)


def generate_game_name() -> str:
    return f"{secrets.choice(ADJECTIVES)} {secrets.choice(NOUNS)} {secrets.randbelow(900) + 100}"
