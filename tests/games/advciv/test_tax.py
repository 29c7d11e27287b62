"""Phase 1: tax (§19) and city revolts, with the site's procedure and defaults."""

from __future__ import annotations

import pytest

from app.games.advciv import RULES
from app.games.contract import RuleError
from tests.games.advciv.helpers import begin, blank, city, land_keys, play, units, waited

AFRICA, CRETE, THRACE = 0, 1, 2


def test_19_1_tax_is_two_tokens_per_city_from_stock_to_treasury() -> None:
    state = units(blank(), AFRICA, {}, cities=["carthago", "cyrene"], stock=10)
    state = begin(state, "tax")
    nation = state.players[AFRICA]
    assert (nation.treasury, nation.stock) == (4, 6)
    assert state.phase != "tax"


def test_19_2_coinage_holder_chooses_1_2_or_3_the_same_for_every_city() -> None:
    state = units(blank(), AFRICA, {}, cities=["carthago", "cyrene"], cards=["coinage"], stock=10)
    state = begin(state, "tax")
    assert state.phase == "tax" and waited(state) == [AFRICA]
    legal = RULES.view(state, AFRICA)["legal"]
    assert [choice["order"]["rate"] for choice in legal["choices"]] == [1, 2, 3]
    assert RULES.default_order(state, AFRICA) == {"type": "tax", "rate": 2}
    state = play(state, AFRICA, {"type": "tax", "rate": 3})
    assert state.players[AFRICA].treasury == 6


def test_19_2_coinage_rate_is_1_at_once_when_2_would_make_cities_revolt() -> None:
    state = units(blank(), AFRICA, {}, cities=["carthago", "cyrene"], cards=["coinage"], stock=3)
    state = begin(state, "tax")
    assert state.phase != "tax"
    assert state.players[AFRICA].treasury == 2 and state.cities.count(AFRICA) == 2


def test_19_2_a_rate_outside_the_choices_is_refused() -> None:
    state = units(blank(), AFRICA, {}, cities=["carthago"], cards=["coinage"], stock=10)
    state = begin(state, "tax")
    with pytest.raises(RuleError):
        play(state, AFRICA, {"type": "tax", "rate": 4})
    with pytest.raises(RuleError) as caught:
        play(state, CRETE, {"type": "tax", "rate": 2})
    assert caught.value.code == "not_awaited"


def _site_example() -> object:
    """The site help's revolt procedure: Africa has 3 cities and only 3 tokens in stock; it pays all 3,
    ceil(3 unpaid / 2) = 2 cities revolt. Thrace has the most units in stock (40 tokens + 9 cities x 5),
    Crete fewer (20 + 9 x 5): Thrace is the beneficiary and chooses."""
    state = blank()
    state = units(state, AFRICA, {}, cities=["carthago", "cyrene", "athens"], stock=3)
    state = units(state, THRACE, {}, stock=40)
    state = units(state, CRETE, {}, stock=20)
    return begin(state, "tax")


def test_19_3_site_help_revolt_example_two_cities_revolt_to_the_beneficiary() -> None:
    state = _site_example()
    assert state.phase == "revolt" and waited(state) == [THRACE]
    view = RULES.view(state, None)["revolt"]
    assert view["victim"] == AFRICA and view["count"] == 2 and view["beneficiaries"][0] == THRACE
    assert state.players[AFRICA].treasury == 3 and state.players[AFRICA].stock == 0
    state = play(state, THRACE, {"type": "revolt", "areas": ["cyrene", "athens"]})
    assert (city(state, "cyrene"), city(state, "athens"), city(state, "carthago")) == (THRACE, THRACE, AFRICA)
    # the new owner pays no tax for them this turn
    assert state.players[THRACE].treasury == 0
    assert state.phase not in ("tax", "revolt")


def test_19_3_the_beneficiary_must_choose_exactly_the_revolting_cities_of_the_victim() -> None:
    state = _site_example()
    for areas in (["cyrene"], ["cyrene", "cyrene"], ["cyrene", "knossos"]):
        with pytest.raises(RuleError):
            play(state, THRACE, {"type": "revolt", "areas": areas})
    default = RULES.default_order(state, THRACE)
    assert len(default["areas"]) == 2 and set(default["areas"]) <= {"carthago", "cyrene", "athens"}
    assert play(state, THRACE, default).cities.count(AFRICA) == 1


def test_19_3_when_the_beneficiary_runs_out_of_cities_the_next_takes_the_rest_then_none() -> None:
    africa = ["carthago", "cyrene", "athens", "corinth"]
    spare = land_keys(3, 17, skip=africa)
    state = blank()
    state = units(state, AFRICA, {}, cities=africa, stock=3)  # pays 3 of 8: ceil(5 / 2) = 3 revolt
    state = units(state, THRACE, {}, cities=spare[:8], stock=100)  # 1 city in stock, most units
    state = units(state, CRETE, {}, cities=spare[8:], stock=20)  # 0 cities in stock after Thrace
    state = begin(state, "tax")
    assert state.phase == "revolt" and waited(state) == [THRACE]
    state = play(state, THRACE, {"type": "revolt", "areas": ["athens", "cyrene", "carthago"]})
    assert city(state, "corinth") == AFRICA
    assert city(state, "athens") == THRACE  # Thrace's last city in stock
    assert city(state, "cyrene") == -1 and city(state, "carthago") == -1  # nobody can take them


def test_19_3_the_revolting_player_is_never_its_own_beneficiary() -> None:
    state = blank()
    state = units(state, AFRICA, {}, cities=["carthago", "cyrene", "athens"], stock=0)
    state = units(state, THRACE, {}, stock=1)
    state = units(state, CRETE, {}, stock=0)
    state = begin(state, "tax")
    assert waited(state) == [THRACE]  # Africa has the most units in stock (0 + 6 x 5) but revolts


def test_19_3_when_every_city_revolts_there_is_nothing_to_choose() -> None:
    state = blank()
    state = units(state, AFRICA, {}, cities=["carthago", "cyrene"], stock=0)
    state = begin(state, "tax")
    assert state.phase != "revolt"
    assert city(state, "carthago") != AFRICA and city(state, "cyrene") != AFRICA


def test_19_34_democracy_holders_never_suffer_tax_revolts() -> None:
    state = units(blank(), AFRICA, {}, cities=["carthago", "cyrene", "athens"], cards=["democracy"], stock=3)
    state = begin(state, "tax")
    assert state.phase != "revolt" and state.cities.count(AFRICA) == 3
    assert state.players[AFRICA].treasury == 3
