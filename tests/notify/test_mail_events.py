"""Every event a game writes in its log reads in a mail as the game page words it: the game's own template,
given what a mail has (the players' names and the public view), never the generic "kind — key: value"
stand-in that is kept for a template that cannot render."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.games import registry
from app.services.mail.dispatch import Item, Letter
from app.web.emails import EmailRenderer

GAMES = ["advciv", "tigris", "amunre", "dragonstones"]
ORDERS = 400


def public_events(game_type: str, players: int, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The public events of a random game's first orders (one of each kind), and the public view after."""
    rules = registry.get(game_type)
    rng = random.Random(seed)
    state = rules.new_game(rules.Options(), players, seed)
    by_kind: dict[str, dict[str, Any]] = {}
    for _ in range(ORDERS):
        waits = rules.waits(state)
        if not waits:
            break
        seat = rng.choice(waits).seat
        outcome = rules.apply(state, seat, json.loads(json.dumps(rules.sample_order(state, seat, rng))))
        for event in outcome.events:
            if event.to is None and event.kind not in by_kind:
                by_kind[event.kind] = json.loads(json.dumps({"kind": event.kind, "data": event.data}))
        state = outcome.state
    view = json.loads(json.dumps(rules.view(state, None)))
    return list(by_kind.values()), view


def news_mail(game_type: str, events: list[dict[str, Any]], view: dict[str, Any], language: str) -> str:
    players = [f"Player{seat}" for seat in range(len(view.get("players", [])) or 4)]
    game = {"id": 1, "name": "Amber Citadel 12", "type": game_type, "title": game_type, "url": "/g/1"}
    context = {
        "game": {**game, "players": players},
        "events": [{"seq": index, **event} for index, event in enumerate(events, 1)],
        "url": "/g/1",
        "footer": {"game_type": game_type, "view": view},
    }
    letter = Letter(language=language, zone="UTC", items=[Item("game_news", context)], digest=False)
    return EmailRenderer().render(letter).text


@pytest.mark.parametrize("game_type", GAMES)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_public_event_reads_in_the_game_s_words(game_type: str, language: str) -> None:
    players = 3
    events, view = public_events(game_type, players, seed=7)
    assert len(events) >= 3, "the random game wrote too few kinds of events to test"
    for event in events:
        text = news_mail(game_type, [event], view, language)
        generic = f"{event['kind']} — " if event["data"] else f"- {event['kind']}\n"
        assert generic not in text, f"{game_type} {event['kind']} falls back to the generic text:\n{text}"
