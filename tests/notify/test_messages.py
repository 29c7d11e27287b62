"""In-game messages: the public board, private threads between seats, safety, limits, live updates."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import Game, Seat, SeatTenure, User
from app.services.errors import ServiceError
from app.services.play import live
from app.services.social import messages
from tests.conftest import NOW
from tests.notify.conftest import log_in, make_user, seat_of, start_game

T = TypeVar("T")

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _three(db: Session) -> tuple[User, User, User, Game]:
    alice, bruno, chloe = make_user(db, "Alice"), make_user(db, "Bruno"), make_user(db, "Chloe")
    return alice, bruno, chloe, start_game(db, [alice, bruno, chloe])


def _post(client: TestClient, game_id: int, **fields: str) -> Any:
    data = {"csrf_token": str(client.headers["X-CSRF-Token"]), **fields}
    return client.post(f"/games/{game_id}/messages", data=data, follow_redirects=False)


def test_a_board_post_from_the_page_is_shown_escaped_with_safe_links(
    db: Session, mail_client: TestClient, mail_app: Any
) -> None:
    alice, _, _, game = _three(db)
    log_in(mail_client, alice)
    body = "<script>alert(1)</script> Rules: https://example.org/a?b=1&c=2. Not javascript:alert(2)"
    response = _post(mail_client, game.id, body=body, scope="board")
    assert response.status_code == 303 and response.headers["location"] == f"/games/{game.id}#game-messages"
    with TestClient(mail_app) as spectator:
        page = spectator.get(f"/games/{game.id}").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    link = '<a href="https://example.org/a?b=1&amp;c=2" rel="nofollow noopener noreferrer" target="_blank">'
    assert link in page and "c=2</a>." in page
    assert 'href="javascript' not in page


def test_private_messages_are_read_by_their_seats_only(db: Session, mail_app: Any) -> None:
    alice, bruno, chloe, game = _three(db)
    to = seat_of(game, bruno)
    clients = {}
    for user in (alice, bruno, chloe):
        clients[user.display_name] = client = TestClient(mail_app)
        client.__enter__()
        log_in(client, user)
    try:
        sent = _post(clients["Alice"], game.id, body="Secret pact?", scope="private", **{f"to.{to}": "on"})
        assert sent.status_code == 303
        assert "Secret pact?" in clients["Alice"].get(f"/games/{game.id}").text
        assert "Secret pact?" in clients["Bruno"].get(f"/games/{game.id}").text
        assert "Secret pact?" not in clients["Chloe"].get(f"/games/{game.id}").text
        with TestClient(mail_app) as spectator:
            assert "Secret pact?" not in spectator.get(f"/games/{game.id}").text
            assert spectator.get(f"/api/v1/games/{game.id}/messages").json() == []
        listed = clients["Bruno"].get(f"/api/v1/games/{game.id}/messages").json()
        assert [(m["body"], sorted(m["to"])) for m in listed] == [
            ("Secret pact?", sorted([to, seat_of(game, alice)]))
        ]
    finally:
        for client in clients.values():
            client.__exit__(None, None, None)


def test_a_replacement_reads_the_seats_private_history(db: Session) -> None:
    alice, bruno, _chloe, game = _three(db)
    david = make_user(db, "David")
    to = [seat_of(game, bruno)]
    messages.post(db, alice, game.id, "Only for seat of Bruno", to_seats=to, now=NOW, per_minute=9)
    seat = db.scalar(select(Seat).where(Seat.game_id == game.id, Seat.user_id == bruno.id))
    assert seat is not None
    seat.user_id = david.id  # what taking over an open seat does
    db.add(SeatTenure(seat_id=seat.id, user_id=david.id, started_at=NOW))
    db.commit()
    assert [m.body for m in messages.visible_messages(db, game, david)] == ["Only for seat of Bruno"]
    assert messages.visible_messages(db, game, bruno) == []
    assert messages.visible_messages(db, game, None) == []


def test_the_api_posts_and_lists(db: Session, mail_client: TestClient) -> None:
    alice, bruno, _, game = _three(db)
    log_in(mail_client, alice)
    answer = mail_client.post(f"/api/v1/games/{game.id}/messages", json={"body": "Hi", "to": []})
    assert answer.status_code == 201
    private = {"body": "Psst", "to": [seat_of(game, bruno)]}
    assert mail_client.post(f"/api/v1/games/{game.id}/messages", json=private).status_code == 201
    listed = mail_client.get(f"/api/v1/games/{game.id}/messages").json()
    assert [m["body"] for m in listed] == ["Psst", "Hi"]
    assert listed[1]["author"] == "Alice" and listed[1]["to"] == []


@pytest.mark.parametrize(
    ("body", "to", "code"),
    [
        ("", [], "invalid_input"),
        ("   \n ", [], "invalid_input"),
        ("x" * 2001, [], "invalid_input"),
        ("to myself", "own", "invalid_input"),
        ("to nobody", [7], "invalid_input"),
    ],
)
def test_bad_messages_are_refused(db: Session, body: str, to: Any, code: str) -> None:
    alice, _, _, game = _three(db)
    seats = [seat_of(game, alice)] if to == "own" else to
    with pytest.raises(ServiceError) as refused:
        messages.post(db, alice, game.id, body, to_seats=seats, now=NOW, per_minute=9)
    assert refused.value.code == code


def test_only_players_post_and_private_messages_need_a_running_game(db: Session) -> None:
    from app.services.social import lobby

    alice, _bruno, _chloe, game = _three(db)
    david = make_user(db, "David")
    with pytest.raises(ServiceError) as refused:
        messages.post(db, david, game.id, "let me in", now=NOW, per_minute=9)
    assert refused.value.code == "not_your_game"
    forming = lobby.create_game(db, alice, game_type="fake", players=3, time_limit_hours=24, now=NOW)
    messages.post(db, alice, forming.id, "Who else is coming?", now=NOW, per_minute=9)  # the board is open
    with pytest.raises(ServiceError) as refused:
        messages.post(db, alice, forming.id, "psst", to_seats=[1], now=NOW, per_minute=9)
    assert refused.value.code == "wrong_status"


def test_posting_is_rate_limited(db: Session) -> None:
    alice, _, _, game = _three(db)
    for number in range(3):
        messages.post(db, alice, game.id, f"message {number}", now=NOW, per_minute=3)
    with pytest.raises(ServiceError) as refused:
        messages.post(db, alice, game.id, "one too many", now=NOW + timedelta(seconds=30), per_minute=3)
    assert refused.value.code == "rate_limited" and refused.value.status == 429
    messages.post(db, alice, game.id, "a minute later", now=NOW + timedelta(seconds=61), per_minute=3)


def test_a_muted_user_cannot_post(db: Session) -> None:
    alice, _, _, game = _three(db)
    alice.muted_until = NOW + timedelta(hours=1)
    with pytest.raises(ServiceError) as refused:
        messages.post(db, alice, game.id, "hello", now=NOW, per_minute=9)
    assert refused.value.code == "muted" and refused.value.status == 403
    messages.post(db, alice, game.id, "hello again", now=NOW + timedelta(hours=2), per_minute=9)


def test_posting_tells_the_live_pages(
    db: Session, monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    alice, _, _, game = _three(db)
    if database_url.startswith("sqlite"):  # one process: the local bus, after the commit
        published: list[tuple[int, int]] = []
        monkeypatch.setattr(
            live.BUS,
            "publish",
            lambda game_id, version, audience=None: published.append((game_id, version)),
        )
        messages.post(db, alice, game.id, "news", now=NOW, per_minute=9)
        assert published == [(game.id, game.version)]
        return
    import psycopg

    dsn = database_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as listener:  # every process hears it through NOTIFY
        listener.execute(f"LISTEN {live.CHANNEL}")
        messages.post(db, alice, game.id, "news", now=NOW, per_minute=9)
        heard = [note.payload for note in listener.notifies(timeout=5, stop_after=1)]
    assert heard == [live.notify_payload(game.id, game.version)]


def test_a_private_message_reaches_only_its_readers_live_streams(
    db: Session, monkeypatch: pytest.MonkeyPatch, database_url: str
) -> None:
    """Spectators and the other seats never learn, from the live stream, that a private message was sent."""
    alice, bruno, chloe, game = _three(db)
    if database_url.startswith("sqlite"):
        heard = _run_apart(
            _heard_by(game.id, [alice.id, bruno.id, chloe.id, None], lambda: _private(db, alice, bruno, game))
        )
        assert heard == {alice.id: [game.version], bruno.id: [game.version], chloe.id: [], None: []}
        return
    import psycopg

    dsn = database_url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as listener:
        listener.execute(f"LISTEN {live.CHANNEL}")
        _private(db, alice, bruno, game)
        payloads = [note.payload for note in listener.notifies(timeout=5, stop_after=1)]
    assert payloads == [live.notify_payload(game.id, game.version, {alice.id, bruno.id})]
    bus = live.LiveBus()
    heard = _run_apart(
        _heard_by(game.id, [bruno.id, chloe.id, None], lambda: _replay_notes(bus, payloads), bus)
    )
    assert heard == {bruno.id: [game.version], chloe.id: [], None: []}


def _run_apart(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run on a thread of its own: a session-wide Playwright may keep an event loop running on this one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def _private(db: Session, author: User, reader: User, game: Game) -> None:
    messages.post(db, author, game.id, "psst", to_seats=[seat_of(game, reader)], now=NOW, per_minute=9)


def _replay_notes(bus: live.LiveBus, payloads: list[str]) -> None:
    """What the LISTEN loop does with each notification."""
    for payload in payloads:
        news = json.loads(payload)
        audience = news.get("to")
        bus.publish(news["game"], news["version"], None if audience is None else set(audience))


async def _heard_by(
    game_id: int, viewers: list[int | None], action: Any, bus: live.LiveBus = live.BUS
) -> dict[int | None, list[int]]:
    async with contextlib.AsyncExitStack() as stack:
        queues = {
            viewer: await stack.enter_async_context(bus.subscribe(game_id, viewer)) for viewer in viewers
        }
        await asyncio.to_thread(action)
        await asyncio.sleep(0.05)  # the bus hands news over through the loop
        return {
            viewer: [queue.get_nowait() for _ in range(queue.qsize())] for viewer, queue in queues.items()
        }


def test_an_htmx_post_returns_a_fresh_form_and_the_new_list(db: Session, mail_client: TestClient) -> None:
    alice, _, _, game = _three(db)
    log_in(mail_client, alice)
    data = {"csrf_token": str(mail_client.headers["X-CSRF-Token"]), "body": "quick", "scope": "board"}
    response = mail_client.post(f"/games/{game.id}/messages", data=data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'id="game-message-form"' in response.text and "</textarea>" in response.text
    assert 'id="game-messages" class="card messages" hx-swap-oob="true"' in response.text
    assert "quick" in response.text


def test_a_private_message_without_recipients_is_refused(db: Session, mail_client: TestClient) -> None:
    alice, _, _, game = _three(db)
    log_in(mail_client, alice)
    response = _post(mail_client, game.id, body="to whom?", scope="private")
    assert response.status_code == 422
