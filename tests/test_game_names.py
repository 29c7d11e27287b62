"""A game has one name: generated in its creator's language when the game is made, and the same for
everyone who reads it (pages, lobby, API), whatever their own language."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import escape
from starlette.testclient import TestClient

from app.services.social import names
from tests.conftest import sign_up

FRENCH_NAME = re.compile(r"(?P<noun>[^ ]+) (?P<adjective>.+) (?P<number>\d{3})")


def test_a_generated_name_is_in_the_language_asked_for() -> None:
    for language in ("en", "fr"):
        assert len(names.PATTERNS[language]) == len(set(names.PATTERNS[language])) == 20
        assert len(names.NOUNS[language]) == len(set(names.NOUNS[language])) == 20
    english = names.generate_game_name("en")
    adjective, noun, number = english.split(" ")
    assert f"{adjective} {{noun}}" in names.PATTERNS["en"] and noun in names.NOUNS["en"]
    assert number.isdigit() and len(number) == 3
    french = FRENCH_NAME.fullmatch(names.generate_game_name("fr"))
    assert french is not None and french["noun"] in names.NOUNS["fr"]
    assert f"{{noun}} {french['adjective']}" in names.PATTERNS["fr"]
    assert names.generate_game_name("xx").split(" ")[1] in names.NOUNS["en"]  # no words of its own


def _create(client: TestClient) -> dict[str, Any]:
    created = client.post("/api/v1/games", json={"game_type": "tigris", "players": 2, "time_limit_hours": 24})
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def test_a_french_creators_game_has_one_french_name_for_everyone(make_client: Any) -> None:
    alice, bruno = make_client(), make_client()
    sign_up(alice, "Alice", language="fr")
    sign_up(bruno, "Bruno", language="en")
    game = _create(alice)
    name = game["name"]
    found = FRENCH_NAME.fullmatch(name)
    assert found is not None and found["noun"] in names.NOUNS["fr"], name
    shown = escape(name)
    for viewer in (alice, bruno):
        assert f"<h1>{shown}</h1>" in viewer.get(f"/games/{game['id']}").text
        assert shown in viewer.get("/").text  # the home page's open games
        assert viewer.get(f"/api/v1/games/{game['id']}").json()["game"]["name"] == name


def test_an_english_creators_game_keeps_its_english_name_for_a_french_reader(make_client: Any) -> None:
    alice, bruno = make_client(), make_client()
    sign_up(alice, "Alice", language="en")
    sign_up(bruno, "Bruno", language="fr")
    game = _create(alice)
    assert game["name"].split(" ")[1] in names.NOUNS["en"]
    assert f"<h1>{escape(game['name'])}</h1>" in bruno.get(f"/games/{game['id']}").text
