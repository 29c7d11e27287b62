"""What the Advanced Civilization page writes around its map: the census says what each number of
"Cities 1 / 8" is, every table sits in a box of its own that may scroll, the area names are drawn on the
map, and a calamity's unit points read as a loss for the player who loses and as a gain for the one who
gains (Civil War's beneficiary, Treachery's trader), in English and French."""

from __future__ import annotations

import html
import random
import re
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.games.advciv.board import BOARD
from app.games.advciv.tables import in_play
from app.games.advciv.tx import Tx
from app.games.kit.model import evolve
from app.web.i18n import translations
from tests.games.advciv.helpers import blank, units
from tests.test_advciv_web import play_one, put_state, start_game, store_events


def position() -> Any:
    state = units(blank(), 0, {"numidia": 2}, cities=["carthago"], ships=["carthago"])
    state = units(state, 1, {"thebes": 2}, cities=["knossos", "phaestos"])
    return units(state, 2, {}, cities=["athens"])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_census_says_what_each_number_is(make_client: Any, db: Session, language: str) -> None:
    _ = translations(language).gettext
    game_id, by_seat, _outsider = start_game(make_client, 3)
    put_state(db, game_id, position())
    assert by_seat[0].patch("/api/v1/me", json={"language": language}).status_code == 200
    page = html.unescape(by_seat[0].get(f"/games/{game_id}").text)
    census = page[page.index('class="ac-census"') :]
    census = census[: census.index("</section>")]
    sub = f'<span class="ac-sub">{_("map / stock")}</span>'
    assert f"{_('Cities')}{sub}" in census and f"{_('Ships')}{sub}" in census
    title = _("%(map)s on the map, %(stock)s in stock") % {"map": 2, "stock": 7}
    assert f'data-label="cities" title="{title}">2 / 7<' in census


def test_every_table_of_the_page_sits_in_a_box_of_its_own(make_client: Any, db: Session) -> None:
    game_id, _by_seat, outsider = start_game(make_client, 3)
    put_state(db, game_id, evolve(position(), phase="over", end="last_turn"))
    page = outsider.get(f"/games/{game_id}").text
    board = page[page.index('id="ac"') :]
    tables = re.findall(r'(<div class="ac-scroll">\s*)?<table class="ac-table', board)
    assert len(tables) >= 3  # the final score, the census and the points table
    assert all(tables), "a table outside its scrolling box"
    assert '<th class="num total">' in board  # the final total beside the name


def test_the_area_names_are_drawn_on_the_map(make_client: Any, db: Session) -> None:
    game_id, _by_seat, outsider = start_game(make_client, 3)
    page = outsider.get(f"/games/{game_id}").text
    playing = in_play(3)
    names = dict(re.findall(r'<text class="ac-name(?: out)?" data-area="(\w+)"[^>]*>([^<]+)</text>', page))
    assert {area.key for area in BOARD.areas if area.key in names} == set(names)
    assert names["pannonia"] == "Pannonia"
    faded = set(re.findall(r'<text class="ac-name out" data-area="(\w+)"', page))
    assert faded == {area.key for area in BOARD.areas if not playing[area.index] and area.key in names}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_unit_points_gained_read_as_a_gain(make_client: Any, db: Session, language: str) -> None:
    _ = translations(language).gettext
    game_id, by_seat, _outsider = start_game(make_client, 3)
    assert play_one(db, game_id, random.Random(1))
    tx = Tx(position())
    tx.emit(
        "calamity_resolved",
        card="civil_war",
        seat=0,
        traded_by=None,
        secondary=[1],
        points={"0": 12, "1": -7},
    )
    store_events(db, game_id, tx.events)
    assert by_seat[2].patch("/api/v1/me", json={"language": language}).status_code == 200
    log = html.unescape(re.sub(r"<a [^>]*>|</a>", "", by_seat[2].get(f"/games/{game_id}").text))
    assert re.search(rf"{re.escape(_('Unit points lost:'))} [^<]*\(\w+\) 12\.", log)
    assert re.search(rf"{re.escape(_('Unit points gained:'))} [^<]*\(\w+\) \+7\.", log)
    assert " -7" not in log and " −7" not in log
