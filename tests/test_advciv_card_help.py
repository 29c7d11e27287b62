"""What a civilization card does, shown where it is bought and on the rules page: one line of effect
(the rules' data, translated), the credits it gives, its group(s) and price, in English and French."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.games.advciv import cards as civ
from app.web.i18n import translations
from tests.test_advciv_market_web import advances_position
from tests.test_advciv_web import RULES, put_state, start_game

GROUP_NAMES = {
    "crafts": "Crafts",
    "sciences": "Sciences",
    "arts": "Arts",
    "civics": "Civics",
    "religion": "Religion",
}


def words(language: str):  # type: ignore[no-untyped-def]
    return translations(language).gettext


def shop_rows(page: str) -> dict[str, str]:
    """The shop's rows by card, their HTML entities read."""
    shop = page[page.index('class="ac-table ac-shop"') :]
    shop = shop[: shop.index("</table>")]
    cards = re.findall(r'<tbody class="ac-shop-card">(.*?)</tbody>', shop, re.S)
    found = {}
    for card in cards:
        key = re.search(r'value="(\w+)"', card)
        if key:
            found[key.group(1)] = html.unescape(card)
    return found


def expected_credits(card: str, _: Any) -> list[str]:
    facts = [
        _("each %(group)s card −%(value)s") % {"group": _(GROUP_NAMES[group]), "value": value}
        for group, value in civ.GROUP_CREDITS.get(card, ())
    ]
    return facts + [
        f"{_(civ.CIV_CARDS[target].name)} −{value}" for target, value in civ.CARD_CREDITS.get(card, ())
    ]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_card_of_the_shop_shows_its_effect_credits_group_and_price(
    make_client: Any, db: Session, language: str
) -> None:
    game_id, by_seat, _outsider = start_game(make_client, 3)
    state = advances_position()
    put_state(db, game_id, state)
    assert by_seat[0].patch("/api/v1/me", json={"language": language}).status_code == 200
    _ = words(language)
    rows = shop_rows(by_seat[0].get(f"/games/{game_id}").text)
    buyable = {
        line["card"] for line in RULES.view(state, 0)["legal"]["context"]["shop"] if not line["refusal"]
    }
    assert buyable and set(rows) == buyable
    for card, row in rows.items():
        catalogue = civ.CIV_CARDS[card]
        assert _(civ.SUMMARIES[card]) in row, card
        assert _(civ.SUMMARIES[card]) != civ.SUMMARIES[card] or language == "en"
        for credit in expected_credits(card, _):
            assert credit in row, (card, credit)
        for group in catalogue.groups:
            assert f'<span class="ac-group g-{group}">{_(GROUP_NAMES[group])}</span>' in row
        assert f'<td class="num">{catalogue.cost}</td>' in row
    assert _("Credits:") + " " + _("none") in re.sub(r"<[^>]+>", "", rows["law"])  # Law gives no credit


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_rules_page_shows_the_same_line_for_each_card(client: Any, language: str) -> None:
    _ = words(language)
    text = html.unescape(client.get("/rules/advciv", headers={"Accept-Language": language}).text)
    for card in civ.CIV_CARDS:
        entry = text.split(f'id="{card}"')[1].split("</summary>")[0]
        assert f'<span class="ac-effect">{_(civ.SUMMARIES[card])}</span>' in entry, card


def test_every_card_has_one_line_of_effect() -> None:
    assert set(civ.SUMMARIES) == set(civ.CIV_CARDS)
    assert all("\n" not in line and len(line) <= 140 for line in civ.SUMMARIES.values())
