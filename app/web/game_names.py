"""Game names in the viewer's language: a generated name is stored in English and said in each language."""

from __future__ import annotations

from typing import Any

from jinja2 import pass_context

from app.services.social.names import generated_parts
from app.web.i18n import N_, translations

ADJECTIVE_PATTERNS = {
    "Amber": N_("Amber %(noun)s"),
    "Bronze": N_("Bronze %(noun)s"),
    "Cedar": N_("Cedar %(noun)s"),
    "Copper": N_("Copper %(noun)s"),
    "Crimson": N_("Crimson %(noun)s"),
    "Dusky": N_("Dusky %(noun)s"),
    "Golden": N_("Golden %(noun)s"),
    "Ivory": N_("Ivory %(noun)s"),
    "Jade": N_("Jade %(noun)s"),
    "Lapis": N_("Lapis %(noun)s"),
    "Ochre": N_("Ochre %(noun)s"),
    "Olive": N_("Olive %(noun)s"),
    "Saffron": N_("Saffron %(noun)s"),
    "Silver": N_("Silver %(noun)s"),
    "Sandy": N_("Sandy %(noun)s"),
    "Scarlet": N_("Scarlet %(noun)s"),
    "Tidal": N_("Tidal %(noun)s"),
    "Twilight": N_("Twilight %(noun)s"),
    "Violet": N_("Violet %(noun)s"),
    "Windy": N_("Windy %(noun)s"),
}
NOUNS = {
    "Agora": N_("Agora"),
    "Amphora": N_("Amphora"),
    "Caravan": N_("Caravan"),
    "Citadel": N_("Citadel"),
    "Delta": N_("Delta"),
    "Galley": N_("Galley"),
    "Harbour": N_("Harbour"),
    "Lyre": N_("Lyre"),
    "Obelisk": N_("Obelisk"),
    "Oracle": N_("Oracle"),
    "Papyrus": N_("Papyrus"),
    "Pharos": N_("Pharos"),
    "Satrap": N_("Satrap"),
    "Scribe": N_("Scribe"),
    "Stele": N_("Stele"),
    "Trireme": N_("Trireme"),
    "Vineyard": N_("Vineyard"),
    "Wadi": N_("Wadi"),
    "Ziggurat": N_("Ziggurat"),
    "Zither": N_("Zither"),
}


def game_name(name: str, language: str) -> str:
    """A name as its creator typed it; a generated one with its words in `language`."""
    parts = generated_parts(name)
    if parts is None:
        return name
    adjective, noun, number = parts
    catalog = translations(language)
    words = catalog.gettext(ADJECTIVE_PATTERNS[adjective]) % {"noun": catalog.gettext(NOUNS[noun])}
    return f"{words} {number}"


@pass_context
def game_name_filter(context: Any, name: str | None) -> str:
    return game_name(name, context.get("lang", "en")) if name else ""
