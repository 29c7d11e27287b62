"""Advanced Civilization's phases 10 and 12 through the web: the trade market as each visitor may see it
(a lie on its author's page only, the said cards on its partner's, nothing of it on anyone else's, the
announcement of what was said for all), its forms posting the rules' orders, a refusal beside the form;
the civilization cards shop with its credits and what the treasury pays; the points table."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games.advciv.model import State
from app.games.kit.model import evolve
from app.models import Game
from tests.games.advciv.helpers import begin, blank, deal, units
from tests.test_advciv_web import RULES, form_basics, pages, put_state, start_game

OFFER = re.compile(r'data-order="offer"')


def market_position() -> State:
    """Phase 10 in a game of three: Africa (seat 0) and Crete (seat 1) hold 4 cards each, Thrace 3."""
    state = units(blank(), 0, {"numidia": 2}, cities=["carthago"])
    state = units(state, 1, {"thebes": 2}, cities=["knossos"])
    state = units(state, 2, {}, cities=["athens"])
    state = deal(state, 0, ["ochre", "ochre", "hides", "wine"])
    state = deal(state, 1, ["salt", "salt", "timber", "grain"])
    state = deal(state, 2, ["iron", "iron", "papyrus"])
    return begin(state, "trade")


def stored(db: Session, game_id: int) -> State:
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    state = RULES.load(game.state)
    db.rollback()
    return state


def game_name(db: Session, game_id: int) -> str:
    game = db.get(Game, game_id)
    assert game is not None
    name = game.name
    db.rollback()
    return name


def post(client: TestClient, game_id: int, page: str, fields: dict[str, str] | list[tuple[str, str]]) -> Any:
    basics = form_basics(page)
    items = list(basics.items()) + (list(fields.items()) if isinstance(fields, dict) else fields)
    headers = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
    return client.post(f"/games/{game_id}/orders", content=urlencode(items), headers=headers)


SELECTS = re.compile(r"<select.*?</select>", re.S)


def visible(text: str, name: str) -> str:
    """A page without its select lists (they name every card one may say) and the game's generated name."""
    return SELECTS.sub("", text).replace(name, "")


def give_rows(page: str, kind: str = "offer") -> dict[int, str]:
    """The rows of the first form of `kind`: index -> real card."""
    start = page.index(f'data-order="{kind}"')
    form = page[start : page.index("</form>", start)]
    return {int(i): card for i, card in re.findall(r'name="give\[(\d+)\]\.card" value="(\w+)"', form)}


def offer_fields(
    page: str, cards: list[tuple[str, str]], to: int, expects: list[str]
) -> list[tuple[str, str]]:
    """The offer form filled in: for each (real card, said card) a row ticked and, for a lie, its select."""
    rows = give_rows(page)
    used: set[int] = set()
    fields = [("type", "offer"), ("to", str(to))]
    for real, said in cards:
        index = next(i for i, card in sorted(rows.items()) if card == real and i not in used)
        used.add(index)
        fields.append((f"give[{index}].card", real))
        fields.append((f"give[{index}].said", "" if said == real else said))
    fields += [("expects[]", slot) for slot in expects]
    return fields


def test_a_lie_is_on_its_author_s_page_only_and_the_trade_is_announced_as_said(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    state = market_position()
    assert state.market is not None
    put_state(db, game_id, evolve(state, market=replace(state.market, embargo=False)))
    name = game_name(db, game_id)
    page = by_seat[0].get(f"/games/{game_id}").text
    assert 'id="ac-market"' in page and "Done trading" in page and "Don't say Done" in page
    # Africa offers Ochre, Ochre and Wine said to be Gold, for Salt, Salt and an unspecified card
    fields = offer_fields(
        page, [("ochre", "ochre"), ("ochre", "ochre"), ("wine", "gold")], 1, ["salt", "salt", "unspecified"]
    )
    assert post(by_seat[0], game_id, page, fields).status_code == 200
    seen = {seat: visible(text, name) for seat, text in pages(game_id, by_seat, outsider).items()}
    assert "Wine → <strong>said: Gold</strong>" in seen[0]  # the author: the real card and the lie
    incoming = seen[1][seen[1].index('class="ac-offer incoming"') :]
    assert "says they give:" in incoming and "Ochre, Ochre, Gold" in incoming
    assert "Wine" not in seen[1]  # the partner: only what was said
    for other in (2, None):
        assert "data-offer=" not in seen[other] and "Wine" not in seen[other] and "Gold" not in seen[other]
    for seat, client in ((1, by_seat[1]), (2, by_seat[2]), (None, outsider)):
        detail = json.dumps(client.get(f"/api/v1/games/{game_id}").json())
        log = json.dumps(client.get(f"/api/v1/games/{game_id}/log").json())
        assert "wine" not in detail and "wine" not in log, seat
    assert "gold" not in json.dumps(by_seat[2].get(f"/api/v1/games/{game_id}").json()["view"]["market"])

    # Crete accepts with Salt, Salt and Timber said "unspecified" (a lie, as the slot asks)
    page = by_seat[1].get(f"/games/{game_id}").text
    rows = give_rows(page, "accept")
    assert len(rows) == 0  # the accept form picks a card per slot (selects), pre-filled
    offer_id = re.search(r'data-order="accept">.*?name="offer" value="(\d+)"', page, re.S)
    assert offer_id is not None
    accept = [
        ("type", "accept"),
        ("offer", offer_id.group(1)),
        ("give[0].card", "salt"),
        ("give[1].card", "salt"),
        ("give[2].card", "timber"),
        ("give[2].said", "unspecified"),
    ]
    assert post(by_seat[1], game_id, page, accept).status_code == 200
    after = stored(db, game_id)
    db.rollback()
    assert sorted(after.hands[0]) == ["hides", "salt", "salt", "timber"]
    assert sorted(after.hands[1]) == ["grain", "ochre", "ochre", "wine"]
    seen = {seat: visible(text, name) for seat, text in pages(game_id, by_seat, outsider).items()}
    announced = "says they gave Gold, Ochre, Ochre to"
    for seat in (0, 1, 2, None):
        assert announced in seen[seat], seat
        assert "says they gave Salt, Salt, Unspecified in return." in seen[seat], seat
    assert "You received from" in seen[1] and "Wine" in seen[1]  # Crete now holds the real card
    for other in (2, None):
        assert "Wine" not in seen[other] and "Timber" not in seen[other] and "You received" not in seen[other]


def test_a_bad_offer_is_refused_beside_the_form_and_an_offer_declined_closes(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    put_state(db, game_id, market_position())
    page = by_seat[0].get(f"/games/{game_id}").text
    # two lies of three: refused, nothing changed
    lies = offer_fields(
        page, [("ochre", "gold"), ("ochre", "gold"), ("wine", "wine")], 1, ["salt", "salt", "unspecified"]
    )
    refused = post(by_seat[0], game_id, page, lies)
    assert refused.status_code == 422 and 'data-code="trade_too_many_lies"' in refused.text
    assert "must be what you say" in refused.text
    # a good one, during the embargo, then declined by its partner
    good = offer_fields(
        page,
        [("ochre", "ochre"), ("ochre", "ochre"), ("hides", "hides")],
        2,
        ["iron", "dont_care", "dont_care"],
    )
    assert post(by_seat[0], game_id, page, good).status_code == 200
    theirs = by_seat[2].get(f"/games/{game_id}").text
    assert 'class="ac-offer incoming"' in theirs and "Decline" in theirs
    offer_id = re.search(r'data-order="decline">.*?name="offer" value="(\d+)"', theirs, re.S)
    assert offer_id is not None
    assert (
        post(by_seat[2], game_id, theirs, {"type": "decline", "offer": offer_id.group(1)}).status_code == 200
    )
    assert "An offer was declined." in by_seat[0].get(f"/games/{game_id}").text
    assert "An offer was declined." not in outsider.get(f"/games/{game_id}").text
    assert (
        "data-offer="
        not in by_seat[0].get(f"/games/{game_id}").text.split('id="ac-market"')[1].split("</section>")[0]
    )


def test_an_accepted_trade_waits_for_the_embargo_and_a_seat_that_left_may_come_back(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    put_state(db, game_id, market_position())
    page = by_seat[0].get(f"/games/{game_id}").text
    fields = offer_fields(
        page, [("ochre", "ochre"), ("ochre", "ochre"), ("hides", "hides")], 1, ["salt", "salt", "dont_care"]
    )
    assert post(by_seat[0], game_id, page, fields).status_code == 200
    theirs = by_seat[1].get(f"/games/{game_id}").text
    # the answer is pre-filled: Salt for the named slots, the truth said
    assert re.search(r'name="give\[0\]\.card"[^>]*>.*?<option value="salt" selected>', theirs, re.S)
    offer_id = re.search(r'data-order="accept">.*?name="offer" value="(\d+)"', theirs, re.S)
    assert offer_id is not None
    accept = {
        "type": "accept",
        "offer": offer_id.group(1),
        "give[0].card": "salt",
        "give[1].card": "salt",
        "give[2].card": "grain",
    }
    assert post(by_seat[1], game_id, theirs, accept).status_code == 200
    mine = by_seat[0].get(f"/games/{game_id}").text
    assert (
        "Trades agreed, waiting for the embargo" in mine
        and "Binding: carried out when the embargo ends." in mine
    )
    assert "Trades agreed" not in by_seat[2].get(f"/games/{game_id}").text
    # Thrace says Done, then may still trade: its page says so, the Done button is gone
    thrace = by_seat[2].get(f"/games/{game_id}").text
    done = re.search(r'<form[^>]*data-order="done">.*?</form>', thrace.split('id="ac-market"')[1], re.S)
    assert done is not None
    assert post(by_seat[2], game_id, thrace, {"type": "done"}).status_code == 200
    left = by_seat[2].get(f"/games/{game_id}").text
    assert "You said Done: you have left the market. You can still come back" in left
    assert "You have left the market; you may still trade." in left
    assert "is done trading." in outsider.get(f"/games/{game_id}").text


def advances_position() -> State:
    """Phase 12: Africa holds Pottery and 10 trade cards (over the limit of 8), 30 in treasury."""
    state = units(blank(), 0, {"numidia": 2}, cities=["carthago"], cards=["pottery"], treasury=30)
    hand = ["ochre", "ochre", "ochre", "hides", "hides", "salt", "salt", "grain", "wine", "iron"]
    state = deal(state, 0, hand)
    return begin(state, "advances")


def test_the_shop_shows_credits_what_the_treasury_pays_and_everyone_s_cards(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    state = advances_position()
    put_state(db, game_id, state)
    legal = RULES.view(state, 0)["legal"]
    assert legal["prompt"] == "buy"
    page = by_seat[0].get(f"/games/{game_id}").text
    shop = {line["card"]: line for line in legal["context"]["shop"]}
    cloth = shop["cloth_making"]
    assert cloth["credit"] > 0  # Pottery gives a credit toward Cloth Making
    row = re.search(r'value="cloth_making" data-due="(\d+)".*?</tr>', page, re.S)
    assert row is not None and int(row.group(1)) == cloth["due"]
    assert f"−{cloth['credit']}" in row.group(0)
    assert "(yours)" in page  # Pottery is owned
    assert "(needs Engineering)" in page  # Mining, Roadbuilding
    assert 'data-bill="treasury"' in page and "You must give up 2 cards" in page
    # the default: what the clock buys, with the treasury paying what the cards leave owing
    default = legal["default"]
    due = sum(shop[card]["due"] for card in default["cart"])
    from app.games.advciv import trade_cards as tc

    value = tc.hand_value(default["spend"])
    paid = re.search(r'data-bill="treasury">(\d+)<', page)
    assert paid is not None and int(paid.group(1)) == max(0, due - value)
    # a bad cart: more than cards and treasury can pay
    fields = [("type", "buy"), ("cart[]", "philosophy"), ("cart[]", "law")]
    refused = post(by_seat[0], game_id, page, fields)
    assert refused.status_code == 422 and 'data-code="' in refused.text
    # everyone's cards, for everyone; the form for the buyer only
    for text in pages(game_id, by_seat, outsider).values():
        assert "Everyone's civilization cards" in text and "Pottery" in text
    assert 'data-order="buy"' not in outsider.get(f"/games/{game_id}").text
    # buying Cloth Making with the three Ochre (9) and the treasury
    fields = [("type", "buy"), ("cart[]", "cloth_making"), *[("spend[]", "ochre")] * 3, ("discard[]", "wine")]
    assert post(by_seat[0], game_id, page, fields).status_code == 200
    after = stored(db, game_id)
    db.rollback()
    assert "cloth_making" in after.players[0].cards
    log = by_seat[1].get(f"/games/{game_id}").text
    assert f"buys Cloth Making ({cloth['due'] - 9} from the treasury)." in log and "You paid with" not in log
    assert "You paid with: Ochre, Ochre, Ochre." in by_seat[0].get(f"/games/{game_id}").text


def test_the_points_table_is_sorted_as_the_rules_sort_it(make_client: Any, db: Session) -> None:
    game_id, _, outsider = start_game(make_client, 3)
    state = units(blank(), 0, {}, cities=["carthago"], treasury=5)
    state = units(state, 1, {}, cities=["knossos", "phaestos"], cards=["pottery"], treasury=2)
    state = units(state, 2, {}, cities=[], treasury=9)
    put_state(db, game_id, state)
    points = RULES.view(state, None)["points"]
    assert [row["seat"] for row in points] == [1, 0, 2]
    page = outsider.get(f"/games/{game_id}").text
    table = page[page.index('id="ac-points"') :]
    assert [int(seat) for seat in re.findall(r'data-seat="(\d)"', table)[:3]] == [1, 0, 2]
    assert "Total Public Points" in table
    assert str(points[0]["public_points"]) in table
