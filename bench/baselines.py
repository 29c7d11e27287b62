"""What the benches compare with, on the same Postgres in the same run: pgbench (TPC-B-like, and a
one-row UPDATE script) and a raw psycopg loop of one-row UPDATE + COMMIT; percentiles; CPU seconds of
processes read from /proc (Linux)."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from sqlalchemy import make_url, text

from app.db import make_engine

ROWS = 10_000
SINGLE_ROW_SCRIPT = "\\set id random(1, 10000)\nUPDATE bench_counter SET n = n + 1 WHERE id = :id;\n"


def libpq_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def pgbench_binary() -> str | None:
    found = shutil.which("pgbench")
    if found:
        return found
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin/pgbench"))
    return str(candidates[-1]) if candidates else None


def _tps(output: str) -> float:
    match = re.search(r"tps = ([0-9.]+)", output)
    if match is None:
        raise SystemExit(f"cannot read pgbench's output:\n{output}")
    return float(match[1])


def pgbench_tpcb(url: str, clients: int, seconds: int) -> float | None:
    """pgbench's TPC-B-like transactions per second (its own tables, made afresh)."""
    binary = pgbench_binary()
    if binary is None:
        return None
    subprocess.run([binary, "-i", "-q", libpq_url(url)], check=True, capture_output=True)
    command = [
        binary,
        "-n",
        "-c",
        str(clients),
        "-j",
        str(min(clients, 4)),
        "-T",
        str(seconds),
        libpq_url(url),
    ]
    tps = _tps(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    subprocess.run([binary, "-i", "-I", "d", libpq_url(url)], check=False, capture_output=True)
    return tps


def _counter_table(url: str) -> None:
    import psycopg

    with psycopg.connect(libpq_url(url), autocommit=True) as connection:
        connection.execute("DROP TABLE IF EXISTS bench_counter")
        connection.execute("CREATE TABLE bench_counter (id integer PRIMARY KEY, n bigint NOT NULL)")
        connection.execute(f"INSERT INTO bench_counter SELECT i, 0 FROM generate_series(1, {ROWS}) i")


def _drop_counter_table(url: str) -> None:
    import psycopg

    with psycopg.connect(libpq_url(url), autocommit=True) as connection:
        connection.execute("DROP TABLE IF EXISTS bench_counter")


def pgbench_single_row(url: str, clients: int, seconds: int) -> float | None:
    """pgbench running one UPDATE of a random row of a 10,000-row table per transaction."""
    binary = pgbench_binary()
    if binary is None:
        return None
    _counter_table(url)
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write(SINGLE_ROW_SCRIPT)
    try:
        command = [binary, "-n", "-c", str(clients), "-j", str(min(clients, 4)), "-T", str(seconds)]
        output = subprocess.run(
            [*command, "-f", script.name, libpq_url(url)], capture_output=True, text=True, check=True
        ).stdout
    finally:
        os.unlink(script.name)
        _drop_counter_table(url)
    return _tps(output)


def raw_update_loop(url: str, clients: int, seconds: float) -> float:
    """One-row UPDATE + COMMIT per transaction through raw psycopg, `clients` threads: transactions/s."""
    import psycopg

    _counter_table(url)
    counts = [0] * clients
    stop_at = time.monotonic() + seconds

    def run(index: int) -> None:
        pick = random.Random(index)
        with psycopg.connect(libpq_url(url)) as connection:
            while time.monotonic() < stop_at:
                connection.execute(
                    "UPDATE bench_counter SET n = n + 1 WHERE id = %s", (pick.randint(1, ROWS),), prepare=True
                )
                connection.commit()
                counts[index] += 1

    threads = [threading.Thread(target=run, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    _drop_counter_table(url)
    return sum(counts) / seconds


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU seconds of these processes (and their reaped children), from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(value) for value in fields[11:15])  # utime, stime, cutime, cstime
    return total / ticks


def process_tree(pid: int) -> list[int]:
    """The process and its descendants."""
    found, frontier = [pid], [pid]
    while frontier:
        parent = frontier.pop()
        try:
            children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        frontier += [int(child) for child in children]
        found += [int(child) for child in children]
    return found


def backends_of(url: str) -> list[int]:
    """The pids of the Postgres backends connected to this database now (other than ours)."""
    import psycopg

    database = make_url(url).database
    with psycopg.connect(libpq_url(url), autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", (database,)
        ).fetchall()
    return [int(row[0]) for row in rows]


def machine() -> str:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        "unknown CPU",
    )
    return f"{os.cpu_count()} CPUs ({model})"


def store_finished_games(url: str, games: int) -> None:
    """Finished games already stored, in bulk: 3 seats (one held by a stored user), 10 orders and 10 events
    each; the tables the hot paths read grow as they do on a long-lived server."""
    if games <= 0:
        return
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (email, display_name, name_key, password_hash, language, time_zone, role,"
                " session_version, created_at) VALUES ('stored@example.com', 'Stored', 'stored', '-', 'en',"
                " 'UTC', 'player', 1, now())"
            )
        )
        connection.execute(
            text(
                "INSERT INTO games (game_type, name, status, players, options, seed, state, version,"
                " creator_id, created_at, finished_at, warning_percent, eviction_preset, vote_after)"
                " SELECT 'fake', 'stored', 'finished', 3, '{}', g, '{}', 10, u.id, now(), now(), 80, 4, 2"
                " FROM generate_series(1, :games) g, users u WHERE u.email = 'stored@example.com'"
            ),
            {"games": games},
        )
        connection.execute(
            text(
                "INSERT INTO seats (game_id, user_id, number, status, missed_turns, joined_at)"
                " SELECT g.id, CASE WHEN s = 0 THEN g.creator_id END, s, 'playing', 0, now()"
                " FROM games g CROSS JOIN generate_series(0, 2) s WHERE g.name = 'stored'"
            )
        )
        for table, columns, values in (
            ("game_orders", "game_id, seq, seat, origin, payload", "g.id, k, k % 3, 'player', '{}'"),
            ("game_events", "game_id, seq, order_seq, kind, data", "g.id, k, k, 'stored', '{}'"),
        ):
            connection.execute(
                text(
                    f"INSERT INTO {table} ({columns}, created_at) SELECT {values}, now()"
                    " FROM games g CROSS JOIN generate_series(1, 10) k WHERE g.name = 'stored'"
                )
            )
        connection.execute(text("ANALYZE"))
    engine.dispose()
