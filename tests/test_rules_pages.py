"""The rules pages: one per game, in English and French, built from the games' own catalogues, and
reachable from the game page and the anonymous home page."""

from __future__ import annotations

import html
import re

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from app.games import registry
from app.games.advciv import cards as civ
from app.games.advciv import trade_cards
from app.games.amunre import cards as amunre_cards
from app.games.dragonstones import characters
from app.games.tigris import board as tigris
from app.web.i18n import translations
from app.web.pages.rules import REFERENCES
from tests.conftest import sign_up
from tests.test_i18n import CATALOG

FRENCH = {"Accept-Language": "fr"}
GAMES = ("dragonstones", "tigris", "amunre", "advciv")


def page_text(client: TestClient, path: str, french: bool = False) -> str:
    response = client.get(path, headers=FRENCH if french else {})
    assert response.status_code == 200
    assert response.headers["content-language"] == ("fr" if french else "en")
    return html.unescape(response.text)


def french(text: str) -> str:
    return translations("fr").gettext(text)


def entry_ids(text: str) -> list[str]:
    return re.findall(r'<details class="rules-entry" id="([^"]+)"', text)


def default_rows(text: str) -> int:
    return len(re.findall(r'<tr id="default-', text))


def test_every_game_has_a_rules_page() -> None:
    assert set(REFERENCES) == set(GAMES)


@pytest.mark.parametrize("in_french", [False, True])
def test_dragonstones_lists_every_character_with_its_power(client: TestClient, in_french: bool) -> None:
    text = page_text(client, "/rules/dragonstones", in_french)
    assert entry_ids(text) == list(characters.CHARACTERS)  # the Witch, the base pile, then the specials
    for character in characters.CHARACTERS.values():
        assert (character.french if in_french else character.name) in text
    assert french("Take a cursed coin.") in text if in_french else "Take a cursed coin." in text
    assert ("Sorcière" in text) is in_french and ("Witch" in text) is not in_french
    assert default_rows(text) == 2 + 15  # the bid, the tie-break and every power that asks
    assert "× 2" in text  # the specials with two cards say so


@pytest.mark.parametrize("in_french", [False, True])
def test_tigris_shows_tiles_leaders_conflicts_and_monuments(client: TestClient, in_french: bool) -> None:
    text = page_text(client, "/rules/tigris", in_french)
    ids = entry_ids(text)
    assert [i for i in ids if i.startswith("tile-")] == [f"tile-{c}" for c in tigris.COLOURS]
    assert [i for i in ids if i.startswith("leader-")] == [f"leader-{name}" for name in tigris.LEADERS]
    assert {"revolt", "war", "catastrophe", "treasure"} <= set(ids)
    assert len(re.findall(r'<li id="monument-', text)) == len(tigris.MONUMENT_IDS)
    for count in tigris.TILES_PER_COLOUR:
        assert f"× {count}" in text
    assert ("Révolte" in text) is in_french and ("Revolt" in text) is not in_french
    assert default_rows(text) == 5


@pytest.mark.parametrize("in_french", [False, True])
def test_amunre_lists_the_39_power_cards(client: TestClient, in_french: bool) -> None:
    text = page_text(client, "/rules/amunre", in_french)
    assert entry_ids(text) == list(amunre_cards.POWER_COUNTS)
    counts = [int(n) for n in re.findall(r'<span class="muted">× (\d+)</span>', text)]
    assert sum(counts) == 39 == sum(amunre_cards.POWER_COUNTS.values())
    for name in amunre_cards.CARD_NAMES.values():
        assert (french(name) if in_french else name) in text
    assert default_rows(text) == 8  # one per wait of the docs table


@pytest.mark.parametrize("in_french", [False, True])
def test_advciv_shows_the_13_phases_the_civ_cards_and_the_calamities(
    client: TestClient, in_french: bool
) -> None:
    text = page_text(client, "/rules/advciv", in_french)
    assert re.findall(r'<li id="phase-(\d+)"', text) == [str(n) for n in range(1, 14)]
    assert "not yet played on this site" not in text
    ids = entry_ids(text)
    assert ids == [*civ.CIV_CARDS, *(c.key for c in trade_cards.CALAMITY_LIST)]
    for card in civ.CIV_CARDS.values():
        name = french(card.name) if in_french else card.name
        assert re.search(rf"<strong>{re.escape(name)}</strong> <span class=\"muted\">{card.cost} ·", text)
    for calamity in trade_cards.CALAMITY_LIST:
        assert (french(calamity.name) if in_french else calamity.name) in text
    literacy = text.split('id="literacy"')[1].split("</details>")[0]
    assert f"−{civ.credit(civ.LITERACY, civ.LAW)}" in literacy  # the credits come from the matrix
    assert default_rows(text) == 9


def test_the_dynamic_names_of_advanced_civilization_are_translated() -> None:
    """Card and calamity names and effect lines live in the game's data, not in a template: the catalog
    must still have them."""
    with CATALOG.open("rb") as handle:
        catalog = {message.id: message.string for message in read_po(handle, locale="fr") if message.id}
    texts = [
        *(card.name for card in civ.CIV_CARDS.values()),
        *(effect.effect for effect in civ.EFFECTS),
        *(calamity.name for calamity in trade_cards.CALAMITY_LIST),
    ]
    assert [text for text in texts if not catalog.get(text)] == []


def test_the_index_lists_every_rules_page_and_an_unknown_game_has_none(client: TestClient) -> None:
    text = page_text(client, "/rules")
    assert re.findall(r'href="/rules/(\w+)"', text) == sorted(GAMES, key=_title_key(text))
    assert client.get("/rules/fake").status_code == 404
    assert client.get("/rules/chess").status_code == 404


def _title_key(text: str):  # type: ignore[no-untyped-def]
    return lambda game: text.index(f'href="/rules/{game}"')


@pytest.mark.parametrize("game_type", GAMES)
def test_the_game_page_links_to_its_rules(client: TestClient, game_type: str) -> None:
    sign_up(client, "Reader")
    players = registry.get(game_type).min_players
    game = client.post("/api/v1/games", json={"game_type": game_type, "players": players}).json()
    text = client.get(f"/games/{game['id']}").text
    assert f'href="/rules/{game_type}" id="rules-link"' in text


def test_a_game_without_a_rules_page_shows_no_link(client: TestClient) -> None:
    sign_up(client, "Reader")
    game = client.post("/api/v1/games", json={"game_type": "fake", "players": 2}).json()
    assert 'id="rules-link"' not in client.get(f"/games/{game['id']}").text


@pytest.mark.parametrize("in_french", [False, True])
def test_the_anonymous_home_page_says_what_the_site_is(client: TestClient, in_french: bool) -> None:
    text = page_text(client, "/", in_french)
    welcome = text.split('id="welcome"')[1].split("</section>")[0]
    assert set(re.findall(r'href="/rules/(\w+)"', welcome)) == set(GAMES)
    assert ("e-mail" in welcome) is not in_french and ("courriel" in welcome) is in_french
    sign_up(client, "Member")
    assert 'id="welcome"' not in client.get("/").text
