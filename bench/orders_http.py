"""Orders through HTTP on Postgres, beside pgbench and a raw psycopg one-row UPDATE + COMMIT loop.

    .venv/bin/python bench/orders_http.py --database-url postgresql+psycopg://postgres@127.0.0.1/ostraca_bench

THE DATABASE IS WIPED. It stores --stored-games finished games first (bulk SQL, 10 orders and 10 events
each), starts `ostraca serve` on a free port, signs players up, starts one game per client thread, then
for --seconds each thread loops: the awaited seat reads the game (GET), sends the order the server would
play by default (POST, asking for the new view with `Prefer: return=representation`, which tells it the
next awaited seat; --two-reads: a GET by the first seat first, as a client that cannot use the answer).

It prints: orders/s and its ratio to pgbench's TPC-B-like TPS and to the raw UPDATE + COMMIT loop (same
number of clients, same duration, same server); p50 and p99 of the POST and of a whole order (GET +
POST); CPU per order of the web process and of its Postgres backends; the SQL statements of one
ordinary order's POST and of one game read, counted in this process on the same database; the CPU of
an order with the app in this process (no HTTP server, one client), beside a raw UPDATE + COMMIT's; and
the CPU of a seat's game page, live fragment and API read, the same way; and the same order and reads
with the app called directly as an ASGI application (no test client: the app's own cost).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import httpx2 as httpx
from sqlalchemy import text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import migrate  # noqa: E402
from app.db import make_engine  # noqa: E402
from bench import baselines  # noqa: E402

PASSWORD = "bench password 2026"
PREFER = {"Prefer": "return=representation"}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--game", default="dragonstones")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--stored-games", type=int, default=1000)
    parser.add_argument("--two-reads", action="store_true", help="GET, GET, POST per order")
    args = parser.parse_args()
    url = args.database_url
    if not url.startswith("postgresql"):
        sys.exit("give a Postgres --database-url (or BENCH_DATABASE_URL)")
    print(f"{baselines.machine()}; game={args.game} clients={args.clients} seconds={args.seconds}")
    _empty_database(url)
    baselines.store_finished_games(url, args.stored_games)
    port = _free_port()
    server = _start_server(url, port)
    try:
        base = f"http://127.0.0.1:{port}"
        tables = [
            _set_up_game([_client(base, f"p{index}x{n}") for n in range(args.players)], args.game)
            for index in range(args.clients)
        ]
        backends = baselines.backends_of(url)
        tree = baselines.process_tree(server.pid)
        cpu_app, cpu_db = baselines.cpu_seconds(tree), baselines.cpu_seconds(backends)
        run = _run_clients(base, tables, args.seconds, args.two_reads)
        cpu_app = baselines.cpu_seconds(tree) - cpu_app
        cpu_db = baselines.cpu_seconds(backends) - cpu_db
    finally:
        server.terminate()
        server.wait(timeout=20)
    order_statements, read_statements = _statements_per_order(url)
    in_process = _cpu_in_process(url, args.game, args.players)
    reads = _cpu_of_reads(url, args.game, args.players)
    direct = _cpu_direct(url, args.game, args.players)
    raw_cpu = _raw_update_cpu(url)
    tps = baselines.pgbench_tpcb(url, args.clients, int(args.seconds))
    raw = baselines.raw_update_loop(url, args.clients, args.seconds)
    orders = len(run["order"])
    rate = orders / args.seconds
    lines = [
        f"stored games: {args.stored_games}; orders applied: {orders} ({rate:.1f}/s), reads: {run['reads']}",
        f"POST p50 {_ms(run['post'], 0.5)} ms, p99 {_ms(run['post'], 0.99)} ms; "
        f"whole order p50 {_ms(run['order'], 0.5)} ms, p99 {_ms(run['order'], 0.99)} ms",
        f"SQL statements: {order_statements} for an ordinary order's POST, {read_statements} for a game read",
        f"raw psycopg one-row UPDATE + COMMIT, {args.clients} clients: {raw:.0f}/s; "
        f"ratio orders/s : raw = {rate / raw:.3f}",
    ]
    if orders:
        lines.append(
            f"CPU per order: web process {1000 * cpu_app / orders:.1f} ms, "
            f"its Postgres backends {1000 * cpu_db / orders:.1f} ms"
        )
    lines.append(
        f"in one process, one client, no HTTP (TestClient): {in_process:.1f} ms of CPU per order "
        f"(GET + POST, client and app); a raw psycopg UPDATE + COMMIT costs its client {raw_cpu:.3f} ms "
        f"(ratio {raw_cpu / in_process:.3f})"
    )
    lines.append(
        "in one process, CPU per read of a seat: "
        + ", ".join(f"{name} {milliseconds:.1f} ms" for name, milliseconds in reads.items())
    )
    lines.append(
        "in one process, the app called as ASGI (no test client, no HTTP server; the reads after those "
        "orders, so a page shows a full log), CPU per request: "
        + ", ".join(f"{name} {milliseconds:.2f} ms" for name, milliseconds in direct.items())
    )
    if tps:
        lines.append(
            f"pgbench TPS (TPC-B-like, {args.clients} clients): {tps:.1f}; "
            f"ratio orders/s : pgbench = {rate / tps:.3f}"
        )
    print("\n".join(lines))


def _ms(values: list[float], share: float) -> str:
    return f"{1000 * baselines.percentile(values, share):.1f}"


def _empty_database(url: str) -> None:
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    migrate.upgrade(engine)
    engine.dispose()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _start_server(database_url: str, port: int, processes: int | None = None) -> subprocess.Popen[bytes]:
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
    if processes is not None:
        command += ["--processes", str(processes)]
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 300  # a loaded machine starts it slowly
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


def _set_up_game(clients: list[Any], game: str) -> tuple[int, dict[int, Any]]:
    """A new game of the signed-up `clients` (the first creates it, the others join): its id, and each
    seat's client."""
    created = clients[0].post("/api/v1/games", json={"game_type": game, "players": len(clients)}).json()
    for client in clients[1:]:
        client.post(f"/api/v1/games/{created['id']}/join")
    by_seat: dict[int, Any] = {}
    for client in clients:
        detail = client.get(f"/api/v1/games/{created['id']}").json()
        by_seat[detail["your_seat"]] = client
    return created["id"], by_seat


def _awaited_order(
    table: dict[int, Any], game_id: int, known: dict[str, Any]
) -> tuple[Any, dict[str, Any]] | None:
    """The first awaited seat's client and the order it sends, read as a player reads it (the seat's
    GET: the default order the server shows); None when that read shows the seat no wait."""
    seat = known["waits"][0]["seat"]
    mine = table[seat].get(f"/api/v1/games/{game_id}").json()
    wait = next((w for w in mine["waits"] if w["seat"] == seat), None)
    if wait is None:
        return None
    return table[seat], {"order": wait["default_order"], "expected_version": mine["game"]["version"]}


def _run_clients(
    base: str, tables: list[tuple[int, dict[int, httpx.Client]]], seconds: float, two_reads: bool
) -> dict[str, Any]:
    """Per order, its POST's time and its whole time (reads included); and the number of reads."""
    found: dict[str, Any] = {"post": [], "order": [], "reads": 0}
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def play(game_id: int, table: dict[int, httpx.Client]) -> None:
        posts, whole, reads = [], [], 0
        known = table[0].get(f"/api/v1/games/{game_id}").json()
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            if two_reads:
                known = table[0].get(f"/api/v1/games/{game_id}").json()
                reads += 1
            if known["game"]["status"] != "active" or not known["waits"]:
                break
            awaited = _awaited_order(table, game_id, known)
            reads += 1
            if awaited is None:  # an answer without the view (a server before it had one): read again
                known = table[0].get(f"/api/v1/games/{game_id}").json()
                continue
            mover, body = awaited
            posted = time.perf_counter()
            answer = mover.post(f"/api/v1/games/{game_id}/orders", json=body, headers=PREFER)
            done = time.perf_counter()
            if answer.status_code != 200:
                break
            posts.append(done - posted)
            whole.append(done - started)
            known = answer.json().get("game") or known
        with lock:
            found["post"] += posts
            found["order"] += whole
            found["reads"] += reads

    threads = [threading.Thread(target=play, args=table) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return found


@contextmanager
def _app_client(url: str) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from app.main import create_app
    from app.settings import Settings

    settings = Settings(
        database_url=url,
        data_dir=Path(tempfile.mkdtemp()),
        run_jobs=False,
        orders_per_minute=1_000_000,
        signups_per_hour=1_000_000,
        login_attempts_per_minute=1_000_000,
        _env_file=None,
    )
    app = create_app(settings)
    clients: list[Any] = []

    def make() -> Any:
        client = TestClient(app)
        client.__enter__()
        clients.append(client)
        return client

    try:
        yield app, make
    finally:
        for client in clients:
            client.__exit__(None, None, None)


def _statements_per_order(url: str) -> tuple[int, int]:
    """The statements of one ordinary order's POST and of one game read, as the statement-count test
    counts them (the fake game's first, simultaneous phase)."""
    from tests.test_statement_budget import counted, three_seat_game

    with _app_client(url) as (app, make):
        game_id, by_seat = three_seat_game(make)
        mover = by_seat[0]
        with counted(app.state.engine) as read:
            detail = mover.get(f"/api/v1/games/{game_id}").json()
        body = {"order": {"type": "pick", "value": 2}, "expected_version": detail["game"]["version"]}
        with counted(app.state.engine) as order:
            mover.post(f"/api/v1/games/{game_id}/orders", json=body, headers=PREFER)
    return len(order), len(read)


def _cpu_in_process(url: str, game: str, players: int, orders: int = 300) -> float:
    """CPU milliseconds per order (the awaited seat's GET, then its POST) with the app and its client in
    this process: the cost of the code path alone, without the HTTP server, the event loop's hand-offs
    or the other clients' contention; the median of five rounds."""
    with _game_in_process(url, game, players) as (game_id, by_seat):
        known = by_seat[0].get(f"/api/v1/games/{game_id}").json()

        def play(count: int) -> float:
            nonlocal known
            started, done = time.process_time(), 0
            while done < count and known["game"]["status"] == "active" and known["waits"]:
                awaited = _awaited_order(by_seat, game_id, known)
                assert awaited is not None, "the seat's read shows its wait"
                mover, body = awaited
                answer = mover.post(f"/api/v1/games/{game_id}/orders", json=body, headers=PREFER)
                known = answer.json().get("game") or known
                done += 1
            return 1000 * (time.process_time() - started) / max(done, 1)

        play(20)  # warm: statements compiled and prepared
        return _median_of_five(lambda: play(orders // 5))


def _cpu_of_reads(url: str, game: str, players: int, count: int = 200) -> dict[str, float]:
    """CPU milliseconds of each read a seat's browser makes (the game page, the live fragment it fetches
    when the game moves, the API's game read), app and client in this process; the median of five rounds."""
    with _game_in_process(url, game, players) as (game_id, by_seat):
        reader = by_seat[0]
        paths = {
            "page": f"/games/{game_id}",
            "live fragment": f"/games/{game_id}/fragment",
            "API read": f"/api/v1/games/{game_id}",
        }

        def read(path: str, times: int) -> float:
            started = time.process_time()
            for _ in range(times):
                assert reader.get(path).status_code == 200
            return 1000 * (time.process_time() - started) / times

        found: dict[str, float] = {}
        for name, path in paths.items():
            read(path, 20)  # warm
            found[name] = _median_of_five(partial(read, path, count // 5))
    return found


class DirectClient:
    """A seat's requests made by calling the app as an ASGI application in this thread's own event loop,
    with the cookies and CSRF token of a test client that signed in: what the app costs, without the test
    client's threads and portal or an HTTP server."""

    def __init__(self, app: Any, signed_in: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.app, self.loop = app, loop
        cookie = "; ".join(f"{name}={value}" for name, value in signed_in.cookies.items())
        self.headers = [
            (b"host", b"testserver"),
            (b"cookie", cookie.encode()),
            (b"x-csrf-token", signed_in.headers["X-CSRF-Token"].encode()),
        ]

    def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        payload = json.dumps(body).encode() if body is not None else b""
        extra = [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
        if body is not None:
            extra += [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": self.headers + extra,
            "client": ("127.0.0.1", 50000),
            "server": ("testserver", 80),
            "state": {},
        }
        sent: list[dict[str, Any]] = []
        received = False

        async def receive() -> dict[str, Any]:
            nonlocal received
            if received:
                await asyncio.sleep(3600)  # the client stays connected
            received = True
            return {"type": "http.request", "body": payload, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        self.loop.run_until_complete(self.app(scope, receive, send))
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")

    def get_json(self, path: str) -> Any:
        status, body = self.request("GET", path)
        assert status == 200, body
        return json.loads(body)


def _cpu_direct(url: str, game: str, players: int, orders: int = 300) -> dict[str, float]:
    """CPU milliseconds of an order (the awaited seat's GET, then its POST) and of each read a seat makes,
    with the app called as ASGI in this process; the median of five rounds."""
    loop = asyncio.new_event_loop()
    try:
        with _game_in_process(url, game, players) as (game_id, by_seat):
            app = next(iter(by_seat.values())).app
            direct = {seat: DirectClient(app, client, loop) for seat, client in by_seat.items()}
            known = direct[0].get_json(f"/api/v1/games/{game_id}")

            def play(count: int) -> float:
                nonlocal known
                started, done = time.process_time(), 0
                while done < count and known["game"]["status"] == "active" and known["waits"]:
                    seat = known["waits"][0]["seat"]
                    mine = direct[seat].get_json(f"/api/v1/games/{game_id}")
                    wait = next(w for w in mine["waits"] if w["seat"] == seat)
                    body = {"order": wait["default_order"], "expected_version": mine["game"]["version"]}
                    status, answer = direct[seat].request(
                        "POST", f"/api/v1/games/{game_id}/orders", body, PREFER
                    )
                    assert status == 200, answer
                    known = json.loads(answer)["game"]
                    done += 1
                return 1000 * (time.process_time() - started) / max(done, 1)

            def read(path: str, times: int) -> float:
                started = time.process_time()
                for _ in range(times):
                    assert direct[0].request("GET", path)[0] == 200
                return 1000 * (time.process_time() - started) / times

            found = {"order (GET + POST)": 0.0}
            play(20)  # warm: statements compiled and prepared
            found["order (GET + POST)"] = _median_of_five(lambda: play(orders // 5))
            paths = {
                "page": f"/games/{game_id}",
                "live fragment": f"/games/{game_id}/fragment",
                "API read": f"/api/v1/games/{game_id}",
                "health": "/healthz",
            }
            for name, path in paths.items():
                read(path, 20)
                found[name] = _median_of_five(partial(read, path, 40))
            return found
    finally:
        loop.close()


@contextmanager
def _game_in_process(url: str, game: str, players: int) -> Iterator[tuple[int, dict[int, Any]]]:
    """A new game on an empty database, its players' clients by seat, with the app in this process."""
    from tests.test_statement_budget import sign_up

    _empty_database(url)
    with _app_client(url) as (_app, make):
        clients = [make() for _ in range(players)]
        for index, client in enumerate(clients):
            sign_up(client, f"Cpu{index}")
        yield _set_up_game(clients, game)


def _median_of_five(measure: Callable[[], float]) -> float:
    return sorted(measure() for _ in range(5))[2]


def _raw_update_cpu(url: str, count: int = 2000) -> float:
    """CPU milliseconds a raw psycopg one-row UPDATE + COMMIT costs its client, in this process."""
    import psycopg

    with psycopg.connect(baselines.libpq_url(url)) as connection:
        connection.execute("CREATE TEMPORARY TABLE cpu_counter (id int PRIMARY KEY, n int)")
        connection.execute("INSERT INTO cpu_counter VALUES (1, 0)")
        connection.commit()
        started = time.process_time()
        for _ in range(count):
            connection.execute("UPDATE cpu_counter SET n = n + 1 WHERE id = %s", (1,), prepare=True)
            connection.commit()
        return 1000 * (time.process_time() - started) / count


if __name__ == "__main__":
    main()
