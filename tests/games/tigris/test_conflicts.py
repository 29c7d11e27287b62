"""Revolts and wars, with the rulebook's two worked examples, the priests' exception, the order of several
wars, the attacker of a war the placer is not in, and the English variant."""

from __future__ import annotations

from app.games.tigris import RULES
from app.games.tigris.board import parse
from tests.games.tigris.helpers import (
    BULL,
    LION,
    URN,
    WAR,
    WAR_LEADERS,
    at,
    awaited,
    find,
    kinds,
    leader_square,
    play,
    refused,
    revolt,
    setup,
)

# --- revolts ------------------------------------------------------------------------------------------


def test_the_rulebook_revolt_ends_four_all_and_the_defender_wins() -> None:
    """The urn's priest (2 temples) against the bull's (1): 2 + 2 against 1 + 3, a tie, the defender wins."""
    state = revolt()
    state, events = play(state, URN, {"type": "leader", "colour": "red", "square": "G5"})
    started = find(events, "conflict_started")[0].data
    assert (started["kind"], started["attacker"], started["defender"]) == ("revolt", URN, BULL)
    assert (started["attacker_strength"], started["defender_strength"]) == (2, 1)
    assert awaited(state) == [(URN, "support")]
    assert RULES.view(state, BULL)["conflict"]["attacker_support"] is None
    refused(state, URN, {"type": "withdraw", "colour": "red"}, "wrong_order")  # no dodging a conflict
    refused(state, BULL, {"type": "support", "count": 1}, "not_awaited")
    refused(state, URN, {"type": "support", "count": 4}, "invalid_support")

    state, events = play(state, URN, {"type": "support", "count": 2})
    assert find(events, "support")[0].to is None  # in front of the screen: public once committed
    assert awaited(state) == [(BULL, "support")]
    assert RULES.view(state, BULL)["conflict"]["attacker_support"] == 2
    assert RULES.view(state, None)["conflict"]["attacker_support"] == 2
    assert RULES.view(state, BULL)["legal"]["context"]["held"] == 3

    discarded = state.discarded
    state, events = play(state, BULL, {"type": "support", "count": 3})
    resolved = find(events, "conflict_resolved")[0].data
    assert (resolved["attacker_total"], resolved["defender_total"], resolved["winner"]) == (4, 4, BULL)
    assert find(events, "leader_returned")[0].data["seat"] == URN
    assert leader_square(state, URN, "red") == -1 and leader_square(state, BULL, "red") == parse("E5")
    scored = find(events, "scored")[0]
    assert scored.data["seat"] == BULL and scored.data["colour"] == "red" and scored.to == frozenset({BULL})
    assert state.players[BULL].points == (1, 0, 0, 0)
    assert state.discarded == discarded + 5  # the five supporting temples leave the game
    assert state.players[URN].hand == (1, 0, 3, 0) and state.players[BULL].hand == (0, 3, 0, 0)
    assert awaited(state) == [(URN, "action")] and state.actions_left == 1


def test_a_revolt_won_by_the_attacker() -> None:
    state, _ = play(revolt(), URN, {"type": "leader", "colour": "red", "square": "G5"})
    state, _ = play(state, URN, {"type": "support", "count": 0})
    state, events = play(state, BULL, RULES.default_order(state, BULL))  # the default: no support
    assert find(events, "conflict_resolved")[0].data["winner"] == URN
    assert leader_square(state, BULL, "red") == -1 and state.players[URN].points == (1, 0, 0, 0)


def test_the_english_variant_limits_supports() -> None:
    state, _ = play(revolt(english=True), URN, {"type": "leader", "colour": "red", "square": "G5"})
    # the attacker (2 against 1) may add anything that keeps him ahead
    assert [c["order"]["count"] for c in RULES.view(state, URN)["legal"]["choices"]] == [0, 1, 2, 3]
    state, _ = play(state, URN, {"type": "support", "count": 2})
    # the defender only exactly what ties: 4 - 1 = 3
    assert [c["order"]["count"] for c in RULES.view(state, BULL)["legal"]["choices"]] == [0, 3]
    refused(state, BULL, {"type": "support", "count": 2}, "invalid_support")
    # an attacker behind may only add enough to get ahead
    behind = setup(
        players=2,
        at="E4",
        rows=["rkr", "...", "..r"],
        leaders={"G5": (1, "red")},
        hands=[{"red": 3}, {"red": 1}],
        english=True,
    )
    behind, _ = play(behind, 0, {"type": "leader", "colour": "red", "square": "E5"})  # 1 temple against 2
    assert [c["order"]["count"] for c in RULES.view(behind, 0)["legal"]["choices"]] == [0, 2, 3]
    refused(behind, 0, {"type": "support", "count": 1}, "invalid_support")
    behind, _ = play(behind, 0, {"type": "support", "count": 3})  # 1 + 3 against 2
    assert [c["order"]["count"] for c in RULES.view(behind, 1)["legal"]["choices"]] == [
        0
    ]  # 2 is out of reach


# --- wars ---------------------------------------------------------------------------------------------


def test_the_rulebook_war_five_to_three_and_the_second_war_vanishes() -> None:
    state = setup(
        players=4,
        active=LION,
        at="E4",
        rows=WAR,
        leaders=WAR_LEADERS,
        hands=[{}, {"green": 1, "red": 5}, {}, {"green": 4, "black": 2}],
    )
    state, events = play(state, LION, {"type": "tile", "colour": "black", "square": "H4"})
    assert find(events, "kingdoms_joined")[0].data == {"square": "H4", "wars": ["green", "black"]}
    assert not find(events, "scored")  # a joining tile scores nothing
    assert state.junction == parse("H4") and RULES.view(state, None)["junction"] == "H4"
    assert awaited(state) == [(LION, "war_order")]
    assert RULES.default_order(state, LION) == {"type": "war", "colour": "green"}
    refused(state, LION, {"type": "war", "colour": "red"}, "invalid_war")

    state, events = play(state, LION, {"type": "war", "colour": "green"})
    started = find(events, "conflict_started")[0].data
    assert (started["attacker"], started["defender"]) == (LION, BULL)
    assert (started["attacker_strength"], started["defender_strength"]) == (1, 2)
    state, _ = play(state, LION, {"type": "support", "count": 4})
    discarded = state.discarded
    state, events = play(state, BULL, {"type": "support", "count": 1})
    resolved = find(events, "conflict_resolved")[0].data
    assert (resolved["attacker_total"], resolved["defender_total"], resolved["winner"]) == (5, 3, LION)
    assert resolved["removed"] == ["I4", "J4"]
    assert at(state, "I4") == at(state, "J4") == "."
    assert leader_square(state, BULL, "green") == -1
    assert [(e.data["colour"], e.data["points"]) for e in find(events, "scored")] == [("green", 3)]
    assert state.players[LION].points == (0, 0, 3, 0)
    assert state.discarded == discarded + 7  # the 5 supports and the loser's 2 markets
    # the kingdom fell in two: the kings' war no longer happens, the junction goes, the action ends
    assert find(events, "wars_ended")[0].data == {"colours": ["black"], "reason": "split"}
    assert "junction_removed" in kinds(events) and state.junction == -1 and state.wars == ()
    assert awaited(state) == [(LION, "action")] and state.actions_left == 1
    assert leader_square(state, BULL, "black") == parse("K5")


def test_war_attacker_is_the_placer_else_the_first_involved_clockwise() -> None:
    for placer, left, right, attacker in ((0, 1, 2, 1), (2, 0, 1, 0), (1, 2, 0, 2), (1, 1, 2, 1)):
        state = setup(
            players=3,
            active=placer,
            at="E5",
            rows=["r.r", "", "", ".k"],
            leaders={"E6": (left, "black"), "G6": (right, "black")},
            hands=[{"red": 1}, {"red": 1}, {"red": 1}],
        )
        state, events = play(state, placer, {"type": "tile", "colour": "red", "square": "F5"})
        defender = right if attacker == left else left
        assert awaited(state) == [(attacker, "support")], (placer, left, right)
        state, _ = play(state, attacker, {"type": "support"})
        assert awaited(state) == [(defender, "support")]
        state, events = play(state, defender, {"type": "support"})
        assert find(events, "conflict_resolved")[0].data["winner"] == defender  # 0 against 0: a tie
        assert awaited(state) == [(placer, "action")]


def test_a_leaderless_territory_touching_the_junction_counts_for_nobody() -> None:
    state = setup(
        at="E4",
        rows=[".k", "r.r"],  # F4 settlement: a territory without leader above the junction F5
        leaders={"E6": (0, "black"), "G6": (1, "black")},
        hands=[{"red": 1}, {}],
    )
    state, events = play(state, 0, {"type": "tile", "colour": "red", "square": "F5"})
    started = find(events, "conflict_started")[0].data
    assert (started["attacker_strength"], started["defender_strength"]) == (0, 0)
    state, _ = play(state, 0, {"type": "support"})
    state, events = play(state, 1, {"type": "support"})
    assert find(events, "conflict_resolved")[0].data["removed"] == []
    assert at(state, "F4") == "k"


def test_the_priests_exception() -> None:
    """After a war of priests the loser keeps temples with a treasure or beside a leader not in the war."""
    state = setup(
        at="E4",
        rows=[".r.rrr"],  # F4 | G4 junction | H4 treasure, I4, J4 beside the loser's king on J5
        leaders={"F5": (0, "red"), "I5": (1, "red"), "J5": (1, "black")},
        treasures=["H4"],
        hands=[{"green": 1, "red": 3}, {"red": 2}],
    )
    state, _ = play(state, 0, {"type": "tile", "colour": "green", "square": "G4"})
    assert state.conflict is not None and (state.conflict.attacker_base, state.conflict.defender_base) == (
        1,
        3,
    )
    state, _ = play(state, 0, {"type": "support", "count": 3})
    state, events = play(state, 1, {"type": "support", "count": 0})
    resolved = find(events, "conflict_resolved")[0].data
    assert resolved["winner"] == 0 and resolved["removed"] == ["I4"]
    assert at(state, "H4") == at(state, "J4") == "r"
    assert find(events, "scored")[0].data["points"] == 2  # the leader and the one temple removed
    assert leader_square(state, 1, "black") == parse("J5") and leader_square(state, 1, "red") == -1


def test_several_wars_in_the_placers_order_and_strengths_as_the_board_now_stands() -> None:
    state = setup(
        at="E3",
        rows=["", ".r.rrk", ".k"],  # left: F4 temple, F5 settlement; right: H4, I4 temples, J4 settlement
        leaders={"E4": (0, "red"), "F3": (0, "black"), "I5": (1, "red"), "H3": (1, "black")},
        hands=[{"green": 1, "red": 2}, {}],
    )
    state, events = play(state, 0, {"type": "tile", "colour": "green", "square": "G4"})
    assert awaited(state) == [(0, "war_order")]
    assert [c["order"]["colour"] for c in RULES.view(state, 0)["legal"]["choices"]] == ["red", "black"]
    state, _ = play(state, 0, {"type": "war", "colour": "red"})
    state, _ = play(state, 0, {"type": "support", "count": 2})
    state, events = play(state, 1, {"type": "support", "count": 0})
    assert find(events, "conflict_resolved")[0].data["removed"] == ["I4"]  # H4 is beside the black king
    # still one kingdom: the kings' war follows at once; J4 is cut off from the bull's king and not counted
    started = find(events, "conflict_started")[0].data
    assert started["colour"] == "black" and (started["attacker_strength"], started["defender_strength"]) == (
        1,
        0,
    )
    assert awaited(state) == [(0, "support")] and state.junction == parse("G4")
    state, _ = play(state, 0, {"type": "support"})
    state, events = play(state, 1, {"type": "support"})
    assert find(events, "conflict_resolved")[0].data["winner"] == 0
    assert "junction_removed" in kinds(events) and RULES.view(state, None)["junction"] is None
