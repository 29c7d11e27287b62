"""The last sweep, and outage compensation.

Every sweeper records when it last ran (the "last_sweep" mark). When one starts, and before each of its
passes, it checks in: if the mark is older than the threshold, nothing swept for that long (the server was
down, or asleep), so every deadline that passed during the gap is extended by the gap's length, then
re-adjusted to the windows and pauses, with a public notice in each affected game's log. The mark's row is
locked while this happens, so with several processes the compensation is done once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import clock
from app.db import insert_ignoring_conflicts
from app.models import ClockMark, WaitRow
from app.services.deadlines import deadlines, markets, notices

LAST_SWEEP = "last_sweep"


@dataclass(frozen=True)
class Compensation:
    since: datetime
    gap: timedelta
    games: list[int]


def last_sweep(session: Session) -> datetime | None:
    return session.scalar(select(ClockMark.at).where(ClockMark.name == LAST_SWEEP))


def check_in(session: Session, now: datetime, threshold: timedelta) -> Compensation | None:
    """Record a sweep at `now`, compensating first for an outage longer than `threshold`."""
    insert_ignoring_conflicts(session, ClockMark, name=LAST_SWEEP, at=now)
    mark = session.scalar(select(ClockMark).where(ClockMark.name == LAST_SWEEP).with_for_update())
    assert mark is not None
    gap = clock.outage_gap(mark.at, now, threshold)
    result = None
    if gap is not None:
        result = Compensation(mark.at, gap, compensate(session, mark.at, now, gap))
    mark.at = max(mark.at, now)
    session.commit()
    return result


def compensate(session: Session, since: datetime, now: datetime, gap: timedelta) -> list[int]:
    """Extend by `gap` every deadline in (since, now]; returns the ids of the games touched."""
    in_gap = (WaitRow.deadline_at > since) & (WaitRow.deadline_at <= now)
    game_ids = set(session.scalars(select(WaitRow.game_id).where(in_gap)))
    for game in deadlines.locked_games(session, game_ids):
        rows = session.scalars(select(WaitRow).where(WaitRow.game_id == game.id, in_gap)).all()
        for row in rows:
            if not row.market:  # a market's waits follow its close, which slides as a whole
                row.extension_seconds += int(gap.total_seconds())
        if any(row.market for row in rows):
            markets.shift_market(session, game.id, gap)
        deadlines.recompute_game(session, game, now)
        data = {
            "since": since.isoformat(),
            "until": now.isoformat(),
            "minutes": int(gap.total_seconds() // 60),
        }
        notices.public_notice(session, game, "platform:clock_outage", data, now)
    return sorted(game_ids)


def touch(session: Session, now: datetime) -> None:
    """Move the mark to `now` (never back): a long pass keeps showing it is alive."""
    mark = session.scalar(select(ClockMark).where(ClockMark.name == LAST_SWEEP).with_for_update())
    if mark is None:
        insert_ignoring_conflicts(session, ClockMark, name=LAST_SWEEP, at=now)
    elif mark.at < now:
        mark.at = now
    session.commit()
