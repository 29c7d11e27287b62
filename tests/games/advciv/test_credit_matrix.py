"""The credit matrix (§31.5, §32): every card's credit toward every other card, each value a test,
written out from the rulebook's paragraphs (with Music → Democracy 10 from the printed table)."""

from __future__ import annotations

import pytest

from app.games.advciv import cards as c
from app.games.advciv.cards import CIV_CARDS

CRAFTS = ("pottery", "cloth_making", "metalworking", "agriculture", "roadbuilding", "mining", "engineering")
SCIENCES = ("engineering", "astronomy", "coinage", "medicine", "mathematics")
ARTS = ("mathematics", "drama_poetry", "music", "architecture", "literacy", "mysticism")
RELIGION = ("mysticism", "deism", "enlightenment", "monotheism", "theology")


def each(cards: tuple[str, ...], value: int, but: str) -> dict[str, int]:
    return {card: value for card in cards if card != but}


def crafts(giver: str) -> dict[str, int]:  # §32.212, .222, .232, .242, .254, .264
    return {**each(CRAFTS, 10, giver), "democracy": 10, "monotheism": 10}


def sciences(giver: str) -> dict[str, int]:  # §32.412, .422, .432
    return {**each(SCIENCES, 20, giver), "philosophy": 20, "theology": 20}


EXPECTED: dict[str, dict[str, int]] = {
    "pottery": crafts("pottery"),
    "cloth_making": crafts("cloth_making"),
    "metalworking": {**crafts("metalworking"), "military": 20},
    "agriculture": crafts("agriculture"),
    "roadbuilding": crafts("roadbuilding"),
    "mining": crafts("mining"),
    "engineering": {**crafts("engineering"), **sciences("engineering")},  # §32.314
    "astronomy": sciences("astronomy"),
    "coinage": sciences("coinage"),
    "medicine": sciences("medicine"),
    "mathematics": {  # §32.541
        **each(SCIENCES, 20, "mathematics"),
        **each(ARTS, 5, "mathematics"),
        "law": 5,
        "enlightenment": 10,
        "philosophy": 25,
        "theology": 25,
    },
    "drama_poetry": {  # §32.612
        "mathematics": 5,
        "music": 5,
        "architecture": 5,
        "law": 5,
        "mysticism": 5,
        "democracy": 10,
        "enlightenment": 10,
        "literacy": 20,
    },
    "music": {  # §32.622, plus Democracy 10 from the printed table
        "drama_poetry": 5,
        "architecture": 5,
        "literacy": 5,
        "law": 5,
        "mysticism": 5,
        "enlightenment": 10,
        "democracy": 10,
        "mathematics": 20,
        "philosophy": 20,
    },
    "architecture": {**each(ARTS, 5, "architecture"), "democracy": 10, "enlightenment": 10, "law": 15},
    "literacy": {
        **each(ARTS, 5, "literacy"),
        "enlightenment": 10,
        "law": 25,
        "democracy": 25,
        "philosophy": 25,
    },
    "law": {},
    "democracy": {},
    "military": {},
    "philosophy": {},
    "mysticism": {**each(ARTS, 5, "mysticism"), **each(RELIGION, 15, "mysticism")},  # §32.912
    "deism": {"enlightenment": 15, "monotheism": 15, "theology": 15},  # §32.922
    "enlightenment": {"monotheism": 15, "theology": 15},  # §32.933
    "monotheism": {},
    "theology": {},
}
PAIRS = [(giver, target) for giver in CIV_CARDS for target in CIV_CARDS]


@pytest.mark.parametrize(("giver", "target"), PAIRS, ids=[f"{g}-{t}" for g, t in PAIRS])
def test_credit_matrix_32_x(giver: str, target: str) -> None:
    assert c.credit(giver, target) == EXPECTED[giver].get(target, 0)


def test_credit_matrix_32_covers_all_24_cards_and_nothing_else() -> None:
    assert set(EXPECTED) == set(CIV_CARDS) == {giver for giver, _ in c.CREDIT_MATRIX}
    assert all(set(row) <= set(CIV_CARDS) for row in EXPECTED.values())
    assert len(c.CREDIT_MATRIX) == 24 * 24


def test_credit_matrix_32_622_music_gives_democracy_10() -> None:
    assert c.credit(c.MUSIC, c.DEMOCRACY) == 10
    # the strategy guide: Drama and Poetry, Music and Architecture each give Democracy 10
    assert {c.credit(g, c.DEMOCRACY) for g in (c.DRAMA_POETRY, c.MUSIC, c.ARCHITECTURE)} == {10}


def test_credit_matrix_32_group_and_card_credits_never_overlap() -> None:
    """No giver names a card that one of its group credits already reaches, so adding them is exact."""
    for giver, named in c.CARD_CREDITS.items():
        groups = {group for group, _ in c.GROUP_CREDITS.get(giver, ())}
        for target, _ in named:
            assert not groups & set(CIV_CARDS[target].groups), (giver, target)


def test_31_55_two_group_cards_receive_both_groups_credits() -> None:
    assert c.credits_toward(frozenset({c.POTTERY, c.ASTRONOMY}), c.ENGINEERING) == 10 + 20
    assert c.credits_toward(frozenset({c.ENGINEERING}), c.POTTERY) == 10
    assert c.credits_toward(frozenset({c.ENGINEERING}), c.COINAGE) == 20


def test_31_54_astronomy_credits_coinage_and_medicine_each_once() -> None:
    held = frozenset({c.ASTRONOMY})
    assert c.credits_toward(held, c.COINAGE) == c.credits_toward(held, c.MEDICINE) == 20


def test_31_58_mysticism_gives_music_5() -> None:
    assert c.credits_toward(frozenset({c.MYSTICISM}), c.MUSIC) == 5


def test_3_1_31_12_eight_copies_never_run_out() -> None:
    """§31.12: no limit on how many players own a card; with 8 copies and each player owning a card at
    most once (§31.61), the 8 players the game allows can never exhaust one."""
    from app.games.advciv import RULES

    assert RULES.max_players <= c.COPIES
