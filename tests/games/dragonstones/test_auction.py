"""Sealed bids, the reveal, tie-breaks, the cursed coin and the amulet."""

from __future__ import annotations

from app.games.dragonstones import RULES

from .helpers import Play, rejects, table


def test_every_seat_is_awaited_at_once_and_the_bid_stays_secret() -> None:
    play = Play(table("red_dragon"))
    assert [w.simultaneous for w in RULES.waits(play.state)] == [True] * 4
    play.do(2, type="bid", fairy=3)
    assert play.waits == [(0, "bid"), (1, "bid"), (3, "bid")]
    placed = play.find("bid_placed")[0]
    assert placed.to is None and placed.data == {"seat": 2, "card": "red_dragon", "tiebreak": False}
    sent = play.find("bid_sent")[0]
    assert sent.to == frozenset({2}) and sent.data["fairy"] == 3
    assert play.player(2).screen.fairy == 5  # the coins are in the fist


def test_the_highest_bid_wins_and_every_bid_is_spent() -> None:
    play = Play(table("red_dragon")).bids(
        {0: {"fairy": 3, "gold": 1}, 1: {"fairy": 2, "gold": 2}, 2: {"gold": 1}}
    )
    revealed = play.find("bids_revealed")[0].data["bids"]
    assert [b["value"] for b in revealed] == [4, 4, 1, 0]
    # 4 and 4: a tie-break between seats 0 and 1 only
    assert play.waits == [(0, "tiebreak"), (1, "tiebreak")]
    assert play.player(0).front_fairy == 3 and play.player(0).screen.gold == 1
    assert play.player(2).screen.gold == 1
    assert play.state.bank.gold == 15 - 8 + 4


def test_four_gold_and_an_amulet_are_worth_eight() -> None:
    screens = [{"fairy": 4, "amulet": 1}, {"fairy": 5, "gold": 2}, {}, {}]
    play = Play(table("red_dragon", screens=screens)).bids(
        {0: {"fairy": 4, "amulet": True}, 1: {"fairy": 5, "gold": 2}}
    )
    assert play.find("bids_revealed")[0].data["bids"][0]["value"] == 8
    assert play.find("auction_won")[0].data == {"card": "red_dragon", "seat": 0}
    assert (
        play.player(0).screen.amulet == 0 and play.state.bank.amulet == 2
    )  # the amulet goes back to the bank


def test_silver_tie_break_decides_and_its_silver_is_lost() -> None:
    play = Play(table("red_dragon")).bids({0: {"fairy": 2}, 1: {"fairy": 2}})
    assert play.find("tiebreak_opened")[0].data["seats"] == [0, 1]
    play.tiebreak({0: {"silver": 3}, 1: {"silver": 2}})
    assert play.find("auction_won")[0].data["seat"] == 0
    assert play.player(0).stones.red == 1
    assert play.player(0).screen.silver == 2 and play.player(1).screen.silver == 3
    assert play.state.bank.silver == 40 - 20 + 5


def test_a_second_tie_gives_the_power_to_nobody() -> None:
    play = (
        Play(table("red_dragon"))
        .bids({0: {"fairy": 2}, 1: {"fairy": 2}})
        .tiebreak({0: {"silver": 1}, 1: {"silver": 1}})
    )
    assert play.find("auction_void")[0].data == {"card": "red_dragon", "reason": "tie", "seats": [0, 1]}
    assert play.player(0).stones.red == 0 and play.player(0).screen.silver == 4
    assert play.state.auction.card == "red_dragon" and play.state.auction.number == 3  # the next card


def test_an_amulet_may_double_silver_in_a_tie_break() -> None:
    screens = [{"fairy": 2, "silver": 2, "amulet": 1}, {"fairy": 2, "silver": 3}, {}]
    play = Play(table("red_dragon", 3, screens=screens)).bids({0: {"fairy": 2}, 1: {"fairy": 2}})
    play.tiebreak({0: {"silver": 2, "amulet": True}, 1: {"silver": 3}})
    assert play.find("tiebreak_revealed")[0].data["bids"][0]["value"] == 4
    assert play.find("auction_won")[0].data["seat"] == 0


def test_the_cursed_coin_is_not_allowed_in_a_tie_break() -> None:
    screens = [{"fairy": 2, "cursed": 1, "silver": 1}, {"fairy": 2}, {}]
    state = Play(table("red_dragon", 3, screens=screens)).bids({0: {"fairy": 2}, 1: {"fairy": 2}}).state
    rejects(state, 0, {"type": "tiebreak", "silver": 1, "cursed": True}, "invalid_order", "cursed")
    rejects(state, 0, {"type": "bid", "cursed": True}, "wrong_order", "type")
    rejects(state, 0, {"type": "tiebreak", "silver": 2}, "not_enough_coins", "silver")
    rejects(state, 0, {"type": "tiebreak", "amulet": True}, "no_amulet", "amulet")
    rejects(state, 2, {"type": "tiebreak"}, "not_awaited")


def test_the_cursed_coin_bewitches_the_character_but_bids_are_spent() -> None:
    screens = [{"fairy": 5}, {"gold": 1, "cursed": 1}, {}, {}]
    play = Play(table("red_dragon", screens=screens)).bids({0: {"fairy": 5}, 1: {"gold": 1, "cursed": True}})
    assert play.find("auction_bewitched")[0].data == {"card": "red_dragon", "seats": [1]}
    assert play.player(0).stones.red == 0 and play.player(0).front_fairy == 5
    assert play.player(1).screen.cursed == 0 and play.state.bank.cursed == 2
    assert "auction_won" not in play.kinds()


def test_an_auction_with_only_the_cursed_coin_is_bewitched_not_empty() -> None:
    screens = [{"cursed": 1}, {}, {}]
    play = Play(table("red_dragon", 3, screens=screens)).bids({0: {"cursed": True}})
    assert "auction_bewitched" in play.kinds() and "auction_void" not in play.kinds()


def test_no_gold_at_all_moves_to_the_next_card_and_a_lone_amulet_is_spent() -> None:
    screens = [{"amulet": 1, "fairy": 1}, {}, {}]
    play = Play(table("blue_dragon", 3, screens=screens, pile=("red_dragon",))).bids({0: {"amulet": True}})
    assert play.find("auction_void")[0].data["reason"] == "no_bids"
    assert play.player(0).screen.amulet == 0
    assert play.state.auction.card == "red_dragon"


def test_illegal_bids_are_refused_and_change_nothing() -> None:
    screens = [{"fairy": 2, "gold": 1}, {}, {}]
    state = table("red_dragon", 3, screens=screens)
    rejects(state, 0, {"type": "bid", "fairy": 3}, "not_enough_coins", "fairy")
    rejects(state, 0, {"type": "bid", "gold": 2}, "not_enough_coins", "gold")
    rejects(state, 0, {"type": "bid", "cursed": True}, "no_cursed_coin", "cursed")
    rejects(state, 0, {"type": "bid", "amulet": True}, "no_amulet", "amulet")
    rejects(state, 0, {"type": "bid", "silver": 1}, "invalid_order", "silver")
    rejects(state, 0, {"type": "bid", "fairy": -1}, "invalid_order", "fairy")
    rejects(state, 0, {"type": "bid", "fairy": "lots"}, "invalid_order", "fairy")
    rejects(state, 0, {"fairy": 1}, "invalid_order", "type")
    rejects(state, 0, {"type": "shout"}, "invalid_order", "type")
    rejects(state, 0, {"type": "take"}, "wrong_order", "type")
    rejects(state, 5, {"type": "bid"}, "not_awaited")
    after = Play(state).do(0, type="bid", fairy=1).state
    rejects(after, 0, {"type": "bid"}, "not_awaited")


def test_form_strings_are_accepted() -> None:
    state = table("red_dragon", 3, screens=[{"fairy": 3, "amulet": 1}, {}, {}])
    play = Play(state).do(0, type="bid", fairy="3", gold="", amulet="on", cursed="false")
    assert play.find("bid_sent")[0].data == {
        "seat": 0,
        "fairy": 3,
        "gold": 0,
        "cursed": False,
        "amulet": True,
        "value": 6,
    }


def test_a_finished_game_refuses_orders() -> None:
    state = table("charlatan", 3, points=[2, 0, 0], specials=("charlatan", "gnome"))
    play = Play(state).win(0)
    assert play.state.winner == 0 and RULES.waits(play.state) == []
    rejects(play.state, 1, {"type": "bid"}, "game_over")


def test_a_sealed_bid_may_be_changed_until_the_last_bid_and_nobody_else_learns_it() -> None:
    play = Play(table("red_dragon", 3, screens=[{"fairy": 4, "gold": 2, "amulet": 1}, {"fairy": 1}, {}]))
    play.do(0, type="bid", fairy=3, amulet=True)
    others_before = [RULES.view(play.state, seat) for seat in (1, 2, None)]
    rebid = RULES.view(play.state, 0)["rebid"]
    assert rebid["limits"] == {"fairy": 4, "gold": 2, "cursed": False, "amulet": True}  # fist included
    assert rebid["default"] == {"type": "rebid", "fairy": 3, "gold": 0, "cursed": False, "amulet": True}
    play.do(0, type="rebid", gold=2)
    assert play.player(0).screen.fairy == 4 and play.player(0).screen.amulet == 1  # back behind the screen
    changed_bid = play.state.auction.bids[0]
    assert play.player(0).screen.gold == 0 and changed_bid is not None and changed_bid.value == 2
    changed = play.find("bid_changed")
    assert len(changed) == 1 and changed[0].to == frozenset({0}) and changed[0].data["gold"] == 2
    assert play.waits == [(1, "bid"), (2, "bid")]  # changing a bid answers no wait
    assert [RULES.view(play.state, seat) for seat in (1, 2, None)] == others_before
    rejects(play.state, 0, {"type": "rebid", "gold": 3}, "not_enough_coins", "gold")
    rejects(play.state, 1, {"type": "rebid", "fairy": 1}, "not_awaited")  # nothing to change yet
    play.do(1, type="bid", fairy=1).do(2, type="bid")  # the last bid reveals them all
    assert play.find("bids_revealed")[0].data["bids"][0]["value"] == 2
    rejects(play.state, 0, {"type": "rebid", "fairy": 1}, "not_awaited")
    assert "anytime_orders" in dir(RULES) and RULES.anytime_orders == frozenset({"rebid"})


def test_a_shortage_names_the_coin_in_its_own_sentence() -> None:
    state = table("red_dragon", 3, screens=[{"fairy": 2, "gold": 1}, {}, {}])
    error = rejects(state, 0, {"type": "bid", "fairy": 3}, "not_enough_coins", "fairy")
    assert error.message == "You have only 2 fairy gold behind your screen."
