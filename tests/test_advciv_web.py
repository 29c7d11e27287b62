"""Advanced Civilization through the web: random games played a few turns with every page rendered for each
seat and a spectator; the forms the page posts are the rules' orders; a refused order explains itself;
moves entered stay on their player's page only."""

from __future__ import annotations

import random
import re
from typing import Any

from sqlalchemy.orm import Session
from starlette.datastructures import FormData
from starlette.testclient import TestClient

from app.games import registry
from app.models import Game, User
from app.services.play import play
from app.web.forms import nested_fields
from tests.conftest import NOW, sign_up

RULES = registry.get("advciv")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'name="expected_version" value="(\d+)"')


def start_game(make_client: Any, players: int) -> tuple[int, dict[int, TestClient], TestClient]:
    clients = [make_client() for _ in range(players)]
    for index, client in enumerate(clients):
        sign_up(client, f"Player{index}")
    game = clients[0].post("/api/v1/games", json={"game_type": "advciv", "players": players}).json()
    for client in clients[1:]:
        assert client.post(f"/api/v1/games/{game['id']}/join").status_code == 200
    by_seat = {client.get(f"/api/v1/games/{game['id']}").json()["your_seat"]: client for client in clients}
    draft = f"/api/v1/games/{game['id']}/draft"
    for seat in range(players):
        free = by_seat[seat].get(draft).json()["free"]
        assert by_seat[seat].post(draft, json={"choice": free[0]}).status_code == 200
    return game["id"], by_seat, make_client()


def play_one(db: Session, game_id: int, rng: random.Random) -> bool:
    """One random legal order of an awaited seat, through the service (the HTTP rate limit aside)."""
    game = db.get(Game, game_id)
    assert game is not None
    db.refresh(game)
    if game.status != "active" or game.state is None:
        db.rollback()  # end the read: on SQLite an open transaction holds the write lock
        return False
    state = RULES.load(game.state)
    seat = rng.choice([wait.seat for wait in RULES.waits(state)])
    holder = next(s for s in game.seats if s.number == seat)
    user = db.get(User, holder.user_id)
    assert user is not None
    play.submit(db, user, game_id, RULES.sample_order(state, seat, rng), game.version, NOW)
    return True


def form_basics(page: str) -> dict[str, str]:
    """The hidden fields every order form of the page carries: the CSRF token and the version seen."""
    token, version = CSRF.search(page), VERSION.search(page)
    assert token is not None and version is not None
    return {"csrf_token": token.group(1), "expected_version": version.group(1)}


def test_form_fields_with_brackets_are_lists() -> None:
    form = FormData([("type", "build"), ("areas[]", "thebes"), ("areas[]", "memphis"), ("keep.crete", "1")])
    assert nested_fields(form) == {"type": "build", "areas": ["thebes", "memphis"], "keep": {"crete": "1"}}
    assert nested_fields(FormData([("type", "build")])) == {"type": "build"}
    voyage = FormData([("stops[0].area", "crete"), ("stops[0].board", "2"), ("stops[1].area", "rhodes")])
    assert nested_fields(voyage) == {"stops": [{"area": "crete", "board": "2"}, {"area": "rhodes"}]}


def test_every_page_renders_through_random_turns(make_client: Any, db: Session) -> None:
    """Each phase met is rendered for every seat and a spectator (page and live fragment)."""
    game_id, by_seat, outsider = start_game(make_client, 3)
    rng = random.Random(12)
    rendered: set[str] = set()
    built_by_form = False
    for _ in range(250):
        phase = by_seat[0].get(f"/api/v1/games/{game_id}").json()["view"]["phase"]
        if phase == "build" and not built_by_form:
            built_by_form = build_through_the_form(game_id, by_seat)
        if phase not in rendered:
            rendered.add(phase)
            for client in (*by_seat.values(), outsider):
                page = client.get(f"/games/{game_id}")
                assert page.status_code == 200
                assert 'class="ac-map"' in page.text and "ac-census" in page.text
                assert client.get(f"/games/{game_id}/fragment").status_code == 200
        if not play_one(db, game_id, rng):
            break
    assert {"start", "ships", "move", "build"} <= rendered
    assert built_by_form


def build_through_the_form(game_id: int, by_seat: dict[int, TestClient]) -> bool:
    """An awaited seat with a city to build sends the page's build form (areas[]); the city is built."""
    for client in by_seat.values():
        detail = client.get(f"/api/v1/games/{game_id}").json()
        legal = detail["view"]["legal"]
        if not legal or legal["phase"] != "build" or not legal["context"]["areas"]:
            continue
        area = legal["context"]["areas"][0]
        page = client.get(f"/games/{game_id}").text
        assert f'name="areas[]" value="{area}" data-ac-pick="{area}"' in page
        fields = {**form_basics(page), "type": "build", "areas[]": area}
        response = client.post(f"/games/{game_id}/orders", data=fields)
        assert response.status_code in (200, 303), response.text
        owner = client.get(f"/api/v1/games/{game_id}").json()["view"]["areas"][area]["units"]
        assert any(units["city"] for units in owner.values())
        return True
    return False


def test_the_page_posts_the_rules_orders_and_shows_why_one_is_refused(make_client: Any, db: Session) -> None:
    game_id, by_seat, _ = start_game(make_client, 2)
    rng = random.Random(3)
    for _ in range(40):
        if by_seat[0].get(f"/api/v1/games/{game_id}").json()["view"]["phase"] == "move":
            break
        play_one(db, game_id, rng)
    detail = by_seat[0].get(f"/api/v1/games/{game_id}").json()
    assert detail["view"]["phase"] == "move"
    legal = detail["view"]["legal"]["context"]
    origin, targets = next((key, to) for key, to in legal["land"].items() if to)
    page = by_seat[0].get(f"/games/{game_id}").text
    assert f'data-ac-sources=\'{{"{origin}"' in page or f'"{origin}": {{"max"' in page
    fields = {
        **form_basics(page),
        "type": "move",
        "origin": origin,
        "to": targets[0],
        "tokens": "1",
        "via": "",
    }
    posted = by_seat[0].post(f"/games/{game_id}/orders", data=fields, headers={"HX-Request": "true"})
    assert posted.status_code == 200
    mine = by_seat[0].get(f"/games/{game_id}").text
    assert 'class="ac-moves"' in mine and "ac-arrows" in mine
    theirs = by_seat[1].get(f"/games/{game_id}").text
    assert 'class="ac-moves"' not in theirs
    assert by_seat[1].get(f"/api/v1/games/{game_id}").json()["view"]["my_moves"] == []

    too_many = {**fields, "tokens": "50", "expected_version": str(detail["game"]["version"] + 1)}
    refused = by_seat[0].post(f"/games/{game_id}/orders", data=too_many, headers={"HX-Request": "true"})
    assert refused.status_code == 422
    assert 'data-code="not_enough_tokens"' in refused.text
    assert f"in {origin} have not moved" in refused.text  # the reason, in words
