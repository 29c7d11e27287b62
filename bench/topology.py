"""The production topology under a bigger load than its CI test (tests/ops/test_topology.py), with figures.

    .venv/bin/python bench/topology.py --database-url postgresql+psycopg://postgres@127.0.0.1/ostraca_bench \
        --dragonstones 10 --tigris 10

nginx (Debian's) in front of two `ostraca serve --no-jobs`, two `ostraca worker`, Postgres (the database
named is emptied first), Redis and an SMTP sink. The simulated players (3 a Dragonstones game, 2 a Tigris &
Euphrates one: 50 with the numbers above) play every game to the end over HTTP, sometimes falling asleep so
that deadlines run out; one worker is killed and restarted midway. It prints the games finished, the orders
and timeouts, the duplicates and losses, the spectators' missed versions, the p99 lateness of the timeouts
and the orders per second.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.ops import topology  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--dragonstones", type=int, default=10)
    parser.add_argument("--tigris", type=int, default=10)
    parser.add_argument("--sleep-chance", type=float, default=0.08)
    args = parser.parse_args()
    nginx = topology.find_nginx()
    if not args.database_url.startswith("postgresql") or nginx is None:
        sys.exit("needs a Postgres --database-url (or BENCH_DATABASE_URL) and nginx")
    if not topology.redis_answers(args.redis_url):
        sys.exit(f"no Redis answers at {args.redis_url}")
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    size = topology.Size(dragonstones=args.dragonstones, tigris=args.tigris, sleep_chance=args.sleep_chance)
    workdir = Path(tempfile.mkdtemp(prefix="ostraca-topology-"))
    running = topology.Topology(args.database_url, args.redis_url, nginx, workdir)
    try:
        running.start()
        expected_orders = 300 * (size.dragonstones + size.tigris)
        tables, seconds = topology.run(running, size, kill_after_orders=expected_orders // 2)
        running.wait_for_outbox()
        figures = running.figures(tables, seconds)
    finally:
        running.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    players = 3 * size.dragonstones + 2 * size.tigris
    print(f"players: {players}")
    print("\n".join(figures.lines()))
    print(f"orders per second: {figures.orders / seconds:.1f}")


if __name__ == "__main__":
    main()
