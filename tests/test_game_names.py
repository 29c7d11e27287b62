"""Generated game names are said in the viewer's language; names people typed are shown as typed."""

from __future__ import annotations

from jinja2 import Environment
from starlette.testclient import TestClient

from app.services.social import names
from app.web.game_names import ADJECTIVE_PATTERNS, NOUNS, game_name, game_name_filter
from tests.conftest import sign_up


def test_every_generated_word_can_be_said_in_french() -> None:
    assert set(ADJECTIVE_PATTERNS) == set(names.ADJECTIVES)
    assert set(NOUNS) == set(names.NOUNS)
    for adjective in names.ADJECTIVES:
        assert game_name(f"{adjective} Galley 123", "fr").startswith("Galère ")


def test_a_generated_name_follows_the_language_and_a_typed_one_does_not() -> None:
    assert game_name("Amber Citadel 412", "en") == "Amber Citadel 412"
    assert game_name("Amber Citadel 412", "fr") == "Citadelle d'ambre 412"
    assert game_name("Alice's Amber Citadel", "fr") == "Alice's Amber Citadel"
    assert game_name("Amber Citadel 41", "fr") == "Amber Citadel 41"
    assert names.generated_parts(names.generate_game_name()) is not None


def test_the_game_page_says_a_generated_name_in_french(client: TestClient) -> None:
    sign_up(client, "Alice", language="fr")
    created = client.post("/api/v1/games", json={"game_type": "tigris", "players": 2, "time_limit_hours": 24})
    assert created.status_code == 201, created.text
    stored = created.json()["name"]
    page = client.get(f"/games/{created.json()['id']}").text
    said = game_name(stored, "fr")
    assert said != stored and f"<h1>{said}</h1>".replace("'", "&#39;") in page


def test_the_template_filter_reads_the_page_language_and_bears_a_missing_name() -> None:
    env = Environment(autoescape=True)
    env.filters["game_name"] = game_name_filter
    template = env.from_string("{{ name|game_name }}")
    assert template.render(name="Jade Wadi 101", lang="fr") == "Oued de jade 101"
    assert template.render(name=None, lang="fr") == ""
