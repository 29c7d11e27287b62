"""The end of a turn (refills, active player first), the end of the game, and the final ranking."""

from __future__ import annotations

from app.games.tigris import RULES
from app.games.tigris.model import State, evolve
from app.games.tigris.scoring import allocate, final_results, ladder, places
from tests.games.tigris.helpers import ARCHER, BULL, LION, URN, awaited, find, kinds, play, setup


def test_refills_start_with_the_active_player_then_go_clockwise() -> None:
    hands = [{"red": 4}, {"red": 4}, {"red": 5}]
    state = setup(players=3, start=True, active=1, hands=hands, bag={"green": 5})
    state, events = play(state, 1, {"type": "pass"})
    assert [(e.data["seat"], e.data["count"]) for e in find(events, "refilled")] == [(1, 2), (2, 1), (0, 2)]
    assert [e.to for e in find(events, "drew")] == [frozenset({1}), frozenset({2}), frozenset({0})]
    assert all(sum(player.hand) == 6 for player in state.players) and sum(state.bag) == 0
    assert awaited(state) == [(2, "action")]  # exactly enough: the game goes on


def test_the_game_ends_when_the_bag_cannot_refill_a_hand() -> None:
    hands = [{"red": 4}, {"red": 4}, {"red": 5}]
    state = setup(players=3, start=True, active=1, hands=hands, bag={"green": 4})
    state, events = play(state, 1, {"type": "pass"})
    assert kinds(events)[-4:] == ["refilled", "drew", "bag_empty", "game_ended"]
    assert [e.data["seat"] for e in find(events, "refilled")] == [1, 2]
    assert find(events, "bag_empty")[0].data == {"seat": 0, "needed": 2, "bag": 1}
    assert state.phase == "over" and state.end == "bag" and not awaited(state)
    assert RULES.standings(state) is not None


def test_the_game_ends_after_a_turn_with_two_treasures_left() -> None:
    three = setup(start=True, treasures=["B2", "P2", "F3"], hands=[{"red": 6}, {"red": 6}])
    state, _ = play(three, 0, {"type": "pass"})
    assert state.phase == "action"
    two = setup(start=True, treasures=["B2", "P2"], hands=[{"red": 6}, {"red": 6}])
    state, events = play(two, 0, {"type": "tile", "colour": "red", "square": "A1"})
    assert state.phase == "action"  # only at the end of a turn
    state, events = play(state, 0, {"type": "pass"})
    assert state.phase == "over" and state.end == "treasures"
    ended = find(events, "game_ended")[0]
    assert ended.to is None and ended.data["reason"] == "treasures"


def test_scoring_by_the_weakest_colour_with_treasures_as_jokers() -> None:
    assert allocate((9, 12, 13, 14), 2) == (11, 12, 13, 14)
    assert allocate((3, 3, 5, 9), 3) == (5, 4, 5, 9)
    assert ladder((0, 0, 0, 0), 5) == (1, 1, 1, 2)
    # greedy filling is the best possible use of the treasures
    for points in ((0, 1, 5, 7), (2, 2, 2, 2), (10, 0, 3, 3)):
        for treasures in range(6):
            best = max(
                tuple(sorted(p + a for p, a in zip(points, split, strict=True)))
                for split in _splits(treasures)
            )
            assert ladder(points, treasures) == best


def _splits(total: int) -> list[tuple[int, int, int, int]]:
    return [
        (a, b, c, total - a - b - c)
        for a in range(total + 1)
        for b in range(total + 1 - a)
        for c in range(total + 1 - a - b)
    ]


def test_the_rulebook_final_ranking() -> None:
    """The urn wins with 11 in its weakest colour; the lion and the bull both have 10 and 10, and the lion's
    12 beats the bull's 11 in the third colour; the archer, for all his 22 black points, is last."""
    state = setup(
        players=4,
        start=True,
        points=[(5, 9, 9, 22), (10, 11, 10, 20), (9, 12, 13, 14), (10, 10, 15, 12)],
    )
    people = list(state.players)
    people[URN] = evolve(people[URN], treasures=2)  # 9 red + 2 treasures = 11
    state = evolve(state, players=tuple(people), phase="over", end="bag")
    standings = RULES.standings(state)
    assert standings is not None
    assert [(s.seat, s.place, s.score) for s in standings] == [
        (URN, 1, 11.0),
        (LION, 2, 10.0),
        (BULL, 3, 10.0),
        (ARCHER, 4, 5.0),
    ]
    results = final_results(state)
    assert results[URN]["final"] == {"red": 11, "blue": 12, "green": 13, "black": 14}
    assert places([(1, 2), (1, 2), (0, 9)]) == [1, 1, 3]  # equal all the way: a shared place


def test_views_reveal_every_score_once_the_game_is_over() -> None:
    state = setup(start=True, points=[(1, 2, 3, 4), (4, 3, 2, 1)])
    assert RULES.view(state, 0)["players"][1]["points"] is None
    over: State = evolve(state, phase="over", end="bag")
    assert RULES.view(over, 0)["players"][1]["points"] == {"red": 4, "blue": 3, "green": 2, "black": 1}
    assert RULES.view(over, None)["results"][0]["score"] == 1
    assert RULES.view(over, None)["legal"]["prompt"] == "game_over"
