"""Prometheus figures: counters kept by this process, and gauges read from the database at scrape time.

Counters and histograms live in `PROCESS` (one per process; each replica and each worker is scraped on
its own). The database gauges are the same for every process, so any scrape gives them; they are computed
by `DatabaseCollector` with a handful of indexed counts, only when scraped. The services call the hooks
below (`watch_order`, `timeout_played`, `live_connection`) and nothing else of this module.
"""

from __future__ import annotations

import collections
import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import event
from sqlalchemy.orm import Session, SessionTransaction, sessionmaker

from app.services.ops import figures

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
TIMEOUT_LATENESS = Histogram(
    "ostraca_timeout_lateness_seconds",
    "How long after its deadline each timeout was played, by game type.",
    ["game_type"],
    buckets=(1, 5, 10, 30, 60, 300, 900, 3600, float("inf")),
    registry=PROCESS,
)
RENDER_FAILURES = Counter(
    "ostraca_render_failures",
    "Parts of a page (a log entry, a board panel) shown as a neutral line because they failed to render, "
    "by part and event kind or panel (production only: elsewhere the page fails).",
    ["part", "kind"],
    registry=PROCESS,
)
LIVE_CONNECTIONS = Gauge(
    "ostraca_live_connections", "Live-update (SSE) streams open in this process.", registry=PROCESS
)


@dataclass
class _Pending:
    """What a session's transaction will count when it ends: one pair of listeners per session, however
    many orders a transaction holds (a sweeper's batch holds a hundred)."""

    on_commit: list[Callable[[], None]] = field(default_factory=list)
    orders: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)

    KEY = "ops.metrics.pending"

    @classmethod
    def of(cls, session: Session) -> _Pending:
        pending: _Pending | None = session.info.get(cls.KEY)
        if pending is None:
            pending = session.info[cls.KEY] = cls()
            event.listen(session, "after_commit", pending.committed)
            event.listen(session, "after_transaction_end", pending.ended)
        return pending

    def committed(self, _session: Session) -> None:
        for (game_type, origin), count in self.orders.items():
            ORDERS_APPLIED.labels(game_type, origin).inc(count)
        actions, self.on_commit, self.orders = self.on_commit, [], collections.Counter()
        for action in actions:
            action()

    def ended(self, _session: Session, transaction: SessionTransaction) -> None:
        if transaction.parent is not None:  # a savepoint: the outer transaction decides
            return
        for (game_type, _origin), count in self.orders.items():
            ORDERS_REFUSED.labels(game_type).inc(count)
        self.on_commit, self.orders = [], collections.Counter()


def timeout_played(
    session: Session, game_type: str, game_id: int, seat: int, deadline_at: datetime, now: datetime
) -> None:
    """A deadline acted on: recorded in the caller's transaction, and timed once that commits."""
    late = figures.record_timeout(session, game_id, seat, deadline_at, now)
    _Pending.of(session).on_commit.append(lambda: TIMEOUT_LATENESS.labels(game_type).observe(late))


def watch_order(session: Session, game_type: str, origin: str) -> None:
    """Count an order once its transaction ends: applied if it commits, refused if it ends otherwise."""
    _Pending.of(session).orders[(game_type, origin)] += 1


@contextlib.asynccontextmanager
async def live_connection() -> AsyncIterator[None]:
    LIVE_CONNECTIONS.inc()
    try:
        yield
    finally:
        LIVE_CONNECTIONS.dec()


class DatabaseCollector(Collector):
    """The shared figures (`figures.database_figures`), read when scraped."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.sessions = sessions

    def collect(self) -> Iterator[Metric]:
        with self.sessions() as session:
            shared = figures.database_figures(session, datetime.now(UTC))
        yield _gauge(
            "ostraca_waits_due",
            "Waits of running games past their deadline, not yet acted on.",
            shared.waits_due,
        )
        yield _gauge(
            "ostraca_waits_quarantined",
            "Waits of games the sweeper has quarantined.",
            shared.waits_quarantined,
        )
        yield _gauge(
            "ostraca_deadline_lateness_seconds",
            "How long ago the oldest passed, not yet acted on, deadline fell due (0 when none is due).",
            shared.oldest_due_seconds,
        )
        yield _gauge(
            "ostraca_outbox_backlog", "Mails waiting to be sent (including retries).", shared.outbox_backlog
        )
        yield _gauge(
            "ostraca_outbox_dead",
            "Mails given up after their last attempt (dead letters).",
            shared.outbox_dead,
        )
        active = GaugeMetricFamily(
            "ostraca_games_active", "Running games, by game type.", labels=["game_type"]
        )
        for game_type, count in sorted(shared.active_games.items()):
            active.add_metric([game_type], count)
        yield active


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)


class _Everything(Collector):
    """This process's counters, then the database's gauges: what one scrape of one process returns."""

    def __init__(self, sessions: sessionmaker[Session]) -> None:
        self.shared = DatabaseCollector(sessions)

    def collect(self) -> Iterator[Metric]:
        yield from PROCESS.collect()
        yield from self.shared.collect()


def scraped_registry(sessions: sessionmaker[Session]) -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_Everything(sessions))
    return registry


def exposition(sessions: sessionmaker[Session]) -> bytes:
    """The text a Prometheus server scrapes from a web process."""
    return generate_latest(scraped_registry(sessions))


def serve_for_worker(sessions: sessionmaker[Session], host: str, port: int) -> Callable[[], None]:
    """A worker's own /metrics on `host:port` (a thread of the worker); returns how to stop it."""
    server, thread = start_http_server(port, addr=host, registry=scraped_registry(sessions))

    def stop() -> None:
        server.shutdown()
        thread.join(timeout=5)

    return stop


def sample(name: str, labels: dict[str, str] | None = None) -> float:
    """One of this process's counters (0 when it has not moved yet), for the admins' page."""
    return PROCESS.get_sample_value(name, labels or {}) or 0.0
