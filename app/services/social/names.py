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


def generated_parts(name: str) -> tuple[str, str, str] | None:
    """The adjective, noun and number of a name `generate_game_name` could have made, else None."""
    words = name.split(" ")
    if len(words) != 3:
        return None
    adjective, noun, number = words
    if adjective in ADJECTIVES and noun in NOUNS and number.isdigit() and len(number) == 3:
        return adjective, noun, number
    return None
