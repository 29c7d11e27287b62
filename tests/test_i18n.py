"""Every English string shown to people has a French translation, and the pages switch language."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from tests.conftest import sign_up

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "app" / "web" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "ServiceError": (2,),
    "RuleError": (2,),
    "not_found": None,
    "N_": None,
}
METHODS = [("app/**.py", "python"), ("templates/**.html", "jinja2"), ("templates/**.txt", "jinja2")]


def source_messages() -> set[str]:
    found: set[str] = set()
    options = {
        pattern: {"extensions": "jinja2.ext.i18n"} for pattern, method in METHODS if method == "jinja2"
    }
    for _filename, _lineno, message, _comments, _context in extract_from_dir(
        ROOT, METHODS, options_map=options, keywords=KEYWORDS
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return {m for m in found if m and m.strip()}


def test_every_message_has_a_french_translation() -> None:
    with CATALOG.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    translated = {
        (message.id[0] if isinstance(message.id, tuple) else message.id)
        for message in catalog
        if message.id
        and message.string
        and not message.fuzzy
        and all(message.string if isinstance(message.string, tuple) else [message.string])
    }
    missing = sorted(source_messages() - translated)
    assert missing == [], f"{len(missing)} strings have no French translation, e.g. {missing[:10]}"


def test_pages_speak_the_visitors_language(client: TestClient) -> None:
    english = client.get("/signup", headers={"Accept-Language": "en-GB,en;q=0.8"})
    french = client.get("/signup", headers={"Accept-Language": "fr-FR,fr;q=0.9"})
    assert english.headers["content-language"] == "en" and "Create my account" in english.text
    assert french.headers["content-language"] == "fr" and "Create my account" not in french.text
    assert 'lang="fr"' in french.text


def test_errors_are_translated_in_json_and_html(client: TestClient) -> None:
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    body = {"email": "x@example.com", "password": "wrong password"}
    english = client.post("/api/v1/auth/login", json=body).json()["error"]["message"]
    client.cookies.set("lang", "fr")
    french = client.post("/api/v1/auth/login", json=body).json()["error"]["message"]
    assert english == "Wrong e-mail address or password."
    assert french != english and french


def test_translations_keep_every_placeholder() -> None:
    """A translation that drops or renames a `%(name)s` would fail when the message is filled in."""
    placeholder = re.compile(r"%\((\w+)\)[sd]")
    with CATALOG.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    wrong = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)
        wanted = set(placeholder.findall(ids[-1])) | set(placeholder.findall(ids[0]))
        for string in strings:
            found = set(placeholder.findall(string))
            if not found <= wanted or (len(ids) == 1 and found != wanted):
                wrong.append(ids[0])
    assert wrong == []


def test_an_error_with_values_is_translated_around_them(client: TestClient) -> None:
    sign_up(client, "Alice", language="fr")
    refused = client.post("/api/v1/games", json={"game_type": "fake", "players": 99}).json()["error"]
    assert refused["field"] == "players"
    assert "se joue de" in refused["message"] and "%(" not in refused["message"]


def test_french_says_manche_for_a_round_and_tour_for_a_turn() -> None:
    with CATALOG.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    round_word, turn_word = re.compile(r"\brounds?\b(?! up)", re.I), re.compile(r"\bturns?\b", re.I)
    wrong = []
    for message in catalog:
        english = str(" ".join(message.id) if isinstance(message.id, tuple) else message.id)
        french = str(" ".join(message.string) if isinstance(message.string, tuple) else message.string)
        if not english or not french:
            continue
        says_round, says_turn = bool(round_word.search(english)), bool(turn_word.search(english))
        if says_round and "manche" not in french.lower():
            wrong.append(english)
        if re.search(r"\btours?\b", french, re.I) and says_round and not says_turn:
            wrong.append(english)
        if "manche" in french.lower() and says_turn and not says_round:
            wrong.append(english)
    assert wrong == []
