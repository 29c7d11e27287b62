"""The HTML pages: server-rendered, readable without JavaScript, enhanced by htmx."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Depends
from jinja2 import Environment, pass_context

from app.web.deps import csrf_protect
from app.web.pages import (
    accounts,
    deadlines,
    jobs,
    lobby,
    mail_admin,
    messages,
    notifications,
    play,
    seats,
    social,
)
from app.web.pages import moderation as moderation_pages
from app.web.pages import reports as report_pages
from app.web.text import linkify

router = APIRouter(dependencies=[Depends(csrf_protect)], include_in_schema=False)
router.include_router(lobby.router)
router.include_router(play.router)
router.include_router(accounts.router)
router.include_router(deadlines.router)
router.include_router(seats.router)
router.include_router(jobs.router)
router.include_router(notifications.router)
router.include_router(messages.router)
router.include_router(mail_admin.router)
router.include_router(social.router)
router.include_router(report_pages.router)
router.include_router(moderation_pages.router)


@pass_context
def local_time(context: Any, moment: datetime | None) -> str:
    """A UTC moment in the viewer's time zone (UTC for visitors)."""
    if moment is None:
        return ""
    user = context.get("user")
    zone = ZoneInfo(user.time_zone if user else "UTC")
    local = moment.astimezone(zone)
    return local.strftime("%Y-%m-%d %H:%M ") + (local.tzname() or "")


def install_filters(env: Environment) -> None:
    env.filters["local_time"] = local_time
    env.filters["linkify"] = linkify
