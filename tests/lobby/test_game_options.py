"""Each game's options, from its rules' `Options` model: on the new-game form (the right input, the help, in
both languages, only the chosen game's shown and sent), refused when unknown or out of bounds, stored and
applied to the rules, and said in words on the game page and in the lobby."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlencode

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games import options as game_options
from app.games import registry
from app.models import Game
from tests.conftest import sign_up

ADVCIV = registry.get("advciv")


def form(client: TestClient, url: str, data: list[tuple[str, str]]) -> Any:
    token = client.headers["X-CSRF-Token"]
    headers = {
        "X-CSRF-Token": "",
        "Accept": "text/html",
        "Content-Type": "application/x-www-form-urlencoded",
        "Referer": "http://testserver/games/new?game_type=advciv",
    }
    body = urlencode([*data, ("csrf_token", token)])  # a list of pairs keeps repeated names
    return client.post(url, content=body, headers=headers, follow_redirects=False)


def create(client: TestClient, options: dict[str, Any], game_type: str = "advciv") -> Any:
    body = {"game_type": game_type, "players": 3, "time_limit_hours": 24, "options": options}
    return client.post("/api/v1/games", json=body)


def field_tag(page: str, name: str) -> str:
    found = re.search(rf'<(?:input|select)[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert found is not None, name
    return found.group(0)


@pytest.mark.parametrize("name", ["hand_limt", "draft", "rng_version"])
def test_an_unknown_option_is_refused_not_ignored(client: TestClient, name: str) -> None:
    sign_up(client, "Alice")
    refused = create(client, {"last_turn": 8, name: 6})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "unknown_option" and error["field"] == f"options.{name}"
    assert name in error["message"]
    assert client.get("/api/v1/games?status=open").json() == []


@pytest.mark.parametrize(
    ("options", "field", "english", "french"),
    [
        ({"last_turn": 0}, "last_turn", "from 1 to 99, or leave it empty", "de 1 à 99, ou laissez vide"),
        ({"hand_limit": "many"}, "hand_limit", "from 4 to 16.", "de 4 à 16."),
        ({"stoic": "perhaps"}, "stoic", "yes or no", "oui ou non"),
    ],
)
def test_a_bad_value_is_refused_with_a_sentence_for_its_field(
    make_client: Any, options: dict[str, Any], field: str, english: str, french: str
) -> None:
    for language, words in (("en", english), ("fr", french)):
        client = make_client()
        sign_up(client, f"Alice{language}", language=language)
        refused = create(client, {"hand_limit": 9, **options})
        assert refused.status_code == 422
        error = refused.json()["error"]
        assert error["code"] == "invalid_option" and error["field"] == f"options.{field}"
        assert words in error["message"] and "Input should" not in error["message"]


def test_good_options_are_stored_and_reach_the_rules(make_client: Any, db: Session) -> None:
    clients = [make_client() for _ in range(2)]
    for index, client in enumerate(clients):
        sign_up(client, f"Player{index}")
    chosen = {"last_turn": 8, "hand_limit": 10, "stoic": True, "announce_trades": False}
    made = clients[0].post("/api/v1/games", json={"game_type": "advciv", "players": 2, "options": chosen})
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    assert clients[1].post(f"/api/v1/games/{game_id}/join").status_code == 200
    draft = f"/api/v1/games/{game_id}/draft"
    for client in sorted(clients, key=lambda c: c.get(draft).json()["your_seat"]):
        assert client.post(draft, json={"choice": client.get(draft).json()["free"][0]}).status_code == 200
    detail = clients[0].get(f"/api/v1/games/{game_id}").json()
    assert detail["game"]["status"] == "active"
    assert {key: detail["options"][key] for key in chosen} == chosen
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    state = ADVCIV.load(game.state)
    assert (state.last_turn, state.hand_limit, state.trade_mail) == (8, 10, False)
    assert "stoic" in state.options


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_form_offers_each_games_options_with_their_help(make_client: Any, language: str) -> None:
    client = make_client()
    sign_up(client, "Alice", language=language)
    page = client.get("/games/new").text
    # A newcomer's game first, its own player count.
    assert re.search(r'<option value="dragonstones"[^>]*selected', page)
    assert 'min="3" max="6"' in field_tag(page, "players")
    for rules in registry.all_games():
        fieldset = re.search(rf'<fieldset[^>]*data-game="{rules.id}"[^>]*>', page)
        assert fieldset is not None
        assert ("disabled" in fieldset.group(0)) == (rules.id != "dragonstones")
        for field in game_options.option_fields(rules.Options):
            tag = field_tag(page, f"options.{rules.id}.{field.name}")
            wanted = {"bool": 'type="hidden"', "int": 'type="number"', "choice": "<select"}[field.kind]
            assert wanted in tag
    last_turn = field_tag(page, "options.advciv.last_turn")
    assert 'min="1"' in last_turn and 'max="99"' in last_turn and "value=" not in last_turn
    assert 'type="checkbox" name="options.advciv.stoic" value="true"' in page
    assert 'name="options.advciv.draft"' not in page  # the platform's, never chosen
    if language == "en":
        assert "Last turn" in page and "Trade cards a player may keep after buying advances" in page
    else:
        assert "Dernier tour" in page and "Cartes de commerce qu’un joueur peut garder" in page
        assert "Last turn" not in page and "Stoic option" not in page


def test_the_form_for_another_game_has_its_player_count(client: TestClient) -> None:
    sign_up(client, "Alice")
    page = client.get("/games/new?game_type=tigris").text
    assert 'min="2" max="4"' in field_tag(page, "players")
    assert 'name="game_type" value="tigris"' in page
    tigris = re.search(r'<fieldset[^>]*data-game="tigris"[^>]*>', page)
    assert tigris is not None and "disabled" not in tigris.group(0)
    unknown = client.get("/games/new?game_type=chess").text  # an unknown game: the newcomer's
    assert 'name="game_type" value="dragonstones"' in unknown


@pytest.mark.parametrize(
    ("language", "words"), [("en", "ends after turn 3"), ("fr", "se termine après le tour 3")]
)
def test_a_game_made_by_the_form_shows_its_options_on_its_page_and_in_the_lobby(
    make_client: Any, db: Session, language: str, words: str
) -> None:
    client = make_client()
    sign_up(client, "Alice", language=language)
    made = form(
        client,
        "/games",
        [
            ("game_type", "advciv"),
            ("players", "3"),
            ("time_limit_hours", "24"),
            ("options.advciv.last_turn", "3"),
            ("options.advciv.hand_limit", "8"),
            ("options.advciv.stack_counts_visible", "false"),
            ("options.advciv.stack_counts_visible", "true"),
            ("options.advciv.stoic", "false"),
            ("options.tigris.open_scoring", "true"),  # another game's fieldset: not this game's
        ],
    )
    assert made.status_code == 303, made.text
    game_id = int(made.headers["location"].rsplit("/", 1)[1])
    game = db.get(Game, game_id)
    assert game is not None
    assert game.options["last_turn"] == 3 and game.options["stack_counts_visible"] is True
    assert game.options["stoic"] is False
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    page = client.get(f"/games/{game_id}").text
    options_line = re.search(r'<p[^>]*id="game-options"[^>]*>.*?</p>', page, re.S)
    assert options_line is not None and words in options_line.group(0)
    hand = "hand limit 8" if language == "en" else "limite de main : 8"
    assert hand in options_line.group(0)  # players need it at any value
    other = make_client()
    sign_up(other, "Bruno", language=language)
    lobby = other.get("/").text
    assert words in lobby and hand not in lobby  # the lists: only what differs from the rules


def test_a_refused_option_comes_back_to_the_form_beside_its_field(client: TestClient) -> None:
    sign_up(client, "Alice")
    refused = form(
        client,
        "/games",
        [("game_type", "advciv"), ("players", "3"), ("options.advciv.last_turn", "0")],
    )
    assert refused.status_code == 303 and refused.headers["location"] == "/games/new?game_type=advciv"
    page = client.get(refused.headers["location"]).text
    assert "Give a whole number from 1 to 99, or leave it empty." in page
    assert 'data-field="options.last_turn"' in page
