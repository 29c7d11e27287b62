"""French and English. Catalogs are Babel .po files, compiled in memory when the app starts."""

from __future__ import annotations

import gettext as stdlib_gettext
from functools import cache
from io import BytesIO
from pathlib import Path
from typing import Any

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


class Translator:
    """The gettext functions templates and error handlers use, for one language."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._catalog = translations(language)

    def gettext(self, message: str, **variables: Any) -> Markup:
        text = Markup(self._catalog.gettext(message))
        return text % variables if variables else text

    def ngettext(self, singular: str, plural: str, count: int, **variables: Any) -> Markup:
        text = Markup(self._catalog.ngettext(singular, plural, count))
        return text % {"num": count, **variables}

    def plain(self, message: str) -> str:
        """For text that is not HTML (JSON error messages)."""
        return self._catalog.gettext(message)

    def template_globals(self) -> dict[str, Any]:
        return {"_": self.gettext, "gettext": self.gettext, "ngettext": self.ngettext, "lang": self.language}


def N_(message: str) -> str:
    """Marks a string for the catalog; it is translated where it is shown."""
    return message
