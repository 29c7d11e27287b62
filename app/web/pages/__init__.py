"""The HTML pages: server-rendered, readable without JavaScript, enhanced by htmx."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import APIRouter, Depends
from jinja2 import Environment, pass_context

from app.web.deps import csrf_protect
from app.web.pages import account, game, lobby

router = APIRouter(dependencies=[Depends(csrf_protect)], include_in_schema=False)
router.include_router(lobby.router)
router.include_router(game.router)
router.include_router(account.router)


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
