"""The eight base characters: Witch, three Dragons, Sorcerer, Thief, Enchanter, Magician."""

from __future__ import annotations

import pytest

from .helpers import Play, rejects, table


def test_witch_gives_a_cursed_coin_unless_the_bank_has_none() -> None:
    play = Play(table("witch")).win(0)
    assert play.player(0).screen.cursed == 1 and play.state.bank.cursed == 1
    empty = Play(table("witch", bank={"fairy": 28, "silver": 20, "gold": 7})).win(0)
    assert empty.player(0).screen.cursed == 0
    assert empty.find("no_effect")[0].data == {"seat": 0, "card": "witch", "reason": "bank_empty"}


@pytest.mark.parametrize("colour", ["red", "blue", "yellow"])
def test_a_dragon_gives_a_stone_of_its_colour(colour: str) -> None:
    play = Play(table(f"{colour}_dragon")).win(1)
    assert play.player(1).stones.get(colour) == 1
    assert play.find("gained")[0].data == {
        "seat": 1,
        "card": f"{colour}_dragon",
        "coins": {},
        "stones": {colour: 1},
    }


def test_a_dragon_gives_nothing_when_the_bank_is_out_of_its_colour() -> None:
    play = Play(table("red_dragon", bank_stones={"red": 0, "blue": 12, "yellow": 12})).win(1)
    assert play.player(1).stones.red == 0 and "no_effect" in play.kinds()


def test_sorcerer_pays_four_stones_of_one_colour_for_two_points() -> None:
    play = Play(table("sorcerer", stones=[{"red": 4, "blue": 5}, {}, {}, {}])).win(0)
    legal = play.legal(0)
    assert legal["phase"] == "power:sorcerer" and legal["default"] == {"type": "take"}
    assert [c["order"] for c in legal["choices"]] == [
        {"type": "pay", "stones": {"red": 4}},
        {"type": "pay", "stones": {"blue": 4}},
        {"type": "take"},
    ]
    rejects(play.state, 0, {"type": "pay", "stones": {"red": 2, "blue": 2}}, "invalid_payment", "stones")
    play.do(0, type="pay", stones={"blue": 4})
    assert play.player(0).points == 2 and play.player(0).stones.blue == 1
    assert play.state.bank_stones.blue == 12 - 5 + 4


def test_sorcerer_takes_a_common_gold_when_he_cannot_pay() -> None:
    play = Play(table("sorcerer", stones=[{"red": 3}, {}, {}, {}])).win(0)
    assert play.player(0).screen.gold == 3 and play.waits[0][1] == "bid"  # no question asked


def test_sorcerer_gets_nothing_when_the_bank_has_no_common_gold() -> None:
    play = Play(table("sorcerer", bank={"fairy": 28, "silver": 20, "cursed": 2, "amulet": 2})).win(0)
    assert play.player(0).screen.gold == 2 and "no_effect" in play.kinds()


def test_enchanter_pays_one_stone_of_each_colour() -> None:
    play = Play(table("enchanter", stones=[{"red": 2, "blue": 1, "yellow": 1}, {}, {}, {}])).win(0)
    assert [c["order"] for c in play.legal(0)["choices"]] == [
        {"type": "pay", "stones": {"red": 1, "blue": 1, "yellow": 1}},
        {"type": "take"},
    ]
    play.do(0, type="pay", stones={"red": 1, "blue": 1, "yellow": 1})
    assert play.player(0).points == 1 and play.player(0).stones.total() == 1


def test_enchanter_without_all_three_colours_takes_three_silver() -> None:
    play = Play(table("enchanter", stones=[{"red": 4, "blue": 4}, {}, {}, {}])).win(0)
    assert play.player(0).screen.silver == 8 and play.player(0).points == 0


def test_magician_pays_any_four_stones_or_takes_silver() -> None:
    play = Play(table("magician", stones=[{"red": 2, "blue": 1, "yellow": 2}, {}, {}, {}])).win(0)
    pays = [c["order"]["stones"] for c in play.legal(0)["choices"] if c["order"]["type"] == "pay"]
    assert {"red": 2, "yellow": 2} in pays and {"red": 1, "blue": 1, "yellow": 2} in pays and len(pays) == 3
    rejects(play.state, 0, {"type": "pay", "stones": {"red": 2, "blue": 2}}, "invalid_payment")
    play.do(0, type="take")
    assert play.player(0).screen.silver == 8


def test_thief_takes_a_stone_from_the_second_highest_bidder() -> None:
    stones = [{}, {"blue": 1}, {"red": 2}, {"yellow": 1}]
    play = Play(table("thief", stones=stones)).bids(
        {0: {"fairy": 5}, 1: {"fairy": 2}, 2: {"fairy": 3}, 3: {"fairy": 1}}
    )
    # seat 2 is second and has only red: nothing to choose
    assert play.find("stole_stone")[0].data == {"seat": 0, "victim": 2, "colour": "red"}
    assert play.player(0).stones.red == 1 and play.player(2).stones.red == 1


def test_thief_chooses_among_tied_seconds_but_must_pick_one_with_a_stone() -> None:
    stones = [{}, {"blue": 1, "red": 1}, {}, {"yellow": 1}]
    play = Play(table("thief", stones=stones)).bids(
        {0: {"fairy": 5}, 1: {"fairy": 2}, 2: {"fairy": 2}, 3: {"fairy": 2}}
    )
    legal = play.legal(0)
    assert [c["order"]["victim"] for c in legal["choices"]] == [1, 1, 3]
    rejects(play.state, 0, {"type": "steal", "victim": 2, "take_coin": True}, "invalid_victim", "victim")
    rejects(play.state, 0, {"type": "steal", "victim": 1, "colour": "yellow"}, "invalid_colour", "colour")
    rejects(play.state, 0, {"type": "steal", "victim": 1}, "invalid_colour")
    play.do(0, type="steal", victim=3, colour="yellow")
    assert play.player(0).stones.yellow == 1


def test_thief_with_the_only_gold_bid_treats_all_others_as_tied_seconds() -> None:
    stones = [{}, {"blue": 1}, {"red": 1}, {}]
    play = Play(table("thief", stones=stones)).bids({0: {"fairy": 1}})
    assert {c["order"]["victim"] for c in play.legal(0)["choices"]} == {1, 2}


def test_thief_after_a_tie_break_robs_the_second_of_the_tie_break() -> None:
    stones = [{}, {"blue": 1}, {"red": 1}, {"yellow": 1}]
    play = Play(table("thief", stones=stones)).bids(
        {0: {"fairy": 3}, 1: {"fairy": 3}, 2: {"fairy": 3}, 3: {"fairy": 2}}
    )
    play.tiebreak({0: {"silver": 3}, 1: {"silver": 1}, 2: {"silver": 2}})
    assert play.find("stole_stone")[0].data == {"seat": 0, "victim": 2, "colour": "red"}


def test_thief_takes_common_gold_then_fairy_gold_from_a_victim_without_stones() -> None:
    screens = [{"fairy": 5}, {"fairy": 3, "gold": 1}, {"fairy": 2}, {}]
    play = Play(table("thief", screens=screens)).bids({0: {"fairy": 5}, 1: {"fairy": 1}})
    assert [c["order"] for c in play.legal(0)["choices"]] == [
        {"type": "steal", "victim": 1, "colour": None, "take_coin": True},
        {"type": "steal", "victim": 1, "colour": None, "take_coin": False},
    ]
    play.do(0, type="steal", victim=1)
    assert play.player(0).screen.gold == 1 and play.player(1).screen.gold == 0
    public = play.find("stole_coin")[0]
    detail = play.find("stole_coin_detail")[0]
    assert public.to is None and public.data == {"seat": 0, "victim": 1}
    assert detail.to == frozenset({0, 1}) and detail.data["coin"] == "gold"

    again = (
        Play(table("thief", screens=screens))
        .bids({0: {"fairy": 5}, 2: {"fairy": 1}})
        .do(0, type="steal", victim=2)
    )
    assert again.player(0).screen.fairy == 1 and again.player(2).screen.fairy == 0
    assert again.find("stole_coin_detail")[0].data["coin"] == "fairy"


def test_thief_may_decline_the_coin() -> None:
    play = Play(table("thief", screens=[{"fairy": 5}, {"gold": 1, "fairy": 1}, {}, {}])).bids(
        {0: {"fairy": 5}, 1: {"fairy": 1}}
    )
    play.do(0, type="steal", victim=1, take_coin=False)
    assert play.player(1).screen.gold == 1 and "theft_declined" in play.kinds()


def test_stolen_fairy_gold_changes_owner_for_good() -> None:
    screens = [{"fairy": 2}, {"fairy": 1}, {}]
    play = (
        Play(table("thief", 3, screens=screens, pile=()))
        .bids({0: {"fairy": 1}})
        .do(0, type="steal", victim=1)
    )
    assert "round_ended" in play.kinds()
    assert play.player(0).screen.fairy == 3 and play.player(1).screen.fairy == 0
