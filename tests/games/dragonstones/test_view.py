"""What each seat may see, and the `legal` part the web forms are built from."""

from __future__ import annotations

import json
from dataclasses import replace

from pydantic import TypeAdapter

from app.games.dragonstones import RULES, DragonstonesOptions
from app.games.dragonstones.model import Bid, Coins, State

from .helpers import Play, table


def _text(state: State, seat: int | None) -> str:
    return json.dumps(RULES.view(state, seat), sort_keys=True)


def test_a_seat_sees_its_own_screen_and_bid_only() -> None:
    play = Play(table("red_dragon", screens=[{"fairy": 6, "gold": 1, "amulet": 1}, {}, {}, {}]))
    play.do(0, type="bid", fairy=2, amulet=True)
    mine = RULES.view(play.state, 0)
    assert mine["me"]["screen"] == {"fairy": 4, "gold": 1, "silver": 0, "cursed": 0, "amulet": 0}
    assert mine["me"]["bid"] == {"fairy": 2, "gold": 0, "cursed": False, "amulet": True}
    assert mine["legal"]["prompt"] == "bid_sent" and mine["legal"]["phase"] is None
    other = RULES.view(play.state, 1)
    assert other["me"]["seat"] == 1 and other["me"]["bid"] is None
    assert [p["has_bid"] for p in other["players"]] == [True, False, False, False]
    assert all(
        set(p) == {"seat", "points", "stones", "front_fairy", "doppelganger", "has_bid"}
        for p in other["players"]
    )
    spectator = RULES.view(play.state, None)
    assert spectator["me"] is None and spectator["legal"]["prompt"] == "spectator"


def test_other_seats_hidden_coins_and_bids_do_not_change_a_view() -> None:
    state = Play(table("red_dragon")).do(1, type="bid", fairy=3).state
    richer = state.with_player(
        1, replace(state.players[1], screen=Coins(fairy=1, gold=9, silver=30, cursed=1))
    )
    bids = list(richer.auction.bids)
    bids[1] = Bid(fairy=0, gold=7, cursed=True, amulet=True)
    richer = replace(richer, auction=replace(richer.auction, bids=tuple(bids)))
    for seat in (0, 2, 3, None):
        assert _text(state, seat) == _text(richer, seat)
    assert _text(state, 1) != _text(richer, 1)


def test_hidden_order_deck_and_generator_never_appear() -> None:
    state = RULES.new_game(DragonstonesOptions(), 4, seed=9)
    shuffled = replace(
        state, pile=tuple(reversed(state.pile)), deck=tuple(reversed(state.deck)), rng=state.rng ^ 0xFFFF
    )
    for seat in (0, 3, None):
        assert _text(state, seat) == _text(shuffled, seat)
    view = RULES.view(state, 0)
    assert view["cards"]["pile_size"] == 9 and view["cards"]["deck_size"] == 23
    assert "rng" not in _text(state, 0) and str(state.rng) not in _text(state, 0)


def test_the_rainbow_bag_shows_only_its_size() -> None:
    for rng in range(40):
        play = Play(table("rainbow_dragon", rng=rng, bank_stones={"red": 3, "blue": 3, "yellow": 3})).win(0)
        play.do(0, type="colour", colour="red")
        if play.state.rainbow:
            power = RULES.view(play.state, 1)["power"]
            assert power["rainbow"]["bag_size"] == 8 and set(power["rainbow"]) == {
                "colour",
                "drawn",
                "bag_size",
            }
            assert RULES.view(play.state, 1)["bank"]["stones"] == {"red": 0, "blue": 0, "yellow": 0}
            return
    raise AssertionError("no seed drew a non-red stone")


def test_bids_are_public_only_once_revealed() -> None:
    play = Play(table("red_dragon")).do(0, type="bid", fairy=2)
    assert RULES.view(play.state, 1)["auction"]["bids"] is None
    play.bids({1: {"fairy": 1}})
    bids = RULES.view(play.state, None)["auction"]
    assert bids["card"] == "red_dragon"  # the next card, and the dragon's bids are in the event log
    revealed = play.find("bids_revealed")[0]
    assert revealed.to is None and revealed.data["bids"][0] == {
        "seat": 0,
        "fairy": 2,
        "gold": 0,
        "cursed": False,
        "amulet": False,
        "value": 2,
    }


def test_legal_for_a_bid_gives_the_form_limits() -> None:
    legal = RULES.view(table("red_dragon", screens=[{"fairy": 3, "gold": 1, "cursed": 1}, {}, {}, {}]), 0)[
        "legal"
    ]
    assert legal == {
        "phase": "bid",
        "prompt": "bid",
        "text": legal["text"],
        "card": "red_dragon",
        "orders": ["bid"],
        "choices": [],
        "limits": {"fairy": 3, "gold": 1, "cursed": True, "amulet": False},
        "default": {"type": "bid", "fairy": 0, "gold": 0, "cursed": False, "amulet": False},
    }
    assert "Red Dragon" in legal["text"]


def test_legal_for_a_tie_break_and_for_a_choice() -> None:
    stones = [{}, {"red": 1, "yellow": 2}, {"blue": 1}, {}]
    play = Play(table("thief", stones=stones)).bids({0: {"fairy": 2}, 1: {"fairy": 2}})
    tie = play.legal(1)
    assert tie["phase"] == "tiebreak" and tie["limits"] == {"silver": 5, "amulet": False}
    assert play.legal(2)["prompt"] == "wait"
    play.tiebreak({0: {"silver": 2}})
    thief = play.legal(0)
    assert thief["phase"] == "power:thief" and thief["orders"] == ["steal"]
    assert thief["choices"] == [
        {
            "order": {"type": "steal", "victim": 1, "colour": "red", "take_coin": True},
            "label": "Steal a red stone",
        },
        {
            "order": {"type": "steal", "victim": 1, "colour": "yellow", "take_coin": True},
            "label": "Steal a yellow stone",
        },
    ]
    assert RULES.view(play.state, 0)["power"] == {
        "seat": 0,
        "card": "thief",
        "queue": ["thief"],
        "rainbow": None,
    }


def test_waiting_for_matches_waits() -> None:
    play = Play(table("red_dragon")).do(2, type="bid")
    assert RULES.view(play.state, None)["waiting_for"] == [0, 1, 3]


def test_the_order_schema_is_published() -> None:
    schema = TypeAdapter(RULES.Order).json_schema()
    tags = set(schema["discriminator"]["mapping"])
    assert tags == {
        "bid",
        "rebid",
        "tiebreak",
        "doppelganger",
        "pay",
        "take",
        "steal",
        "rob",
        "colour",
        "draw",
        "stop",
        "copy",
        "buy",
        "necromancer",
    }
