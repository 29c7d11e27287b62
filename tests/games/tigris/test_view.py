"""What each seat sees: the board, kingdoms, previews, and nothing of the others' screens."""

from __future__ import annotations

import json

from app.games.tigris import RULES, TigrisOptions
from app.games.tigris.model import State, evolve
from tests.games.tigris.helpers import BULL, LION, URN, WAR, WAR_LEADERS, blur, find, play, revolt, setup


def text(state: State, seat: int | None) -> str:
    return json.dumps(RULES.view(state, seat), sort_keys=True)


def test_the_view_of_a_new_game() -> None:
    state = RULES.new_game(TigrisOptions(), 3, seed=1)
    view = RULES.view(state, 0)
    json.dumps(view)
    assert len(view["squares"]) == 176 and view["width"] == 16 and view["height"] == 11
    assert sum(1 for square in view["squares"] if square["river"]) == 41
    assert sum(1 for square in view["squares"] if square["treasure"]) == 10
    assert view["me"]["hand"] == dict(
        zip(("red", "blue", "green", "black"), state.players[0].hand, strict=True)
    )
    assert view["players"][1]["points"] is None and view["players"][0]["points"] is not None
    assert [p["hand_size"] for p in view["players"]] == [6, 6, 6] and view["bag"] == 153 - 10 - 18
    assert view["legal"]["phase"] == "action" and view["legal"]["default"] == {
        "type": "pass",
        "timeout": True,
    }
    assert len(view["legal"]["targets"]["leader:red"]) > 20
    assert RULES.view(state, 1)["legal"]["prompt"] == "wait"
    assert RULES.view(state, None)["me"] is None and RULES.view(state, None)["legal"]["prompt"] == "spectator"
    assert "rng" not in json.dumps(view)


def test_no_view_shows_another_seats_hand_points_or_treasures() -> None:
    state = RULES.new_game(TigrisOptions(), 4, seed=3)
    people = tuple(evolve(p, points=(1, 2, 3, 4), treasures=1) for p in state.players)
    state = evolve(state, players=people)
    for seat in [0, 1, 2, 3, None]:
        assert text(state, seat) == text(blur(state, seat), seat)
    assert text(state, 0) != text(blur(state, None), 0)  # the blur does change what a seat sees of itself


def test_open_scoring_shows_points_but_never_hands() -> None:
    state = RULES.new_game(TigrisOptions(open_scoring=True), 2, seed=3)
    state = evolve(state, players=tuple(evolve(p, points=(1, 2, 3, 4)) for p in state.players))
    assert RULES.view(state, None)["players"][1]["points"] == {"red": 1, "blue": 2, "green": 3, "black": 4}
    for seat in [0, 1, None]:
        assert text(state, seat) == text(blur(state, seat), seat)
    state = setup(at="F4", rows=["r"], leaders={"F3": (0, "red")}, hands=[{"red": 1}, {}], open_scoring=True)
    _, events = play(state, 0, {"type": "tile", "colour": "red", "square": "E4"})
    assert find(events, "scored")[0].to is None


def test_a_support_is_seen_once_committed() -> None:
    state, _ = play(revolt(), URN, {"type": "leader", "colour": "red", "square": "G5"})
    before = {seat: text(state, seat) for seat in (0, BULL, None)}
    committed, events = play(state, URN, {"type": "support", "count": 2})
    assert all(event.to is None for event in events)
    assert RULES.view(committed, BULL)["conflict"]["attacker_support"] == 2
    # before the commitment nothing in any other view depends on what the attacker will add
    for seat in (0, BULL, None):
        assert text(blur(state, seat), seat) == before[seat]
        assert '"attacker_support": null' in before[seat]


def test_previews_of_a_revolt_and_of_wars() -> None:
    legal = RULES.view(revolt(), URN)["legal"]
    assert legal["previews"]["leader:red"]["G5"] == {
        "kind": "revolt",
        "colour": "red",
        "defender": BULL,
        "attacker_strength": 2,
        "defender_strength": 1,
    }
    war = setup(
        players=4, active=LION, at="E4", rows=WAR, leaders=WAR_LEADERS, hands=[{}, {}, {}, {"black": 1}]
    )
    preview = RULES.view(war, LION)["legal"]["previews"]["tile:black"]["H4"]
    assert preview == {
        "kind": "join",
        "wars": [
            {
                "colour": "green",
                "attacker": LION,
                "defender": BULL,
                "attacker_strength": 1,
                "defender_strength": 2,
            },
            {
                "colour": "black",
                "attacker": LION,
                "defender": BULL,
                "attacker_strength": 0,
                "defender_strength": 0,
            },
        ],
    }
    point = RULES.view(war, LION)["legal"]["previews"]["tile:black"]["F5"]
    assert point == {"kind": "point", "seat": LION, "colour": "black"}


def test_kingdoms_and_outlines() -> None:
    war = setup(players=4, at="E4", rows=WAR, leaders=WAR_LEADERS)
    view = RULES.view(war, None)
    assert [k["size"] for k in view["kingdoms"]] == [4, 5]
    first = view["kingdoms"][0]
    assert first["tiles"] == {"red": 1, "blue": 0, "green": 1, "black": 0}
    assert [(leader["leader"], leader["temples"], leader["supporters"]) for leader in first["leaders"]] == [
        ("trader", 1, 1),
        ("king", 1, 0),
    ]
    squares = {square["name"]: square for square in view["squares"]}
    assert squares["F4"]["kingdom"] == 1 and squares["F4"]["edges"] == "tlb"
    assert squares["K4"]["kingdom"] == 2 and squares["A1"]["kingdom"] is None
