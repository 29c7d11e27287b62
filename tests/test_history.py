"""A game's history: the whole log a page at a time (not only the newest 50 entries), and a replay that
steps through the game's versions as the viewer may see them: a seat its own view, anyone else the
spectator's. A seat's secret is in none of the other seats' or the spectator's replay pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import GameEvent, GameOrder
from tests.conftest import sign_up
from tests.web_views import seated_game

SECRET = '"my_pick": 2'  # seat 0's pick, as its own view shows it
SECRET_ENTRY = 'my_pick</span> <code>{"value": 2}'  # and as its own log entry says it


def order(client: TestClient, game_id: int, body: dict[str, Any]) -> None:
    version = client.get(f"/api/v1/games/{game_id}").json()["game"]["version"]
    answer = client.post(f"/api/v1/games/{game_id}/orders", json={"order": body, "expected_version": version})
    assert answer.status_code == 200, answer.text


def play_round(clients: dict[int, TestClient], game_id: int, picks: tuple[int, ...]) -> None:
    for seat, value in enumerate(picks):
        order(clients[seat], game_id, {"type": "pick", "value": value})
    chooser = clients[0].get(f"/api/v1/games/{game_id}").json()["waits"][0]["seat"]
    order(clients[chooser], game_id, {"type": "choose", "take": False})


def test_a_seats_secret_stays_out_of_the_other_seats_and_the_spectators_replay(make_client: Any) -> None:
    game_id, clients, spectator = seated_game(make_client, "fake", 3)
    order(clients[0], game_id, {"type": "pick", "value": 2})  # step 1: only seat 0 knows
    order(clients[1], game_id, {"type": "pick", "value": 3})  # step 2
    mine = clients[0].get(f"/games/{game_id}/replay?step=1")
    assert mine.status_code == 200 and SECRET in mine.text and SECRET_ENTRY in mine.text
    assert "Step 1 of 2" in mine.text
    for step in (0, 1, 2):
        for reader in (clients[1], clients[2], spectator):
            page = reader.get(f"/games/{game_id}/replay?step={step}")
            assert page.status_code == 200
            assert SECRET not in page.text and SECRET_ENTRY not in page.text
    latest = spectator.get(f"/games/{game_id}/replay")  # no step: the latest
    assert "Step 2 of 2" in latest.text and '"my_pick": null' in latest.text
    assert SECRET in clients[0].get(f"/games/{game_id}/replay?step=2").text
    assert '"has_picked": [\n    false,\n    false' in clients[0].get(f"/games/{game_id}/replay?step=0").text


def test_a_step_out_of_the_game_is_refused(make_client: Any) -> None:
    game_id, _clients, spectator = seated_game(make_client, "fake", 2)
    for step in ("1", "-1", "x"):
        refused = spectator.get(f"/games/{game_id}/replay?step={step}")
        assert refused.status_code in (400, 422), (step, refused.status_code)
    assert spectator.get("/games/99999/replay").status_code == 404
    assert spectator.get("/games/99999/log").status_code == 404


def test_the_whole_log_reads_a_page_at_a_time(make_client: Any, db: Session) -> None:
    game_id, clients, spectator = seated_game(make_client, "fake", 2)
    for _ in range(13):
        play_round(clients, game_id, (1, 2))  # 4 public entries a round
    rows = db.scalars(select(GameEvent).where(GameEvent.game_id == game_id)).all()
    public = [row.seq for row in rows if row.visible_to is None]
    db.commit()
    assert len(public) > 50
    seen: list[str] = []
    path: str | None = f"/games/{game_id}/log"
    pages = 0
    while path is not None:
        page = spectator.get(path)
        assert page.status_code == 200
        listed = page.text.split('id="log-entries">', 1)[1].split("</ul>", 1)[0]
        entries = re.findall(r"<li[^>]*>(.*?)</li>", listed, re.S)
        assert len(entries) <= 50
        seen += entries
        pages += 1
        older = re.search(r'href="(/games/\d+/log\?before=\d+)" rel="next"', page.text)
        path = older.group(1) if older else None
    assert pages == 2 and len(seen) == len(public)
    assert not any("my_pick" in entry for entry in seen)
    whole = clients[0].get(f"/games/{game_id}/log")
    assert whole.text.count('<span class="event-kind">') == 50 and "my_pick" in whole.text


@pytest.mark.parametrize(("game_type", "players"), [("tigris", 2), ("dragonstones", 3), ("amunre", 3)])
def test_every_games_replay_draws_its_board_without_order_forms(
    make_client: Any, game_type: str, players: int
) -> None:
    game_id, clients, spectator = seated_game(make_client, game_type, players)
    for _ in range(3):  # the awaited seats' own defaults, as at a timeout
        detail = clients[0].get(f"/api/v1/games/{game_id}").json()
        for wait in detail["waits"]:
            mover = clients[wait["seat"]]
            own = mover.get(f"/api/v1/games/{game_id}").json()
            mine = next(w for w in own["waits"] if w["seat"] == wait["seat"])
            order(mover, game_id, mine["default_order"])
    for reader in (*clients.values(), spectator):
        for step in (0, 1, None):
            query = "" if step is None else f"?step={step}"
            page = reader.get(f"/games/{game_id}/replay{query}")
            assert page.status_code == 200, page.text
            board = page.text.split('id="game-board"', 1)[1]
            assert "<form" not in board and 'name="expected_version"' not in board


def test_a_log_that_no_longer_replays_shows_the_steps_that_do_and_says_why(
    make_client: Any, db: Session
) -> None:
    game_id, clients, spectator = seated_game(make_client, "fake", 3)
    play_round(clients, game_id, (1, 2, 3))  # steps 1 to 4
    orders = select(GameOrder).where(GameOrder.game_id == game_id).order_by(GameOrder.seq)
    second = db.scalars(orders).all()[1]
    second.payload = {"type": "pick", "value": "an order today's rules refuse"}  # as if stored long ago
    db.commit()
    for reader in (spectator, clients[0]):
        latest = reader.get(f"/games/{game_id}/replay")
        assert latest.status_code == 200, latest.text[-800:]
        assert "Step 1 of 4" in latest.text and 'id="replay-failed"' in latest.text
        assert "up to step 1 only: the order of step 2 no longer applies" in latest.text
        assert reader.get(f"/games/{game_id}/replay?step=3").text.count("Step 1 of 4") == 1
        assert "Step 1 of 4" in reader.get(f"/games/{game_id}/replay?step=1").text
        refused = reader.get(f"/api/v1/games/{game_id}/replay")
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "replay_failed"
        assert "step 2 cannot be rebuilt" in refused.json()["error"]["message"]
    french = make_client()
    sign_up(french, "Camille", language="fr")
    assert "ne se rejoue plus" in french.get(f"/api/v1/games/{game_id}/replay").json()["error"]["message"]
    assert "jusqu'à l'étape 1" in french.get(f"/games/{game_id}/replay").text
