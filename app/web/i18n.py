"""French and English. Catalogs are Babel .po files, compiled in memory when the app starts."""

from __future__ import annotations

import gettext as stdlib_gettext
import re
from collections.abc import Mapping
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any, TypeVar

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from markupsafe import Markup
from starlette.requests import Request

LANGUAGES = {"en": "English", "fr": "Français"}
TRANSLATIONS_DIR = Path(__file__).parent / "translations"


@cache
def translations(language: str) -> stdlib_gettext.NullTranslations:
    po_file = TRANSLATIONS_DIR / language / "LC_MESSAGES" / "messages.po"
    if language == "en" or not po_file.exists():
        return stdlib_gettext.NullTranslations()
    with po_file.open("rb") as handle:
        catalog = read_po(handle, locale=language)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return stdlib_gettext.GNUTranslations(compiled)


def pick_language(request: Request, user_language: str | None, default: str = "en") -> str:
    """The user's choice, else the language cookie, else the browser's preference, else the default."""
    if user_language in LANGUAGES:
        return user_language
    cookie = request.cookies.get("lang")
    if cookie in LANGUAGES:
        return cookie
    for part in request.headers.get("accept-language", "").split(","):
        code = part.split(";")[0].strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return default


# French elides "de" and "que" before a vowel: "la cité d'Anna", never "de Anna". The sentence is written
# before the name is known, so the elision is made when the name is put in.
_ELIDABLE = re.compile(r"\b([dD]e|[qQ]ue) %\((\w+)\)s")
_LEADING_TAGS = re.compile(r"^(?:\s*<[^>]*>)*\s*")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ")


def _starts_with_vowel(value: object) -> bool:
    visible = _LEADING_TAGS.sub("", value) if isinstance(value, Markup) else str(value)
    return bool(visible) and visible[0] in _VOWELS


def _elide(text: str, variables: Mapping[str, Any]) -> str:
    def elided(match: re.Match[str]) -> str:
        word, name = match.group(1), match.group(2)
        if name in variables and _starts_with_vowel(variables[name]):
            return f"{word[:-1]}'%({name})s"
        return match.group(0)

    return _ELIDABLE.sub(elided, text)


Text = TypeVar("Text", str, Markup)


def interpolate(language: str, text: Text, variables: Mapping[str, Any]) -> Text:
    """`text % variables`, with the language's elisions; `text` keeps its type (Markup escapes the values)."""
    if not variables:
        return text
    if language == "fr" and "%(" in text:
        text = type(text)(_elide(str(text), variables))
    return text % variables


class Translator:
    """The gettext functions templates and error handlers use, for one language."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._catalog = translations(language)

    def gettext(self, message: str, **variables: Any) -> Markup:
        return interpolate(self.language, Markup(self._catalog.gettext(message)), variables)

    def ngettext(self, singular: str, plural: str, count: int, **variables: Any) -> Markup:
        text = Markup(self._catalog.ngettext(singular, plural, count))
        return interpolate(self.language, text, {"num": count, **variables})

    def plain(self, message: str) -> str:
        """For text that is not HTML (JSON error messages)."""
        return self._catalog.gettext(message)

    def template_globals(self) -> dict[str, Any]:
        return {"_": self.gettext, "gettext": self.gettext, "ngettext": self.ngettext, "lang": self.language}


def N_(message: str) -> str:
    """Marks a string for the catalog; it is translated where it is shown."""
    return message
