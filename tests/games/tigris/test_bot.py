"""The Tigris & Euphrates bot's choices in a conflict: support just enough to win."""

from __future__ import annotations

import random

from app.games.tigris import RULES
from tests.games.tigris.helpers import BULL, URN, play, revolt


def test_the_attacker_commits_what_should_beat_the_defender_and_a_tile_of_his() -> None:
    """Two temples beside the urn's priest against one: one red tile more beats a defence of one."""
    state, _ = play(revolt(), URN, {"type": "leader", "colour": "red", "square": "G5"})
    assert RULES.bot_order(state, URN, random.Random(1)) == {"type": "support", "count": 1}


def test_the_defender_commits_exactly_what_ties_for_a_tie_wins() -> None:
    state, _ = play(revolt(), URN, {"type": "leader", "colour": "red", "square": "G5"})
    state, _ = play(state, URN, {"type": "support", "count": 1})
    assert RULES.bot_order(state, BULL, random.Random(1)) == {"type": "support", "count": 2}


def test_a_defender_who_cannot_hold_keeps_his_tiles() -> None:
    state, _ = play(revolt(), URN, {"type": "leader", "colour": "red", "square": "G5"})
    state, _ = play(state, URN, {"type": "support", "count": 3})
    assert RULES.bot_order(state, BULL, random.Random(1)) == {"type": "support", "count": 0}
