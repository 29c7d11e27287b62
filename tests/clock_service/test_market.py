"""A trade market's waits share its close: T0 + players x limit, shrinking as players leave."""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any, Literal

import pytest
from pydantic import BaseModel
from sqlalchemy.orm import Session, sessionmaker

from app.games import registry
from app.games.contract import Event, Outcome, RuleError, Standing, Wait
from app.models import MarketWindow, User
from app.services.deadlines import pauses
from app.services.play import play
from tests.clock_service.factory import HOUR, NOW, game, make_users, running_game, seat_of, sweep_at, waits


class Options(BaseModel):
    pass


class Trade(BaseModel):
    type: Literal["offer", "done"]


class MarketRules:
    """Every seat is in one market until it says "done"; "offer" keeps it in. Then the game is over."""

    id = "market"
    title = "Market"
    min_players = 2
    max_players = 6
    Options = Options
    Order = Trade

    def new_game(self, options: BaseModel, players: int, seed: int) -> dict[str, Any]:
        return {"done": [False] * players}

    def waits(self, state: dict[str, Any]) -> list[Wait]:
        return [
            Wait(s, "trade", simultaneous=True, market=True)
            for s, done in enumerate(state["done"])
            if not done
        ]

    def apply(self, state: dict[str, Any], seat: int, order: Mapping[str, Any]) -> Outcome[dict[str, Any]]:
        if order.get("type") not in ("offer", "done"):
            raise RuleError("invalid_order", "offer or done")
        done = list(state["done"])
        done[seat] = done[seat] or order["type"] == "done"
        return Outcome({"done": done}, [Event("traded", {"seat": seat, "type": order["type"]})])

    def default_order(self, state: dict[str, Any], seat: int) -> Mapping[str, Any]:
        return {"type": "done"}

    def sample_order(self, state: dict[str, Any], seat: int, rng: random.Random) -> Mapping[str, Any]:
        return {"type": rng.choice(["offer", "done"])}

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return dict(state)

    def standings(self, state: dict[str, Any]) -> list[Standing] | None:
        return [Standing(s, 1, 0) for s in range(len(state["done"]))] if all(state["done"]) else None

    def dump(self, state: dict[str, Any]) -> dict[str, Any]:
        return dict(state)

    def load(self, data: dict[str, Any]) -> dict[str, Any]:
        return dict(data)


@pytest.fixture(autouse=True)
def market_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Registered for these tests only, so the contract tests of the real games never see it."""
    registry.all_games()  # the built-in games first
    monkeypatch.setitem(registry._GAMES, "market", MarketRules())


def trade(db: Session, user: User, game_id: int, kind: str, now: datetime) -> None:
    play.submit(db, user, game_id, {"type": kind}, game(db, game_id).version, now)


def closes(db: Session, game_id: int) -> set[datetime | None]:
    return {row.deadline_at for row in waits(db, game_id).values()}


def test_the_market_closes_at_players_times_limit_and_earlier_as_players_leave(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben", "Cat", "Dan")
    game_id = running_game(db, users, game_type="market")
    assert closes(db, game_id) == {NOW + 96 * HOUR}  # 4 players x 24 h, from T0
    trade(db, users[0], game_id, "offer", NOW + 5 * HOUR)  # still in: nothing moves
    assert closes(db, game_id) == {NOW + 96 * HOUR}
    trade(db, users[0], game_id, "done", NOW + 10 * HOUR)  # 3 left: T0 + 72 h
    assert closes(db, game_id) == {NOW + 72 * HOUR}
    assert len(waits(db, game_id)) == 3
    stored = db.query(MarketWindow).one()
    assert (stored.counted, stored.opened_at) == (
        sorted(set(range(4)) - {seat_of(db, game_id, users[0])}),
        NOW,
    )
    db.commit()


def test_a_pause_moves_the_close_and_the_close_times_everyone_out(
    db: Session, sessions: sessionmaker[Session]
) -> None:
    users = make_users(db, "Ann", "Ben")
    game_id = running_game(db, users, game_type="market")
    assert closes(db, game_id) == {NOW + 48 * HOUR}
    pauses.request_pause(db, users[1], date(2026, 12, 2), date(2026, 12, 2), "", NOW + HOUR)
    assert closes(db, game_id) == {NOW + 60 * HOUR}  # the end of 2 December
    assert sweep_at(sessions, NOW + 60 * HOUR).timeouts == 2
    assert game(db, game_id).status == "finished"
    assert db.query(MarketWindow).count() == 0
    db.commit()
