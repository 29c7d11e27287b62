"""Monuments (the choice, declining, monument points) and treasures (corner ones taken first), with the
rulebook's examples."""

from __future__ import annotations

from app.games.tigris import RULES
from app.games.tigris.board import parse
from app.games.tigris.model import State, evolve
from tests.games.tigris.helpers import (
    ARCHER,
    BULL,
    LION,
    at,
    awaited,
    find,
    kinds,
    leader_square,
    play,
    refused,
    setup,
)

# The rulebook's monument example, placed at F3: four temples G4 H4 G5 H5 (H5 still to come). The archer's
# farmer on G3 has only G4 beside him; the bull's king on I4 also has I5; the archer's priest on F5 has F6.
MONUMENT = ["_...", ".rr.", ".r.r", "r..."]
MONUMENT_LEADERS = {"G3": (ARCHER, "blue"), "I4": (BULL, "black"), "F5": (ARCHER, "red")}


def monument_position() -> State:
    return setup(
        start=True,
        active=BULL,
        at="F3",
        rows=MONUMENT,
        leaders=MONUMENT_LEADERS,
        hands=[{"red": 6}, {"red": 6}],
    )


def test_the_rulebook_monument_example() -> None:
    state = monument_position()
    state, events = play(state, BULL, {"type": "tile", "colour": "red", "square": "H5"})
    assert find(events, "scored")[0].data["seat"] == ARCHER  # the priest's colour
    assert awaited(state) == [(BULL, "monument")]
    legal = RULES.view(state, BULL)["legal"]
    assert [c["order"] for c in legal["choices"]] == [
        {"type": "monument", "square": "G4", "monument": "red-blue"},
        {"type": "monument", "square": "G4", "monument": "red-green"},
        {"type": "monument", "square": "G4", "monument": "red-black"},
        {"type": "monument", "square": None, "monument": None},
    ]
    assert RULES.default_order(state, BULL) == {"type": "monument", "square": None, "monument": None}
    refused(state, BULL, {"type": "monument", "square": "G4", "monument": "blue-green"}, "invalid_monument")
    refused(state, BULL, {"type": "monument", "square": "H4", "monument": "red-black"}, "invalid_monument")

    state, events = play(state, BULL, {"type": "monument", "square": "G4", "monument": "red-black"})
    assert kinds(events)[:2] == ["monument_built", "leader_returned"]
    assert all(at(state, square) == "d" for square in ("G4", "H4", "G5", "H5"))
    assert leader_square(state, ARCHER, "blue") == -1  # the archer's farmer lost his only temple
    assert leader_square(state, BULL, "black") == parse("I4")
    assert RULES.view(state, None)["monuments"][2] == {
        "id": "red-black",
        "colours": ["red", "black"],
        "square": "G4",
        "x": 6,
        "y": 3,
    }
    # at the end of his turn the bull scores a black point; at the end of his own, the archer a red one
    state, events = play(state, BULL, {"type": "pass"})
    assert [(e.data["seat"], e.data["colour"], e.data["reason"]) for e in find(events, "scored")] == [
        (BULL, "black", "monument")
    ]
    state, events = play(state, ARCHER, {"type": "pass"})
    assert [(e.data["seat"], e.data["colour"]) for e in find(events, "scored")] == [(ARCHER, "red")]
    assert state.players[ARCHER].points == (2, 0, 0, 0) and state.players[BULL].points == (0, 0, 0, 1)


def test_declining_a_monument() -> None:
    state, _ = play(monument_position(), BULL, {"type": "tile", "colour": "red", "square": "H5"})
    state, events = play(state, BULL, RULES.default_order(state, BULL))
    assert find(events, "monument_declined")[0].data == {"seat": BULL, "squares": ["G4"]}
    assert at(state, "G4") == "r" and awaited(state) == [(BULL, "action")]


def test_a_declined_square_never_carries_a_monument_even_once_rebuilt() -> None:
    state, _ = play(monument_position(), BULL, {"type": "tile", "colour": "red", "square": "H5"})
    state, _ = play(state, BULL, {"type": "monument", "square": None, "monument": None})
    state, _ = play(state, BULL, {"type": "pass"})
    # a war takes H5 away (its tile leaves the game), and the archer rebuilds the square on his turn
    board = state.board[: parse("H5")] + "." + state.board[parse("H5") + 1 :]
    state = evolve(state, board=board, discarded=state.discarded + 1)
    state, events = play(state, ARCHER, {"type": "tile", "colour": "red", "square": "H5"})
    assert all(at(state, square) == "r" for square in ("G4", "H4", "G5", "H5"))
    assert awaited(state) == [(ARCHER, "action")] and "monument_declined" not in kinds(events)


def test_the_declined_squares_are_dumped_and_an_older_dump_has_none() -> None:
    state, _ = play(monument_position(), BULL, {"type": "tile", "colour": "red", "square": "H5"})
    older = RULES.dump(state)
    assert "declined" not in older  # nothing declined yet: dumped as before the field existed
    assert RULES.load(older).declined == ()
    state, _ = play(state, BULL, {"type": "monument", "square": None, "monument": None})
    assert state.declined == (parse("G4"),) and RULES.dump(state)["declined"] == [parse("G4")]


def test_no_monument_left_of_that_colour_means_no_question() -> None:
    built = {"A10": "red-blue", "C10": "red-green", "E10": "red-black"}  # elsewhere, already built
    state = setup(
        start=True,
        active=BULL,
        at="F3",
        rows=MONUMENT,
        leaders=MONUMENT_LEADERS,
        hands=[{}, {"red": 2}],
        monuments=built,
    )
    state, events = play(state, BULL, {"type": "tile", "colour": "red", "square": "H5"})
    assert awaited(state) == [(BULL, "action")] and "monument_declined" not in kinds(events)


def test_one_tile_completing_two_squares_offers_both() -> None:
    state = setup(at="E4", rows=["gg.", "g.g", "ggg"], leaders={"A1": (0, "red")}, hands=[{"green": 1}, {}])
    state, _ = play(state, 0, {"type": "tile", "colour": "green", "square": "F5"})
    squares = {c["order"]["square"] for c in RULES.view(state, 0)["legal"]["choices"]}
    assert squares == {"E4", "E5", "F5", None}  # three full squares hold F5 (F4-G4 row lacks G4)
    state, _ = play(state, 0, {"type": "monument", "square": "E5", "monument": "green-black"})
    assert at(state, "E4") == "g" and at(state, "E5") == at(state, "F6") == "d"


def test_a_conflict_comes_first_and_the_square_must_survive_it() -> None:
    # the joining market G4 completes the square G4 H4 G5 H5, whose other three are the bull's markets
    for support, monument in ((4, False), (0, True)):
        state = setup(
            at="E3",
            rows=["", ".r.gr", "..gg"],
            leaders={"F3": (0, "green"), "I5": (BULL, "green")},
            hands=[{"green": 5}, {}],
        )
        state, events = play(state, 0, {"type": "tile", "colour": "green", "square": "G4"})
        assert awaited(state) == [(0, "support")]  # the war before any monument
        state, _ = play(state, 0, {"type": "support", "count": support})
        state, events = play(state, BULL, {"type": "support"})
        winner = find(events, "conflict_resolved")[0].data["winner"]
        assert winner == (0 if support else BULL)
        assert awaited(state) == [(0, "monument" if monument else "action")]


# --- treasures --------------------------------------------------------------------------------------------


def test_the_rulebook_treasure_example() -> None:
    """The lion places a blue tile: the bull scores a blue point, and the lion, whose trader rules the
    kingdom, must take the corner treasure at the top."""
    state = setup(
        players=4,
        start=True,
        active=LION,
        at="B2",
        rows=[".kg.r"],  # a leaderless territory from the corner B2 to D2; F2 temple beside F3
        leaders={"G3": (LION, "green"), "F4": (BULL, "blue")},
        hands=[{}, {}, {}, {"blue": 1}],
    )
    state, events = play(state, LION, {"type": "tile", "colour": "blue", "square": "E2"})
    assert [(e.data["seat"], e.data["colour"]) for e in find(events, "scored")] == [(BULL, "blue")]
    taken = find(events, "treasures_taken")[0]
    assert taken.to is None and taken.data == {"seat": LION, "squares": ["B2"], "left": "F3"}
    assert parse("B2") not in state.treasures and parse("F3") in state.treasures
    assert state.players[LION].treasures == 1 and awaited(state) == [(LION, "action")]


def test_the_traders_owner_chooses_the_treasure_left_even_out_of_turn() -> None:
    state = setup(
        at="E4", rows=["r.r"], leaders={"E5": (BULL, "green")}, treasures=["E4", "G4"], hands=[{"red": 1}, {}]
    )
    state, _ = play(state, 0, {"type": "tile", "colour": "red", "square": "F4"})
    assert awaited(state) == [(BULL, "treasure")]
    assert RULES.default_order(state, BULL) == {"type": "treasure", "leave": "E4"}
    refused(state, BULL, {"type": "treasure", "leave": "F4"}, "invalid_treasure")
    state, events = play(state, BULL, {"type": "treasure", "leave": "g4"})
    assert find(events, "treasures_taken")[0].data == {"seat": BULL, "squares": ["E4"], "left": "G4"}
    assert state.players[BULL].treasures == 1 and awaited(state) == [(0, "action")]


def test_corner_treasures_must_be_taken_and_two_corners_leave_a_choice() -> None:
    # a chain down column B from the corner B2 to the corner B8, B6 still to come; a trader on C2
    rows = ["r", "k", "b", "k", ".", "b", "r"]
    state = setup(
        at="B2", rows=rows, leaders={"C2": (0, "green")}, treasures=["B2", "B8"], hands=[{"black": 1}, {}]
    )
    state, _ = play(state, 0, {"type": "tile", "colour": "black", "square": "B6"})
    assert [c["order"]["leave"] for c in RULES.view(state, 0)["legal"]["choices"]] == ["B2", "B8"]
    # a corner and two others: the corner is taken whatever is chosen
    state = setup(
        at="B2",
        rows=["r", "r", "b", "k", ".", "b", "r"],
        leaders={"C2": (0, "green")},
        treasures=["B2", "B3", "B8"],
        hands=[{"black": 1}, {}],
    )
    state, _ = play(state, 0, {"type": "tile", "colour": "black", "square": "B6"})
    assert state.phase == "action"  # one choice only: taken at once, B2 and B8 both corners
    assert state.treasures == (parse("B3"),) and state.players[0].treasures == 2


def test_no_trader_no_collection() -> None:
    state = setup(
        at="E4", rows=["r.r"], leaders={"E5": (BULL, "black")}, treasures=["E4", "G4"], hands=[{"red": 1}, {}]
    )
    state, events = play(state, 0, {"type": "tile", "colour": "red", "square": "F4"})
    assert "treasures_taken" not in kinds(events) and len(state.treasures) == 2


def test_a_treasure_stays_on_a_temple_turned_face_down() -> None:
    state = setup(at="E4", rows=["rr", "r."], treasures=["E4"], hands=[{"red": 1}, {}])
    state, _ = play(state, 0, {"type": "tile", "colour": "red", "square": "F5"})
    state, _ = play(state, 0, {"type": "monument", "square": "E4", "monument": "red-green"})
    assert at(state, "E4") == "d" and state.treasures == (parse("E4"),)
    square = next(s for s in RULES.view(state, None)["squares"] if s["name"] == "E4")
    assert square["down"] and square["treasure"] and square["tile"] is None
    refused(state, 0, {"type": "catastrophe", "square": "F5"}, "monument_square")
