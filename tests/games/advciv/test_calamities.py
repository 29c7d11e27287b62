"""Calamities (§29, §30) and Monotheism (§32.94): one test per calamity and per civ-card modifier, named
with the rulebook paragraph; the unit-point accounting; the cap of two; the trader's exclusion."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.games.advciv import calamities as cal
from app.games.advciv import cards as civ
from app.games.advciv.board import BOARD
from app.games.advciv.calamities import Change, Held, Realm, Situation, Unit, UnitLoss
from app.games.advciv.trade_cards import CALAMITIES
from app.games.contract import RuleError


def at(key: str) -> int:
    return BOARD.by_key[key]


def realm(
    seat: int,
    nation: str = "egypt",
    *,
    tokens: Mapping[str, int] | None = None,
    cities: Iterable[str] = (),
    cards: Iterable[str] = (),
    stock: int = 30,
    score: int = 0,
    grain: int = 0,
    rank: int | None = None,
) -> Realm:
    return Realm(
        seat,
        nation,
        tuple(sorted((at(k), n) for k, n in (tokens or {}).items())),
        frozenset(at(k) for k in cities),
        frozenset(cards),
        stock,
        grain=grain,
        score=score,
        ast_rank=seat + 1 if rank is None else rank,
    )


def situation(*realms: Realm, **extra: object) -> Situation:
    return Situation(tuple(realms), **extra)  # type: ignore[arg-type]


def rand(seed: int = 0) -> cal.RandBelow:
    return random.Random(seed).randrange


def lost(changes: Iterable[Change], seat: int) -> int:
    return sum(c.points for c in changes if c.seat == seat)


def cities_lost(changes: Iterable[Change], seat: int) -> set[str]:
    return {BOARD.areas[c.area].key for c in changes if c.seat == seat and c.city < 0}


# --- §29: order, cap, trader, accounting ----------------------------------------------------------------


def test_29_6_order_by_stack_non_tradable_first() -> None:
    held = [Held(cal.PIRACY, 0), Held(cal.TREACHERY, 1), Held(cal.VOLCANO, 2), Held(cal.FAMINE, 0)]
    assert [h.card for h in cal.resolution_order(held)] == [
        cal.VOLCANO,
        cal.TREACHERY,
        cal.FAMINE,
        cal.PIRACY,
    ]


def test_29_5_at_most_two_as_primary_victim_chosen_at_random() -> None:
    held = [Held(cal.TREACHERY, 0), Held(cal.EPIDEMIC, 0), Held(cal.PIRACY, 0), Held(cal.FLOOD, 1)]
    kept_sets = set()
    for seed in range(30):
        kept, ignored = cal.apply_cap(held, rand(seed), stoic=False)
        assert len([h for h in kept if h.holder == 0]) == 2 and len(ignored) == 1
        assert Held(cal.FLOOD, 1) in kept
        assert list(kept) == list(cal.resolution_order(kept))
        assert sorted(kept + ignored, key=repr) == sorted(held, key=repr)
        kept_sets.add(frozenset(kept))
    assert len(kept_sets) == 3  # each of the three could be the one ignored


def test_29_5_stoic_suffers_every_calamity() -> None:
    held = [Held(cal.TREACHERY, 0), Held(cal.EPIDEMIC, 0), Held(cal.PIRACY, 0)]
    kept, ignored = cal.apply_cap(held, rand(), stoic=True)
    assert len(kept) == 3 and ignored == ()


def test_29_61_whoever_traded_the_card_is_never_a_secondary_victim() -> None:
    board = situation(
        realm(0, cities=["tanis", "memphis"], tokens={"fayum": 5, "siwa": 4, "thebes": 3, "upper_egypt": 4}),
        realm(1, "crete", cities=["knossos"], tokens={"phaestos": 2}, score=90),
        realm(2, "africa", cities=["cyrene"], tokens={"libya": 3}, score=10),
    )
    # the rulebook's example: Crete draws Epidemic and sells it to Egypt, who loses 16; Crete is immune
    epidemic = cal.epidemic(board, 0, 1, rand())
    assert epidemic.losses[0].victim == 0 and lost(epidemic.losses[0].default, 0) == 16
    assert [seat for seat, _ in epidemic.assignments[0].caps] == [2]
    icon = cal.iconoclasm_heresy(board, 0, 1, rand())
    assert {s for s, _ in icon.pending[-1].options} == {2}
    piracy = cal.piracy(board, 0, 1, rand())
    others = next(p for p in piracy.pending if p.kind == "piracy_others")
    assert {s for s, _ in others.options} == {2}
    # not traded: everyone else may be named, the leader by default
    drawn = cal.epidemic(board, 0, None, rand())
    assert [seat for seat, _ in drawn.assignments[0].caps] == [1, 2]
    assert drawn.assignments[0].default[0][0] == 1


def test_29_62_a_reduced_city_counts_five_less_the_tokens_left() -> None:
    # the rulebook's example: Africa loses 10 to Famine; a city reduced to 2 tokens counts 3
    city = Unit(at("cyrene"), 0, True, 3)
    options = cal.unit_options(city)
    assert (3, 2, -1) in options  # 3 points: city -1, two tokens placed
    assert (5, 0, -1) in options  # the whole city: 5
    assert Change(0, at("cyrene"), 2, -1).points == 3


def test_29_63_exact_loss_where_possible() -> None:
    units = (Unit(at("cyrene"), 0, True, 3), Unit(at("libya"), 4))
    assert cal.loss_target(units, 7) == 7
    for seed in range(20):
        changes = cal.random_loss(0, units, 7, rand(seed))
        assert sum(c.points for c in changes) == 7


def test_29_63_least_overshoot_otherwise() -> None:
    # Epidemic keeps a token in each area: a lone city in a 1-limit area can only lose 4 (reduced to 1)
    units = (Unit(at("argos"), 0, True, 1),)
    assert cal.loss_target(units, 2, keep_token=True) == 4
    assert cal.loss_target(units, 2) == 4  # 4 (one token left) or 5: 4 overshoots least
    assert cal.loss_target(units, 9) == 5  # more than it all: everything goes
    loss = UnitLoss(cal.EPIDEMIC, 0, 0, 2, units, keep_token=True)
    cal.check_loss(loss, [Change(0, at("argos"), 1, -1)])
    with pytest.raises(RuleError) as refused:
        cal.check_loss(loss, [Change(0, at("argos"), 0, -1)])  # no token left: not allowed
    assert refused.value.code == "loss_units"


def test_29_63_an_answer_missing_the_total_is_refused() -> None:
    loss = UnitLoss(cal.FAMINE, 0, 0, 3, (Unit(at("libya"), 5),))
    with pytest.raises(RuleError) as refused:
        cal.check_loss(loss, [Change(0, at("libya"), -2)])
    assert refused.value.code == "loss_total"
    cal.check_loss(loss, [Change(0, at("libya"), -3)])


def test_29_65_barbarian_tokens_and_pirate_cities_are_never_touched() -> None:
    board = situation(
        realm(0, "italy", cities=["neapolis"], tokens={"campania": 2}),
        barbarians=((at("campania"), 3),),
        pirate_cities=frozenset({at("roma")}),
    )
    result = cal.volcano_earthquake(board, 0, rand())
    assert all(c.seat >= 0 for c in result.changes)
    assert lost(result.changes, 0) == 7


def test_29_8_support_is_checked_again_with_slave_revolt_tokens_out() -> None:
    board = situation(
        realm(0, cities=["tanis"], tokens={"fayum": 3}), realm(1, "crete", tokens={"knossos": 1})
    )
    assert cal.support_checks(board, {0: 3}) == (cal.Need("support_check", 0, 3),)


# --- §30.2: Volcano / Earthquake, Treachery -------------------------------------------------------------


def test_30_211_volcano_eliminates_every_players_units_where_it_touches() -> None:
    board = situation(
        realm(0, "italy", cities=["neapolis"]),
        realm(1, "illyria", tokens={"campania": 2, "samnium": 2}),
    )
    result = cal.volcano_earthquake(board, 0, rand())
    assert lost(result.changes, 0) == 5 and lost(result.changes, 1) == 2
    assert result.secondary == (1,)
    assert all(c.area != at("samnium") for c in result.changes)


def test_30_211_of_two_volcanoes_the_one_doing_most_damage() -> None:
    board = situation(
        realm(0, "italy", cities=["neapolis", "thera"]),
        realm(1, "illyria", tokens={"campania": 2}),
    )
    result = cal.volcano_earthquake(board, 0, rand())
    assert cities_lost(result.changes, 0) == {"neapolis"}


def test_30_211_a_tie_is_the_primary_victims_choice() -> None:
    board = situation(realm(0, "italy", cities=["neapolis", "thera"]))
    waiting = cal.volcano_earthquake(board, 0, rand())
    (pick,) = waiting.pending
    assert pick.seat == 0 and len(pick.options) == 2
    thera = next(o for o in pick.options if at("thera") in cal.volcanoes(BOARD)[o[0]])
    done = cal.volcano_earthquake(board, 0, rand(), site=thera)
    assert cities_lost(done.changes, 0) == {"thera"}


def test_30_212_earthquake_destroys_a_city_and_reduces_a_neighbours() -> None:
    board = situation(realm(0, cities=["sparta"]), realm(1, "crete", cities=["phaestos"], stock=10))
    result = cal.volcano_earthquake(board, 0, rand())
    assert Change(0, at("sparta"), 0, -1) in result.changes
    assert Change(1, at("phaestos"), 2, -1) in result.changes  # across water, reduced to its limit of 2
    assert result.secondary == (1,)


def test_30_212_earthquake_picks_the_site_doing_most_damage() -> None:
    # Argos (limit 1) reduced loses 4, Corinth (limit 2) only 3
    board = situation(realm(0, cities=["athens"]), realm(1, "thrace", cities=["argos", "corinth"]))
    result = cal.volcano_earthquake(board, 0, rand())
    assert cities_lost(result.changes, 1) == {"argos"}


def test_30_213_engineering_reduces_the_earthquake_city_and_shields_a_neighbour() -> None:
    board = situation(
        realm(0, cities=["athens"], cards=[civ.ENGINEERING]),
        realm(1, "thrace", cities=["corinth"], cards=[civ.ENGINEERING]),
    )
    result = cal.volcano_earthquake(board, 0, rand())
    assert result.changes == (Change(0, at("athens"), 2, -1),)  # reduced, and Corinth spared
    assert result.secondary == ()


def test_30_213_engineering_does_nothing_against_a_volcano() -> None:
    board = situation(realm(0, "italy", cities=["neapolis"], cards=[civ.ENGINEERING]))
    assert cal.volcano_earthquake(board, 0, rand()).changes == (Change(0, at("neapolis"), 0, -1),)


def test_30_221_treachery_gives_the_city_to_the_trader_who_picks_it() -> None:
    board = situation(realm(0, cities=["tanis", "memphis"]), realm(1, "crete", cities=["knossos"]))
    waiting = cal.treachery(board, 0, 1, rand())
    (pick,) = waiting.pending
    assert pick.seat == 1 and set(pick.options) == {(at("tanis"),), (at("memphis"),)}
    done = cal.treachery(board, 0, 1, rand(), city=at("memphis"))
    assert done.changes == (Change(0, at("memphis"), 0, -1), Change(1, at("memphis"), 0, 1))


def test_30_221_a_trader_without_a_city_in_stock_only_destroys_it() -> None:
    nine = ["knossos", "phaestos", "athens", "argos", "corinth", "sparta", "delphi", "thera", "roma"]
    board = situation(realm(0, cities=["tanis"]), realm(1, "crete", cities=nine))
    assert cal.treachery(board, 0, 1, rand(), city=at("tanis")).changes == (Change(0, at("tanis"), 0, -1),)


def test_30_222_treachery_drawn_and_kept_reduces_a_city_and_nobody_gains() -> None:
    board = situation(realm(0, cities=["tanis"]), realm(1, "crete"))
    result = cal.treachery(board, 0, None, rand())
    assert result.changes == (Change(0, at("tanis"), 3, -1),)


# --- §30.3: Famine, Superstition -----------------------------------------------------------------------


def famine_board(**primary: object) -> Situation:
    return situation(
        realm(0, tokens={"fayum": 5, "memphis": 3}, cities=["tanis"], **primary),  # type: ignore[arg-type]
        realm(1, "crete", tokens={"knossos": 3}, cities=["phaestos", "thera"], score=50),
        realm(2, "africa", tokens={"libya": 3}, cities=["cyrene"], score=40),
        realm(3, "thrace", tokens={"athens": 2, "argos": 1}, cities=["corinth"], score=30),
    )


def test_30_311_famine_ten_for_the_victim_twenty_handed_out_at_most_eight_each() -> None:
    result = cal.famine(famine_board(), 0, None, rand())
    (own,) = result.losses
    assert own.points == 10 and lost(own.default, 0) == 10
    (hand_out,) = result.assignments
    assert hand_out.total == 20 and dict(hand_out.caps) == {1: 8, 2: 8, 3: 8}
    assert dict(hand_out.default) == {1: 8, 2: 8, 3: 4}  # the site's default: the score leaders
    cal.check_assignment(hand_out, {1: 4, 2: 8, 3: 8})
    with pytest.raises(RuleError):
        cal.check_assignment(hand_out, {1: 10, 2: 6, 3: 4})
    with pytest.raises(RuleError):
        cal.check_assignment(hand_out, {1: 8, 2: 8})
    losses = cal.secondary_losses(cal.FAMINE, famine_board(), {1: 4, 2: 8, 3: 8}, rand())
    assert [(loss.victim, lost(loss.default, loss.victim)) for loss in losses] == [(1, 4), (2, 8), (3, 8)]


def test_30_312_famine_pottery_reduces_loss_by_four_per_grain_shown() -> None:
    board = famine_board(cards=[civ.POTTERY], grain=2)
    (own,) = cal.famine(board, 0, None, rand()).losses
    assert own.grain == 2 and own.default_grain == 2
    assert own.due(2) == 2 and lost(own.default, 0) == 2
    assert own.due(0) == 10  # showing Grain is the holder's choice
    cal.check_loss(own, [Change(0, at("fayum"), -5), Change(0, at("memphis"), -1)], grain_used=1)
    without = cal.famine(famine_board(grain=2), 0, None, rand()).losses[0]
    assert without.grain == 0  # Grain without Pottery saves nothing


@pytest.mark.parametrize(
    ("cards", "reduced"),
    [
        ((), 3),
        ((civ.MYSTICISM,), 2),
        ((civ.DEISM,), 1),
        ((civ.ENLIGHTENMENT,), 0),
        ((civ.MYSTICISM, civ.DEISM), 1),  # only the highest counts
        ((civ.MYSTICISM, civ.ENLIGHTENMENT), 0),
    ],
)
def test_30_322_superstition_religion_cards(cards: tuple[str, ...], reduced: int) -> None:
    board = situation(realm(0, cities=["tanis", "memphis", "fayum", "alexandria"], cards=cards))
    result = cal.superstition(board, 0, rand())
    if reduced:
        (pick,) = result.pending
        assert pick.count == reduced and len(pick.default) == reduced
        done = cal.superstition(board, 0, rand(), cities=[a for (a,) in pick.default])
        assert len(cities_lost(done.changes, 0)) == reduced
    else:
        assert result.changes == () and result.pending == ()


def test_30_321_superstition_three_cities_of_the_victims_choice() -> None:
    board = situation(realm(0, cities=["tanis", "memphis", "fayum", "alexandria"]))
    done = cal.superstition(board, 0, rand(), cities=[at("tanis"), at("memphis"), at("fayum")])
    assert cities_lost(done.changes, 0) == {"tanis", "memphis", "fayum"}
    assert all(c.tokens > 0 for c in done.changes)  # reduced, not eliminated
    with pytest.raises(RuleError):
        cal.superstition(board, 0, rand(), cities=[at("tanis")])


# --- §30.4: Civil War, Slave Revolt --------------------------------------------------------------------


EGYPT_TOKENS = {
    "fayum": 5, "memphis": 3, "siwa": 4, "thebes": 3, "upper_egypt": 4, "buhen": 3, "nubia": 3, "jalo": 3,
    "eastern_desert": 2, "western_desert": 2, "sinai": 2, "gaza": 2,
}  # fmt: skip


def civil_war_board(*cards: str, stock: int = 20) -> Situation:
    return situation(
        realm(0, tokens=EGYPT_TOKENS, cities=["tanis", "alexandria"], cards=cards, stock=5),  # 46 unit points
        realm(1, "crete", tokens={"knossos": 1}, stock=stock),
        realm(2, "africa", tokens={"libya": 1}, stock=stock - 4),
    )


def take_default(result: cal.Resolution) -> Sequence[Change]:
    (loss,) = result.losses
    return loss.default


def test_30_411_civil_war_beneficiary_has_most_units_in_stock() -> None:
    assert cal.civil_war_beneficiaries(civil_war_board(), 0) == (1, 2)
    rich = situation(realm(0, tokens={"fayum": 3}, stock=40), realm(1, "crete", stock=10))
    assert cal.civil_war(rich, 0, rand()).note == "largest_stock"


def test_30_412_civil_war_the_victim_selects_then_the_beneficiary() -> None:
    board = civil_war_board(stock=40)
    step1 = cal.civil_war(board, 0, rand())
    (pick,) = step1.losses
    assert (pick.chooser, pick.points, pick.whole_cities) == (0, 15, True)
    first = take_default(step1)
    step2 = cal.civil_war(board, 0, rand(), first=first)
    (pick2,) = step2.losses
    assert (pick2.chooser, pick2.points) == (1, 20)
    second = take_default(step2)
    step3 = cal.civil_war(board, 0, rand(), first=first, second=second)
    (keep,) = step3.pending
    assert keep.kind == "faction" and keep.options == ((1,), (2,))
    assert keep.default == ((1,),)  # faction 1 (35 points) is larger than faction 2 (11)
    done = cal.civil_war(board, 0, rand(), first=first, second=second, keep=2)
    assert lost(done.changes, 0) == 35  # P keeps faction 2: the 35 of faction 1 go to the beneficiary
    assert lost(done.changes, 1) == -35  # Crete has the stock for all of it
    assert lost(done.changes, 2) == 0


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ((civ.MUSIC,), 20),
        ((civ.DRAMA_POETRY,), 20),
        ((civ.DEMOCRACY,), 25),
        ((civ.MUSIC, civ.DRAMA_POETRY, civ.DEMOCRACY), 35),
    ],
)
def test_30_4122_civil_war_music_drama_democracy_enlarge_the_victims_pick(
    cards: tuple[str, ...], points: int
) -> None:
    (pick,) = cal.civil_war(civil_war_board(*cards), 0, rand()).losses
    assert pick.points == points


def test_30_4124_civil_war_philosophy_fifteen_chosen_by_the_beneficiary() -> None:
    board = civil_war_board(civ.PHILOSOPHY, civ.DEMOCRACY)
    (pick,) = cal.civil_war(board, 0, rand()).losses
    assert (pick.chooser, pick.points) == (1, 15)
    first = pick.default
    assert sum(c.points for c in first) == 15
    (keep,) = cal.civil_war(board, 0, rand(), first=first).pending
    assert keep.kind == "faction"


def test_30_413_no_second_faction_no_civil_war() -> None:
    board = situation(realm(0, tokens={"fayum": 5}, cities=["tanis"], stock=0), realm(1, "crete", stock=20))
    first = [Change(0, at("fayum"), -5), Change(0, at("tanis"), 0, -1)]
    assert cal.civil_war(board, 0, rand(), first=first).note == "no_second_faction"


def test_30_414_civil_war_military_costs_each_faction_five() -> None:
    board = civil_war_board(civ.MILITARY)
    first = take_default(cal.civil_war(board, 0, rand()))
    second = take_default(cal.civil_war(board, 0, rand(), first=first))
    losses = cal.civil_war(board, 0, rand(), first=first, second=second).losses
    assert [loss.points for loss in losses] == [5, 5]
    military = [loss.default for loss in losses]
    assert sum(c.points for answer in military for c in answer) == 10
    (keep,) = cal.civil_war(board, 0, rand(), first=first, second=second, military=military).pending
    assert keep.default == ((1,),)  # 30 points against 6
    done = cal.civil_war(board, 0, rand(), first=first, second=second, military=military, keep=1)
    assert lost(done.changes, 0) == 16  # 10 to Military, and faction 2's remaining 6 annexed


def test_30_415_the_next_largest_stock_takes_what_the_beneficiary_cannot() -> None:
    board = civil_war_board(stock=8)
    first = take_default(cal.civil_war(board, 0, rand()))
    second = take_default(cal.civil_war(board, 0, rand(), first=first))
    done = cal.civil_war(board, 0, rand(), first=first, second=second, keep=2)
    gained = {seat: -lost(done.changes, seat) for seat in (1, 2)}
    assert gained[1] > 0 and gained[2] > 0
    assert sum(c.tokens for c in done.changes if c.seat == 1) == 8  # Crete's whole stock


@pytest.mark.parametrize(
    ("cards", "excluded"),
    [((), 15), ((civ.MINING,), 20), ((civ.ENLIGHTENMENT,), 10), ((civ.MINING, civ.ENLIGHTENMENT), 15)],
)
def test_30_423_slave_revolt_mining_and_enlightenment(cards: tuple[str, ...], excluded: int) -> None:
    board = situation(
        realm(0, tokens={"fayum": 5, "memphis": 3, "siwa": 9, "thebes": 8}, cities=["tanis"], cards=cards)
    )
    assert cal.slave_revolt(board, 0).needs == (cal.Need("support_check", 0, excluded),)


def test_30_422_slave_revolt_with_fewer_tokens_takes_them_all() -> None:
    board = situation(realm(0, tokens={"fayum": 5, "memphis": 3}, cities=["tanis"]))
    assert cal.slave_revolt(board, 0).needs == (cal.Need("support_check", 0, 8),)


# --- §30.5: Flood, Barbarian Hordes --------------------------------------------------------------------


def test_30_511_flood_seventeen_from_the_plain_black_sites_safe() -> None:
    board = situation(
        realm(
            0,
            "babylon",
            tokens={"babylonia": 4, "sumeria": 3, "mesopotamia": 3},
            cities=["susa", "ur", "charax"],
        ),
    )
    (own,) = cal.flood(board, 0, None, rand()).losses
    assert at("susa") not in {u.area for u in own.units}  # a black site stands
    assert own.points == 17 and lost(own.default, 0) == 17


def test_30_512_others_on_the_plain_lose_ten_handed_out_by_the_victim() -> None:
    board = situation(
        realm(0, tokens={"fayum": 5}),
        realm(1, "crete", tokens={"memphis": 3}, cities=["tanis"], score=9),
        realm(2, "africa", tokens={"alexandria": 4, "upper_egypt": 3}, score=1),
    )
    result = cal.flood(board, 0, None, rand())
    (hand_out,) = result.assignments
    assert hand_out.total == 10 and dict(hand_out.caps) == {1: 8, 2: 7}
    assert dict(hand_out.default) == {1: 8, 2: 2}
    losses = cal.secondary_losses(cal.FLOOD, board, dict(hand_out.default), rand(), plain=0)
    assert [lost(loss.default, loss.victim) for loss in losses] == [8, 2]


def test_30_512_ten_or_fewer_there_all_of_it_goes() -> None:
    board = situation(
        realm(0, tokens={"fayum": 5}), realm(1, "crete", tokens={"memphis": 3}, cities=["tanis"])
    )
    result = cal.flood(board, 0, None, rand())
    assert result.assignments == ()
    assert [lost(loss.default, loss.victim) for loss in result.losses] == [5, 8]


def test_30_513_flood_strikes_the_plain_with_most_of_the_victims_units() -> None:
    board = situation(realm(0, tokens={"fayum": 5, "sumeria": 2}))
    (own,) = cal.flood(board, 0, None, rand()).losses
    assert {u.area for u in own.units} == {at("fayum")}


def test_30_514_no_units_on_a_plain_one_coastal_city() -> None:
    board = situation(realm(0, cities=["cyrene", "athens"], tokens={"jalo": 2}))
    (pick,) = cal.flood(board, 0, None, rand()).pending
    assert pick.kind == "coastal_city" and pick.count == 1
    assert cal.flood(board, 0, None, rand(), city=at("cyrene")).changes == (Change(0, at("cyrene"), 0, -1),)
    inland = situation(realm(0, tokens={"jalo": 2}))
    assert cal.flood(inland, 0, None, rand()).note == "no_coastal_city"


def test_30_515_flood_engineering_seven_at_most_and_a_coastal_city_reduced() -> None:
    board = situation(
        realm(
            0, tokens={"fayum": 5, "memphis": 3, "upper_egypt": 4}, cities=["tanis"], cards=[civ.ENGINEERING]
        ),
        realm(1, "crete", tokens={"alexandria": 4}, cities=["ur"], cards=[civ.ENGINEERING]),
        realm(2, "africa", tokens={"sumeria": 3}),
    )
    result = cal.flood(board, 0, None, rand())
    assert [loss.points for loss in result.losses] == [7, 4]
    coast = situation(realm(0, cities=["cyrene"], cards=[civ.ENGINEERING]))
    assert cal.flood(coast, 0, None, rand()).changes == (Change(0, at("cyrene"), 3, -1),)


def with_defaults(board: Situation, traded_by: int | None) -> cal.Resolution:
    """Barbarian Hordes with the chooser's default taken at every tie."""
    route: list[int] = []
    result = cal.barbarian_hordes(board, 0, traded_by, rand())
    while result.pending:
        route.append(result.pending[0].default[0][0])
        result = cal.barbarian_hordes(board, 0, traded_by, rand(), route=route)
    return result


def test_30_5211_barbarians_enter_the_start_area_doing_most_damage_and_fight() -> None:
    board = situation(
        realm(0, tokens={"upper_egypt": 3, "thebes": 1, "fayum": 4}),
        realm(1, "crete", tokens={"knossos": 1}, stock=20),
    )
    result = with_defaults(board, 1)
    assert result.barbarians is not None
    assert lost(result.changes, 0) >= 3
    up = [c for c in result.changes if c.seat == 0 and c.area == at("upper_egypt")]
    assert up and up[0].tokens == -3
    barbarians = sum(n for _, n in result.barbarians)
    assert all(n <= BOARD.areas[a].population for a, n in result.barbarians)
    assert 0 < barbarians <= 15


def test_30_5221_surviving_barbarians_move_on_to_do_most_immediate_damage() -> None:
    board = situation(realm(0, tokens={"upper_egypt": 1, "fayum": 5, "eastern_desert": 1}))
    result = cal.barbarian_hordes(board, 0, None, rand())
    assert Change(0, at("fayum"), -5) in result.changes  # the most damage next to Upper Egypt


def test_30_5231_barbarians_head_for_the_victims_nearest_units() -> None:
    board = situation(realm(0, tokens={"memphis": 2}), realm(1, "crete", tokens={"knossos": 1}))
    result = cal.barbarian_hordes(board, 0, 1, rand(), route=[at("upper_egypt"), at("fayum")])
    assert Change(0, at("memphis"), -2) in result.changes


def test_30_5241_ties_are_the_traders_choice() -> None:
    board = situation(
        realm(0, tokens={"siwa": 2, "thebes": 2}), realm(1, "crete", tokens={"knossos": 1}, stock=40)
    )
    waiting = cal.barbarian_hordes(board, 0, 1, rand())
    (pick,) = waiting.pending
    assert pick.seat == 1 and {a for (a,) in pick.options} == {at("siwa"), at("thebes")}
    drawn = cal.barbarian_hordes(board, 0, None, rand())
    assert drawn.pending[0].seat == 1  # drawn and kept: the most units in stock decides (Crete)


def test_30_5242_defenders_cards_count_engineering_city_holds_better() -> None:
    # 15 barbarians kill Upper Egypt's 5 tokens and 7 go on to the city of Fayum: enough to attack a
    # city (7) but not an Engineering holder's (8): the plain city falls (6 tokens, 2 left), the other holds
    plain = situation(realm(0, cities=["fayum"], tokens={"upper_egypt": 5}))
    engineered = situation(realm(0, cities=["fayum"], tokens={"upper_egypt": 5}, cards=[civ.ENGINEERING]))
    assert lost(with_defaults(plain, None).changes, 0) == 5 + 3
    assert lost(with_defaults(engineered, None).changes, 0) == 5


def test_30_5242_barbarians_hold_no_cards_metalworking_defender_removes_last() -> None:
    # 15 barbarians against 4 tokens: 12 survive, or 11 when the defender removes last; the 8 (or 7)
    # going on to Fayum's 5 tokens kill 4 (or 3)
    tokens = {"upper_egypt": 4, "fayum": 5}
    plain = situation(realm(0, tokens=tokens))
    metal = situation(realm(0, tokens=tokens, cards=[civ.METALWORKING]))
    assert lost(with_defaults(plain, None).changes, 0) == 4 + 4
    assert lost(with_defaults(metal, None).changes, 0) == 4 + 3


def test_30_526_crete_is_never_the_victim_of_barbarian_hordes() -> None:
    board = situation(realm(0, "crete", tokens={"knossos": 3}))
    assert cal.barbarian_hordes(board, 0, None, rand()).note == "crete"


# --- §30.6–30.9: Epidemic, Civil Disorder, Iconoclasm and Heresy, Piracy ----------------------------------


def epidemic_board(*cards: str) -> Situation:
    return situation(
        realm(
            0,
            tokens={"fayum": 5, "memphis": 3, "siwa": 4, "thebes": 3},
            cities=["tanis", "alexandria"],
            cards=cards,
        ),
        realm(
            1, "crete", tokens={"knossos": 3, "thera": 2}, cities=["phaestos", "athens"], cards=cards, score=9
        ),
        realm(2, "africa", tokens={"libya": 3}, cities=["cyrene"], score=5),
    )


def test_30_611_epidemic_sixteen_and_twenty_five_at_most_ten_each() -> None:
    result = cal.epidemic(epidemic_board(), 0, None, rand())
    (own,) = result.losses
    assert own.points == 16 and own.keep_token and lost(own.default, 0) == 16
    (hand_out,) = result.assignments
    assert hand_out.total == 25 and dict(hand_out.caps) == {1: 10, 2: 6}  # Africa: 2 tokens + 4 for the city
    assert dict(hand_out.default) == {1: 10, 2: 6}


def test_30_612_epidemic_leaves_a_token_in_every_area_hit() -> None:
    (own,) = cal.epidemic(epidemic_board(), 0, None, rand()).losses
    after = {u.area: u.tokens for u in own.units}
    for change in own.default:
        if change.city == 0:
            assert after[change.area] + change.tokens >= 1
        else:
            assert change.tokens >= 1  # a city hit leaves a token: it counts 4 at most


@pytest.mark.parametrize(
    ("cards", "primary", "secondary"),
    [
        ((), 16, 10),
        ((civ.MEDICINE,), 8, 5),
        ((civ.ROADBUILDING,), 21, 15),
        ((civ.MEDICINE, civ.ROADBUILDING), 13, 10),
    ],
)
def test_30_613_epidemic_medicine_and_roadbuilding(
    cards: tuple[str, ...], primary: int, secondary: int
) -> None:
    board = epidemic_board(*cards)
    (own,) = cal.epidemic(board, 0, None, rand()).losses
    assert own.points == primary
    (loss,) = cal.secondary_losses(cal.EPIDEMIC, board, {1: 10}, rand())
    assert loss.points == secondary


@pytest.mark.parametrize(
    ("cards", "reduced"),
    [
        ((), 3),
        ((civ.MUSIC,), 2),
        ((civ.DRAMA_POETRY, civ.LAW), 1),
        ((civ.MUSIC, civ.DRAMA_POETRY, civ.LAW, civ.DEMOCRACY), 0),
        ((civ.MILITARY,), 4),
        ((civ.ROADBUILDING, civ.MILITARY), 5),
        ((civ.MILITARY, civ.LAW), 3),
    ],
)
def test_30_71_civil_disorder_all_but_three_and_its_modifiers(cards: tuple[str, ...], reduced: int) -> None:
    assert cal.civil_disorder_cities(6, frozenset(cards)) == reduced
    board = situation(
        realm(0, cities=["tanis", "memphis", "fayum", "alexandria", "cyrene", "athens"], cards=cards)
    )
    result = cal.civil_disorder(board, 0, rand())
    assert (result.pending[0].count if result.pending else 0) == reduced


def test_30_711_civil_disorder_with_three_cities_or_fewer_nothing() -> None:
    assert cal.civil_disorder_cities(3, frozenset()) == 0
    assert cal.civil_disorder_cities(2, frozenset({civ.MILITARY, civ.ROADBUILDING})) == 1


@pytest.mark.parametrize(
    ("cards", "reduced"),
    [
        ((), 4),
        ((civ.LAW,), 3),
        ((civ.LAW, civ.PHILOSOPHY), 2),
        ((civ.THEOLOGY,), 1),
        ((civ.MONOTHEISM,), 5),
        ((civ.ROADBUILDING, civ.MONOTHEISM), 6),
        ((civ.LAW, civ.PHILOSOPHY, civ.THEOLOGY, civ.MONOTHEISM), 0),
    ],
)
def test_30_812_iconoclasm_modifiers(cards: tuple[str, ...], reduced: int) -> None:
    assert cal.iconoclasm_cities(frozenset(cards)) == reduced


def test_30_818_iconoclasm_two_cities_of_others_theology_exempt_philosophy_one() -> None:
    board = situation(
        realm(0, cities=["tanis", "memphis", "fayum", "alexandria", "cyrene"]),
        realm(1, "crete", cities=["knossos", "phaestos"], cards=[civ.PHILOSOPHY], score=9),
        realm(2, "africa", cities=["tunisia", "cirta"], cards=[civ.THEOLOGY], score=8),
        realm(3, "thrace", cities=["athens"], score=1),
    )
    result = cal.iconoclasm_heresy(board, 0, None, rand())
    own, others = result.pending
    assert own.count == 4
    assert {s for s, _ in others.options} == {1, 3} and others.count == 2
    assert {s for s, _ in others.default} == {1, 3}
    with pytest.raises(RuleError):
        cal.iconoclasm_heresy(
            board,
            0,
            None,
            rand(),
            own=[a for (a,) in own.default],
            others=[(1, at("knossos")), (1, at("phaestos"))],
        )
    done = cal.iconoclasm_heresy(
        board,
        0,
        None,
        rand(),
        own=[a for (a,) in own.default],
        others=[(1, at("knossos")), (3, at("athens"))],
    )
    assert len(cities_lost(done.changes, 0)) == 4 and done.secondary == (1, 3)
    assert cities_lost(done.changes, 3) == {"athens"}


def test_30_911_piracy_trader_picks_two_coastal_cities_that_turn_pirate() -> None:
    board = situation(
        realm(0, cities=["tanis", "alexandria", "cyrene", "memphis"]),
        realm(1, "crete", cities=["knossos"], score=9),
        realm(2, "africa", cities=["tunisia", "cirta"], score=5),  # Tunisia is inland
        realm(3, "thrace", cities=["athens"], score=1),
    )
    waiting = cal.piracy(board, 0, 1, rand())
    own = next(p for p in waiting.pending if p.kind == "piracy_own")
    others = next(p for p in waiting.pending if p.kind == "piracy_others")
    assert own.seat == 1 and at("memphis") not in {a for (a,) in own.options}  # inland
    assert others.seat == 0 and {s for s, _ in others.options} == {2, 3}
    done = cal.piracy(
        board, 0, 1, rand(), own=[at("tanis"), at("cyrene")], others=[(2, at("cirta")), (3, at("athens"))]
    )
    pirate = {c.area for c in done.changes if c.seat == cal.PIRATES and c.city == 1}
    assert pirate == {at("tanis"), at("cyrene"), at("cirta"), at("athens")}
    with pytest.raises(RuleError):
        cal.piracy(
            board,
            0,
            1,
            rand(),
            own=[at("tanis"), at("cyrene")],
            others=[(2, at("tunisia")), (3, at("athens"))],
        )


def test_30_912_piracy_strikes_others_even_if_the_victim_has_no_coastal_city() -> None:
    board = situation(
        realm(0, cities=["memphis"]),
        realm(1, "crete", cities=["knossos"]),
        realm(2, "africa", cities=["cirta"]),
    )
    (others,) = cal.piracy(board, 0, None, rand()).pending
    assert others.count == 2
    done = cal.piracy(board, 0, None, rand(), others=[(1, at("knossos")), (2, at("cirta"))])
    assert cities_lost(done.changes, 0) == set()


# --- §32.94: Monotheism -----------------------------------------------------------------------------------


def test_32_94_monotheism_converts_an_area_next_by_land() -> None:
    board = situation(
        realm(0, tokens={"fayum": 2}, cards=[civ.MONOTHEISM], stock=10),
        realm(1, "crete", tokens={"memphis": 3}, score=1),
        realm(2, "africa", tokens={"siwa": 1}, cities=["western_desert"], cards=[civ.THEOLOGY]),
    )
    targets = cal.monotheism_targets(board, 0)
    assert at("memphis") in targets and at("siwa") not in targets and at("western_desert") not in targets
    (pick,) = cal.monotheism(board, 0, rand()).pending
    assert pick.default == ((at("memphis"),),)
    assert (cal.NO_TARGET,) in pick.options  # converting is optional ("peut convertir")
    done = cal.monotheism(board, 0, rand(), target=at("memphis"))
    assert set(done.changes) == {Change(1, at("memphis"), -3), Change(0, at("memphis"), 3)}
    assert cal.monotheism(board, 0, rand(), target=cal.NO_TARGET).changes == ()
    with pytest.raises(RuleError):
        cal.monotheism(board, 0, rand(), target=at("siwa"))


def test_32_94_monotheism_needs_the_stock_for_the_whole_area() -> None:
    board = situation(
        realm(0, tokens={"fayum": 2}, cards=[civ.MONOTHEISM], stock=2),
        realm(1, "crete", tokens={"memphis": 3}),
    )
    assert at("memphis") not in cal.monotheism_targets(board, 0)


def test_32_94_monotheism_holders_convert_in_ast_order() -> None:
    board = situation(
        realm(0, cards=[civ.MONOTHEISM], rank=5), realm(1, "crete", cards=[civ.MONOTHEISM], rank=2)
    )
    assert cal.monotheism_order(board) == (1, 0)


# --- every calamity's default, on random boards --------------------------------------------------------

LAND = [a.index for a in BOARD.areas if a.kind == "land"]


def random_board(rng: random.Random, players: int) -> Situation:
    nations = [*rng.sample([n for n in BOARD.nations if n != "crete"], players - 1), "crete"]
    rng.shuffle(nations)
    taken: set[int] = set()
    realms = []
    for seat, nation in enumerate(nations):
        home = [a for a in BOARD.nation_info[nation].start_areas]
        areas = rng.sample(LAND, 10) + home
        cities = frozenset(a for a in rng.sample(areas, rng.randrange(0, 7)) if a not in taken)
        taken |= cities
        tokens = tuple(
            sorted({a: rng.randrange(1, 5) for a in areas if a not in cities and rng.random() < 0.6}.items())
        )
        cards = frozenset(rng.sample(sorted(civ.CIV_CARDS), rng.randrange(0, 8)))
        realms.append(
            Realm(
                seat,
                nation,
                tokens,
                cities,
                cards,
                rng.randrange(0, 30),
                0,
                rng.randrange(0, 3),
                rng.randrange(0, 99),
                seat + 1,
            )
        )
    free = [a for a in LAND if a not in taken]
    return Situation(tuple(realms), barbarians=((free[0], 3),), pirate_cities=frozenset({free[1]}))


def check_applied(board: Situation, changes: Sequence[Change], calamity: str) -> None:
    tokens = {(r.seat, a): n for r in board.realms for a, n in r.tokens}
    cities = {a: r.seat for r in board.realms for a in r.cities}
    placed: dict[int, int] = {}
    for change in changes:
        if change.seat == cal.BARBARIANS:
            assert calamity == cal.BARBARIAN_HORDES
            continue
        if change.seat == cal.PIRATES:
            assert calamity == cal.PIRACY and change.city == 1 and change.area not in cities
            cities[change.area] = cal.PIRATES
            continue
        key = (change.seat, change.area)
        tokens[key] = tokens.get(key, 0) + change.tokens
        placed[change.seat] = placed.get(change.seat, 0) + change.tokens
        assert tokens[key] >= 0, change
        if change.city < 0:
            assert cities.pop(change.area) == change.seat, change
        elif change.city > 0:
            assert change.area not in cities, change
            cities[change.area] = change.seat
    for realm in board.realms:
        assert sum(1 for seat in cities.values() if seat == realm.seat) <= cal.CITIES
        assert placed.get(realm.seat, 0) <= realm.stock  # new tokens on the board came from stock
    assert (
        board.pirate_cities <= {a for a, seat in cities.items() if seat == cal.PIRATES} | board.pirate_cities
    )


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 6),
    calamity=st.sampled_from(cal.ORDER),
    traded=st.booleans(),
)
def test_every_calamitys_default_is_legal(seed: int, players: int, calamity: str, traded: bool) -> None:
    rng = random.Random(seed)
    board = random_board(rng, players)
    traded_by = 1 if traded and CALAMITIES[calamity].tradable else None
    result, _ = cal.settle_by_default(Held(calamity, 0, traded_by), board, rng.randrange)
    assert not result.pending and not [loss for loss in result.losses if loss.answer]
    for loss in result.losses:
        cal.check_loss(loss, loss.default, loss.default_grain)
    for assignment in result.assignments:
        cal.check_assignment(assignment, dict(assignment.default))
        assert traded_by not in dict(assignment.caps)
    assert traded_by not in result.secondary or calamity == cal.BARBARIAN_HORDES
    check_applied(board, cal.default_changes(result, board, rng.randrange), calamity)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), stoic=st.booleans())
def test_a_whole_calamity_phase_by_default_conserves_every_piece(
    seed: int, players: int, stoic: bool
) -> None:
    """Calamities drawn at random, capped, resolved in order with every default, each on the board the
    previous left: tokens on the board + stock and cities stay each seat's own; no area has two cities."""
    rng = random.Random(seed)
    board = random_board(rng, players)
    totals = {r.seat: r.stock + sum(n for _, n in r.tokens) for r in board.realms}
    held = [Held(card, rng.randrange(players)) for card in rng.sample(cal.ORDER, rng.randrange(1, 8))]
    kept, ignored = cal.apply_cap(held, rng.randrange, stoic=stoic)
    assert len(kept) + len(ignored) == len(held)
    for card in kept:
        result, _ = cal.settle_by_default(card, board, rng.randrange)
        board = cal.apply_changes(board, cal.default_changes(result, board, rng.randrange))
        for r in board.realms:
            assert r.stock + sum(n for _, n in r.tokens) == totals[r.seat]
            assert len(r.cities) <= cal.CITIES
        owned = [a for r in board.realms for a in r.cities] + list(board.pirate_cities)
        assert len(owned) == len(set(owned))
    for seat in cal.monotheism_order(board):
        result = cal.monotheism(board, seat, rng.randrange)
        if result.pending:
            result = cal.monotheism(board, seat, rng.randrange, target=result.pending[0].default[0][0])
        board = cal.apply_changes(board, result.changes)
        assert all(r.stock + sum(n for _, n in r.tokens) == totals[r.seat] for r in board.realms)
        assert all(len(r.cities) <= cal.CITIES for r in board.realms)


def test_f_s3_timeout_defaults_settle_iconoclasm_leaders_first() -> None:
    board = situation(
        realm(0, cities=["tanis", "memphis", "fayum", "alexandria", "cyrene"]),
        realm(1, "crete", cities=["knossos", "phaestos"], score=9),
        realm(2, "africa", cities=["cirta"], score=1),
        realm(3, "thrace", cities=["athens"], score=5),
    )
    result, answers = cal.settle_by_default(Held(cal.ICONOCLASM, 0), board, rand())
    assert result.settled
    own, others = answers["own"], answers["others"]
    assert isinstance(own, list) and isinstance(others, list)
    assert len(own) == 4 and {seat for seat, _ in others} == {1, 3}
    assert len(cities_lost(result.changes, 0)) == 4 and result.secondary == (1, 3)


def test_f_s3_an_answer_outside_the_options_is_refused() -> None:
    board = situation(realm(0, cities=["tanis", "memphis", "fayum", "alexandria"]))
    (pick,) = cal.superstition(board, 0, rand()).pending
    with pytest.raises(RuleError) as refused:
        cal.with_answer({}, pick, [(at("tanis"),), (at("tanis"),), (at("memphis"),)])
    assert refused.value.code == "calamity_pick"
    assert cal.with_answer({}, pick, pick.default) == {"cities": [a for (a,) in pick.default]}
