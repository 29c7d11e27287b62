"""The end of the game and the score (§34, §35, site 1.D, F-U)."""

from __future__ import annotations

from app.games.advciv import cards as c
from app.games.advciv import scoring as sc
from app.games.advciv.scoring import PublicFacts
from app.games.advciv.tables import FINISH


def test_34_1_a_the_game_ends_when_a_marker_enters_the_finish_space() -> None:
    assert FINISH == 16
    assert sc.end_reason([3, 15, 9], turn=20) is None
    assert sc.end_reason([3, 16, 9], turn=20) == sc.FINISHED


def test_34_1_b_or_after_the_last_turn_agreed_beforehand() -> None:
    assert sc.end_reason([3, 4], turn=11, last_turn=12) is None
    assert sc.end_reason([3, 4], turn=12, last_turn=12) == sc.LAST_TURN
    assert sc.end_reason([16, 4], turn=12, last_turn=12) == sc.FINISHED  # the finish is named first


def test_35_1_the_five_terms_a_worked_example() -> None:
    """The rulebook gives the five terms (§35.1) but no worked score; this one takes its numbers from its
    own examples: the §31.58 buyer, now holding Pottery, Mysticism, Music and Astronomy (45 + 50 + 60 +
    80), keeps three Grain (36, §28.51) and a Hides (1), has 10 in treasury, stands on space 8 with 4
    cities."""
    held = frozenset({c.POTTERY, c.MYSTICISM, c.MUSIC, c.ASTRONOMY})
    score = sc.score(held, ("grain", "grain", "grain", "hides"), treasury=10, ast_space=8, cities=4)
    assert score == sc.Score(civ_cards=235, trade_cards=37, treasury=10, ast=800, cities=200)
    assert (score.public, score.total) == (1245, 1282)


def test_35_1_a_civ_cards_count_their_printed_value_not_what_was_paid() -> None:
    everything = frozenset(c.CIV_CARDS)
    assert sc.score(everything, (), treasury=0, ast_space=0, cities=0).civ_cards == 3190


def test_35_1_b_calamities_in_hand_count_nothing_sets_at_set_value() -> None:
    hand = ("gold",) * 5 + ("ivory",) * 4 + ("treachery",)
    assert sc.score(frozenset(), hand, treasury=0, ast_space=0, cities=0).trade_cards == 225 + 144


def test_35_1_d_the_finish_space_is_worth_1600() -> None:
    assert sc.score(frozenset(), (), treasury=0, ast_space=FINISH, cities=9).ast == 1600


def test_32_261_mining_in_the_final_score_once_a_turn() -> None:
    held = frozenset({c.ENGINEERING, c.MINING})
    iron = ("iron", "iron", "iron")
    assert sc.score(held, iron, treasury=0, ast_space=0, cities=0).trade_cards == 32
    assert sc.score(held, iron, treasury=0, ast_space=0, cities=0, mining_used=True).trade_cards == 18


def test_35_2_equal_totals_are_a_draw() -> None:
    assert sc.places([1200, 1500, 1200, 900]) == (2, 1, 2, 4)
    assert sc.places([700, 700]) == (1, 1)


def test_f_u_points_table_sorted_by_total_public_points_ties_in_ast_order() -> None:
    facts = [
        PublicFacts(0, "crete", cities=3, ast_space=5, treasury=7, held=frozenset({c.POTTERY})),
        PublicFacts(1, "africa", cities=3, ast_space=5, treasury=7, held=frozenset({c.CLOTH_MAKING})),
        PublicFacts(2, "egypt", cities=6, ast_space=6, treasury=0, held=frozenset({c.LAW, c.MYSTICISM})),
    ]
    rows = sc.points_table(facts)
    assert [row.seat for row in rows] == [2, 1, 0]  # Africa before Crete on equal totals (§17.4)
    top = rows[0]
    assert (top.civ_cards, top.civ_points, top.public_points) == (2, 220, 220 + 600 + 300)
    assert rows[1].public_points == 45 + 7 + 500 + 150
