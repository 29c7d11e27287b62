"""Dragonstones through the whole platform: random games played to the end, every page rendered for every
seat and for a spectator, and proof that no response to one seat depends on another seat's secrets."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games import registry
from app.models import Game
from app.services.play import play
from tests.conftest import NOW
from tests.web_views import responses, seated_game

RULES = registry.get("dragonstones")


def start_game(make_client: Any, players: int) -> tuple[int, dict[int, TestClient], TestClient]:
    return seated_game(make_client, "dragonstones", players)


def hide_differently(state: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any]:
    """The same game as far as `viewer` may know: others' coins and unrevealed bids, and every hidden order,
    changed."""
    other = copy.deepcopy(state)
    for seat, player in enumerate(other["players"]):
        if seat != viewer:
            player["screen"]["silver"] += 2
    auction = other["auction"]
    if not auction["revealed"]:
        for seat, bid in enumerate(auction["bids"]):
            if bid is not None and seat != viewer:
                bid["fairy"] += 1
    rng.shuffle(other["pile"])
    rng.shuffle(other["deck"])
    other["rng"] = rng.getrandbits(63)
    return other


def play_one(db: Session, game_id: int, rng: random.Random) -> bool:
    game = db.get(Game, game_id)
    assert game is not None
    db.refresh(game)
    if game.status != "active":
        db.rollback()  # end the read: on SQLite an open transaction holds the write lock
        return False
    assert game.state is not None
    state = RULES.load(game.state)
    seat = rng.choice([wait.seat for wait in RULES.waits(state)])
    holder = next(s for s in game.seats if s.number == seat)
    from app.models import User

    user = db.get(User, holder.user_id)
    assert user is not None
    order = RULES.sample_order(state, seat, rng)
    play.submit(db, user, game_id, order, game.version, NOW)
    return True


@pytest.mark.parametrize("players", [3, 5])
def test_random_games_render_for_everyone_and_leak_nothing(
    make_client: Any, db: Session, players: int
) -> None:
    rng = random.Random(players)
    game_id, by_seat, spectator = start_game(make_client, players)
    viewers: list[tuple[int | None, TestClient]] = [*by_seat.items(), (None, spectator)]
    steps = 0
    while play_one(db, game_id, rng):
        steps += 1
        if steps % 7:
            continue
        seat, client = rng.choice(viewers)
        before = responses(client, game_id)
        assert "Traceback" not in before[0]
        game = db.get(Game, game_id)
        assert game is not None
        original = game.state
        assert original is not None
        game.state = hide_differently(original, seat, rng)
        db.commit()
        after = responses(client, game_id)
        game.state = original
        db.commit()
        assert after == before, f"seat {seat} sees something of another seat's secrets at step {steps}"
        db.rollback()
    detail = by_seat[0].get(f"/api/v1/games/{game_id}").json()
    assert detail["game"]["status"] == "finished"
    assert detail["standings"][0]["place"] == 1
    assert by_seat[0].get(f"/api/v1/games/{game_id}/replay").json()["matches_stored_state"] is True
    for client in by_seat.values():
        page = client.get(f"/games/{game_id}").text
        assert "Game over" in page


def test_a_bid_through_the_html_form(make_client: Any) -> None:
    game_id, by_seat, spectator = start_game(make_client, 3)
    page = by_seat[0].get(f"/games/{game_id}").text
    assert 'id="bid-form"' in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token is not None
    form = {"csrf_token": token.group(1), "expected_version": "1", "type": "bid", "fairy": "2", "gold": ""}
    response = by_seat[0].post(f"/games/{game_id}/orders", data=form, follow_redirects=False)
    assert response.status_code == 303
    mine = by_seat[0].get(f"/api/v1/games/{game_id}").json()["view"]["me"]["bid"]
    assert mine == {"fairy": 2, "gold": 0, "cursed": False, "amulet": False}
    theirs = by_seat[1].get(f"/api/v1/games/{game_id}").json()
    assert theirs["view"]["players"][0]["has_bid"] is True
    assert "fairy" not in str(spectator.get(f"/api/v1/games/{game_id}").json()["view"]["me"])
    too_much = {**form, "expected_version": "1", "fairy": "99"}
    refused = by_seat[1].post(
        f"/games/{game_id}/orders", data={**too_much, "csrf_token": _token(by_seat[1], game_id)}
    )
    assert refused.status_code == 422
    assert "Traceback" not in refused.text


def _token(client: TestClient, game_id: int) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', client.get(f"/games/{game_id}").text)
    assert match is not None
    return match.group(1)


def test_a_bid_is_changed_through_the_page_before_the_last_bid(make_client: Any) -> None:
    game_id, by_seat, spectator = start_game(make_client, 3)
    token = _token(by_seat[0], game_id)
    first = {"csrf_token": token, "expected_version": "1", "type": "bid", "fairy": "2"}
    assert by_seat[0].post(f"/games/{game_id}/orders", data=first, follow_redirects=False).status_code == 303
    page = by_seat[0].get(f"/games/{game_id}").text
    assert 'name="type" value="rebid"' in page and "Change my bid" in page
    assert 'name="type" value="rebid"' not in by_seat[1].get(f"/games/{game_id}").text  # has not bid
    version = by_seat[0].get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    theirs = [responses(client, game_id)[2]["view"] for client in (by_seat[1], spectator)]
    second = {"csrf_token": token, "expected_version": str(version), "type": "rebid", "gold": "1"}
    assert by_seat[0].post(f"/games/{game_id}/orders", data=second, follow_redirects=False).status_code == 303
    mine = by_seat[0].get(f"/api/v1/games/{game_id}").json()["view"]["me"]["bid"]
    assert mine == {"fairy": 0, "gold": 1, "cursed": False, "amulet": False}
    assert [responses(client, game_id)[2]["view"] for client in (by_seat[1], spectator)] == theirs
    assert "Your bid, changed" in by_seat[0].get(f"/games/{game_id}").text
    late = {**second, "csrf_token": _token(by_seat[1], game_id)}
    assert by_seat[1].post(f"/games/{game_id}/orders", data=late).status_code == 422  # no bid to change


def test_the_card_on_auction_is_not_listed_as_already_auctioned(make_client: Any) -> None:
    game_id, by_seat, _ = start_game(make_client, 3)
    page = by_seat[0].get(f"/games/{game_id}").text
    cards = page[page.index("Characters this round") :]
    auctioned = cards[cards.index("Already auctioned:") : cards.index("Still to come")]
    assert "Witch" not in auctioned and "On auction:" in cards  # the round opens with the Witch on auction
    view = by_seat[0].get(f"/api/v1/games/{game_id}").json()["view"]
    specials = view["cards"]["specials"]
    for special in specials:
        name = view["characters"][special]["name"]
        chips = cards[: cards.index("Bank")]
        listed = re.findall(rf">{re.escape(name)}[^<]*<small>\(special\)</small>", chips)
        # listed once per copy, marked special: a kind may come twice in one round (25 cards of 19 kinds),
        # as the same card or as two cards of one name (Dwarf at 4 and at 5 silver)
        assert len(listed) == sum(view["characters"][other]["name"] == name for other in specials)
