"""The HTML pages: server-rendered, readable without JavaScript, enhanced by htmx."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Depends
from jinja2 import Environment, pass_context
from markupsafe import Markup

from app.db import utcnow
from app.games import registry
from app.services.accounts.accounts import COMMON_PASSWORDS
from app.web import dates
from app.web.deps import csrf_protect
from app.web.game_options import options_in_words
from app.web.pages import (
    accounts,
    deadlines,
    jobs,
    lobby,
    mail_admin,
    messages,
    notifications,
    play,
    rules,
    seats,
    social,
    status,
)
from app.web.pages import moderation as moderation_pages
from app.web.pages import reports as report_pages
from app.web.standings import final_places
from app.web.text import linkify, player_link

router = APIRouter(dependencies=[Depends(csrf_protect)], include_in_schema=False)
router.include_router(lobby.router)
router.include_router(play.router)
router.include_router(rules.router)
router.include_router(accounts.router)
router.include_router(deadlines.router)
router.include_router(seats.router)
router.include_router(jobs.router)
router.include_router(notifications.router)
router.include_router(messages.router)
router.include_router(mail_admin.router)
router.include_router(status.router)
router.include_router(social.router)
router.include_router(report_pages.router)
router.include_router(moderation_pages.router)


@pass_context
def local_time(context: Any, moment: datetime | None) -> str:
    """A UTC moment in the viewer's time zone and language (UTC for visitors), as mails write it."""
    if moment is None:
        return ""
    return dates.exact(moment, _zone_of(context), context.get("lang", "en"))


@pass_context
def time_left(context: Any, moment: datetime | None) -> Markup:
    """How far off a deadline is ("in 23 hr"), the exact local time on hover and for screen readers.

    A render kept for later (`now` set to None) writes the exact time, which static/js/time-left.js turns
    into how far off it is in the browser, and keeps up to date."""
    if moment is None:
        return Markup("")
    language = context.get("lang", "en")
    exact = dates.exact(moment, _zone_of(context), language)
    kept = "now" in context and context["now"] is None
    left = exact if kept else dates.relative(moment, context.get("now") or utcnow(), language)
    return Markup('<time datetime="{iso}" title="{exact}" class="time-left">{left}</time>').format(
        iso=moment.isoformat(), exact=exact, left=left
    )


def _zone_of(context: Any) -> str:
    user = context.get("user")
    return str(user.time_zone) if user else "UTC"


def install_filters(env: Environment) -> None:
    env.filters["local_time"] = local_time
    env.filters["time_left"] = time_left
    env.filters["final_places"] = final_places
    env.filters["linkify"] = linkify
    env.filters["player_link"] = player_link
    env.filters["options_in_words"] = options_in_words
    env.globals["rules_pages"] = frozenset(rules.REFERENCES)
    env.globals["game_titles"] = {game.id: game.title for game in registry.all_games()}
    env.globals["common_passwords"] = sorted(COMMON_PASSWORDS)
