"""The special characters that act on their own (the copiers are in test_copies.py)."""

from __future__ import annotations

import pytest

from app.games.dragonstones.characters import SPECIAL_COUNTS, SPECIAL_DECK
from app.games.dragonstones.model import START_COINS

from .helpers import Play, rejects, table


def test_the_special_deck_has_25_cards_of_19_kinds() -> None:
    assert len(SPECIAL_DECK) == 25
    assert len({card.removesuffix("_4").removesuffix("_5") for card in SPECIAL_COUNTS}) == 19


@pytest.mark.parametrize(
    ("card", "coins"),
    [
        ("alchemist", {"gold": 3}),
        ("fairy", {"fairy": 1}),
        ("gnome", {"gold": 2, "silver": 2}),
        ("dwarf_4", {"silver": 4}),
        ("dwarf_5", {"silver": 5}),
        ("goldsmith", {"amulet": 1}),
    ],
)
def test_coin_gifts(card: str, coins: dict[str, int]) -> None:
    play = Play(table(card)).win(0)
    assert play.find("gained")[0].data == {"seat": 0, "card": card, "coins": coins, "stones": {}}


def test_a_short_bank_gives_what_it_has() -> None:
    play = Play(table("alchemist", bank={"gold": 1, "fairy": 28, "silver": 20})).win(0)
    assert play.player(0).screen.gold == 3


def test_fairy_gold_from_the_fairy_is_kept_after_the_round() -> None:
    play = Play(table("fairy", pile=())).win(0, fairy=2)
    assert "round_ended" in play.kinds() and play.player(0).screen.fairy == 9


def test_an_unused_amulet_is_kept_across_rounds() -> None:
    play = Play(table("goldsmith", pile=())).win(0)
    assert play.state.round == 2 and play.player(0).screen.amulet == 1


def test_ancient_dragon_takes_a_stone_of_the_chosen_colour() -> None:
    play = Play(table("ancient_dragon", bank_stones={"red": 1, "blue": 0, "yellow": 3})).win(0)
    assert [c["order"]["colour"] for c in play.legal(0)["choices"]] == ["red", "yellow"]
    rejects(play.state, 0, {"type": "colour", "colour": "blue"}, "invalid_colour", "colour")
    rejects(play.state, 0, {"type": "colour", "colour": "green"}, "invalid_order", "colour")
    play.do(0, type="colour", colour="yellow")
    assert play.player(0).stones.yellow == 1


def test_apprentice_pays_two_identical_stones_for_a_point() -> None:
    play = Play(table("apprentice", stones=[{"red": 2, "blue": 3, "yellow": 1}, {}, {}, {}])).win(0)
    assert [c["order"]["colour"] for c in play.legal(0)["choices"]] == ["red", "blue"]
    play.do(0, type="colour", colour="blue")
    assert play.player(0).points == 1 and play.player(0).stones.blue == 1


def test_apprentice_without_a_pair_scores_nothing() -> None:
    play = Play(table("apprentice", stones=[{"red": 1, "blue": 1}, {}, {}, {}])).win(0)
    assert play.player(0).points == 0
    assert play.find("no_effect")[0].data["reason"] == "no_pair"


def test_brigand_takes_all_common_gold_and_silver_of_the_named_player() -> None:
    screens = [{"fairy": 1}, {"gold": 3, "silver": 4, "fairy": 2}, {}, {}]
    play = Play(table("brigand", screens=screens)).win(0)
    legal = play.legal(0)
    assert [c["order"]["victim"] for c in legal["choices"]] == [1, 2, 3]
    assert "screen" not in str(play.legal(0))
    rejects(play.state, 0, {"type": "rob", "victim": 0}, "invalid_victim", "victim")
    play.do(0, type="rob", victim=1)
    assert play.player(0).screen.gold == 3 and play.player(0).screen.silver == 4
    assert play.player(1).screen.fairy == 2
    robbed, detail = play.find("robbed")[0], play.find("robbed_detail")[0]
    assert robbed.to is None and robbed.data == {"seat": 0, "victim": 1}
    assert detail.to == frozenset({0, 1}) and (detail.data["gold"], detail.data["silver"]) == (3, 4)


def test_charlatan_pays_all_stones_for_a_point_or_scores_for_free() -> None:
    play = Play(table("charlatan", stones=[{"red": 2, "yellow": 1}, {}, {}, {}])).win(0)
    assert play.player(0).points == 1 and play.player(0).stones.total() == 0
    free = Play(table("charlatan")).win(0)
    assert free.player(0).points == 1 and "paid" not in free.kinds()


def test_two_headed_dragon_draws_two_of_the_six_stones() -> None:
    play = Play(table("two_headed_dragon")).win(0)
    assert play.player(0).stones.total() == 2
    assert play.state.bank_stones.total() == 34


def test_two_headed_dragon_with_a_poor_bank_puts_in_what_exists() -> None:
    play = Play(table("two_headed_dragon", bank_stones={"red": 1, "blue": 0, "yellow": 0})).win(0)
    assert play.player(0).stones.red == 1 and play.state.bank_stones.total() == 0


def test_rainbow_dragon_names_a_colour_of_the_bank_then_draws_at_least_once() -> None:
    play = Play(table("rainbow_dragon", bank_stones={"red": 0, "blue": 3, "yellow": 5})).win(0)
    legal = play.legal(0)
    assert legal["prompt"] == "rainbow_colour"
    assert [c["order"]["colour"] for c in legal["choices"]] == ["blue", "yellow"]
    assert legal["default"] == {"type": "colour", "colour": "blue"}  # the rarer colour
    rejects(play.state, 0, {"type": "colour", "colour": "red"}, "invalid_colour")
    play.do(0, type="colour", colour="blue")
    assert len(play.find("rainbow_drew")) == 1
    assert play.state.bank_stones.total() == 0 or "rainbow_lost" in play.kinds()


def _rainbow_until(kind: str, seed_range: range) -> Play:
    for rng in seed_range:
        play = Play(table("rainbow_dragon", rng=rng, bank_stones={"red": 2, "blue": 2, "yellow": 2})).win(0)
        play.do(0, type="colour", colour="red")
        while play.state.rainbow is not None and kind not in play.kinds():
            play.do(0, type="draw")
        if kind in play.kinds():
            return play
    raise AssertionError(kind)


def test_rainbow_dragon_loses_everything_when_the_named_colour_comes_out() -> None:
    play = _rainbow_until("rainbow_lost", range(50))
    assert play.player(0).stones.total() == 0 and play.state.bank_stones.total() == 6
    assert play.state.rainbow is None


def test_rainbow_dragon_keeps_the_stones_when_he_stops() -> None:
    for rng in range(50):
        play = Play(table("rainbow_dragon", rng=rng, bank_stones={"red": 2, "blue": 2, "yellow": 2})).win(0)
        play.do(0, type="colour", colour="red")
        if play.state.rainbow is not None:
            assert play.legal(0)["prompt"] == "rainbow_draw" and play.legal(0)["default"] == {"type": "stop"}
            view = play.legal(0)
            assert view["phase"] == "power:rainbow_dragon"
            play.do(0, type="stop")
            assert play.player(0).stones.total() == 1 and play.state.bank_stones.total() == 5
            return
    raise AssertionError("no seed kept going")


def test_rainbow_dragon_does_nothing_with_an_empty_bank() -> None:
    play = Play(table("rainbow_dragon", bank_stones={"red": 0, "blue": 0, "yellow": 0})).win(0)
    assert play.find("no_effect")[0].data["card"] == "rainbow_dragon"


def test_enchantress_pays_five_stones_for_two_points_or_takes_a_fairy_gold() -> None:
    play = Play(table("enchantress", stones=[{"red": 5, "blue": 1}, {}, {}, {}])).win(0)
    assert play.legal(0)["default"] == {"type": "take"}
    play.do(0, type="pay", stones={"red": 4, "blue": 1})
    assert play.player(0).points == 2
    poor = Play(table("enchantress", stones=[{"red": 4}, {}, {}, {}])).win(0)
    assert poor.player(0).screen.fairy == 8  # 8 - 1 bid + 1 taken


def test_merchant_buys_stones_with_gold_fairy_gold_or_three_silver() -> None:
    play = Play(table("merchant", screens=[{"fairy": 3, "gold": 1, "silver": 5}, {}, {}, {}])).win(0)
    legal = play.legal(0)
    assert legal["orders"] == ["buy"] and legal["default"] == {"type": "buy", "stones": {}, "pay": {}}
    assert legal["limits"]["pay"] == {"gold": 1, "fairy": 2, "silver": 5}
    rejects(
        play.state, 0, {"type": "buy", "stones": {"red": 2}, "pay": {"gold": 1}}, "invalid_payment", "pay"
    )
    rejects(play.state, 0, {"type": "buy", "stones": {"red": 1}, "pay": {"silver": 2}}, "invalid_payment")
    rejects(
        play.state,
        0,
        {"type": "buy", "stones": {"red": 1}, "pay": {"gold": 2}},
        "not_enough_coins",
        "pay.gold",
    )
    rejects(play.state, 0, {"type": "buy", "stones": {"red": 13}, "pay": {}}, "not_in_bank", "stones.red")
    play.do(0, type="buy", stones={"red": 2, "blue": 2}, pay={"gold": 1, "fairy": 2, "silver": 3})
    assert play.player(0).stones.as_dict() == {"red": 2, "blue": 2, "yellow": 0}
    assert play.player(0).screen.as_dict() == {"fairy": 0, "gold": 0, "silver": 2, "cursed": 0, "amulet": 0}


def test_merchant_may_buy_nothing_and_fairy_gold_paid_is_gone_for_good() -> None:
    play = Play(table("merchant", pile=())).win(0)
    nothing = Play(table("merchant")).win(0).do(0, type="buy")
    assert nothing.find("bought")[0].data == {"seat": 0, "stones": {}, "paid": {}}
    play.do(0, type="buy", stones={"yellow": 1}, pay={"fairy": 1})
    assert "round_ended" in play.kinds() and play.player(0).screen.fairy == 7  # 8 - 1 paid; the bid came back


def test_merchant_waits_on_a_winner_who_cannot_pay_and_no_event_tells_the_others() -> None:
    others = [START_COINS.as_dict()] * 3
    poor = Play(table("merchant", screens=[{"fairy": 1, "silver": 2}, *others])).win(0)  # 2 silver left
    rich = Play(table("merchant", screens=[{"fairy": 3, "gold": 2, "silver": 5}, *others])).win(0)
    for play in (poor, rich):
        assert play.waits == [(0, "power:merchant")]
        nothing = {"type": "buy", "stones": {}, "pay": {}}
        assert play.legal(0)["choices"] == [{"order": nothing, "label": "Buy nothing"}]
        assert play.legal(0)["default"] == nothing
    assert poor.legal(0)["limits"]["pay"] == {"gold": 0, "fairy": 0, "silver": 2}
    rejects(poor.state, 0, {"type": "buy", "stones": {"red": 1}, "pay": {"gold": 1}}, "not_enough_coins")
    rejects(poor.state, 0, {"type": "buy", "stones": {"red": 1}, "pay": {"silver": 2}}, "invalid_payment")
    for play in (poor, rich):
        play.do(0, type="buy")
    assert poor.waits == rich.waits == [(seat, "bid") for seat in range(4)]

    def seen_by(play: Play, seat: int | None) -> list[tuple[str, dict[str, object]]]:
        return [(e.kind, e.data) for e in play.events if e.to is None or (seat is not None and seat in e.to)]

    for seat in (1, 2, 3, None):
        assert seen_by(poor, seat) == seen_by(rich, seat)


def test_merchant_with_an_empty_bank_has_no_effect() -> None:
    play = Play(table("merchant", bank_stones={"red": 0, "blue": 0, "yellow": 0})).win(0)
    assert play.find("no_effect")[0].data == {"seat": 0, "card": "merchant", "reason": "bank_empty"}


def test_necromancer_is_optional_and_its_fairy_gold_is_lost_for_good() -> None:
    play = Play(table("necromancer", pile=())).bids({0: {"fairy": 3, "gold": 1}, 1: {"fairy": 1}})
    legal = play.legal(0)
    assert legal["default"] == {"type": "necromancer", "use": False}
    play.do(0, type="necromancer", use=True)
    assert play.player(0).points == 1 and play.find("paid")[0].data["coins"] == {"fairy": 3}
    assert play.player(0).screen.fairy == 5 and play.player(1).screen.fairy == 8  # after the round


def test_necromancer_declined_keeps_the_fairy_gold() -> None:
    play = Play(table("necromancer", pile=())).win(0, fairy=3).do(0, type="necromancer", use=False)
    assert play.player(0).points == 0 and play.player(0).screen.fairy == 8


def test_troll_takes_a_colour_from_everybody() -> None:
    stones = [{"red": 1, "blue": 2}, {"red": 3}, {"yellow": 1}, {}]
    play = Play(table("troll", stones=stones)).win(0)
    assert play.legal(0)["default"] == {"type": "colour", "colour": "yellow"}  # the one he has fewest of
    play.do(0, type="colour", colour="red")
    assert [p.stones.red for p in play.state.players] == [0, 0, 0, 0]
    assert play.state.bank_stones.red == 12
    assert play.find("troll")[0].data["lost"] == [
        {"seat": 0, "count": 1},
        {"seat": 1, "count": 3},
        {"seat": 2, "count": 0},
        {"seat": 3, "count": 0},
    ]
