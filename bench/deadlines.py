"""Deadlines falling due at once: how fast the sweepers time them all out, how late, against pgbench.

Run it from the repository's root, against a Postgres database you can throw away:

    .venv/bin/python bench/deadlines.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/ostraca_bench

THE DATABASE IS WIPED: its `public` schema is dropped and made again by the migrations.

Options and their defaults:
    --database-url     $BENCH_DATABASE_URL, else postgresql+psycopg://postgres@127.0.0.1:5432/ostraca_bench
    --deadlines        10000  waits falling due at the same instant (4-player games of the tests' game)
    --workers          4      sweeper processes, each the real sweeper reading the real clock
    --batch            100    waits a sweeper claims at a time (the `sweep_batch` setting)
    --poll             0.05   seconds between two passes of an idle sweeper (production: `sweep_seconds`)
    --pgbench-seconds  10     length of each pgbench run and of the raw psycopg loop
    --one-by-one              every wait in its own transaction (the sweeper's reference path)
    --stored-games     1000   finished games stored beforehand (3 seats, 10 orders, 10 events each)

What it prints:
- the time from the instant the deadlines fell due to the last timeout, and the timeouts per second;
- the lateness of the timeouts (when each default order was played minus its deadline), p50 and p99;
- the CPU seconds per timeout of the sweeper processes, and the SQL statements per timeout;
- a raw psycopg loop of one-row UPDATE + COMMIT with as many connections as sweepers, and its ratio;
- pgbench's rate of single-row UPDATE transactions (a custom script: one UPDATE of a random row of a
  10,000-row table), with one client and with as many clients as sweepers, on the same database, and
  the ratio of the sweepers' rate to it. A timeout is one transaction that locks a game, plays the
  default through the normal order path (state, order log, events, waits and their deadlines,
  notification, missed turn) and commits: the ratio says what the whole of that costs against the
  cheapest write Postgres can do.
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import event, func, select, text, update

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import migrate  # noqa: E402
from app.db import make_engine, session_factory  # noqa: E402
from app.games import registry  # noqa: E402
from app.models import GameOrder, WaitRow  # noqa: E402
from app.services.jobs import sweeper  # noqa: E402
from bench import baselines  # noqa: E402
from tests import fakegame  # noqa: E402
from tests.clock_service.factory import seed_due_games  # noqa: E402

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/ostraca_bench"
PLAYERS = 4
LEAD = timedelta(seconds=3)  # the deadlines fall due this long after the sweepers start


def utcnow() -> datetime:
    return datetime.now(UTC)


def reset_schema(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    migrate.upgrade(engine)
    engine.dispose()


def seed(url: str, deadlines: int) -> None:
    """The games, due far ahead for now (the instant is set when the sweepers are ready)."""
    registry.register(fakegame.RULES)
    engine = make_engine(url)
    with session_factory(engine)() as session:
        seed_due_games(session, deadlines // PLAYERS, PLAYERS, utcnow() + timedelta(days=1))
    engine.dispose()


def make_due(url: str, due: datetime) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(update(WaitRow).values(deadline_at=due, check_at=due))
    engine.dispose()


def sweeper_process(url: str, batch: int, poll: float, one_by_one: bool, results: Any) -> None:
    """What `ostraca worker` does, with a short interval: sweep, and again, until every wait is handled."""
    registry.register(fakegame.RULES)
    engine = make_engine(url)
    statements = [0]

    def count(*_args: Any) -> None:
        statements[0] += 1

    event.listen(engine, "before_cursor_execute", count)
    sessions = session_factory(engine)
    config = sweeper.SweepSettings(batch=batch)
    if one_by_one:  # the reference path (a tree from before the set-wise sweeper has no such setting)
        config = dataclasses.replace(config, set_wise=False)
    while True:
        if sweeper.sweep(sessions, utcnow, config).claimed == 0:
            with sessions() as session:
                if not session.scalar(select(func.count()).where(WaitRow.phase == "pick")):
                    break
            time.sleep(poll)
    engine.dispose()
    cpu = os.times()
    results.put((cpu.user + cpu.system, statements[0]))


def run_sweepers(
    url: str, workers: int, batch: int, poll: float, one_by_one: bool
) -> tuple[datetime, float, int]:
    """When the deadlines fell due, the sweepers' CPU seconds and their SQL statements."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    arguments = (url, batch, poll, one_by_one, results)
    processes = [context.Process(target=sweeper_process, args=arguments) for _ in range(workers)]
    for process in processes:
        process.start()
    due = utcnow() + LEAD
    make_due(url, due)
    reports = [results.get() for _ in processes]
    for process in processes:
        process.join()
        if process.exitcode != 0:
            raise SystemExit(f"a sweeper process failed (exit code {process.exitcode})")
    return due, sum(cpu for cpu, _ in reports), sum(count for _, count in reports)


def lateness(url: str, due: datetime) -> list[float]:
    engine = make_engine(url)
    with session_factory(engine)() as session:
        times = session.scalars(select(GameOrder.created_at).where(GameOrder.origin == "timeout"))
        late = sorted((moment - due).total_seconds() for moment in times)
    engine.dispose()
    return late


def server_facts(url: str) -> str:
    engine = make_engine(url)
    with engine.connect() as connection:
        version = connection.execute(text("SHOW server_version")).scalar()
        commit = connection.execute(text("SHOW synchronous_commit")).scalar()
    engine.dispose()
    return f"Postgres {version}, synchronous_commit={commit}, {os.cpu_count()} CPUs"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL))
    parser.add_argument("--deadlines", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--poll", type=float, default=0.05)
    parser.add_argument("--pgbench-seconds", type=int, default=10)
    parser.add_argument("--one-by-one", action="store_true")
    parser.add_argument("--stored-games", type=int, default=1000, help="finished games stored beforehand")
    args = parser.parse_args()
    url = args.database_url
    if not url.startswith("postgresql"):
        raise SystemExit("this bench needs Postgres (SKIP LOCKED and several processes)")

    mode = "one by one" if args.one_by_one else "set-wise"
    print(
        f"{server_facts(url)}; {args.deadlines} deadlines, {args.workers} sweepers, "
        f"batch {args.batch}, {mode}; {args.stored_games} finished games stored"
    )
    reset_schema(url)
    baselines.store_finished_games(url, args.stored_games)
    seed(url, args.deadlines)
    due, cpu, statements = run_sweepers(url, args.workers, args.batch, args.poll, args.one_by_one)
    late = lateness(url, due)
    if len(late) != args.deadlines // PLAYERS * PLAYERS:
        raise SystemExit(f"expected one timeout per deadline, found {len(late)}")
    total = late[-1]
    rate = len(late) / total
    p50, p99 = baselines.percentile(late, 0.50), baselines.percentile(late, 0.99)
    single = baselines.pgbench_single_row(url, 1, args.pgbench_seconds)
    parallel = baselines.pgbench_single_row(url, args.workers, args.pgbench_seconds)
    raw = baselines.raw_update_loop(url, args.workers, args.pgbench_seconds)
    lines = [
        f"all {len(late)} timed out in {total:.2f} s after they fell due: {rate:.0f} timeouts/s",
        f"lateness: p50 {p50:.3f} s, p99 {p99:.3f} s, max {total:.3f} s "
        f"(mean {statistics.fmean(late):.3f} s)",
        f"sweepers' CPU per timeout {1000 * cpu / len(late):.2f} ms; SQL statements per timeout "
        f"{statements / len(late):.2f}",
        f"raw psycopg one-row UPDATE + COMMIT, {args.workers} connections: {raw:.0f}/s; "
        f"ratio timeouts/s : raw = {rate / raw:.3f}",
    ]
    if single and parallel:
        lines += [
            f"pgbench single-row UPDATE: {single:.0f} tps with 1 client, "
            f"{parallel:.0f} tps with {args.workers}",
            f"ratio: the sweepers' {rate:.0f} timeouts/s are {rate / parallel:.1%} of pgbench's "
            f"{args.workers}-client rate ({rate / single:.1%} of its 1-client rate)",
        ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
