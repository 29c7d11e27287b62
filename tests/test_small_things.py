"""Small things a player meets: the message after saving times, coin plurals, htmx's settle step and CSP."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from app.main import make_templates
from app.web.i18n import Translator
from tests.conftest import sign_up


@pytest.mark.parametrize(
    ("language", "nothing", "two"),
    [
        ("en", "Saved. No deadline of your games moved.", "Saved: 2 deadlines of your games moved."),
        ("fr", "Aucune échéance de vos parties n’a bougé.", "2 échéances de vos parties ont été déplacées."),
    ],
)
def test_saving_times_says_nothing_moved_in_words(
    client: TestClient, language: str, nothing: str, two: str
) -> None:
    sign_up(client, "Alice", language=language)
    page = client.get("/time?moved=0").text
    assert nothing in page and re.search(r"\b0 (deadline|échéance)", page) is None
    assert two in client.get("/time?moved=2").text


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", "2 fairy gold, 2 cursed coins, 1 amulet"),
        ("fr", "2 or des fées, 2 pièces maudites, 1 amulette"),
    ],
)
def test_dragonstones_coins_take_their_plural(language: str, shown: str) -> None:
    tr = Translator(language)
    template = make_templates().env.from_string(
        '{% import "games/dragonstones/_names.html" as n with context %}{{ n.coins(counts) }}'
    )
    counts = {"fairy": 2, "cursed": 2, "amulet": 1}
    assert template.render(counts=counts, **tr.template_globals()) == shown


def test_htmx_does_not_settle_style_attributes_which_the_csp_forbids(client: TestClient) -> None:
    page = client.get("/")
    assert "style-src 'self'" in page.headers["content-security-policy"]
    found = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page.text)
    assert found is not None
    settled = json.loads(found.group(1))["attributesToSettle"]
    assert "style" not in settled and "class" in settled


DRAGONSTONES, AMUN_RE = "games/dragonstones/orders.html", "games/amunre/orders.html"
SEALED_FORMS = [
    (DRAGONSTONES, {"prompt": "bid", "orders": ["bid"], "limits": {"fairy": 3, "gold": 2}}),
    (DRAGONSTONES, {"prompt": "tiebreak", "orders": ["tiebreak"], "limits": {"silver": 4}}),
    (AMUN_RE, {"prompt": "offering", "orders": ["offer"], "limits": {"gold": {"3": 1}}}),
]


@pytest.mark.parametrize(("template", "legal"), SEALED_FORMS)
def test_an_emptied_count_in_a_sealed_bid_is_asked_for_not_taken_as_nothing(
    template: str, legal: dict[str, object]
) -> None:
    page = make_templates().env.get_template(template).render(
        legal=legal, board={"legal": legal}, game={"id": 1}, my_wait={"since_version": 1}, csrf_token="t",
        **Translator("en").template_globals(),
    )  # fmt: skip
    counts = re.findall(r'<input type="number"[^>]*>', page)
    assert counts and all(" required" in field for field in counts), counts
