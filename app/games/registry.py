"""Game id -> rules object."""

from __future__ import annotations

from typing import Any

from app.games.contract import GameRules

_GAMES: dict[str, GameRules[Any]] = {}
_BUILTIN_LOADED: list[bool] = []  # the game modules are imported on first use, once


def register(rules: GameRules[Any]) -> GameRules[Any]:
    _GAMES[rules.id] = rules
    return rules


def get(game_id: str) -> GameRules[Any]:
    _load_builtin()
    return _GAMES[game_id]


def all_games() -> list[GameRules[Any]]:
    _load_builtin()
    return sorted(_GAMES.values(), key=lambda rules: rules.title)


def known(game_id: str) -> bool:
    _load_builtin()
    return game_id in _GAMES


def _load_builtin() -> None:
    if _BUILTIN_LOADED:
        return
    from app.games.advciv import RULES as advciv
    from app.games.dragonstones import RULES as dragonstones
    from app.games.tigris import RULES as tigris

    for rules in (advciv, dragonstones, tigris):
        _GAMES.setdefault(rules.id, rules)
    _BUILTIN_LOADED.append(True)
