"""Rules 3.1, phase 2: the province auction on the 0-1-3-6-...-36 track."""

from __future__ import annotations

import random

import pytest

from app.games.amunre import RULES, cards
from app.games.amunre.cards import value
from app.games.amunre.model import RULES_VERSION, State
from app.games.amunre.phases import TRACK
from app.games.contract import RuleError
from app.games.kit.model import evolve
from tests.games.amunre.helpers import auction, game, gold, index, play, player, with_player

RED, BLACK, BLUE, WHITE = range(4)


def _bid(province: str, amount: int, **extra: bool) -> dict[str, object]:
    return {"type": "bid", "province": province, "amount": amount, **extra}


def test_the_track_is_triangular_and_ends_at_36() -> None:
    assert tuple(n * (n + 1) // 2 for n in range(9)) == TRACK


def test_the_four_player_example() -> None:
    """Red 3 on Abydos, Black 1 on Sawu, Blue 6 and White 10 on Abydos; then Red 0 on Dakhla and Blue
    over Black on Sawu (6: the French "case 4" is a slip); then Black 0 on Baharya. White pays 10, Blue 6."""
    state = auction(game(4), ["Abydos", "Sawu", "Dakhla", "Baharya"], pharaoh=RED)
    for seat, order in [
        (RED, _bid("Abydos", 3)),
        (BLACK, _bid("Sawu", 1)),
        (BLUE, _bid("Abydos", 6)),
        (WHITE, _bid("Abydos", 10)),
    ]:
        assert [wait.seat for wait in RULES.waits(state)] == [seat]
        state, _ = play(state, seat, order)
    assert state.queue == (RED, BLUE)  # the second pass: the outbid players, from the start player
    state, _ = play(state, RED, _bid("Dakhla", 0))
    with pytest.raises(RuleError):  # Blue may not go back to Abydos, where he was just outbid
        play(state, BLUE, _bid("Abydos", 15))
    state, _ = play(state, BLUE, _bid("Sawu", 6))
    assert state.queue == (BLACK,)
    before = [value(p.gold) for p in state.players]
    state, events = play(state, BLACK, _bid("Baharya", 0))
    assert state.phase == "buy"
    paid = [before[seat] - value(state.players[seat].gold) for seat in range(4)]
    assert paid == [0, 0, 6, 10]
    owners = {name: state.provinces[index(name)].owner for name in ("Abydos", "Sawu", "Dakhla", "Baharya")}
    assert owners == {"Abydos": WHITE, "Sawu": BLUE, "Dakhla": RED, "Baharya": BLACK}
    assert "province_won" in [event.kind for event in events]


def test_a_bid_must_beat_the_bid_there_and_cannot_exceed_gold_and_cards() -> None:
    state = auction(game(3), ["Buto", "Mendes", "Abu"])
    state = with_player(state, 0, gold=gold(5), powers=(cards.MASTER_BUILDER,))
    with pytest.raises(RuleError):
        play(state, 0, _bid("Buto", 10))  # 5 gold + 1 card to sell
    state, _ = play(state, 0, _bid("Buto", 6))
    with pytest.raises(RuleError):
        play(state, 1, _bid("Buto", 6))
    with pytest.raises(RuleError):
        play(state, 1, _bid("Buto", 4))  # not on the track
    state, _ = play(state, 1, _bid("Buto", 10))
    assert player(state, 0).outbid_from == index("Buto")


def _short_bidder(rules_version: int) -> State:
    """Seat 0 bids 6 on Buto with 5 gold, a Farmer bonus and a Master Builder; the others bid 0."""
    state = auction(evolve(game(3), rules_version=rules_version), ["Buto", "Mendes", "Abu"])
    state = with_player(state, 0, gold=gold(5), powers=(cards.FARMER_BONUS, cards.MASTER_BUILDER))
    state, _ = play(state, 0, _bid("Buto", 6))
    state, _ = play(state, 1, _bid("Mendes", 0))
    state, _ = play(state, 2, _bid("Abu", 0))
    return state


def test_a_short_bidder_chooses_the_power_cards_sold_to_pay() -> None:
    """The text: "A tout moment, un joueur peut se défausser d'une carte de pouvoir ... il reçoit un or":
    which card is the player's choice. The default at timeout keeps the most valuable (the bonus card,
    3 points), not the hand's first."""
    state = _short_bidder(RULES_VERSION)
    assert state.phase == "pay" and [(w.seat, w.simultaneous) for w in RULES.waits(state)] == [(0, True)]
    assert RULES.default_order(state, 0) == {"type": "pay_bid", "powers": {cards.MASTER_BUILDER: 1}}
    for wrong in ({cards.FARMER_BONUS: 1, cards.MASTER_BUILDER: 1}, {cards.EIGHT_GOLD: 1}, {}):
        with pytest.raises(RuleError) as refused:
            play(state, 0, {"type": "pay_bid", "powers": wrong})
        assert refused.value.code == "invalid_sale"
    state, events = play(state, 0, {"type": "pay_bid", "powers": {cards.FARMER_BONUS: 1}})
    assert state.phase == "buy" and state.provinces[index("Buto")].owner == 0
    assert value(player(state, 0).gold) == 0 and player(state, 0).powers == (cards.MASTER_BUILDER,)
    assert {"seat": 0, "card": cards.FARMER_BONUS} in [e.data for e in events if e.kind == "card_sold"]


def test_a_bidder_who_sells_at_any_time_what_his_bid_lacks_is_no_longer_waited_for() -> None:
    state = _short_bidder(RULES_VERSION)
    state, _ = play(state, 0, {"type": "sell", "card": cards.MASTER_BUILDER})
    assert state.phase == "buy" and player(state, 0).powers == (cards.FARMER_BONUS,)


def test_in_random_play_the_sales_default_and_samples_are_legal() -> None:
    met = 0
    for seed in range(20):
        rng, state = random.Random(seed), game(3 + seed % 3, seed)
        while (waits := RULES.waits(state)) and met < 10:
            seat = rng.choice(waits).seat
            if state.phase == "pay":
                met += 1
                RULES.apply(state, seat, RULES.default_order(state, seat))
            state = RULES.apply(state, seat, RULES.sample_order(state, seat, rng)).state
    assert met == 10


def test_games_begun_before_rules_version_1_sell_the_hands_first_cards() -> None:
    state = _short_bidder(0)
    assert state.phase == "buy" and value(player(state, 0).gold) == 0
    assert player(state, 0).powers == (cards.MASTER_BUILDER,) and cards.FARMER_BONUS in state.discard


def test_bid_blockade_makes_the_next_bid_jump_two_spaces_and_follows_the_block() -> None:
    state = auction(game(3), ["Buto", "Mendes", "Abu"])
    state = with_player(state, 0, powers=(cards.BID_BLOCKADE,))
    state, _ = play(state, 0, _bid("Buto", 1, blockade=True))
    assert cards.BID_BLOCKADE in state.discard
    with pytest.raises(RuleError):
        play(state, 1, _bid("Buto", 3))
    state, _ = play(state, 1, _bid("Buto", 6))
    state, _ = play(state, 2, _bid("Buto", 10))
    state, _ = play(state, 0, _bid("Abu", 0))  # the block moves: the protection with it
    with pytest.raises(RuleError):
        play(state, 1, _bid("Abu", 1))
    state, _ = play(state, 1, _bid("Abu", 3))
    assert state.queue == (0,)


def test_outbid_in_the_same_province_lets_one_bid_again_where_one_was_outbid() -> None:
    state = auction(game(3), ["Buto", "Mendes", "Abu"])
    state = with_player(state, 0, powers=(cards.SAME_PROVINCE,))
    state, _ = play(state, 0, _bid("Buto", 1))
    state, _ = play(state, 1, _bid("Buto", 3))
    state, _ = play(state, 2, _bid("Mendes", 0))
    with pytest.raises(RuleError):
        play(state, 0, _bid("Buto", 6))  # without playing the card
    state, _ = play(state, 0, _bid("Buto", 6, same_province=True))
    assert cards.SAME_PROVINCE in state.discard and state.bids[0] is not None and state.bids[0].seat == 0


def test_the_default_is_the_lowest_bid_on_the_cheapest_open_province() -> None:
    state = auction(game(3), ["Buto", "Mendes", "Abu"])
    state, _ = play(state, 0, _bid("Buto", 3))
    assert RULES.default_order(state, 1) == _bid("Mendes", 0, blockade=False, same_province=False)
