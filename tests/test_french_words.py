"""Advanced Civilization in French speaks the French rulebook's words, and French sentences elide "de" and
"que" before a name that starts with a vowel."""

from __future__ import annotations

import re

import pytest
from markupsafe import Markup

from app.games.advciv import cards
from app.web.emails import PlainTranslator
from app.web.i18n import Translator
from tests.test_i18n import CATALOG

# The names as the French rulebook prints them (the card list of §31–32, the calamities of §30).
RULEBOOK_CARDS = {
    "Pottery": "Poterie",
    "Cloth Making": "Tissage",
    "Metalworking": "Métallurgie",
    "Agriculture": "Agriculture",
    "Roadbuilding": "Construction de routes",
    "Mining": "Exploitation minière",
    "Engineering": "Génie Civil",
    "Astronomy": "Astronomie",
    "Coinage": "Monnaie",
    "Medicine": "Médecine",
    "Mathematics": "Mathématiques",
    "Drama and Poetry": "Théâtre et Poésie",
    "Music": "Musique",
    "Architecture": "Architecture",
    "Literacy": "Littérature",
    "Law": "Loi",
    "Democracy": "Démocratie",
    "Military": "Militarisme",
    "Philosophy": "Philosophie",
    "Mysticism": "Mysticisme",
    "Deism": "Déisme",
    "Enlightenment": "Illumination",
    "Monotheism": "Monothéisme",
    "Theology": "Théologie",
}
RULEBOOK_CALAMITIES = {
    "Volcanic Eruption or Earthquake": "Éruption volcanique ou Tremblement de terre",
    "Famine": "Famine",
    "Flood": "Inondation",
    "Civil War": "Guerre civile",
    "Treachery": "Traîtrise",
    "Slave Revolt": "Révolte d'esclaves",
    "Iconoclasm and Heresy": "Iconoclasme et Hérésie",
    "Superstition": "Superstition",
    "Barbarian Hordes": "Hordes barbares",
    "Epidemic": "Épidémie",
    "Civil Disorder": "Désordres civils",
    "Piracy": "Piraterie",
}
# Names a translation used before it followed the rulebook; none may come back, alone or in a sentence.
NOT_THE_RULEBOOK = (
    "Ingénierie",
    "Écriture",
    "Stratégie militaire",
    "Art militaire",
    "Lumières",
    "Mines",
    "Trahison",
    "Troubles civils",
    "A.S.T.",
)

french = Translator("fr")


def test_the_24_cards_have_their_rulebook_names() -> None:
    assert {card.name for card in cards.CIV_CARDS.values()} == set(RULEBOOK_CARDS)
    assert {english: french.plain(english) for english in RULEBOOK_CARDS} == RULEBOOK_CARDS


def test_the_12_calamities_have_their_rulebook_names() -> None:
    assert {english: french.plain(english) for english in RULEBOOK_CALAMITIES} == RULEBOOK_CALAMITIES


def test_no_french_text_uses_a_name_the_rulebook_does_not() -> None:
    translations = re.findall(r'^msgstr "(.*)"$', CATALOG.read_text(encoding="utf-8"), flags=re.MULTILINE)
    found = {
        word: [text for text in translations if re.search(rf"\b{re.escape(word)}(?!\w)", text)]
        for word in NOT_THE_RULEBOOK
    }
    assert {word: texts for word, texts in found.items() if texts} == {}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Anna", "En attente d'Anna."),
        ("Émile", "En attente d'Émile."),
        ("Bruno", "En attente de Bruno."),
        ("Hugo", "En attente de Hugo."),  # an h may be aspirated: left alone
        ("8", "En attente de 8."),
    ],
)
def test_french_elides_de_before_a_vowel(name: str, expected: str) -> None:
    assert french.gettext("Waiting for %(name)s.", name=name) == expected
    assert PlainTranslator("fr").gettext("Waiting for %(name)s.", name=name) == expected


def test_elision_looks_past_a_link_and_still_escapes_the_name() -> None:
    link = Markup('<a href="/users/1">Anna</a>')
    assert french.gettext("Waiting for %(name)s.", name=link) == 'En attente d\'<a href="/users/1">Anna</a>.'
    assert french.gettext("Waiting for %(name)s.", name="<b>Ann") == "En attente de &lt;b&gt;Ann."


def test_english_is_untouched() -> None:
    assert Translator("en").gettext("Waiting for %(name)s.", name="Anna") == "Waiting for Anna."


def test_a_trade_is_announced_as_what_each_side_said() -> None:
    from app.games.advciv.market import ANNOUNCEMENT

    params = {"first": "Anna", "first_cards": "Fer, Papyrus, Sel", "second": "Chloé", "second_cards": "Or"}
    assert french.gettext(ANNOUNCEMENT, **params) == (
        "Anna dit avoir donné Fer, Papyrus, Sel à Chloé, qui dit avoir donné Or en échange."
    )
    english = Translator("en").gettext(ANNOUNCEMENT, **params)
    assert english.startswith("Anna says they gave Fer, Papyrus, Sel")
