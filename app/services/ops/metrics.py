"""Prometheus figures: counters kept by this process, and gauges read from the database at scrape time.

Counters and histograms live in `PROCESS` (one per process; each replica is scraped on its own).
The database gauges are the same for every process, so any replica's scrape gives them; they are
computed by `DatabaseCollector` with a handful of indexed counts, only when scraped.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from app.models import Game, OutgoingMail, WaitRow

PROCESS = CollectorRegistry()
REQUEST_SECONDS = Histogram(
    "ostraca_http_request_duration_seconds",
    "Time to answer an HTTP request, by route template (not raw path).",
    ["method", "route"],
    registry=PROCESS,
)
ORDERS_APPLIED = Counter(
    "ostraca_orders_applied",
    "Orders applied and committed, by game type and origin (player, timeout, admin...).",
    ["game_type", "origin"],
    registry=PROCESS,
)
ORDERS_REFUSED = Counter(
    "ostraca_orders_refused",
    "Orders that reached the rules and were refused (illegal, or the game held), by game type.",
    ["game_type"],
    registry=PROCESS,
)
LIVE_CONNECTIONS = Gauge(
    "ostraca_live_connections", "Live-update (SSE) streams open in this process.", registry=PROCESS
)


def watch_order(session: Session, game_type: str, origin: str) -> None:
    """Count an order once its transaction ends: applied if it commits, refused if it ends otherwise."""
    counted = False

    def count(applied: bool) -> None:
        nonlocal counted
        if not counted:
            counted = True
            (ORDERS_APPLIED.labels(game_type, origin) if applied else ORDERS_REFUSED.labels(game_type)).inc()

    def ended(_session: Session, transaction: SessionTransaction) -> None:
        if transaction.parent is None:  # the outermost transaction, not a savepoint
            count(applied=False)

    event.listen(session, "after_commit", lambda _s: count(applied=True), once=True)
    event.listen(session, "after_transaction_end", ended)


@contextlib.asynccontextmanager
async def live_connection() -> AsyncIterator[None]:
    LIVE_CONNECTIONS.inc()
    try:
        yield
    finally:
        LIVE_CONNECTIONS.dec()


class DatabaseCollector(Collector):
    """The shared figures, read when scraped."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def collect(self) -> Iterator[Metric]:
        now = datetime.now(UTC)
        with self.sessions() as session:
            yield from _wait_figures(session, now)
            yield from _outbox_figures(session)
            yield _active_games(session)


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


def _wait_figures(session: Session, now: datetime) -> Iterator[Metric]:
    running = select(Game.id).where(Game.status == "active", Game.quarantined_at.is_(None))
    overdue = (WaitRow.deadline_at <= now, WaitRow.game_id.in_(running))
    due = session.scalar(select(func.count()).where(*overdue)) or 0
    oldest = session.scalar(select(func.min(WaitRow.deadline_at)).where(*overdue))
    quarantined_games = select(Game.id).where(Game.quarantined_at.is_not(None))
    quarantined = session.scalar(select(func.count()).where(WaitRow.game_id.in_(quarantined_games))) or 0
    lateness = (now - oldest).total_seconds() if oldest is not None else 0.0
    yield _gauge("ostraca_waits_due", "Waits of running games past their deadline, not yet acted on.", due)
    yield _gauge("ostraca_waits_quarantined", "Waits of games the sweeper has quarantined.", quarantined)
    yield _gauge(
        "ostraca_deadline_lateness_seconds",
        "How long ago the oldest passed, not yet acted on, deadline fell due (0 when none is due).",
        lateness,
    )


def _outbox_figures(session: Session) -> Iterator[Metric]:
    pending = OutgoingMail.sent_at.is_(None)
    backlog = session.scalar(select(func.count()).where(pending, OutgoingMail.dead_at.is_(None))) or 0
    dead = session.scalar(select(func.count()).where(pending, OutgoingMail.dead_at.is_not(None))) or 0
    yield _gauge("ostraca_outbox_backlog", "Mails waiting to be sent (including retries).", backlog)
    yield _gauge("ostraca_outbox_dead", "Mails given up after their last attempt (dead letters).", dead)


def _active_games(session: Session) -> Metric:
    family = GaugeMetricFamily("ostraca_games_active", "Running games, by game type.", labels=["game_type"])
    rows = session.execute(
        select(Game.game_type, func.count()).where(Game.status == "active").group_by(Game.game_type)
    )
    for game_type, count in rows:
        family.add_metric([game_type], count)
    return family


def exposition(sessions: sessionmaker[Session]) -> bytes:
    """The text a Prometheus server scrapes: this process's counters, then the database's gauges."""
    shared = CollectorRegistry(auto_describe=False)
    shared.register(DatabaseCollector(sessions))
    return generate_latest(PROCESS) + generate_latest(shared)
