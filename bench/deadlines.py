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
    --pgbench-seconds  10     length of each pgbench run (`pgbench` must be on the PATH)

What it prints:
- the time from the instant the deadlines fell due to the last timeout, and the timeouts per second;
- the lateness of the timeouts (when each default order was played minus its deadline), p50 and p99;
- pgbench's rate of single-row UPDATE transactions (a custom script: one UPDATE of a random row of a
  10,000-row table), with one client and with as many clients as sweepers, on the same database, and
  the ratio of the sweepers' rate to it. A timeout is one transaction that locks a game, plays the
  default through the normal order path (state, order log, events, waits and their deadlines,
  notification, missed turn) and commits: the ratio says what the whole of that costs against the
  cheapest write Postgres can do.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import func, select, text, update
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import migrate  # noqa: E402
from app.db import make_engine, session_factory  # noqa: E402
from app.games import registry  # noqa: E402
from app.models import GameOrder, WaitRow  # noqa: E402
from app.services.jobs import sweeper  # noqa: E402
from tests import fakegame  # noqa: E402
from tests.clock_service.factory import seed_due_games  # noqa: E402

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/ostraca_bench"
PLAYERS = 4
LEAD = timedelta(seconds=3)  # the deadlines fall due this long after the sweepers start
PGBENCH_SCRIPT = "\\set id random(1, 10000)\nUPDATE bench_counter SET n = n + 1 WHERE id = :id;\n"


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


def sweeper_process(url: str, batch: int, poll: float) -> None:
    """What `ostraca worker` does, with a short interval: sweep, and again, until every wait is handled."""
    registry.register(fakegame.RULES)
    engine = make_engine(url)
    sessions = session_factory(engine)
    config = sweeper.SweepSettings(batch=batch)
    while True:
        if sweeper.sweep(sessions, utcnow, config).claimed == 0:
            with sessions() as session:
                if not session.scalar(select(func.count()).where(WaitRow.phase == "pick")):
                    break
            time.sleep(poll)
    engine.dispose()


def run_sweepers(url: str, workers: int, batch: int, poll: float) -> datetime:
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=sweeper_process, args=(url, batch, poll)) for _ in range(workers)]
    for process in processes:
        process.start()
    due = utcnow() + LEAD
    make_due(url, due)
    for process in processes:
        process.join()
        if process.exitcode != 0:
            raise SystemExit(f"a sweeper process failed (exit code {process.exitcode})")
    return due


def lateness(url: str, due: datetime) -> list[float]:
    engine = make_engine(url)
    with session_factory(engine)() as session:
        times = session.scalars(select(GameOrder.created_at).where(GameOrder.origin == "timeout"))
        late = sorted((moment - due).total_seconds() for moment in times)
    engine.dispose()
    return late


def percentile(values: list[float], share: float) -> float:
    return values[min(len(values) - 1, int(share * len(values)))]


def libpq_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def pgbench(url: str, clients: int, seconds: int) -> float:
    """Transactions per second of one single-row UPDATE each, with `clients` connections."""
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE IF EXISTS bench_counter"))
        connection.execute(text("CREATE TABLE bench_counter (id integer PRIMARY KEY, n bigint NOT NULL)"))
        connection.execute(text("INSERT INTO bench_counter SELECT i, 0 FROM generate_series(1, 10000) i"))
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write(PGBENCH_SCRIPT)
    try:
        command = ["pgbench", "-n", "-c", str(clients), "-j", str(clients), "-T", str(seconds)]
        output = subprocess.run(
            [*command, "-f", script.name, libpq_url(url)], capture_output=True, text=True, check=True
        ).stdout
    finally:
        os.unlink(script.name)
        with engine.begin() as connection:
            connection.execute(text("DROP TABLE IF EXISTS bench_counter"))
        engine.dispose()
    match = re.search(r"tps = ([0-9.]+)", output)
    if match is None:
        raise SystemExit(f"cannot read pgbench's output:\n{output}")
    return float(match[1])


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
    args = parser.parse_args()
    url = args.database_url
    if not url.startswith("postgresql"):
        raise SystemExit("this bench needs Postgres (SKIP LOCKED and several processes)")

    print(f"{server_facts(url)}; {args.deadlines} deadlines, {args.workers} sweepers, batch {args.batch}")
    reset_schema(url)
    seed(url, args.deadlines)
    due = run_sweepers(url, args.workers, args.batch, args.poll)
    late = lateness(url, due)
    if len(late) != args.deadlines // PLAYERS * PLAYERS:
        raise SystemExit(f"expected one timeout per deadline, found {len(late)}")
    total = late[-1]
    rate = len(late) / total
    print(f"all {len(late)} timed out in {total:.2f} s after they fell due: {rate:.0f} timeouts/s")
    print(f"lateness: p50 {percentile(late, 0.50):.3f} s, p99 {percentile(late, 0.99):.3f} s, "
          f"max {total:.3f} s (mean {statistics.fmean(late):.3f} s)")  # fmt: skip
    single = pgbench(url, 1, args.pgbench_seconds)
    parallel = pgbench(url, args.workers, args.pgbench_seconds)
    print(
        f"pgbench single-row UPDATE: {single:.0f} tps with 1 client, {parallel:.0f} tps with {args.workers}"
    )
    print(f"ratio: the sweepers' {rate:.0f} timeouts/s are {rate / parallel:.1%} of pgbench's "
          f"{args.workers}-client rate ({rate / single:.1%} of its 1-client rate)")  # fmt: skip


if __name__ == "__main__":
    main()
