"""Copied powers: Ghost, Goblin, Imp and Doppelganger act "as if he had just won the auction"."""

from __future__ import annotations

from typing import Any

from app.games.dragonstones import RULES

from .helpers import Play, rejects, table

THIEF_STONES = [{}, {"blue": 1}, {"red": 1}, {"yellow": 1}]
GHOST_PLAYED = ("witch", "red_dragon", "thief", "goblin", "necromancer", "ghost")


def test_ghost_chooses_among_characters_already_auctioned_this_round_except_itself() -> None:
    play = Play(table("ghost", played=GHOST_PLAYED)).win(0)
    characters = [c["order"]["character"] for c in play.legal(0)["choices"]]
    assert characters == ["witch", "red_dragon", "thief", "goblin", "necromancer"]
    rejects(play.state, 0, {"type": "copy", "character": "ghost"}, "invalid_character", "character")
    rejects(play.state, 0, {"type": "copy", "character": "troll"}, "invalid_character")
    play.do(0, type="copy", character="witch")
    assert play.player(0).screen.cursed == 1
    assert play.find("copied")[0].data == {"seat": 0, "card": "ghost", "character": "witch", "how": "choice"}


def test_ghost_copying_the_thief_robs_the_second_bidder_of_the_ghost_auction() -> None:
    play = Play(table("ghost", stones=THIEF_STONES, played=GHOST_PLAYED))
    play.bids({0: {"fairy": 5}, 1: {"fairy": 1}, 2: {"fairy": 2}})
    play.do(0, type="copy", character="thief")
    assert play.find("stole_stone")[0].data == {"seat": 0, "victim": 2, "colour": "red"}


def test_ghost_copying_the_necromancer_gives_the_coins_bid_for_the_ghost() -> None:
    play = Play(table("ghost", played=GHOST_PLAYED)).bids({0: {"fairy": 3, "gold": 1}})
    play.do(0, type="copy", character="necromancer").do(0, type="necromancer", use=True)
    assert play.player(0).points == 1 and play.player(0).front_fairy == 0
    assert play.state.bank.fairy == 60 - 32 + 3


def test_goblin_uses_a_random_card_of_the_pile_which_counts_as_played() -> None:
    play = Play(table("goblin", pile=("blue_dragon", "sorcerer"))).win(1)
    copied = play.find("copied")[0].data
    assert copied["how"] == "random" and copied["card"] == "goblin"
    assert copied["character"] in ("blue_dragon", "sorcerer")
    assert copied["character"] in play.state.played
    left = "sorcerer" if copied["character"] == "blue_dragon" else "blue_dragon"
    assert play.state.auction.card == left and play.state.pile == ()


def test_goblin_copying_the_thief_uses_the_goblin_auction() -> None:
    play = Play(table("goblin", stones=THIEF_STONES, pile=("thief",)))
    play.bids({0: {"fairy": 4}, 3: {"fairy": 2}})
    assert play.find("copied")[0].data["character"] == "thief"
    assert play.find("stole_stone")[0].data == {"seat": 0, "victim": 3, "colour": "yellow"}


def test_goblin_as_the_last_card_has_no_effect_and_the_round_ends() -> None:
    play = Play(table("goblin", pile=())).win(0)
    assert play.find("no_effect")[0].data == {"seat": 0, "card": "goblin", "reason": "last_card"}
    assert play.state.round == 2


def test_imp_chooses_a_character_still_to_come_and_the_rest_is_reshuffled() -> None:
    pile = ("thief", "red_dragon", "fairy", "sorcerer")
    play = Play(table("imp", stones=THIEF_STONES, pile=pile)).bids({0: {"fairy": 4}, 1: {"fairy": 2}})
    assert [c["order"]["character"] for c in play.legal(0)["choices"]] == [
        "red_dragon",
        "sorcerer",
        "thief",
        "fairy",
    ]
    rejects(play.state, 0, {"type": "copy", "character": "ghost"}, "invalid_character")
    play.do(0, type="copy", character="thief")
    assert play.find("stole_stone")[0].data == {"seat": 0, "victim": 1, "colour": "blue"}
    assert "pile_reshuffled" in play.kinds()
    assert "thief" in play.state.played
    remaining = sorted([play.state.auction.card, *play.state.pile])
    assert remaining == ["fairy", "red_dragon", "sorcerer"]


def test_imp_as_the_last_card_has_no_effect() -> None:
    play = Play(table("imp", pile=())).win(0)
    assert play.find("no_effect")[0].data["reason"] == "last_card"


def _held(card: str, **kwargs: Any) -> Play:
    """Seat 0 holds the Doppelganger, won in an earlier round."""
    return Play(table(card, doppelganger=0, specials=("fairy", "gnome"), **kwargs))


def test_doppelganger_is_kept_face_up_and_survives_the_round() -> None:
    play = Play(table("doppelganger", pile=(), specials=("doppelganger", "gnome"))).win(2)
    assert play.state.doppelganger == 2 and play.state.round == 2
    assert "doppelganger" not in play.state.used and "doppelganger" not in play.state.deck
    assert RULES.view(play.state, None)["players"][2]["doppelganger"] is True


def test_doppelganger_doubles_a_power_once_then_is_spent() -> None:
    play = _held("red_dragon", pile=("blue_dragon",)).win(0)
    legal = play.legal(0)
    assert play.waits == [(0, "power:doppelganger")]
    assert legal["default"] == {"type": "doppelganger", "use": False}
    play.do(0, type="doppelganger", use=True)
    assert play.player(0).stones.red == 2 and play.state.doppelganger is None
    assert "doppelganger" in play.state.used
    play.win(0)
    assert play.player(0).stones.blue == 1 and "power:doppelganger" not in [p for _, p in play.waits]


def test_doppelganger_may_be_kept_for_later() -> None:
    play = _held("red_dragon").win(0).do(0, type="doppelganger", use=False)
    assert play.player(0).stones.red == 1 and play.state.doppelganger == 0


def test_doppelganger_is_not_offered_on_the_necromancer() -> None:
    play = _held("necromancer").win(0)
    assert play.waits == [(0, "power:necromancer")]


def test_doppelganger_can_be_used_the_round_it_is_won() -> None:
    state = table("doppelganger", specials=("doppelganger", "gnome"), pile=("red_dragon",))
    play = Play(state).win(1).win(1)
    assert play.waits == [(1, "power:doppelganger")]
    play.do(1, type="doppelganger", use=True)
    assert play.player(1).stones.red == 2
    assert play.state.used.count("doppelganger") == 1  # discarded once, not again at the end of the round


def test_doppelganger_on_the_thief_may_rob_two_different_seconds() -> None:
    stones = [{}, {"blue": 1}, {"red": 1}, {}]
    play = _held("thief", stones=stones).bids({0: {"fairy": 3}, 1: {"fairy": 1}, 2: {"fairy": 1}})
    play.do(0, type="doppelganger", use=True)
    play.do(0, type="steal", victim=1, colour="blue")
    # second use: seat 1 has no stone left, so the tied second with a stone is robbed without a question
    assert play.find("stole_stone")[1].data == {"seat": 0, "victim": 2, "colour": "red"}
    assert play.player(0).stones.as_dict() == {"red": 1, "blue": 1, "yellow": 0}


def test_a_win_in_the_middle_of_a_doppelganger_ends_the_game_before_the_second_use() -> None:
    play = _held("charlatan", points=[2, 0, 0, 0], stones=[{"red": 1}, {}, {}, {}]).win(0)
    play.do(0, type="doppelganger", use=True)
    assert play.state.winner == 0 and play.state.phase == "over"
    assert len(play.find("scored")) == 1 and "game_won" in play.kinds()
    assert RULES.waits(play.state) == []
    standings = RULES.standings(play.state)
    assert standings is not None and standings[0].seat == 0 and standings[0].place == 1


def test_ghost_copying_the_doppelganger_takes_the_card_if_nobody_has_it() -> None:
    played = ("witch", "doppelganger", "ghost")
    play = Play(table("ghost", played=played, specials=("doppelganger", "ghost"))).win(3)
    play.do(3, type="copy", character="doppelganger")
    assert play.state.doppelganger == 3
