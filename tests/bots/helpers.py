"""Games with bots at the table, played at an injected time: the bots job run by hand, a human's turn
played through the order path."""

from __future__ import annotations

import random
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.games import registry
from app.games.contract import bot_order_of
from app.models import Game, GameOrder, User, WaitRow
from app.services.jobs import bots
from app.services.play import play
from tests.clock_service.factory import NOW


def run_bots(sessions: sessionmaker[Session], now: datetime = NOW) -> bots.BotReport:
    return bots.play_bots(sessions, lambda: now)


def human_waits(session: Session, game_id: int) -> list[WaitRow]:
    query = select(WaitRow).where(WaitRow.game_id == game_id, WaitRow.bot.is_(False)).order_by(WaitRow.seat)
    found = list(session.scalars(query.execution_options(populate_existing=True)))
    session.commit()
    return found


def play_human(session: Session, user: User, game_id: int, now: datetime = NOW) -> None:
    """The user's awaited turn, as a player sends it: the game's bot order for the seat, by `submit`."""
    game = session.get(Game, game_id, populate_existing=True)
    assert game is not None and game.state is not None
    seat = next(s.number for s in game.seats if s.user_id == user.id and s.status == "playing")
    rules = registry.get(game.game_type)
    decide = bot_order_of(rules)
    assert decide is not None and seat is not None
    order = decide(rules.load(game.state), seat, random.Random(game.version))
    version = game.version
    session.commit()
    play.submit(session, user, game_id, order, version, now)


def orders_by_origin(session: Session, game_id: int) -> dict[str, int]:
    found: dict[str, int] = {}
    for origin in session.scalars(select(GameOrder.origin).where(GameOrder.game_id == game_id)):
        found[origin] = found.get(origin, 0) + 1
    session.commit()
    return found
