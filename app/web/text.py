"""Plain text typed by players, shown as HTML: everything escaped, http(s) links made clickable."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from jinja2 import pass_context
from markupsafe import Markup, escape

from app.services.deadlines import bot_seats

# A link starts with http:// or https:// and runs to whitespace or a character that cannot end it; a
# trailing punctuation mark or unbalanced closing bracket is left to the sentence.
LINK = re.compile(r"https?://[^\s<>\"'`]+", re.IGNORECASE)
TRAILING = ".,;:!?)]}"


def linkify(text: str) -> Markup:
    """`text` escaped, with line breaks kept and each http(s) URL as a nofollow, noopener link."""
    pieces: list[str] = []
    position = 0
    for match in LINK.finditer(text):
        url = _trimmed(match.group(0))
        if "://" not in url or url.endswith("://"):
            continue
        pieces.append(str(escape(text[position : match.start()])))
        pieces.append(_anchor(url))
        position = match.start() + len(url)
    pieces.append(str(escape(text[position:])))
    return Markup("".join(pieces).replace("\n", Markup("<br>\n")))


def _trimmed(url: str) -> str:
    while url and url[-1] in TRAILING:
        if url[-1] == ")" and url.count("(") >= url.count(")"):
            break
        url = url[:-1]
    return url


def _anchor(url: str) -> str:
    safe = escape(url)
    return f'<a href="{safe}" rel="nofollow noopener noreferrer" target="_blank">{safe}</a>'


@pass_context
def player_link(context: Any, name: str | None) -> Markup:
    """A player's display name as a link to their profile (through /players/<name>); in a mail, an absolute
    one (its `base_url`). No name, nothing; a bot's name (with its bot mark) is no one's profile: plain."""
    if not name:
        return Markup("")
    if bot_seats.is_bot_name(str(name)):
        return Markup('<span class="player bot">{name}</span>').format(name=name)
    base = str(context.get("base_url") or "")
    return Markup('<a class="player" href="{href}">{name}</a>').format(
        href=f"{base}/players/{quote(str(name), safe='')}", name=name
    )
