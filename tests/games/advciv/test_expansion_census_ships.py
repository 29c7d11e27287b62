"""Phases 2–4: population expansion (§20), census (§21), ships (§22)."""

from __future__ import annotations

import pytest

from app.games.advciv import RULES
from app.games.advciv.model import State
from app.games.contract import RuleError
from tests.games.advciv.helpers import begin, blank, play, tokens, units, waited

AFRICA, CRETE, THRACE = 0, 1, 2


def test_20_1_one_token_grows_by_one_two_or_more_by_two_over_the_limit() -> None:
    state = units(blank(), AFRICA, {"sahara": 1, "tunisia": 2, "carthago": 5})
    state = begin(state, "expand")
    assert [tokens(state, AFRICA, name) for name in ("sahara", "tunisia", "carthago")] == [2, 4, 7]


def test_20_1_no_growth_where_a_city_stands() -> None:
    state = units(blank(), AFRICA, {"carthago": 2}, cities=["carthago"])
    state = begin(state, "expand")
    assert tokens(state, AFRICA, "carthago") == 2


def test_20_3_short_of_stock_the_player_spreads_all_of_it() -> None:
    state = units(blank(), AFRICA, {"sahara": 1, "tunisia": 2}, stock=2)
    state = begin(state, "expand")
    assert state.phase == "expand" and waited(state) == [AFRICA]
    legal = RULES.view(state, AFRICA)["legal"]
    assert legal["context"] == {"stock": 2, "most": {"sahara": 1, "tunisia": 2}}
    for areas in ({"sahara": 2}, {"tunisia": 1}, {"carthago": 2}):
        with pytest.raises(RuleError):
            play(state, AFRICA, {"type": "expand", "areas": areas})
    state = play(state, AFRICA, {"type": "expand", "areas": {"sahara": 1, "tunisia": 1}})
    assert (tokens(state, AFRICA, "sahara"), tokens(state, AFRICA, "tunisia")) == (2, 3)
    assert state.players[AFRICA].stock == 0


def test_20_3_the_timeout_default_places_the_whole_stock_at_random_within_the_growth() -> None:
    state = units(blank(), AFRICA, {"sahara": 1, "tunisia": 2, "numidia": 3}, stock=3)
    state = begin(state, "expand")
    default = RULES.default_order(state, AFRICA)
    assert sum(default["areas"].values()) == 3
    most = {"sahara": 1, "tunisia": 2, "numidia": 2}
    assert all(count <= most[name] for name, count in default["areas"].items())
    assert play(state, AFRICA, default).players[AFRICA].stock == 0


def test_21_census_order_is_most_tokens_first_ties_by_ast_order() -> None:
    state = blank()
    state = units(state, CRETE, {"knossos": 4})
    state = units(state, THRACE, {"scythia": 4})
    state = units(state, AFRICA, {"sahara": 1})
    state = begin(state, "ships")
    assert state.census_order == (THRACE, CRETE, AFRICA)  # Thrace before Crete on the A.S.T.
    assert [nation.census for nation in state.players] == [1, 4, 4]


def test_21_military_holders_build_and_move_after_every_non_holder() -> None:
    state = blank()
    state = units(state, CRETE, {"knossos": 4}, treasury=4)
    state = units(state, THRACE, {"scythia": 6}, cards=["military"], treasury=4)
    state = units(state, AFRICA, {"numidia": 2}, treasury=4)
    state = begin(state, "ships")
    assert state.order == (CRETE, AFRICA, THRACE)
    assert RULES.waits(state)[0].seat == CRETE and RULES.waits(state)[0].first_in_phase


def _ships_state() -> State:
    state = units(blank(), CRETE, {"knossos": 3, "phaestos": 1}, treasury=5, ships=["knossos"])
    return begin(state, "ships")


def test_22_1_a_ship_costs_2_from_tokens_of_its_area_treasury_or_both_and_goes_to_stock() -> None:
    state = _ships_state()
    assert waited(state) == [CRETE]
    before = state.players[CRETE]
    order = {
        "type": "ships",
        "keep": {"knossos": 1},
        "keep_tokens": {"knossos": 1},
        "build": {"knossos": 1, "phaestos": 1},
        "build_tokens": {"knossos": 2, "phaestos": 1},
    }
    after = play(state, CRETE, order).players[CRETE]
    assert after.ships == tuple(sorted(after.ships)) and len(after.ships) == 3
    assert tokens(play(state, CRETE, order), CRETE, "knossos") == 0
    assert after.treasury == before.treasury - 1  # phaestos: 1 token + 1 treasury
    assert after.stock == before.stock + 5  # every unit spent goes back to stock (§22.2)


def test_22_2_a_ship_paid_from_treasury_only_goes_where_the_player_has_a_unit() -> None:
    state = _ships_state()
    with pytest.raises(RuleError) as caught:
        play(state, CRETE, {"type": "ships", "build": {"thera": 1}})
    assert caught.value.code == "no_ship_here" and caught.value.params == {"area": "Thera"}
    assert len(play(state, CRETE, {"type": "ships", "build": {"phaestos": 1}}).players[CRETE].ships) == 1


def test_22_3_maintenance_is_1_a_ship_and_treasury_must_cover_it() -> None:
    state = units(blank(), CRETE, {"knossos": 3}, treasury=1, ships=["knossos", "knossos"])
    state = begin(state, "ships")
    with pytest.raises(RuleError) as caught:
        play(state, CRETE, {"type": "ships", "keep": {"knossos": 2}, "build": {"knossos": 1}})
    assert caught.value.code == "not_enough_treasury"
    kept = play(state, CRETE, {"type": "ships", "keep": {"knossos": 2}, "keep_tokens": {"knossos": 1}})
    assert len(kept.players[CRETE].ships) == 2 and kept.players[CRETE].treasury == 0


def test_22_4_at_most_four_ships() -> None:
    state = units(blank(), CRETE, {"knossos": 3}, treasury=20, ships=["knossos"] * 4)
    state = begin(state, "ships")
    with pytest.raises(RuleError) as caught:
        play(state, CRETE, {"type": "ships", "keep": {"knossos": 4}, "build": {"knossos": 1}})
    assert caught.value.code == "too_many_ships"


def test_22_site_default_builds_and_keeps_nothing_so_ships_are_lost() -> None:
    state = _ships_state()
    state = play(state, CRETE, RULES.default_order(state, CRETE))
    assert state.players[CRETE].ships == () and state.players[CRETE].treasury == 5


def test_22_players_with_nothing_to_build_or_keep_are_not_awaited() -> None:
    state = units(blank(), AFRICA, {"sahara": 1})  # not a water area, no treasury
    state = begin(state, "ships")
    assert state.phase == "move"  # nobody had a ship to keep or the means to build one


def test_site_c2_the_first_actor_of_a_phase_gets_the_longer_time_not_the_first_of_its_order() -> None:
    # Africa is first on the A.S.T. but has stock enough: Crete, short of stock, acts first
    state = units(blank(), AFRICA, {"sahara": 1})
    state = units(state, THRACE, {"scythia": 2}, stock=1)
    state = units(state, CRETE, {"knossos": 2}, stock=1)
    state = begin(state, "expand")
    assert waited(state) == [THRACE, CRETE]
    assert [wait.seat for wait in RULES.waits(state) if wait.first_in_phase] == [THRACE]
    state = play(state, THRACE, {"type": "expand", "areas": {"scythia": 1}})
    assert waited(state) == [CRETE]
    assert not any(wait.first_in_phase for wait in RULES.waits(state))  # the first actor has acted
