"""The trade cards and calamities of one Advanced Civilization view, laid out for the map page: the viewer's
hand, everyone's hand size and the stacks, the calamity being resolved, and the forms of its questions
(what a loss takes and keeps, area by area)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.advciv.calamities import CITY_POINTS


def hand_panel(board: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The viewer's hand (none for a spectator), the others' hand sizes, the stacks as the options allow."""
    trade = board.get("trade") or {}
    sizes = list(trade.get("hand_sizes", ()))
    return {
        "hand": trade.get("hand"),
        "sizes": [{"seat": index, "cards": count} for index, count in enumerate(sizes) if index != seat],
        "stacks": list(trade.get("stacks", ())),
        "discard": trade.get("discard", 0),
        "options": trade.get("options", {}),
        "counts_shown": any(row.get("cards") is not None for row in trade.get("stacks", ())),
        "depths_shown": any(row.get("calamity_depth") is not None for row in trade.get("stacks", ())),
    }


def calamity_panel(board: Mapping[str, Any]) -> dict[str, Any] | None:
    calamity = board.get("calamity")
    if not calamity:
        return None
    active = calamity.get("active")
    queue = list(calamity.get("queue", ()))
    return {
        "active": active,
        "head": active or (queue[0] if queue else None),
        "later": queue[1:],
        "hidden_later": max(0, calamity.get("upcoming", 0) - len(queue)),
        "unsupporting": calamity.get("unsupporting", []),
    }


def calamity_command(prompt: str, context: Mapping[str, Any], default: Mapping[str, Any]) -> dict[str, Any]:
    """How a calamity question is asked: "pick" (one click, an area or a button), "toggle" (several areas
    ticked), "lose" (units lost area by area, red for lost and green for kept) or "assign" (amounts)."""
    if prompt == "calamity_pick":
        picked = set(default.get("picks", ()))
        options = [
            {**option, "area": _one_area(option), "on": option["name"] in picked}
            for option in context.get("options", ())
        ]
        mode = "pick" if context.get("count", 1) == 1 else "toggle"
        return {"mode": mode, "options": options}
    if prompt == "calamity_lose":
        return {"mode": "lose", "losses": _losses(context, default), "grain_shown": default.get("grain", 0)}
    if prompt == "calamity_assign":
        amounts = {str(seat): value for seat, value in (default.get("amounts") or {}).items()}
        rows = [
            {"seat": int(seat), "most": most, "value": amounts.get(seat, 0)}
            for seat, most in (context.get("caps") or {}).items()
        ]
        return {"mode": "assign", "amounts": rows}
    return {"mode": "choices"}


def _one_area(option: Mapping[str, Any]) -> str:
    """The area a click on the map picks: an option naming one area (a city, a flood plain's first area
    when it is the only option naming it)."""
    areas = option.get("areas") or ()
    return str(areas[0]) if areas else ""


def _losses(context: Mapping[str, Any], default: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One row per area the loss may touch, pre-filled with the default order's choice."""
    chosen = {unit["area"]: unit for unit in default.get("units", ())}
    rows = []
    for unit in context.get("units", ()):
        taken = chosen.get(unit["area"], {})
        city_lost = bool(taken.get("city"))
        left = int(taken.get("left", 0))
        lost_tokens = int(taken.get("tokens", 0))
        rows.append(
            {
                "area": unit["area"],
                "tokens": unit["tokens"],
                "city": unit["city"],
                "reduced": unit["reduced"],
                "lose_tokens": lost_tokens,
                "city_lost": city_lost,
                "left": left,
                "points": lost_tokens + (CITY_POINTS - left if city_lost else 0),
            }
        )
    return rows
