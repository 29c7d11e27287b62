"""The e-mail renderer: templates/emails/<kind>.txt and .html, in the recipient's language and time zone.

Each kind's templates define a `body` block (and the text one a `subject` block); a single mail wraps one
item in emails/layout.*, a digest lists several under a heading per kind. A game may add a footer to its
mails with templates/emails/footers/<game type>.txt and .html: they receive `footer.view`, the
spectator's view of the game, so a footer can only show what is public (Advanced Civilization's public
points table, say).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from jinja2 import (
    Environment,
    FileSystemLoader,
    TemplateError,
    TemplateNotFound,
    select_autoescape,
)
from markupsafe import Markup

from app.services.mail import notify
from app.services.mail.dispatch import Item, Letter
from app.services.mail.mail import RenderedMail
from app.web import dates
from app.web.games.advciv import map as advciv_map
from app.web.i18n import N_, Translator, interpolate, translations
from app.web.standings import final_places
from app.web.text import linkify, player_link

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "templates"


def make_environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    env.filters["linkify"] = linkify
    env.filters["final_places"] = final_places
    env.filters["player_link"] = player_link
    return env


class PlainTranslator:
    """gettext for text mails: the same catalog, with no HTML escaping of the values."""

    def __init__(self, language: str) -> None:
        self.language = language
        self._catalog = translations(language)

    def gettext(self, message: str, **variables: Any) -> str:
        return interpolate(self.language, self._catalog.gettext(message), variables)

    def ngettext(self, singular: str, plural: str, count: int, **variables: Any) -> str:
        text = self._catalog.ngettext(singular, plural, count)
        return interpolate(self.language, text, {"num": count, **variables})


class EmailRenderer:
    """Implements `app.services.mail.dispatch.MailRenderer`."""

    def __init__(self, env: Environment | None = None) -> None:
        self.env = env or make_environment()

    def render(self, letter: Letter) -> RenderedMail:
        html_tr, text_tr = Translator(letter.language), PlainTranslator(letter.language)
        base = {**letter.common, "lang": letter.language, "zone": letter.zone, "digest": letter.digest}
        html_globals = {**base, **_helpers(letter, html_tr.gettext, html_tr.ngettext)}
        text_globals = {**base, **_helpers(letter, text_tr.gettext, text_tr.ngettext)}
        parts = [self._item(item, html_globals, text_globals) for item in letter.items]
        if letter.digest:
            subject = text_tr.ngettext(
                "Your Ostraca digest: %(num)s notification",
                "Your Ostraca digest: %(num)s notifications",
                len(parts),
            )
            groups = _grouped(parts)
            text = self._page("emails/digest.txt", {**text_globals, "groups": groups, "subject": subject})
            html = self._page("emails/digest.html", {**html_globals, "groups": groups, "subject": subject})
        else:
            part = parts[0]
            subject = part["subject"]
            footer = self._footer(letter.items[0], html_globals, text_globals)
            text = self._page("emails/layout.txt", {**text_globals, **part, "body": part["text"], **footer})
            html = self._page("emails/layout.html", {**html_globals, **part, "body": part["html"], **footer})
        return RenderedMail(subject=" ".join(subject.split()), text=text, html=html, language=letter.language)

    def _item(self, item: Item, html_globals: dict[str, Any], text_globals: dict[str, Any]) -> dict[str, Any]:
        context = _prepared(item, html_globals, self.env)
        text_template = self._template(f"emails/{item.kind}.txt", "emails/generic.txt")
        html_template = self._template(f"emails/{item.kind}.html", "emails/generic.html")
        text_context = text_template.new_context({**text_globals, **context})
        html_context = html_template.new_context({**html_globals, **context})
        return {
            "kind": item.kind,
            "subject": "".join(text_template.blocks["subject"](text_context)).strip(),
            "text": "".join(text_template.blocks["body"](text_context)).strip(),
            "html": Markup("".join(html_template.blocks["body"](html_context)).strip()),
            "url": context.get("url", ""),
        }

    def _footer(
        self, item: Item, html_globals: dict[str, Any], text_globals: dict[str, Any]
    ) -> dict[str, Any]:
        footer = item.context.get("footer")
        if not footer:
            return {"footer_text": "", "footer_html": Markup("")}
        name = f"emails/footers/{footer['game_type']}"
        try:
            text = self.env.get_template(f"{name}.txt").render({**text_globals, "footer": footer})
            html = self.env.get_template(f"{name}.html").render({**html_globals, "footer": footer})
        except TemplateNotFound:
            return {"footer_text": "", "footer_html": Markup("")}
        return {"footer_text": text.strip(), "footer_html": Markup(html.strip())}

    def _template(self, name: str, fallback: str) -> Any:
        return self.env.get_or_select_template([name, fallback])

    def _page(self, name: str, context: Mapping[str, Any]) -> str:
        return self.env.get_template(name).render(context).strip() + "\n"


def _helpers(letter: Letter, gettext: Callable[..., Any], ngettext: Callable[..., Any]) -> dict[str, Any]:
    def when(moment: datetime | None) -> str:
        return dates.exact(moment, letter.zone, letter.language) if moment is not None else ""

    def duration(span: timedelta) -> str:
        return dates.duration(span, letter.language)

    def kind_title(kind: str) -> Any:
        return gettext(KIND_TITLES.get(kind, "Notifications"))

    return {
        "_": gettext,
        "gettext": gettext,
        "ngettext": ngettext,
        "when": when,
        "duration": duration,
        "kind_title": kind_title,
    }


def _prepared(item: Item, html_globals: dict[str, Any], env: Environment) -> dict[str, Any]:
    """The item's context, with its game's orders and events rendered by the game's own templates."""
    context = dict(item.context)
    game = context.get("game") or {}
    game_type = game.get("type", "generic")
    view = {"players": game.get("players", [])}
    names = GAME_NAMES.get(game_type)
    if names is not None:  # the public view only: a mail's events may name what everyone may know
        view_of_all = (context.get("footer") or {}).get("view") or {}
        html_globals = {**html_globals, game_type: names(view_of_all)}
    if context.get("phase") is not None:
        values = {"wait": {"phase": context["phase"], "seat": context.get("seat")}, "view": view}
        phase_html = _game_fragment(env, game_type, "phase", html_globals, values)
        context["phase_html"], context["phase_text"] = phase_html, phase_html.striptags()
    if context.get("default_order") is not None:
        values = {"order": context["default_order"], "view": view}
        order_html = _game_fragment(env, game_type, "order_text", html_globals, values)
        context["default_order_html"] = order_html
        context["default_order_text"] = order_html.striptags()
    events = [
        _platform_event(env, {**html_globals, "view": view, "template_dir": f"games/{game_type}"}, event)
        if str(event["kind"]).startswith("platform:")
        else _game_fragment(env, game_type, "event", html_globals, {"event": event, "view": view})
        for event in context.get("events", [])
    ]
    context["events_html"] = events
    context["events_text"] = [event.striptags() for event in events]  # the HTML ones without tags
    return context


# A game whose name macros read a page context of their own (its areas' names, each seat's nation).
GAME_NAMES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {"advciv": advciv_map.names_context}


def _game_fragment(
    env: Environment, game_type: str, name: str, html_globals: dict[str, Any], values: dict[str, Any]
) -> Markup:
    """The game's own template for an order, an event or a phase; else a readable generic one."""
    context = {**html_globals, **values}
    try:
        return Markup(env.get_template(f"games/{game_type}/{name}.html").render(context).strip())
    except TemplateNotFound:
        pass
    except TemplateError:  # a game template that wants more than a mail can give
        pass
    return Markup(env.get_template(f"emails/_{name}.html").render(context).strip())


def _platform_event(env: Environment, html_globals: dict[str, Any], event: dict[str, Any]) -> Markup:
    """An entry the platform wrote in the log (an outage, a seat changing hands), as the page shows it."""
    template = env.get_template("partials/platform_event.html")
    return Markup(template.render({**html_globals, "event": event}).strip())


def _grouped(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    order = list(notify.KINDS)
    kinds = sorted(
        {part["kind"] for part in parts}, key=lambda kind: order.index(kind) if kind in order else 99
    )
    return [{"kind": kind, "entries": [part for part in parts if part["kind"] == kind]} for kind in kinds]


# Headings of a digest's groups (and the names of the kinds on the settings page).
KIND_TITLES = {
    "your_turn": N_("Your turn"),
    "deadline_warning": N_("Deadline warnings"),
    "game_started": N_("Games started"),
    "player_joined": N_("Players joining"),
    "player_quit": N_("Players leaving"),
    "player_evicted": N_("Players evicted"),
    "evicted": N_("You were evicted"),
    "seat_offered": N_("Seats offered to you"),
    "queue_placed": N_("Seated by the player queue"),
    "game_invitation": N_("Invitations to a friend's game"),
    "pause_requested": N_("Pauses"),
    "pause_removed": N_("Pauses removed"),
    "game_over": N_("Games over"),
    "private_message": N_("Private messages"),
    "board_post": N_("Board posts"),
    "game_news": N_("Game news (trades announced)"),
    "calamity_news": N_("Calamities that strike you"),
    "city_news": N_("Your cities lost in a conflict"),
    "verify_email": N_("Address verification"),
    "password_reset": N_("Password reset"),
}
