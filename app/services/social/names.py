"""Generated game names: two words and a number, easy to say aloud and to search. A game gets one name,
in its creator's language, and everyone sees that name."""

from __future__ import annotations

import secrets

# Each adjective is a pattern around the noun: French puts it after ("Lyre d'argent"). The forms chosen
# agree with a noun of either gender.
PATTERNS = {
    "en": (
        "Amber {noun}",
        "Bronze {noun}",
        "Cedar {noun}",
        "Copper {noun}",
        "Crimson {noun}",
        "Dusky {noun}",
        "Golden {noun}",
        "Ivory {noun}",
        "Jade {noun}",
        "Lapis {noun}",
        "Ochre {noun}",
        "Olive {noun}",
        "Saffron {noun}",
        "Silver {noun}",
        "Sandy {noun}",
        "Scarlet {noun}",
        "Tidal {noun}",
        "Twilight {noun}",
        "Violet {noun}",
        "Windy {noun}",
    ),
    "fr": (
        "{noun} d'ambre",
        "{noun} de bronze",
        "{noun} de cèdre",
        "{noun} de cuivre",
        "{noun} pourpre",
        "{noun} du soir",
        "{noun} d'or",
        "{noun} d'ivoire",
        "{noun} de jade",
        "{noun} de lapis",
        "{noun} d'ocre",
        "{noun} des oliviers",
        "{noun} de safran",
        "{noun} d'argent",
        "{noun} des sables",
        "{noun} écarlate",
        "{noun} des marées",
        "{noun} du crépuscule",
        "{noun} des violettes",
        "{noun} des vents",
    ),
}
NOUNS = {
    "en": (
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
    ),
    "fr": (
        "Agora",
        "Amphore",
        "Caravane",
        "Citadelle",
        "Delta",
        "Galère",
        "Port",
        "Lyre",
        "Obélisque",
        "Oracle",
        "Papyrus",
        "Phare",
        "Satrape",
        "Scribe",
        "Stèle",
        "Trirème",
        "Vigne",
        "Oued",
        "Ziggourat",
        "Cithare",
    ),
}


def generate_game_name(language: str) -> str:
    """A new name in `language` (English for a language without its own words)."""
    patterns, nouns = PATTERNS.get(language, PATTERNS["en"]), NOUNS.get(language, NOUNS["en"])
    words = secrets.choice(patterns).format(noun=secrets.choice(nouns))
    return f"{words} {secrets.randbelow(900) + 100}"
