"""Advanced Civilization through the web: random games played a few turns with every page rendered for each
seat and a spectator; the forms the page posts are the rules' orders; a refused order explains itself;
moves entered stay on their player's page only."""

from __future__ import annotations

import random
import re
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.datastructures import FormData
from starlette.testclient import TestClient

from app.games import registry
from app.games.advciv import flow
from app.games.advciv.board import BOARD
from app.games.advciv.model import State
from app.games.advciv.tables import INDEX
from app.games.advciv.tx import Tx
from app.games.contract import Event
from app.games.kit.model import evolve
from app.models import Game, GameEvent, GameOrder, User
from app.services.play import play
from app.web.forms import nested_fields
from tests.conftest import NOW
from tests.games.advciv.helpers import begin, blank, deal, units
from tests.web_views import responses, seated_game

RULES = registry.get("advciv")
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
VERSION = re.compile(r'name="expected_version" value="(\d+)"')


def start_game(make_client: Any, players: int) -> tuple[int, dict[int, TestClient], TestClient]:
    game_id, by_seat, spectator = seated_game(make_client, "advciv", players)
    draft = f"/api/v1/games/{game_id}/draft"
    for seat in range(players):
        free = by_seat[seat].get(draft).json()["free"]
        assert by_seat[seat].post(draft, json={"choice": free[0]}).status_code == 200
    return game_id, by_seat, spectator


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
    assert f"in {BOARD.area(origin).name} have not moved" in refused.text  # the reason, in the map's words


def test_hands_and_held_calamities_leak_through_no_page_api_or_log(make_client: Any, db: Session) -> None:
    """A game begun with cities and calamities in hand, played through phases 9 and 11: each seat's and a
    spectator's page, live fragment, API view and log are the same whatever the other seats hold; the
    cards drawn are in their own seat's log only."""
    from tests.games.advciv.test_properties import rich_start
    from tests.games.advciv.test_setup_hidden import _hands_blurred

    game_id, by_seat, spectator = start_game(make_client, 3)
    rng = random.Random(5)
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    rich = begin(rich_start(RULES.load(game.state), rng, calamities=4), "tax")
    game.state = RULES.dump(rich)
    play.sync_waits(db, game, RULES.waits(rich), acting_seat=None, now=NOW)
    db.commit()
    viewers: list[tuple[int | None, TestClient]] = [*by_seat.items(), (None, spectator)]
    phases: set[str] = set()
    for step in range(90):
        if not play_one(db, game_id, rng):
            break
        game = db.get(Game, game_id)
        assert game is not None and game.state is not None
        phases.add(game.state["phase"])
        if step % 15 and game.state["phase"] not in ("gold", "calamity"):
            continue
        seat, client = rng.choice(viewers)
        before = responses(client, game_id)
        assert "Traceback" not in before[0] and 'class="ac-map"' in before[0]
        for event in before[3]:
            if event["kind"] == "cards_drawn":
                assert event["data"]["seat"] == seat
        original = game.state
        game.state = RULES.dump(_hands_blurred(RULES.load(original), seat, rng))
        db.commit()
        after = responses(client, game_id)
        game.state = original
        db.commit()
        assert after == before, f"seat {seat} sees something of another seat's hand at step {step}"
    assert "calamity" in phases or "calamity_support" in phases


# --- trade cards and calamities --------------------------------------------------------------------------

FIVE = ["carthago", "cyrene", "athens", "corinth", "argos"]


def put_state(db: Session, game_id: int, state: State) -> None:
    """The game moved to `state` (a position built by the engine's test helpers), its waits with it."""
    game = db.get(Game, game_id)
    assert game is not None
    game.state = RULES.dump(state)
    play.sync_waits(db, game, RULES.waits(state), acting_seat=None, now=NOW)
    db.commit()


def revealed(state: State) -> State:
    """Phase 11 begun on this position, with whatever is automatic."""
    tx = Tx(state)
    flow.begin_calamities(tx)
    flow.advance(tx)
    return tx.state


def pages(game_id: int, by_seat: dict[int, TestClient], outsider: TestClient) -> dict[int | None, str]:
    """Each seat's page and the spectator's (key None), live fragment included."""
    found: dict[int | None, str] = {}
    for seat, client in [*by_seat.items(), (None, outsider)]:
        page = client.get(f"/games/{game_id}")
        fragment = client.get(f"/games/{game_id}/fragment")
        assert page.status_code == 200 and fragment.status_code == 200
        found[seat] = page.text + fragment.text
    return found


def test_a_hand_and_its_calamities_are_on_their_holder_s_page_only(make_client: Any, db: Session) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    state = units(blank(), 0, {"numidia": 2}, cities=["carthago"], treasury=40)
    state = deal(state, 0, ["ochre", "ochre", "ochre", "famine"])
    state = deal(state, 1, ["wine", "treachery"])
    put_state(db, game_id, begin(state, "gold"))
    game = db.get(Game, game_id)
    assert game is not None
    name = game.name
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    # the game's generated name may hold a commodity's word ("Ochre Zither 972"): left out of the search
    seen = {seat: text.replace(name, "") for seat, text in pages(game_id, by_seat, outsider).items()}
    secrets = {0: ["Ochre", "Famine"], 1: ["Wine", "Treachery"]}
    for viewer, text in seen.items():
        for holder, words in secrets.items():
            for word in words:
                assert (word in text) == (viewer == holder), (viewer, word)
    mine = seen[0]
    assert "set: 3² × 1 = 9" in mine and "non-tradable" in mine  # 3 Ochre; Famine cannot be traded
    assert ">tradable<" in seen[1]  # Treachery can
    assert "4 cards" in seen[1] and "2 cards" in seen[0] and "2 cards" in seen[None]  # the others' sizes
    # the stack-9 purchase, for the one seat that can pay: 18 each, none at the time limit
    assert 'data-order="gold"' in mine and "Buy 2 cards (36)" in mine and "no card is bought" in mine
    assert all('data-order="gold"' not in seen[seat] for seat in (1, 2, None))


def superstition(db: Session, game_id: int) -> State:
    """Africa (seat 0) drew Superstition with five cities: it reduces three, chosen on the page."""
    state = units(blank(), 0, {}, cities=FIVE)
    state = units(state, 1, {"thebes": 2}, cities=["knossos"])
    state = revealed(deal(state, 0, ["superstition"]))
    put_state(db, game_id, state)
    return state


def test_the_calamity_is_shown_to_all_and_asked_of_its_chooser_only(make_client: Any, db: Session) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    superstition(db, game_id)
    seen = pages(game_id, by_seat, outsider)
    for text in seen.values():
        assert 'id="ac-calamity"' in text and "Calamity: Superstition" in text
        assert "reduces 3 cities of its choice" in text  # the rule, in a few words
    assert seen[0].count('name="picks[]"') == 2 * 5  # in the page and in its live fragment
    assert "Confirm these choices" in seen[0]
    assert all('name="picks[]"' not in seen[seat] for seat in (1, 2, None))
    page = seen[0]
    fields = {**form_basics(page), "type": "pick"}
    posted = by_seat[0].post(
        f"/games/{game_id}/orders",
        content="&".join(f"{k}={v}" for k, v in fields.items())
        + "&picks[]=carthago&picks[]=cyrene&picks[]=athens",
        headers={"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"},
    )
    assert posted.status_code == 200, posted.text
    log = by_seat[1].get(f"/games/{game_id}").text
    assert "Superstition strikes" in log


def test_a_loss_is_pre_filled_with_the_default_and_a_wrong_one_explains_itself(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat, _ = start_game(make_client, 3)
    state = units(blank(), 0, {"numidia": 4, "tunisia": 3}, cities=["carthago", "cyrene"])
    state = units(state, 1, {}, cities=["knossos", "phaestos"])
    state = units(state, 2, {}, cities=["athens", "corinth"])
    state = revealed(deal(state, 0, ["famine"]))
    # 20 points to hand out, 8 at most to each: the hand-out is forced, Africa's loss of 10 comes first
    put_state(db, game_id, state)
    legal = RULES.view(state, 0)["legal"]
    assert legal["prompt"] == "calamity_lose"
    page = by_seat[0].get(f"/games/{game_id}").text
    assert 'class="ac-lose-total" data-due="10"' in page
    assert page.count("data-ac-loss=") == len(legal["context"]["units"])
    lost = [unit["area"] for unit in legal["default"]["units"]]
    for area in lost:
        assert f'<li class="lost" data-ac-loss="{area}">' in page
    assert "ac-lose-total" not in by_seat[1].get(f"/games/{game_id}").text
    # one token only: short of the 10 points due, refused with its reason beside the form
    fields = {
        **form_basics(page),
        "type": "lose",
        "units[0].area": "numidia",
        "units[0].tokens": "1",
    }
    refused = by_seat[0].post(f"/games/{game_id}/orders", data=fields, headers={"HX-Request": "true"})
    assert refused.status_code == 422 and 'data-code="' in refused.text


def test_barbarians_and_pirate_cities_are_drawn_on_the_map(make_client: Any, db: Session) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    state = RULES.load(game.state)
    sahara, cyrene = BOARD.by_key["sahara"], BOARD.by_key["cyrene"]
    put_state(db, game_id, evolve(state, barbarians=((sahara, 7),), pirates=(cyrene,)))
    for page in pages(game_id, by_seat, outsider).values():
        barbarians = r'data-area="sahara" data-kind="tokens" data-nation="barbarians" data-count="7"'
        assert re.search(barbarians, page)
        assert re.search(r'data-area="cyrene" data-kind="city" data-nation="pirates"', page)
        assert "7 tokens of the barbarians" in page and "A city of the pirates" in page


def test_the_draft_names_the_nations_never_their_keys(make_client: Any) -> None:
    game_id, by_seat, _ = seated_game(make_client, "advciv", 3)
    first = by_seat[0]
    free = first.get(f"/api/v1/games/{game_id}/draft").json()["free"]
    panel = first.get(f"/games/{game_id}/draft").text
    names = {
        **{key: key.title() for key in ("africa", "italy", "illyria", "thrace", "crete", "asia", "assyria")},
        **{key: key.title() for key in ("babylon", "egypt")},
    }
    for key in free:
        assert f"Choose {names[key]}" in panel and f"Choose {key}<" not in panel
    assert first.post(f"/api/v1/games/{game_id}/draft", json={"choice": free[0]}).status_code == 200
    log = first.get(f"/games/{game_id}/log").text
    assert f"Pick 1 takes {names[free[0]]}." in log and f"takes {free[0]}." not in log
    assert f"among {names[free[0]]}" in log or f", {names[free[0]]}" in log
    assert first.patch("/api/v1/me", json={"language": "fr"}).status_code == 200
    french = first.get(f"/games/{game_id}/log").text
    assert "Le numéro 1 choisit : " in french and f"choisit : {free[0]}." not in french


def test_the_draft_shows_each_nation_s_start_areas_and_who_took_it(make_client: Any) -> None:
    game_id, by_seat, outsider = seated_game(make_client, "advciv", 3)
    first = by_seat[0].get("/api/v1/me").json()["display_name"]
    draft = f"/api/v1/games/{game_id}/draft"
    assert by_seat[2].post(draft, json={"choice": "crete"}).status_code == 200  # a secret pre-selection
    assert by_seat[0].post(draft, json={"choice": "italy"}).status_code == 200
    drawn = re.compile(r'class="ac-start (\w+)[^"]*" data-nation="(\w+)"')
    for client in by_seat.values():
        panel = client.get(f"/games/{game_id}/draft", headers={"HX-Request": "true"}).text
        starts = {nation: state for state, nation in drawn.findall(panel)}
        assert starts == {
            "africa": "free",
            "italy": "taken",
            "illyria": "free",
            "thrace": "free",
            "crete": "free",
        }
        italy = panel.split('data-nation="italy"')[1].split("</g>")[0]
        assert italy.count("<path") == 3 and "Italy: Cisalpina, Etruria, Pannonia" in italy and first in italy
    assert 'class="ac-start taken mine" data-nation="italy"' in by_seat[0].get(f"/games/{game_id}/draft").text
    assert "ac-draft-map" not in outsider.get(f"/games/{game_id}/draft").text
    assert by_seat[1].patch("/api/v1/me", json={"language": "fr"}).status_code == 200
    french = by_seat[1].get(f"/games/{game_id}/draft").text
    assert "Où chaque nation commence" in french and "Italie" in french and "Cisalpina" in french


def test_an_earthquake_site_is_named_by_its_areas_in_the_default_and_the_log(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    state = units(blank(), 0, {}, cities=["athens", "sparta"])
    state = units(state, 1, {}, cities=["corinth", "phaestos"])
    state = revealed(deal(state, 0, ["volcano_earthquake"]))
    put_state(db, game_id, state)
    legal = RULES.view(state, 0)["legal"]
    assert legal["context"]["question"] == "site" and legal["default"]["picks"] == ("0",)  # an index
    page = by_seat[0].get(f"/games/{game_id}").text
    assert "At the time limit: chosen: Athens + Corinth" in page and "chosen: 0" not in page
    fields = {**form_basics(page), "type": "pick", "picks[]": "2"}
    posted = by_seat[0].post(f"/games/{game_id}/orders", data=fields, headers={"HX-Request": "true"})
    assert posted.status_code == 200, posted.text
    for viewer in (*by_seat.values(), outsider):
        log = viewer.get(f"/games/{game_id}/log").text
        assert "answers for Volcanic Eruption or Earthquake: chosen: Sparta + Phaestos." in log


def test_the_status_says_whose_pick_it_is_in_the_draft(make_client: Any) -> None:
    game_id, by_seat, outsider = seated_game(make_client, "advciv", 3)
    first = by_seat[0].get(f"/games/{game_id}").text
    assert "Your pick in the seat draft" in first and "Waiting for other players" not in first
    choosing = by_seat[0].get("/api/v1/me").json()["display_name"]
    second = by_seat[1].get(f"/games/{game_id}/fragment").text
    assert f"{choosing} chooses now." in second and "Your pick" not in second
    watching = outsider.get(f"/games/{game_id}").text
    assert "This game is being set up" in watching and "chooses now" not in watching


# --- the log lines of rare events ------------------------------------------------------------------------


def store_events(db: Session, game_id: int, events: list[Event]) -> None:
    """Events as the rules emitted them, logged under the game's last order (so that the replay of that
    step shows them too)."""
    last_order = db.scalar(select(func.max(GameOrder.seq)).where(GameOrder.game_id == game_id))
    seq = db.scalar(select(func.coalesce(func.max(GameEvent.seq), 0)).where(GameEvent.game_id == game_id))
    assert last_order is not None and seq is not None
    for offset, event in enumerate(events, start=1):
        visible = sorted(event.to) if event.to is not None else None
        db.add(
            GameEvent(
                game_id=game_id,
                seq=seq + offset,
                order_seq=last_order,
                kind=event.kind,
                data=play.as_json(event.data),
                visible_to=visible,
            )
        )
    db.commit()


def test_a_tax_revolt_is_told_on_every_page_that_shows_the_log(make_client: Any, db: Session) -> None:
    game_id, by_seat, outsider = start_game(make_client, 3)
    assert play_one(db, game_id, random.Random(1))
    state = units(blank(), 0, {}, cities=["carthago", "cyrene"], stock=0)
    tx = Tx(state)
    tx.set(revolts=((0, 2, (1,)), (0, 2, ())))  # Crete takes the first city, nobody the second
    flow.resolve_revolt(tx, [INDEX["carthago"]])
    flow.resolve_revolt(tx, [INDEX["cyrene"]])
    assert [event.kind for event in tx.events] == ["city_revolted", "city_revolted"]
    # a fight with the barbarians: their losses are keyed by their name, a seat's by its number
    tx.emit("conflict", area="cyrene", losses={"0": 1, "barbarians": 2}, city_destroyed=False, attacker=None)
    store_events(db, game_id, tx.events)
    steps = by_seat[0].get(f"/api/v1/games/{game_id}/replay").json()["orders"]
    for client in (*by_seat.values(), outsider):
        for path in ("", "/fragment", "/log", f"/replay?step={steps}"):
            page = client.get(f"/games/{game_id}{path}")
            assert page.status_code == 200, (path, page.text[-500:])
            assert "revolts and joins" in page.text and "revolts and is lost" in page.text, path
            assert "the barbarians 2" in page.text, path
