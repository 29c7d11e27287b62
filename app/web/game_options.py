"""A game's options in force, in the viewer's words: the game page says them all, the lists the changes."""

from __future__ import annotations

from typing import Any

from jinja2 import pass_context
from markupsafe import Markup

from app.games import options as game_options
from app.games import registry
from app.models.records import GameFacts


@pass_context
def options_in_words(context: Any, game: GameFacts, shown: bool = False) -> list[Markup]:
    """The options that differ from the rules' defaults, and with `shown` those players need at any value
    (the last turn, the hand limit), each a phrase in the page's language ("ends after turn 8")."""
    if not registry.known(game.game_type):
        return []
    gettext = context["_"]
    phrases = game_options.in_force(registry.get(game.game_type).Options, game.options, with_shown=shown)
    return [gettext(phrase.template, value=phrase.value, option=gettext(phrase.title)) for phrase in phrases]
