"""The status pages: the admins' (every figure of /metrics) and the public one (phases resolved on time).

The shared figures come from the database, as `/metrics` reads them; the orders applied are counted from
the order log, so every process shows the same numbers. Refusals, request times and live streams are not
stored: those are this process's own counters, and the page says so."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Game, GameOrder
from app.models.records import UserFacts
from app.services.errors import ServiceError
from app.services.ops import figures, metrics

RECENT = timedelta(hours=24)
SLOWEST_ROUTES = 12


@dataclass(frozen=True)
class RouteTime:
    method: str
    route: str
    requests: int
    mean_seconds: float


@dataclass(frozen=True)
class AdminStatus:
    shared: figures.DatabaseFigures
    on_time: figures.OnTime
    on_time_recent: figures.OnTime
    orders_applied: list[tuple[str, str, int]]  # game type, origin, orders in the last 24 hours
    orders_refused: list[tuple[str, int]]  # game type, refusals (this process, since it started)
    live_connections: int
    routes: list[RouteTime]  # the slowest on average (this process)


def public_status(session: Session, now: datetime) -> figures.OnTime:
    return figures.on_time(session, now)


def admin_status(session: Session, user: UserFacts, now: datetime) -> AdminStatus:
    if not user.is_admin:
        raise ServiceError("forbidden", "Only administrators may see this.")
    applied = session.execute(
        select(Game.game_type, GameOrder.origin, func.count())
        .join(Game, Game.id == GameOrder.game_id)
        .where(GameOrder.created_at >= now - RECENT)
        .group_by(Game.game_type, GameOrder.origin)
        .order_by(Game.game_type, GameOrder.origin)
    )
    return AdminStatus(
        shared=figures.database_figures(session, now),
        on_time=figures.on_time(session, now),
        on_time_recent=figures.on_time(session, now, RECENT),
        orders_applied=[(game_type, origin, count) for game_type, origin, count in applied],
        orders_refused=_refusals(),
        live_connections=int(metrics.sample("ostraca_live_connections")),
        routes=_route_times(),
    )


def _refusals() -> list[tuple[str, int]]:
    found = [
        (sample.labels["game_type"], int(sample.value))
        for family in metrics.ORDERS_REFUSED.collect()
        for sample in family.samples
        if sample.name.endswith("_total")
    ]
    return sorted(found)


def _route_times() -> list[RouteTime]:
    counts: dict[tuple[str, str], float] = {}
    sums: dict[tuple[str, str], float] = {}
    for family in metrics.REQUEST_SECONDS.collect():
        for sample in family.samples:
            key = (sample.labels["method"], sample.labels["route"])
            if sample.name.endswith("_count"):
                counts[key] = sample.value
            elif sample.name.endswith("_sum"):
                sums[key] = sample.value
    times = [RouteTime(m, r, int(n), sums.get((m, r), 0.0) / n) for (m, r), n in counts.items() if n]
    return sorted(times, key=lambda time: time.mean_seconds, reverse=True)[:SLOWEST_ROUTES]
