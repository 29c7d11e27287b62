"""The Dragonstones bot's choices: bids by the card's worth to its seat, powers used to its best."""

from __future__ import annotations

import random

from app.games.dragonstones import RULES
from app.games.dragonstones.model import State
from tests.games.dragonstones.helpers import Play, table


def _bid(state: State, seat: int = 0) -> dict[str, int]:
    order = RULES.bot_order(state, seat, random.Random(1))
    assert order["type"] == "bid"
    return {"fairy": order["fairy"], "gold": order["gold"]}


def test_it_bids_more_for_a_card_that_scores_for_it() -> None:
    state = table("sorcerer", pile=("red_dragon", "blue_dragon"), stones=[{"red": 4}, {}, {}, {}])
    scoring, nothing = _bid(state, 0), _bid(state, 1)
    assert sum(scoring.values()) > sum(nothing.values())


def test_a_copier_beside_another_copier_is_valued_without_end() -> None:
    """The Ghost may copy a played Imp, which may copy the Ghost still to come: each is judged once."""
    state = table("ghost", played=("witch", "imp", "ghost"), pile=("ghost", "imp", "red_dragon"))
    assert _bid(state)


def test_it_pays_stones_for_points_rather_than_take_coins() -> None:
    play = Play(table("sorcerer", stones=[{"red": 4}, {}, {}, {}])).win(0)
    order = RULES.bot_order(play.state, 0, random.Random(1))
    assert order == {"type": "pay", "stones": {"red": 4}}


def test_the_troll_names_the_colour_others_hold_and_it_does_not() -> None:
    stones = [{"red": 2, "blue": 0, "yellow": 1}, {"blue": 3}, {"blue": 2, "red": 1}, {"yellow": 1}]
    play = Play(table("troll", specials=("troll", "gnome"), stones=stones)).win(0)
    assert RULES.bot_order(play.state, 0, random.Random(1)) == {"type": "colour", "colour": "blue"}
