"""Order submissions per second through HTTP on Postgres, beside pgbench's TPS on the same server.

    .venv/bin/python bench/orders_http.py --database-url postgresql+psycopg://postgres@127.0.0.1/ostraca_bench

It starts `ostraca serve` on a free port against that database (which it empties first), signs players up,
starts one game per client thread, then for --seconds each thread loops: read the game (GET), send the
order the server would play by default for an awaited seat (POST). Then it runs pgbench (TPC-B-like, same
number of clients, same duration) on the same server and prints both and their ratio.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx2 as httpx
from sqlalchemy import make_url, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.db import make_engine  # noqa: E402

PASSWORD = "bench password 2026"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--game", default="dragonstones")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    if not args.database_url.startswith("postgresql"):
        sys.exit("give a Postgres --database-url (or BENCH_DATABASE_URL)")
    _empty_database(args.database_url)
    port = _free_port()
    server = _start_server(args.database_url, port)
    try:
        base = f"http://127.0.0.1:{port}"
        tables = [_set_up_game(base, args.game, args.players, index) for index in range(args.clients)]
        orders, reads = _run_clients(base, tables, args.seconds)
    finally:
        server.terminate()
        server.wait(timeout=20)
    tps = _pgbench(args.database_url, args.clients, args.seconds)
    order_rate = orders / args.seconds
    print(f"game={args.game} clients={args.clients} seconds={args.seconds}")
    read_rate = reads / args.seconds
    print(f"orders applied: {orders} ({order_rate:.1f}/s), with {reads} game reads ({read_rate:.1f}/s)")
    if tps:
        print(f"pgbench TPS (TPC-B-like, {args.clients} clients): {tps:.1f}")
        print(f"ratio orders/s : pgbench TPS = {order_rate / tps:.3f}")


def _empty_database(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start_server(database_url: str, port: int) -> subprocess.Popen[bytes]:
    data_dir = tempfile.mkdtemp(prefix="ostraca-bench-")
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "DATA_DIR": data_dir,
        "RUN_JOBS": "false",
        "ORDERS_PER_MINUTE": "1000000",
        "SIGNUPS_PER_HOUR": "1000000",
        "LOGIN_ATTEMPTS_PER_MINUTE": "1000000",
    }
    command = [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--no-jobs"]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/v1/game-types").status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError("the server did not start")


def _client(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
    body = {"email": f"{name}@example.com", "password": PASSWORD, "display_name": name}
    me = client.post("/api/v1/auth/signup", json=body).json()
    client.headers["X-CSRF-Token"] = me["csrf_token"]
    return client


def _set_up_game(base: str, game: str, players: int, index: int) -> tuple[int, dict[int, httpx.Client]]:
    """The new game's id, and each seat's signed-in client."""
    clients = [_client(base, f"p{index}x{n}") for n in range(players)]
    created = clients[0].post("/api/v1/games", json={"game_type": game, "players": players}).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{created['id']}/join")
    by_seat: dict[int, httpx.Client] = {}
    for client in clients:
        detail = client.get(f"/api/v1/games/{created['id']}").json()
        by_seat[detail["your_seat"]] = client
    return created["id"], by_seat


def _run_clients(
    base: str, tables: list[tuple[int, dict[int, httpx.Client]]], seconds: float
) -> tuple[int, int]:
    counts = {"orders": 0, "reads": 0}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def play(game_id: int, table: dict[int, httpx.Client]) -> None:
        orders = reads = 0
        while time.monotonic() < stop_at:
            detail = table[0].get(f"/api/v1/games/{game_id}").json()
            reads += 1
            if detail["game"]["status"] != "active" or not detail["waits"]:
                break
            seat = detail["waits"][0]["seat"]
            mine = table[seat].get(f"/api/v1/games/{game_id}").json()
            reads += 1
            wait = next(w for w in mine["waits"] if w["seat"] == seat)
            body = {"order": wait["default_order"], "expected_version": mine["game"]["version"]}
            if table[seat].post(f"/api/v1/games/{game_id}/orders", json=body).status_code == 200:
                orders += 1
        with lock:
            counts["orders"] += orders
            counts["reads"] += reads

    threads = [threading.Thread(target=play, args=table) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return counts["orders"], counts["reads"]


def _pgbench(database_url: str, clients: int, seconds: float) -> float | None:
    pgbench = shutil.which("pgbench") or next(
        iter(sorted(Path("/usr/lib/postgresql").glob("*/bin/pgbench"))), None
    )
    if pgbench is None:
        print("pgbench not found: no baseline")
        return None
    url = make_url(database_url)
    env = {**os.environ, "PGPASSWORD": url.password or ""}
    connection = [
        "-h",
        str(url.query.get("host") or url.host or "127.0.0.1"),
        "-U",
        url.username or "postgres",
    ]
    if url.port:
        connection += ["-p", str(url.port)]
    database = url.database or "postgres"
    subprocess.run(
        [str(pgbench), "-i", "-q", *connection, database], env=env, check=True, capture_output=True
    )
    result = subprocess.run(
        [str(pgbench), "-c", str(clients), "-j", "2", "-T", str(int(seconds)), *connection, database],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    match = re.search(r"tps = ([\d.]+)", result.stdout)
    return float(match.group(1)) if match else None


if __name__ == "__main__":
    main()
