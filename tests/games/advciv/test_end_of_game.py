"""The end of the game on the state (§34.1, site 1.D): by the finish space once the turn is completed, or
after the agreed last turn; the score with the hands (§35.1), shared places (§35.2), the view's `final`
and `points`, and the rulebook's own numbers scored through the state."""

from __future__ import annotations

from app.games.advciv import RULES
from app.games.advciv import cards as c
from app.games.advciv.model import State, final_score
from app.games.advciv.tables import FINISH
from app.games.kit.model import evolve
from tests.games.advciv.helpers import begin, blank, deal, set_field, units, waited

AFRICA, CRETE, THRACE = 0, 1, 2
FOUR_CITIES = ["carthago", "cyrene", "athens", "corinth"]


def at_phase_12(**fields: int) -> State:
    state = blank()
    for seat, area in zip(range(3), ("tunisia", "knossos", "thrace"), strict=True):
        state = units(state, seat, {area: 2})
    state = deal(state, CRETE, ["ochre"] * 5 + ["hides"] * 4)  # Crete must discard: phase 12 waits on it
    return begin(evolve(state, **fields), "calamity")


def test_34_1_a_the_finish_space_ends_the_game_once_the_turn_is_completed() -> None:
    state = units(at_phase_12(), AFRICA, {"tunisia": 2}, cities=["carthago"])  # (no city: back a space)
    state = set_field(state, AFRICA, ast=FINISH)
    assert state.phase == "advances" and waited(state) == [CRETE]  # the turn goes on to its end
    outcome = RULES.apply(state, CRETE, {"type": "buy", "discard": ["hides"]})
    assert outcome.state.phase == "over" and outcome.state.end == "finish"
    assert [e.data["reason"] for e in outcome.events if e.kind == "game_over"] == ["finish"]
    assert RULES.waits(outcome.state) == []


def test_34_1_b_the_game_ends_after_the_agreed_last_turn() -> None:
    state = at_phase_12(last_turn=2)
    after = RULES.apply(state, CRETE, {"type": "buy", "discard": ["hides"]}).state
    assert after.phase != "over" and after.turn == 2  # turn 1 of 2
    ended = RULES.apply(at_phase_12(last_turn=1), CRETE, {"type": "buy", "discard": ["hides"]}).state
    assert ended.phase == "over" and ended.end == "last_turn" and ended.turn == 1
    assert RULES.new_game(RULES.Options(last_turn=7), 3, 1).last_turn == 7


def test_35_1_standings_count_the_hands_and_35_2_equal_totals_share_a_place() -> None:
    state = at_phase_12(last_turn=1)
    state = units(state, AFRICA, {"tunisia": 2}, cards=[c.POTTERY])  # 45 public points
    state = deal(state, THRACE, ["gold"] * 2 + ["ivory"])  # 4 x 9 + 9 = 45 in hand, secret till the end
    assert RULES.standings(state) is None
    over = RULES.apply(state, CRETE, {"type": "buy", "discard": ["hides"]}).state
    standings = RULES.standings(over)
    assert standings is not None
    places = {standing.seat: (standing.place, standing.score) for standing in standings}
    crete = final_score(over, CRETE).total
    assert places[AFRICA] == (1, 45 + 100) and places[THRACE] == (1, 45 + 100)  # a draw, §35.2
    assert places[CRETE] == (3, crete) and crete < 145
    view = RULES.view(over, None)
    final = {row["seat"]: row for row in view["final"]}
    assert final[THRACE]["trade_cards"] == 45 and final[THRACE]["place"] == 1 and final[CRETE]["place"] == 3
    publics = [row["public_points"] for row in view["points"]]
    assert publics == sorted(publics, reverse=True) and view["points"][0]["seat"] == AFRICA
    assert RULES.view(state, None)["final"] is None  # nothing of the hands before the end


def test_35_1_the_rulebook_s_numbers_scored_through_the_state() -> None:
    """test_scoring's worked example (§31.58's buyer with Pottery, Mysticism, Music and Astronomy, three
    Grain and a Hides, 10 in treasury, space 8, 4 cities): 1282, of which 1245 public."""
    state = units(
        blank(),
        AFRICA,
        {},
        cities=FOUR_CITIES,
        treasury=10,
        cards=[c.POTTERY, c.MYSTICISM, c.MUSIC, c.ASTRONOMY],
    )
    state = set_field(deal(state, AFRICA, ["grain"] * 3 + ["hides"]), AFRICA, ast=8)
    score = final_score(state, AFRICA)
    assert (score.public, score.total) == (1245, 1282)
    assert RULES.view(state, CRETE)["scores"][AFRICA] == 1245
