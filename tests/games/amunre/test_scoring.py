"""Rules 3.1, phase 6: the scoring after each kingdom, the bonus cards, the gold ranking, the end, and the
reset between the kingdoms."""

from __future__ import annotations

import pytest

from app.games.amunre import RULES, cards, flow
from app.games.amunre.board import BOARD
from app.games.amunre.model import State
from app.games.amunre.scoring import automatic_lines, bonus_holds, gold_points, side_winners
from app.games.amunre.tx import Tx
from tests.games.amunre.helpers import (
    game,
    gold,
    index,
    owning,
    phase,
    play,
    player,
    with_player,
    with_province,
)

RED, BLUE, BLACK, WHITE = range(4)


def _advance(state: State) -> State:
    tx = Tx(state)
    flow.advance(tx)
    return tx.state


def _blue_example() -> State:
    """The end-of-game example: Blue owns Edfu (West), Abu (East) and Thebes with 7 pyramids; White's
    Berenike ties Abu on the East; the temple is on space 1; Blue is the poorest of four."""
    state = owning(game(4), {BLUE: ["Edfu", "Abu", "Thebes"], WHITE: ["Berenike", "Sawu", "Kharga"]})
    state = with_province(state, "Edfu", owner=BLUE, doubles=1, pyramids=1)
    state = with_province(state, "Abu", owner=BLUE, doubles=1, pyramids=1, blocks=1)
    state = with_province(state, "Thebes", owner=BLUE, pyramids=1)
    state = with_province(state, "Berenike", owner=WHITE, doubles=1, pyramids=1, blocks=1)
    state = owning_more(state, {RED: ["Memphis", "Buto", "Mendes"], BLACK: ["Damanhur", "Avaris", "Amarna"]})
    for seat, money in ((RED, 20), (BLUE, 1), (BLACK, 10), (WHITE, 5)):
        state = with_player(state, seat, gold=gold(*[1] * money), powers=())
    state = with_player(state, BLUE, powers=(cards.EGYPT_BONUS, cards.NILE_BONUS))
    return phase(state, "income", (), round=6, temple=1, pharaoh=RED, scores=((),))


def owning_more(state: State, holdings: dict[int, list[str]]) -> State:
    for seat, names in holdings.items():
        for name in names:
            state = with_province(state, name, owner=seat)
    return state


def test_the_blue_players_27_points() -> None:
    state = _advance(_blue_example())
    line = state.scores[-1][BLUE]
    assert (line.pyramids, line.sets, line.sides, line.temples) == (7, 3, 10, 1)
    assert state.phase == "bonus" and [wait.seat for wait in RULES.waits(state)] == [0, 1, 2, 3]
    state, _ = play(state, BLUE, RULES.default_order(state, BLUE))  # the default plays a card that scores
    state, _ = play(state, BLUE, RULES.default_order(state, BLUE))
    assert RULES.default_order(state, BLUE) == {"type": "done"}
    for seat in range(4):
        state, _ = play(state, seat, {"type": "done"})
    assert state.phase == "over"
    line = state.scores[-1][BLUE]
    assert (line.bonus, line.gold, line.total) == (6, 0, 27) and player(state, BLUE).points == 27
    assert state.scores[-1][WHITE].sides == 5  # tied with Abu on pyramids and blocks
    assert RULES.standings(state) is not None


def test_the_east_west_tie_goes_to_more_blocks() -> None:
    state = owning(game(3), {RED: ["Abu"], BLUE: ["Berenike"]})
    state = with_province(state, "Abu", owner=RED, pyramids=1, blocks=1)
    state = with_province(state, "Berenike", owner=BLUE, pyramids=1)
    assert side_winners(state, "east") == {RED} and side_winners(state, "west") == set()


def test_temples_score_the_temple_space_number() -> None:
    """Black owns Damanhur's 2 temples with the marker on space 3: 6 points."""
    state = owning(game(4), {BLACK: ["Damanhur"]})
    assert BOARD.provinces[index("Damanhur")].temples == 2
    assert automatic_lines(phase(state, "bonus", temple=3))[BLACK].temples == 6


def test_sets_score_three_per_pyramid_in_each_of_the_three_provinces() -> None:
    state = owning(game(3), {RED: ["Buto", "Mendes", "Abu"]})
    for name in ("Buto", "Mendes", "Abu"):
        state = with_province(state, name, owner=RED, doubles=1)
    assert automatic_lines(state)[RED].sets == 6


def test_gold_ranking_ties_take_their_rank_and_void_the_next() -> None:
    """Two tied richest take 6 each (the English rule; the French example's 4 is a slip), the next 2."""
    assert gold_points([30, 30, 20, 10]) == [6, 6, 2, 0]
    assert gold_points([30, 20, 20, 10]) == [6, 4, 4, 0]
    assert gold_points([5, 5, 5]) == [6, 6, 6]


@pytest.mark.parametrize(
    ("card", "provinces", "holds"),
    [
        (cards.CARD_BONUS, ["Kharga", "Memphis", "Buto"], True),  # 4 + 3 + 0
        (cards.CARD_BONUS, ["Dakhla", "Memphis", "Buto"], False),
        (cards.EGYPT_BONUS, ["Edfu", "Abu", "Thebes"], True),
        (cards.EGYPT_BONUS, ["Edfu", "Abu", "Memphis"], False),
        (cards.SIDE_BONUS, ["Buto", "Memphis", "Edfu"], True),
        (cards.SIDE_BONUS, ["Buto", "Memphis", "Abu"], False),
        (cards.NILE_BONUS, ["Buto", "Sawu", "Kharga"], True),  # none on the bank
        (cards.NILE_BONUS, ["Buto", "Sawu", "Memphis"], False),
    ],
)
def test_bonus_conditions(card: str, provinces: list[str], holds: bool) -> None:
    assert bonus_holds(owning(game(3), {RED: provinces}), RED, card) is holds


def test_the_farmer_bonus_needs_nine_farmers() -> None:
    state = owning(game(3), {RED: ["Mendes", "Buto", "Baharya"]})
    state = with_province(state, "Mendes", owner=RED, farmers=6)
    assert not bonus_holds(state, RED, cards.FARMER_BONUS)  # 6 + 2 printed
    state = with_province(state, "Buto", owner=RED, farmers=1)
    assert bonus_holds(state, RED, cards.FARMER_BONUS)


def test_between_the_kingdoms() -> None:
    """Markers and bought farmers go, pyramids and blocks stay; provinces not taken are out."""
    state = owning(
        game(3),
        {
            RED: ["Memphis", "Abu", "Sawu"],
            BLUE: ["Buto", "Mendes", "Avaris"],
            BLACK: ["Edfu", "Thebes", "Baharya"],
        },
    )
    state = with_province(state, "Memphis", owner=RED, farmers=3, blocks=1, pyramids=1)
    used = tuple(
        index(name)
        for name in ("Memphis", "Abu", "Sawu", "Buto", "Mendes", "Avaris", "Edfu", "Thebes", "Baharya")
    )
    state = phase(state, "bonus", (), round=3, used=used, province_deck=(), scores=((),), farmers=42)
    state = _advance(state)
    assert state.round == 4 and state.phase == "auction"
    memphis = state.provinces[index("Memphis")]
    assert (memphis.owner, memphis.farmers, memphis.pyramids) == (None, 0, 1)
    assert memphis.blocks >= 1  # its own block, and its 2 free blocks if drawn again
    assert not state.provinces[index("Dakhla")].in_play and state.provinces[index("Abu")].in_play
    assert set(state.revealed) <= set(used) and set(state.province_deck) | set(state.revealed) == set(used)
    assert state.farmers == 45


def test_final_ties_go_to_pyramids_then_blocks() -> None:
    state = owning(game(3), {RED: ["Abu"], BLUE: ["Buto"], BLACK: ["Edfu"]})
    state = with_province(state, "Abu", owner=RED, pyramids=1)
    state = with_province(state, "Buto", owner=BLUE, pyramids=1, blocks=1)
    state = phase(state, "over")
    for seat in range(3):
        state = with_player(state, seat, points=10)
    standings = RULES.standings(state)
    assert standings is not None
    assert [(s.seat, s.place) for s in standings] == [(BLUE, 1), (RED, 2), (BLACK, 3)]
