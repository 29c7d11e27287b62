"""Setup, the round structure, the end of a round, the special deck, standings and serialisation."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from app.games.contract import RuleError
from app.games.dragonstones import RULES, DragonstonesOptions
from app.games.dragonstones.characters import BASE_PILE, SPECIAL_DECK

from .helpers import Play, table


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup(players: int) -> None:
    state = RULES.new_game(DragonstonesOptions(), players, seed=7)
    for player in state.players:
        assert player.screen.as_dict() == {"fairy": 8, "gold": 2, "silver": 5, "cursed": 0, "amulet": 0}
        assert player.stones.total() == 4 and player.points == 0
    assert state.bank.as_dict() == {
        "fairy": 60 - 8 * players,
        "gold": 15 - 2 * players,
        "silver": 40 - 5 * players,
        "cursed": 2,
        "amulet": 2,
    }
    assert state.stone_total().as_dict() == {"red": 12, "blue": 12, "yellow": 12}
    assert state.auction.card == "witch" and state.played == ("witch",)
    assert Counter(state.pile) == Counter(BASE_PILE + state.specials) and len(state.specials) == 2
    assert Counter(state.deck) + Counter(state.specials) == Counter(SPECIAL_DECK)
    assert [w.phase for w in RULES.waits(state)] == ["bid"] * players


def test_player_count_is_checked() -> None:
    with pytest.raises(RuleError) as caught:
        RULES.new_game(DragonstonesOptions(), 2, seed=1)
    assert caught.value.code == "invalid_players"


def test_seeds_give_different_but_reproducible_games() -> None:
    one = RULES.new_game(DragonstonesOptions(), 4, seed=1)
    assert RULES.new_game(DragonstonesOptions(), 4, seed=1) == one
    assert RULES.new_game(DragonstonesOptions(), 4, seed=2) != one


def test_the_round_ends_when_the_pile_is_empty() -> None:
    screens = [{"fairy": 4, "cursed": 1, "amulet": 1}, {"fairy": 1}, {}]
    state = table("red_dragon", 3, screens=screens, front=[3, 2, 0], pile=(), used=("troll",))
    play = Play(state).win(1)
    ended = play.find("round_ended")[0].data
    assert ended == {"round": 1, "cursed_returned": [0]}
    assert play.player(0).screen.as_dict() == {"fairy": 7, "gold": 0, "silver": 0, "cursed": 0, "amulet": 1}
    assert play.player(1).screen.fairy == 3 and play.player(1).front_fairy == 0
    assert play.state.bank.cursed == 2
    assert Counter(play.state.used) == Counter(["troll", "fairy", "gnome"])
    started = play.find("round_started")[0].data
    assert started["round"] == 2 and len(started["specials"]) == 2
    assert play.state.auction.card == "witch" and play.state.auction.number == 1


def test_the_special_deck_is_rebuilt_from_used_specials_but_not_a_held_doppelganger() -> None:
    specials = ("fairy", "doppelganger")
    state = table(
        "red_dragon", 3, pile=(), deck=("troll",), used=("imp", "merchant"), specials=specials, doppelganger=2
    )
    play = Play(state).win(0)
    started = play.find("round_started")[0].data
    assert started["deck_rebuilt"] is True and started["specials"][0] == "troll"
    assert "doppelganger" not in [*play.state.deck, *play.state.specials, *play.state.used]
    assert Counter([*play.state.deck, *play.state.specials]) == Counter(["troll", "imp", "merchant", "fairy"])


def test_fairy_gold_bid_comes_back_but_common_gold_does_not() -> None:
    play = Play(table("red_dragon", 3, pile=())).bids({0: {"fairy": 5, "gold": 2}})
    assert play.player(0).screen.fairy == 8 and play.player(0).screen.gold == 0


def test_standings_rank_the_winner_then_points_with_equal_places() -> None:
    state = table("charlatan", 5, points=[2, 1, 2, 1, 0], specials=("charlatan", "gnome"))
    play = Play(state).win(2)
    assert RULES.standings(state) is None
    standings = RULES.standings(play.state)
    assert standings is not None
    assert [(s.seat, s.place, s.score) for s in standings] == [
        (2, 1, 3.0),
        (0, 2, 2.0),
        (1, 3, 1.0),
        (3, 3, 1.0),
        (4, 5, 0.0),
    ]


def test_points_to_win_is_an_option() -> None:
    state = RULES.new_game(DragonstonesOptions(points_to_win=2), 3, seed=3)
    assert state.points_to_win == 2
    with pytest.raises(ValueError):
        DragonstonesOptions(points_to_win=9)


def test_dump_is_json_and_loads_back_equal() -> None:
    play = Play(table("rainbow_dragon", rng=3, bank_stones={"red": 2, "blue": 2, "yellow": 2})).win(0)
    play.do(0, type="colour", colour="red")
    for state in (play.state, RULES.new_game(DragonstonesOptions(), 5, seed=11)):
        data = json.loads(json.dumps(RULES.dump(state)))
        assert RULES.load(data) == state
    with pytest.raises(ValueError):
        RULES.load({"version": 99})


def test_apply_does_not_touch_its_input() -> None:
    state = RULES.new_game(DragonstonesOptions(), 4, seed=5)
    before = RULES.dump(state)
    RULES.apply(state, 0, {"type": "bid", "fairy": 2})
    assert RULES.dump(state) == before
