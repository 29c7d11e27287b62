"""Each action and its legality: leaders, tiles, catastrophes, swaps, passing."""

from __future__ import annotations

from app.games.tigris import RULES
from app.games.tigris.board import RIVERS, parse
from tests.games.tigris.helpers import (
    BULL,
    at,
    awaited,
    find,
    kinds,
    leader_square,
    play,
    refused,
    setup,
    targets,
)

# --- leaders ---------------------------------------------------------------------------------------------


def test_a_leader_goes_beside_a_temple_never_on_a_river() -> None:
    state = setup(at="F4", rows=["r"], hands=[{"red": 1}, {}])
    assert targets(state, "leader:black") == {"F3", "E4", "G4", "F5"}
    beside_river = setup(at="D2", rows=["r"])
    assert targets(beside_river, "leader:green") == {"D1", "C2"}  # E2 and D3 are rivers
    refused(beside_river, 0, {"type": "leader", "colour": "green", "square": "E2"}, "river_square")
    refused(state, 0, {"type": "leader", "colour": "red", "square": "H4"}, "no_temple")
    refused(state, 0, {"type": "leader", "colour": "red", "square": "F4"}, "occupied")
    state, events = play(state, 0, {"type": "leader", "colour": "black", "square": "g4"})
    assert leader_square(state, 0, "black") == parse("G4")
    assert find(events, "leader_placed")[0].data == {
        "seat": 0,
        "leader": "king",
        "colour": "black",
        "square": "G4",
        "origin": None,
    }
    assert not find(events, "scored") and state.actions_left == 1
    refused(state, 0, {"type": "leader", "colour": "red", "square": "G4"}, "occupied")


def test_a_face_down_temple_is_no_temple() -> None:
    state = setup(at="F4", rows=["dd", "dd"])
    assert "leader:red" not in RULES.view(state, 0)["legal"]["targets"]
    refused(state, 0, {"type": "leader", "colour": "red", "square": "H4"}, "no_temple")


LINKED = [
    "_r_r_",  # E4 priest (bull), F4 temple, G4 king (archer), H4 temple, I4 farmer (bull)
    ".k.k.",
    "..r..",
]
LINKED_LEADERS = {"E4": (BULL, "red"), "G4": (0, "black"), "I4": (BULL, "blue")}


def test_a_leader_may_not_join_two_kingdoms_judged_with_a_moved_leader_lifted() -> None:
    state = setup(at="E4", rows=LINKED, leaders=LINKED_LEADERS)
    # G5 touches F5 and H5, one kingdom while the king stands on G4, and the lone temple G6
    assert "G5" in targets(state, "leader:green")
    # lifted from G4, the king leaves two kingdoms that G5 would join
    assert "G5" not in targets(state, "leader:black")
    refused(state, 0, {"type": "leader", "colour": "black", "square": "G5"}, "joins_two")
    refused(state, 0, {"type": "leader", "colour": "black", "square": "G4"}, "same_square")
    # two separate kingdoms
    apart = setup(at="E4", rows=["_r.r_"], leaders={"E4": (BULL, "red"), "I4": (BULL, "blue")})
    refused(apart, 0, {"type": "leader", "colour": "green", "square": "G4"}, "joins_two")


def test_a_leader_may_join_a_kingdom_and_a_territory_and_move() -> None:
    state = setup(at="E4", rows=["_r.r"], leaders={"E4": (BULL, "red"), "F5": (0, "green")})
    assert "G4" in targets(state, "leader:black")
    state, events = play(state, 0, {"type": "leader", "colour": "green", "square": "G4"})
    assert find(events, "leader_placed")[0].data["origin"] == "F5"
    assert leader_square(state, 0, "green") == parse("G4")


def test_withdraw_only_your_own_leaders_on_the_board() -> None:
    state = setup(at="E4", rows=["_r"], leaders={"E4": (BULL, "red"), "F5": (0, "green")})
    assert RULES.view(state, 0)["legal"]["withdraw"] == ["green"]
    refused(state, 0, {"type": "withdraw", "colour": "red"}, "not_on_board")
    state, events = play(state, 0, {"type": "withdraw", "colour": "green"})
    assert leader_square(state, 0, "green") == -1 and kinds(events)[0] == "leader_withdrawn"
    assert "F5" in targets(state, "leader:green")  # back in front of the screen, to be placed again


# --- tiles -------------------------------------------------------------------------------------------------


def test_blue_tiles_on_rivers_only_and_the_others_never() -> None:
    state = setup(hands=[{"red": 1, "blue": 1, "green": 1, "black": 1}, {}])
    assert targets(state, "tile:blue") == {name for name in _names(RIVERS)}
    assert targets(state, "tile:red").isdisjoint(_names(RIVERS))
    assert len(targets(state, "tile:red")) == 176 - 41
    refused(state, 0, {"type": "tile", "colour": "blue", "square": "A1"}, "blue_on_river")
    refused(state, 0, {"type": "tile", "colour": "green", "square": "E1"}, "river_square")
    refused(state, 0, {"type": "tile", "colour": "green", "square": "Q1"}, "invalid_order")
    state, _ = play(state, 0, {"type": "tile", "colour": "blue", "square": "E1"})
    assert at(state, "E1") == "b" and state.players[0].hand == (1, 0, 1, 1)
    refused(state, 0, {"type": "tile", "colour": "blue", "square": "F1"}, "no_such_tile")  # none left
    refused(state, 0, {"type": "tile", "colour": "red", "square": "E1"}, "occupied")


def _names(squares: frozenset[int]) -> set[str]:
    from app.games.tigris.board import NAMES

    return {NAMES[sq] for sq in squares}


def test_a_tile_may_not_join_three_kingdoms() -> None:
    # G4, F5 and H5 temples, each with a leader beside it: G5 touches all three kingdoms
    leaders = {"G3": (0, "black"), "E5": (BULL, "black"), "I5": (BULL, "red")}
    state = setup(at="F4", rows=[".r.", "r.r"], leaders=leaders, hands=[{"green": 2}, {}])
    refused(state, 0, {"type": "tile", "colour": "green", "square": "G5"}, "joins_three")
    assert "G5" not in targets(state, "tile:green")
    del leaders["I5"]
    two = setup(at="F4", rows=[".r.", "r.r"], leaders=leaders, hands=[{"green": 2}, {}])
    assert "G5" in targets(two, "tile:green")


def test_a_tile_scores_for_the_leader_of_its_colour_else_the_king_else_nobody() -> None:
    leaders = {"F3": (0, "red"), "G4": (BULL, "black")}
    state = setup(at="F4", rows=["r"], leaders=leaders, hands=[{"red": 2, "green": 2}, {}])
    state, events = play(state, 0, {"type": "tile", "colour": "red", "square": "E4"})
    assert [e.data for e in find(events, "scored")] == [
        {"seat": 0, "colour": "red", "points": 1, "reason": "tile", "square": "E4"}
    ]
    assert find(events, "scored")[0].to == frozenset({0})  # behind the screen
    state, events = play(state, 0, {"type": "tile", "colour": "green", "square": "F5"})
    assert find(events, "scored")[0].data["seat"] == BULL  # no trader: the king
    assert state.players[BULL].points == (0, 0, 1, 0) and state.players[0].points == (1, 0, 0, 0)
    lonely = setup(at="F4", rows=["r"], hands=[{"red": 1}, {}])
    _, events = play(lonely, 0, {"type": "tile", "colour": "red", "square": "E4"})
    assert not find(events, "scored")
    kingless = setup(at="F4", rows=["r"], leaders={"F3": (0, "red")}, hands=[{"green": 1}, {}])
    _, events = play(kingless, 0, {"type": "tile", "colour": "green", "square": "E4"})
    assert not find(events, "scored")


# --- catastrophes ------------------------------------------------------------------------------------------


def test_catastrophe_targets() -> None:
    state = setup(
        at="F4",
        rows=["rgx", "dd.", "dd."],
        leaders={"I4": (0, "black")},
        treasures=["F4"],
        monuments={"F5": "red-blue"},
    )
    squares = targets(state, "catastrophe")
    assert {"G4", "H5", "E1", "A1"} <= squares  # a tile, empty squares, a river
    assert squares.isdisjoint({"F4", "H4", "F5", "G6", "I4"})  # treasure, catastrophe, monument, leader
    refused(state, 0, {"type": "catastrophe", "square": "F4"}, "treasure_square")
    refused(state, 0, {"type": "catastrophe", "square": "I4"}, "occupied")
    refused(state, 0, {"type": "catastrophe", "square": "G6"}, "monument_square")
    refused(state, 0, {"type": "catastrophe", "square": "H4"}, "occupied")
    out = setup(catastrophes=[0, 2])
    refused(out, 0, {"type": "catastrophe", "square": "A1"}, "wrong_order")  # none left


def test_a_catastrophe_destroys_a_tile_splits_a_kingdom_and_sends_a_leader_home() -> None:
    # B5 temple, C5 temple, D5 market; the king on B6 has only B5 beside him, the trader on C6 has C5
    leaders = {"B6": (BULL, "black"), "C6": (BULL, "green")}
    state = setup(start=True, at="B5", rows=["rrg"], leaders=leaders, hands=[{}, {}])
    discarded = state.discarded
    state, events = play(state, 0, {"type": "catastrophe", "square": "B5"})
    assert at(state, "B5") == "x" and state.discarded == discarded + 1
    assert find(events, "catastrophe")[0].data == {"seat": 0, "square": "B5", "destroyed": "red"}
    returned = find(events, "leader_returned")
    assert [e.data["leader"] for e in returned] == ["king"] and returned[0].data["reason"] == "no_temple"
    assert state.players[0].catastrophes == 1
    # on a river square, with no tile to destroy
    state, events = play(state, 0, {"type": "catastrophe", "square": "E1"})
    assert find(events, "catastrophe")[0].data["destroyed"] is None and at(state, "E1") == "x"
    assert state.active == 1  # two actions: the turn is over


# --- swaps, passing ----------------------------------------------------------------------------------------


def test_swap_discards_and_draws_as_many() -> None:
    state = setup(hands=[{"red": 3, "blue": 1, "green": 1, "black": 1}, {"red": 6}])
    refused(state, 0, {"type": "swap", "tiles": {}}, "swap_count")
    refused(state, 0, {"type": "swap", "tiles": {"red": 4}}, "no_such_tile")
    refused(state, 0, {"type": "swap", "tiles": {"red": 7}}, "swap_count")
    discarded = state.discarded
    state, events = play(state, 0, {"type": "swap", "tiles": {"red": "2", "blue": "1", "green": ""}})
    assert sum(state.players[0].hand) == 6 and state.discarded == discarded + 3
    public, private = find(events, "swapped")[0], find(events, "swapped_detail")[0]
    assert public.to is None and public.data == {"seat": 0, "count": 3}
    assert private.to == frozenset({0}) and private.data["discarded"] == {"red": 2, "blue": 1}
    assert sum(private.data["drew"].values()) == 3


def test_a_swap_the_bag_cannot_serve_ends_the_game_at_once() -> None:
    state = setup(hands=[{"red": 6}, {"red": 6}], bag={"black": 2})
    exactly, _ = play(state, 0, {"type": "swap", "tiles": {"red": 2}})  # exactly enough is enough
    assert exactly.phase == "action" and exactly.players[0].hand == (4, 0, 0, 2) and sum(exactly.bag) == 0
    state = setup(hands=[{"red": 6}, {"red": 6}], bag={"black": 2})
    state, events = play(state, 0, {"type": "swap", "tiles": {"red": 3}})
    assert kinds(events) == ["swap_refused", "game_ended"]
    assert state.phase == "over" and state.end == "bag" and state.players[0].hand == (6, 0, 0, 0)
    assert RULES.standings(state) is not None
    refused(state, 0, {"type": "pass"}, "game_over")


def test_pass_ends_the_turn_and_is_the_default() -> None:
    state = setup(start=True, hands=[{"red": 6}, {"red": 6}])
    assert RULES.default_order(state, 0) == {"type": "pass", "timeout": True}
    refused(state, 1, {"type": "pass"}, "not_awaited")
    state, events = play(state, 0, RULES.default_order(state, 0))
    assert find(events, "passed")[0].data == {"seat": 0, "actions_left": 2, "timeout": True}
    assert state.active == 1 and state.actions_left == 2 and state.turn == 2
    assert awaited(state) == [(1, "action")]
    state, events = play(state, 1, {"type": "pass"})
    assert find(events, "passed")[0].data["timeout"] is False and state.active == 0


def test_the_same_action_twice_then_the_turn_ends() -> None:
    state = setup(start=True, hands=[{"red": 6}, {"red": 6}])
    state, _ = play(state, 0, {"type": "tile", "colour": "red", "square": "A1"})
    assert state.actions_left == 1 and RULES.view(state, 0)["legal"]["prompt"] == "action_last"
    state, events = play(state, 0, {"type": "tile", "colour": "red", "square": "B1"})
    assert state.active == 1 and "turn_started" in kinds(events)
    refill = find(events, "drew")
    assert refill[0].to == frozenset({0}) and sum(refill[0].data["tiles"].values()) == 2
    assert sum(state.players[0].hand) == 6
