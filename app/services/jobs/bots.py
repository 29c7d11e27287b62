"""The `bots` job: it plays the waits of the seats a bot plays, exactly once, within seconds.

A bot's wait is due at once (`deadlines.set_timers` marks it `bot` and sets its check to when it began).
Like the sweeper, the job claims due rows with `SELECT ... FOR UPDATE SKIP LOCKED`, each claim counting an
attempt and putting the row's next check a lease ahead; the claim remembers the wait's `since_version`.
Then, under the game's lock, the wait is played only if it is still the same question (the same row, the
same `since_version`, still a bot's, the game running and not held): any number of processes may run the
job at once, and a wait is answered once. The bot's order goes through `play.apply_order` with origin
"bot", so the log and the replay have it. A wait that keeps failing quarantines its game, as the
sweeper's do (`sweeper.record_failure`).

The bot decides from its seat's view (the rules' `bot_order`, see `app.games.contract`), seeded by the
game's seed, its version and the seat: a replay of the log needs no seed of its own.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from app.games import registry
from app.games.contract import bot_order_of
from app.models import WaitRow
from app.services.jobs import sweeper
from app.services.play import draft, play

log = logging.getLogger(__name__)


@dataclass
class BotReport:
    claimed: int = 0
    played: int = 0
    gone: int = 0
    failed: int = 0
    answered: list[tuple[int, int, int]] = field(default_factory=list)  # (game, seat, since_version)


def claim_bot_waits(session: Session, now: datetime, config: sweeper.SweepSettings) -> list[tuple[int, int]]:
    """Claim up to a batch of due bot waits: (row id, the version its question began at)."""
    query = (
        select(WaitRow.id, WaitRow.since_version)
        .where(WaitRow.bot.is_(True), WaitRow.check_at <= now)
        .order_by(WaitRow.check_at, WaitRow.id)
        .limit(config.batch)
        .with_for_update(skip_locked=True)
    )
    claimed = [(wait_id, since) for wait_id, since in session.execute(query)]
    if claimed:
        session.execute(
            update(WaitRow)
            .where(WaitRow.id.in_([wait_id for wait_id, _ in claimed]))
            .values(attempts=WaitRow.attempts + 1, check_at=now + config.lease)
        )
    session.commit()
    return claimed


def play_bot_wait(
    session: Session, wait_id: int, since_version: int, now: datetime
) -> tuple[int, int, int] | None:
    """Play one claimed bot wait if it still asks the same question; returns what it answered (the game,
    the seat, the version the question began at), None when it was answered already or is gone."""
    game = sweeper.locked_game_of(session, wait_id)
    row = session.get(WaitRow, wait_id) if game is not None else None  # read after the game's lock
    if game is None or row is None or not row.bot or row.since_version != since_version:
        session.rollback()
        return None
    if game.status != "active" or game.clock_stopped:
        session.rollback()
        return None
    seat = row.seat
    if game.state is None:  # the seat draft: a bot has no preference among the choices
        draft.draw_for(session, game, seat, now)
        play.announce(session, game)
    else:
        rules = registry.get(game.game_type)
        bot_order = bot_order_of(rules)
        state = rules.load(game.state)
        rng = random.Random(f"{game.seed}:{game.version}:{seat}")
        order = bot_order(state, seat, rng) if bot_order is not None else rules.default_order(state, seat)
        play.apply_order(session, game, seat, order, origin="bot", user_id=None, now=now)
    answered = (game.id, seat, since_version)
    session.commit()
    return answered


def play_bots(
    sessions: sessionmaker[Session],
    clock: Callable[[], datetime],
    config: sweeper.SweepSettings | None = None,
    *,
    stop: Callable[[], bool] = lambda: False,
) -> BotReport:
    """Play every due bot wait, batch after batch, until none is due (or `stop()` says so)."""
    config = config or sweeper.SweepSettings()
    report = BotReport()
    while not stop():
        with sessions() as session:
            claimed = claim_bot_waits(session, clock(), config)
        if not claimed:
            break
        report.claimed += len(claimed)
        for wait_id, since in claimed:
            _play_one(sessions, wait_id, since, clock(), config, report)
    return report


def _play_one(
    sessions: sessionmaker[Session],
    wait_id: int,
    since: int,
    now: datetime,
    config: sweeper.SweepSettings,
    report: BotReport,
) -> None:
    try:
        with sessions() as session:
            answered = play_bot_wait(session, wait_id, since, now)
        if answered is None:
            report.gone += 1
        else:
            report.played += 1
            report.answered.append(answered)
    except Exception as error:  # one bad game must never stop the bots of the others
        log.exception("the bots job failed on wait %s", wait_id)
        report.failed += 1
        with sessions() as session:
            sweeper.record_failure(session, wait_id, f"{type(error).__name__}: {error}", now, config)
