"""Advanced Civilization's trade market through the platform: market waits share the clock's window, a
seat that left may still trade ("any time" orders) and comes back, the close times everyone out, and two
acceptances at the same moment never give one card twice."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.games import registry
from app.games.advciv.model import State, conserved
from app.models import Game, GameOrder, MarketWindow, WaitRow
from tests.clock_service.factory import sweep_at
from tests.conftest import NOW
from tests.games.advciv.helpers import begin, blank, deal
from tests.test_advciv_web import put_state, start_game
from tests.test_orders import order
from tests.web_views import stop_clock

RULES = registry.get("advciv")
HANDS = {
    0: ["ochre", "ochre", "ochre", "hides", "hides", "hides"],
    1: ["wine", "wine", "wine", "salt", "salt", "salt"],
    2: ["grain", "grain", "grain", "oil"],
}


def market_game(make_client: Any, db: Session) -> tuple[int, dict[int, TestClient]]:
    """A game put in the trade phase at NOW, the app's clock stopped at NOW too: the market's waits start
    at NOW (`put_state`), so the orders that shorten its close must be made at the same time, not at the
    real time of the run (which, days after NOW, would floor every new close at the first one)."""
    game_id, by_seat, _ = start_game(make_client, 3)
    stop_clock(by_seat[0], NOW)
    state = blank()
    for seat, cards in HANDS.items():
        state = deal(state, seat, cards)
    put_state(db, game_id, begin(state, "trade"))
    return game_id, by_seat


def stored(db: Session, game_id: int) -> State:
    db.expire_all()
    game = db.get(Game, game_id)
    assert game is not None and game.state is not None
    state: State = RULES.load(game.state)
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    return state


@dataclass(frozen=True)
class Row:
    seat: int
    phase: str
    market: bool
    deadline_at: datetime | None


def market_rows(db: Session, game_id: int) -> list[Row]:
    query = select(WaitRow).where(WaitRow.game_id == game_id).order_by(WaitRow.seat)
    rows = [Row(r.seat, r.phase, r.market, r.deadline_at) for r in db.scalars(query)]
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    return rows


def offer(client: TestClient, game_id: int, to: int, cards: list[str], **extra: Any) -> Any:
    body = {"type": "offer", "to": to, "cards": cards, "expects": ["dont_care"] * 3, **extra}
    return order(client, game_id, body)


def agree_wine_for_ochre(db: Session, game_id: int, by_seat: dict[int, TestClient]) -> None:
    """Crete (seat 1) offers three Wine to Africa (seat 0), which accepts with Ochre, Ochre, Hides."""
    assert offer(by_seat[1], game_id, 0, ["wine", "wine", "wine"]).status_code == 200
    offer_id = stored(db, game_id).market.offers[0].id  # type: ignore[union-attr]
    body = {"type": "accept", "offer": offer_id, "cards": ["ochre", "ochre", "hides"]}
    assert order(by_seat[0], game_id, body).status_code == 200


def test_every_seat_waits_on_the_market_s_one_close_which_shrinks_as_they_leave(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat = market_game(make_client, db)
    rows = market_rows(db, game_id)
    assert [row.seat for row in rows] == [0, 1, 2]
    assert all(row.market and row.phase == "trade" for row in rows)
    assert len({row.deadline_at for row in rows}) == 1 and rows[0].deadline_at is not None
    first_close = rows[0].deadline_at
    assert order(by_seat[0], game_id, {"type": "done"}).status_code == 200
    rows = market_rows(db, game_id)
    assert [row.seat for row in rows] == [1, 2]
    assert rows[0].deadline_at is not None and rows[0].deadline_at < first_close  # 2 × limit, not 3
    closes_at = db.scalar(select(MarketWindow.closes_at).where(MarketWindow.game_id == game_id))
    db.rollback()
    deadline = rows[0].deadline_at
    assert closes_at is not None and closes_at.replace(tzinfo=None) == deadline.replace(tzinfo=None)


def test_a_seat_that_left_trades_again_and_is_awaited_again(make_client: Any, db: Session) -> None:
    game_id, by_seat = market_game(make_client, db)
    assert order(by_seat[0], game_id, {"type": "done"}).status_code == 200
    close = market_rows(db, game_id)[0].deadline_at
    made = offer(by_seat[1], game_id, 0, ["wine", "wine", "wine"])
    assert made.status_code == 200, made.json()
    offer_id = stored(db, game_id).market.offers[0].id  # type: ignore[union-attr]
    body = {"type": "accept", "offer": offer_id, "cards": ["ochre", "ochre", "hides"]}
    accepted = order(by_seat[0], game_id, body)
    assert accepted.status_code == 200, accepted.json()
    state = stored(db, game_id)
    assert state.market is not None and len(state.market.agreed) == 1  # the embargo: it waits
    assert sorted(state.hands[0]) == sorted(HANDS[0])
    rows = market_rows(db, game_id)
    assert [row.seat for row in rows] == [0, 1, 2]  # back in the market
    assert {row.deadline_at for row in rows} == {close}  # coming back extends nothing


def test_the_close_times_everyone_out_and_the_agreed_trade_is_carried_out(
    make_client: Any, db: Session, sessions: sessionmaker[Session]
) -> None:
    game_id, by_seat = market_game(make_client, db)
    agree_wine_for_ochre(db, game_id, by_seat)
    close = market_rows(db, game_id)[0].deadline_at
    assert close is not None
    sweep_at(sessions, close + timedelta(seconds=1))
    state = stored(db, game_id)
    assert state.phase != "trade" and state.market is None
    assert Counter(state.hands[0]) == Counter(["ochre", "hides", "hides", "wine", "wine", "wine"])
    assert Counter(state.hands[1]) == Counter(["ochre", "ochre", "hides", "salt", "salt", "salt"])
    assert conserved(state)


def test_two_acceptances_of_two_offers_with_the_same_cards_at_once_give_them_once(
    make_client: Any, db: Session
) -> None:
    game_id, by_seat = market_game(make_client, db)
    assert offer(by_seat[1], game_id, 0, ["wine", "wine", "wine"]).status_code == 200
    assert offer(by_seat[2], game_id, 0, ["grain", "grain", "grain"]).status_code == 200
    offers = [found.id for found in stored(db, game_id).market.offers]  # type: ignore[union-attr]
    barrier = threading.Barrier(len(offers))
    statuses: list[int] = []

    def accept(offer_id: int) -> None:
        body = {"type": "accept", "offer": offer_id, "cards": ["ochre", "ochre", "ochre"]}
        barrier.wait()
        statuses.append(order(by_seat[0], game_id, body).status_code)

    threads = [threading.Thread(target=accept, args=(offer_id,)) for offer_id in offers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses)[0] == 200 and sorted(statuses)[1] >= 400
    state = stored(db, game_id)
    assert state.market is not None and len(state.market.agreed) == 1
    assert conserved(state)


def test_crossing_acceptances_at_once_each_trade_their_own_cards(make_client: Any, db: Session) -> None:
    game_id, by_seat = market_game(make_client, db)
    assert offer(by_seat[0], game_id, 1, ["ochre", "ochre", "ochre"]).status_code == 200
    assert offer(by_seat[1], game_id, 0, ["wine", "wine", "wine"]).status_code == 200
    from_zero, from_one = (found.id for found in stored(db, game_id).market.offers)  # type: ignore[union-attr]
    answers = {
        0: {"type": "accept", "offer": from_one, "cards": ["hides", "hides", "hides"]},
        1: {"type": "accept", "offer": from_zero, "cards": ["salt", "salt", "salt"]},
    }
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def accept(seat: int) -> None:
        barrier.wait()
        statuses.append(order(by_seat[seat], game_id, answers[seat]).status_code)

    threads = [threading.Thread(target=accept, args=(seat,)) for seat in answers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [200, 200]
    state = stored(db, game_id)
    assert state.market is not None and len(state.market.agreed) == 2 and conserved(state)
    assert order(by_seat[0], game_id, {"type": "embargo_over"}).status_code >= 400  # the clock's alone


def test_the_clock_ends_the_embargo_once_and_the_agreed_trade_happens(
    make_client: Any, db: Session, sessions: sessionmaker[Session]
) -> None:
    game_id, by_seat = market_game(make_client, db)
    agree_wine_for_ochre(db, game_id, by_seat)
    opened = db.scalar(select(MarketWindow.opened_at).where(MarketWindow.game_id == game_id))
    db.rollback()
    assert opened is not None
    sweep_at(sessions, opened + timedelta(hours=23))  # the embargo is half of the 48-hour limit
    assert stored(db, game_id).market.embargo  # type: ignore[union-attr]
    sweep_at(sessions, opened + timedelta(hours=24, seconds=1))
    sweep_at(sessions, opened + timedelta(hours=24, seconds=2))
    state = stored(db, game_id)
    assert state.phase == "trade" and state.market is not None and not state.market.embargo
    assert Counter(state.hands[0]) == Counter(["ochre", "hides", "hides", "wine", "wine", "wine"])
    clock = db.scalars(select(GameOrder).where(GameOrder.game_id == game_id, GameOrder.origin == "clock"))
    assert [row.payload for row in clock] == [{"type": "embargo_over"}]
    db.rollback()
    assert {row.seat for row in market_rows(db, game_id)} == {0, 1, 2}  # everyone still trading
