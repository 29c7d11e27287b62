"""How many players `ostraca serve` (Postgres, 2 web processes) keeps going: simulated players in steps.

    .venv/bin/python bench/capacity.py --database-url postgresql+psycopg://postgres@127.0.0.1/ostraca_bench \
        [--steps 100 200 400] [--until-broken] [--seconds-per-step 30] [--processes 2]

THE DATABASE IS WIPED. It stores --stored-games finished games, starts `ostraca serve --processes 2` on a
free port of 127.0.0.1, and for each step signs up the players it lacks (through the API) and seats them
at new tables: a mix of Dragonstones (3 players), Tigris & Euphrates (3), Amun-Re (4) and Advanced
Civilization (8). Players of earlier steps stay. During the step every player, as a browser does:

- opens its game page (arriving at a random moment of the first --page-every seconds), then again about
  every --page-every seconds, as a player who comes back to the tab or reloads it;
- keeps the page's live stream open (`/games/{id}/live`, server-sent events) and, at each version it
  hears, fetches the live fragment the page swaps in (`/fragment?since=`, one at a time, as htmx does);
- reads the game through the API about every --api-every seconds;
- when its seat is awaited, thinks for about --think seconds and sends its order (the rules' bot,
  `bot_order`, on the state read from the database; Advanced Civilization: `sample_order` while it has
  no bot), asking for the new view (`Prefer: return=representation`); a 409 (the game moved meanwhile)
  is read again and sent again, a few times at most. The bench learns that a seat is awaited from the
  answers to its own orders and from the live stream (then it reads the state), not from the page.

Per step it prints the p50/p99 of the page, the fragment, the API read and the order (milliseconds, from
the moment the request is due: a client that waits for a connection waits as a user would), the bytes
of a live update (the fragment's body, and the stream's event), the CPU per request of the web processes
and of the database's backends (from /proc; the bench's own database connection left out), the answers
that were not 2xx by kind and status (409s counted apart), and the RSS of each web process, of the
database's backends and of the bench. Then the knee: the most players whose page p99 stayed under
300 ms. With --until-broken, the steps go on doubling past the last one until a step breaks (page p99
over --broken-ms, or more than 5% of the requests failing) or --max-players is reached; a broken step
always ends the run.

The bench is itself a Python process on the same machine: its CPU is printed too, and a loaded machine
(or a bench that cannot keep up) shows as longer times, not fewer requests.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.games import registry  # noqa: E402
from app.games.contract import bot_order_of  # noqa: E402
from bench import baselines  # noqa: E402
from bench.orders_http import PREFER, _client, _empty_database, _free_port, _set_up_game, _start_server  # noqa: E402

MIX = (("dragonstones", 3), ("tigris", 3), ("amunre", 4), ("advciv", 8))
KNEE_MS = 300.0
KINDS = ("page", "fragment", "api", "order")
RETRIES = 5  # sends of one order that met a 409 before the player gives up until the game moves again
MAX_ACTIONS = 100_000  # per player and step: a bound on every loop besides its clock
SINCE = re.compile(r'id="prompt-since"[^>]*value="([^"]*)"')


@dataclass
class Table:
    """One game at the bench: its players' clients by seat, and the seats the bench knows are awaited."""

    game_id: int
    game_type: str
    clients: dict[int, httpx.AsyncClient]
    awaited: set[int] = field(default_factory=set)
    version: int = 0
    moved: asyncio.Event = field(default_factory=asyncio.Event)

    def heard(self, version: int, awaited: set[int] | None = None) -> None:
        """A newer version: wake the movers, who read the state again."""
        if version > self.version or awaited is not None:
            self.version = max(self.version, version)
            if awaited is not None:
                self.awaited = awaited
            self.moved.set()
            self.moved = asyncio.Event()


@dataclass
class Step:
    """What one step measured."""

    players: int
    seconds: float
    times: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    failures: Counter[str] = field(default_factory=Counter)
    conflicts: int = 0
    orders: Counter[str] = field(default_factory=Counter)  # orders accepted, by game
    fragment_bytes: list[int] = field(default_factory=list)
    event_bytes: list[int] = field(default_factory=list)
    web_cpu: float = 0.0
    db_cpu: float = 0.0
    bench_cpu: float = 0.0
    rss: dict[str, int] = field(default_factory=dict)

    def requests(self) -> int:
        return sum(len(values) for values in self.times.values()) + sum(self.failures.values())

    def broken(self, broken_ms: float) -> bool:
        requests = self.requests()
        return self.p99("page") > broken_ms or (
            requests > 0 and sum(self.failures.values()) > 0.05 * requests
        )

    def p99(self, kind: str) -> float:
        values = self.times[kind]
        return 1000 * baselines.percentile(values, 0.99) if values else float("inf")

    def lines(self) -> list[str]:
        requests = max(self.requests(), 1)
        out = [f"--- {self.players} players, {self.seconds:.0f} s"]
        for kind in KINDS:
            values = self.times[kind]
            if values:
                p50 = 1000 * baselines.percentile(values, 0.5)
                out.append(f"  {kind:9} {len(values):6} ok  p50 {p50:7.1f} ms  p99 {self.p99(kind):7.1f} ms")
            else:
                out.append(f"  {kind:9}      0 ok")
        if self.fragment_bytes:
            mean = sum(self.fragment_bytes) / len(self.fragment_bytes)
            out.append(f"  bytes per live update: fragment {mean:,.0f} (mean of {len(self.fragment_bytes)})")
        if self.event_bytes:
            out.append(f"    and its stream event {sum(self.event_bytes) / len(self.event_bytes):.0f}")
        out.append(
            f"  CPU per request (live streams not counted): web {1000 * self.web_cpu / requests:.1f} ms, "
            f"database {1000 * self.db_cpu / requests:.1f} ms; requests/s {requests / self.seconds:.1f}; "
            f"the bench's own CPU {self.bench_cpu:.1f} s"
        )
        failures = ", ".join(f"{name} x{count}" for name, count in sorted(self.failures.items())) or "none"
        out.append(f"  errors: {failures}; 409s (the game moved first) {self.conflicts}")
        out.append("  orders by game: " + ", ".join(f"{game} {n}" for game, n in sorted(self.orders.items())))
        out.append("  RSS: " + ", ".join(f"{name} {kb / 1024:.0f} MB" for name, kb in self.rss.items()))
        return out


@dataclass
class Server:
    base: str
    url: str
    pid: int
    database: psycopg.AsyncConnection[Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def state_of(self, game_id: int) -> tuple[dict[str, Any] | None, int, str]:
        async with self.lock:
            cursor = await self.database.execute(
                "SELECT state, version, status FROM games WHERE id = %s", (game_id,)
            )
            row = await cursor.fetchone()
        assert row is not None
        return row[0], int(row[1]), str(row[2])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=os.environ.get("BENCH_DATABASE_URL", ""))
    parser.add_argument("--steps", type=int, nargs="+", default=[100, 200, 400])
    parser.add_argument("--seconds-per-step", type=float, default=30.0)
    parser.add_argument(
        "--until-broken", action="store_true", help="double past the last step until it breaks"
    )
    parser.add_argument("--max-players", type=int, default=12_800)
    parser.add_argument("--broken-ms", type=float, default=5000.0, help="page p99 past which a step broke")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--page-every", type=float, default=10.0)
    parser.add_argument("--api-every", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=20.0)
    parser.add_argument("--stored-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not args.database_url.startswith("postgresql"):
        sys.exit("give a Postgres --database-url (or BENCH_DATABASE_URL)")
    _raise_open_files()
    print(f"{baselines.machine()}; load average {os.getloadavg()[0]:.1f}; {args.processes} web processes")
    _empty_database(args.database_url)
    baselines.store_finished_games(args.database_url, args.stored_games)
    port = _free_port()
    process = _start_server(args.database_url, port, args.processes)
    try:
        steps = asyncio.run(_run(args, f"http://127.0.0.1:{port}", process.pid))
    finally:
        process.terminate()
        process.wait(timeout=30)
    _print_knee(steps)


def _raise_open_files() -> None:
    """Each player holds a live stream and a connection: more sockets than the usual soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _plan(args: argparse.Namespace) -> list[int]:
    steps = sorted(set(args.steps))
    if args.until_broken:
        while steps[-1] * 2 <= args.max_players:
            steps.append(steps[-1] * 2)
    return [players for players in steps if players <= args.max_players]


async def _run(args: argparse.Namespace, base: str, pid: int) -> list[Step]:
    rng = random.Random(args.seed)
    database = await psycopg.AsyncConnection.connect(baselines.libpq_url(args.database_url), autocommit=True)
    server = Server(base, args.database_url, pid, database)
    tables: list[Table] = []
    done: list[Step] = []
    try:
        for players in _plan(args):
            await _seat_players(server, tables, players)
            step = await _step(server, tables, args, rng)
            print("\n".join(step.lines()), flush=True)
            done.append(step)
            if step.broken(args.broken_ms):
                print(f"  broken: page p99 over {args.broken_ms:.0f} ms or over 5% errors; stopping")
                break
    finally:
        for table in tables:
            for client in table.clients.values():
                await client.aclose()
        await database.close()
    return done


def _print_knee(steps: list[Step]) -> None:
    under = [step.players for step in steps if step.p99("page") < KNEE_MS]
    if under:
        print(f"knee: {max(under)} players with page p99 under {KNEE_MS:.0f} ms")
    else:
        print(
            f"knee: below {min((s.players for s in steps), default=0)} players (no step had page p99 "
            f"under {KNEE_MS:.0f} ms)"
        )


# --- setting up ----------------------------------------------------------------------------------------


async def _seat_players(server: Server, tables: list[Table], players: int) -> None:
    """New tables until `players` are seated: the mix in turn, the last tables as small as fits."""
    seated = sum(len(table.clients) for table in tables)
    wanted: list[tuple[str, int]] = []
    turn = len(tables)
    while seated < players:
        game_type, size = MIX[turn % len(MIX)]
        turn += 1
        if seated + size > players:
            game_type, size = next(((g, n) for g, n in MIX if seated + n <= players), ("tigris", 2))
        wanted.append((game_type, size))
        seated += size
    if not wanted:
        return
    started = time.monotonic()
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=4) as pool:  # sign-ups hash passwords: a few at a time
        made = await asyncio.gather(
            *(
                loop.run_in_executor(pool, _new_table, server.base, game_type, size, f"c{len(tables) + n}")
                for n, (game_type, size) in enumerate(wanted)
            )
        )
    for game_type, (game_id, by_seat) in zip((g for g, _ in wanted), made, strict=True):
        clients = {seat: _async_client(server.base, client) for seat, client in by_seat.items()}
        for client in by_seat.values():
            client.close()
        table = Table(game_id, game_type, clients)
        _state, table.version, _status = await server.state_of(game_id)
        tables.append(table)
        await _warm(table)
    print(
        f"(seated {seated} players at {len(tables)} tables in {time.monotonic() - started:.0f} s)", flush=True
    )


async def _warm(table: Table) -> None:
    """Each read of a new table once per web process or so, unmeasured: the first render of a page
    compiles its templates and opens connections, which no player of a running server waits for."""
    client = table.clients[0]
    for _ in range(2):
        for path in ("", "/fragment"):
            await client.get(f"/games/{table.game_id}{path}")
        await client.get(f"/api/v1/games/{table.game_id}")


def _new_table(base: str, game_type: str, size: int, prefix: str) -> tuple[int, dict[int, Any]]:
    game_id, by_seat = _set_up_game([_client(base, f"{prefix}p{n}") for n in range(size)], game_type)
    _draft(game_id, by_seat)
    return game_id, by_seat


def _draft(game_id: int, by_seat: dict[int, Any]) -> None:
    """A game that begins with a seat draft (Advanced Civilization's nations): each seat in turn takes the
    first choice still free."""
    path = f"/api/v1/games/{game_id}/draft"
    for _ in range(2 * len(by_seat) + 1):
        draft = by_seat[0].get(path).json()
        seat = draft.get("awaited_seat")
        if seat is None:
            return
        by_seat[seat].post(path, json={"choice": draft["free"][0]})


def _async_client(base: str, signed_in: httpx.Client) -> httpx.AsyncClient:
    """The signed-in player's cookies and CSRF token on an async client of its own (cookies are per user)."""
    return httpx.AsyncClient(
        base_url=base,
        cookies=signed_in.cookies,
        headers={"X-CSRF-Token": signed_in.headers["X-CSRF-Token"]},
        timeout=httpx.Timeout(30, read=60),
        limits=httpx.Limits(max_connections=4),
    )


# --- one step ------------------------------------------------------------------------------------------


async def _step(server: Server, tables: list[Table], args: argparse.Namespace, rng: random.Random) -> Step:
    players = sum(len(table.clients) for table in tables)
    step = Step(players, args.seconds_per_step)
    own = await _own_backend(server)
    web_before, db_before = _web_cpu(server.pid), await _db_cpu(server, own)
    bench_before = time.process_time()
    started = time.monotonic()
    stop_at = started + args.seconds_per_step
    tasks = []
    for table in tables:
        for seat, client in table.clients.items():
            player = Player(server, table, seat, client, step, args, random.Random(rng.random()), stop_at)
            tasks.append(asyncio.create_task(player.run()))
        tasks.append(asyncio.create_task(_first_move(server, table)))
    await asyncio.wait(tasks, timeout=args.seconds_per_step + 60)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    step.seconds = time.monotonic() - started
    step.web_cpu = _web_cpu(server.pid) - web_before
    step.db_cpu = _db_cpu_delta(db_before, await _db_cpu(server, own))
    step.bench_cpu = time.process_time() - bench_before
    step.rss = _rss(server, await _backends(server, own))
    return step


async def _first_move(server: Server, table: Table) -> None:
    """The seats awaited when the step starts, read once."""
    state, version, status = await server.state_of(table.game_id)
    rules = registry.get(table.game_type)
    awaited: set[int] = set()
    if status == "active" and state is not None:
        awaited = {wait.seat for wait in rules.waits(rules.load(state))}
    table.heard(version, awaited)


class Player:
    def __init__(
        self,
        server: Server,
        table: Table,
        seat: int,
        client: httpx.AsyncClient,
        step: Step,
        args: argparse.Namespace,
        rng: random.Random,
        stop_at: float,
    ) -> None:
        self.server, self.table, self.seat, self.client, self.step = server, table, seat, client, step
        self.args, self.rng, self.stop_at = args, rng, stop_at
        self.since = ""
        self.live = asyncio.Event()  # a version heard that the page has not fetched yet

    async def run(self) -> None:
        await self._sleep(self.rng.uniform(0, self.args.page_every))
        await self._open_page()
        jobs = [self._listen(), self._fetch_fragments(), self._come_back(), self._read_api(), self._move()]
        await asyncio.gather(*(self._until_stop(job) for job in jobs))

    async def _until_stop(self, job: Awaitable[None]) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(job, timeout=max(self.stop_at - time.monotonic(), 0))

    async def _sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(min(seconds, self.stop_at - time.monotonic()), 0))

    def _now(self) -> bool:
        return time.monotonic() < self.stop_at

    async def _timed(self, kind: str, sent: Awaitable[httpx.Response]) -> httpx.Response | None:
        started = time.perf_counter()
        try:
            answer = await sent
        except httpx.TransportError as error:
            self.step.failures[f"{kind} {type(error).__name__}"] += 1
            return None
        elapsed = time.perf_counter() - started
        if answer.status_code == 409 and kind == "order":
            self.step.conflicts += 1
        elif answer.status_code >= 300:
            self.step.failures[f"{kind} {answer.status_code}"] += 1
        elif self._now():  # an answer after the step's end is not the step's
            self.step.times[kind].append(elapsed)
        return answer

    async def _open_page(self) -> None:
        answer = await self._timed("page", self.client.get(f"/games/{self.table.game_id}"))
        if answer is not None and answer.status_code == 200:
            self._remember_since(answer.text)

    def _remember_since(self, html: str) -> None:
        found = SINCE.search(html)
        if found:
            self.since = found.group(1)

    async def _come_back(self) -> None:
        for _ in range(MAX_ACTIONS):
            await self._sleep(self.rng.uniform(0.5, 1.5) * self.args.page_every)
            if not self._now():
                return
            await self._open_page()

    async def _read_api(self) -> None:
        await self._sleep(self.rng.uniform(0, self.args.api_every))
        for _ in range(MAX_ACTIONS):
            if not self._now():
                return
            await self._timed("api", self.client.get(f"/api/v1/games/{self.table.game_id}"))
            await self._sleep(self.rng.uniform(0.5, 1.5) * self.args.api_every)

    async def _listen(self) -> None:
        """The page's live stream: each version heard wakes the fragment fetcher and the movers."""
        path = f"/games/{self.table.game_id}/live"
        for _ in range(MAX_ACTIONS):
            if not self._now():
                return
            try:
                async with self.client.stream("GET", path, params={"since": self.table.version}) as stream:
                    if stream.status_code != 200:
                        self.step.failures[f"live {stream.status_code}"] += 1
                        await self._sleep(1)
                        continue
                    event_bytes, version = 0, None
                    async for line in stream.aiter_lines():
                        event_bytes += len(line) + 1
                        if line.startswith("data:"):
                            version = int(line.removeprefix("data:").strip())
                        elif not line and version is not None:  # an event's end (a ping has no data)
                            self.step.event_bytes.append(event_bytes)
                            self.table.heard(version)
                            self.live.set()
                        if not line:
                            event_bytes, version = 0, None
            except httpx.TransportError as error:
                self.step.failures[f"live {type(error).__name__}"] += 1
                await self._sleep(1)

    async def _fetch_fragments(self) -> None:
        """One fragment at a time; versions heard meanwhile make one more fetch (htmx queues the last)."""
        path = f"/games/{self.table.game_id}/fragment"
        for _ in range(MAX_ACTIONS):
            await self.live.wait()
            self.live.clear()
            answer = await self._timed("fragment", self.client.get(path, params={"since": self.since}))
            if answer is not None and answer.status_code == 200:
                self.step.fragment_bytes.append(len(answer.content))
                self._remember_since(answer.text)

    async def _move(self) -> None:
        """When the seat is awaited: think, then send the bot's order; a 409 reads the state again."""
        rules = registry.get(self.table.game_type)
        bot = bot_order_of(rules) or rules.sample_order
        tries = 0
        for _ in range(MAX_ACTIONS):
            moved = self.table.moved
            if self.seat not in self.table.awaited or tries >= RETRIES:
                await moved.wait()
                tries = 0
                continue
            await self._sleep(self.rng.uniform(0.5, 1.5) * self.args.think)
            if not self._now():
                return
            data, version, status = await self.server.state_of(self.table.game_id)
            state = rules.load(data) if status == "active" and data is not None else None
            awaited = {wait.seat for wait in rules.waits(state)} if state is not None else set()
            if state is None or self.seat not in awaited:
                self.table.heard(version, awaited)
                continue
            order = json.loads(json.dumps(bot(state, self.seat, self.rng)))
            body = {"order": order, "expected_version": version}
            path = f"/api/v1/games/{self.table.game_id}/orders"
            answer = await self._timed("order", self.client.post(path, json=body, headers=PREFER))
            tries += 1
            if answer is not None and answer.status_code == 200:
                tries = 0
                self.step.orders[self.table.game_type] += 1
                self._heard_answer(answer.json())

    def _heard_answer(self, answer: Mapping[str, Any]) -> None:
        game = answer.get("game") or {}
        if game:
            awaited = {wait["seat"] for wait in game.get("waits", [])}
            self.table.heard(
                int(game["game"]["version"]), awaited if game["game"]["status"] == "active" else set()
            )


# --- what the processes cost ---------------------------------------------------------------------------


async def _own_backend(server: Server) -> int:
    async with server.lock:
        cursor = await server.database.execute("SELECT pg_backend_pid()")
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def _backends(server: Server, own: int) -> list[int]:
    return [pid for pid in await asyncio.to_thread(baselines.backends_of, server.url) if pid != own]


async def _db_cpu(server: Server, own: int) -> dict[int, float]:
    """CPU seconds of each backend of the database, the bench's own connection left out."""
    return {pid: baselines.cpu_seconds([pid]) for pid in await _backends(server, own)}


def _db_cpu_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """The backends' CPU during the step: a backend that connected meanwhile counts whole."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


def _web_cpu(pid: int) -> float:
    return baselines.cpu_seconds(baselines.process_tree(pid))


def _rss(server: Server, backends: list[int]) -> dict[str, int]:
    """Resident kilobytes: the supervisor, each of its processes (the web processes and multiprocessing's
    resource tracker), the database's backends summed (their shared buffers counted in each), the bench."""
    found = {f"{_role(pid, server.pid)} {pid}": _rss_of(pid) for pid in baselines.process_tree(server.pid)}
    found[f"{len(backends)} backends"] = sum(_rss_of(pid) for pid in backends)
    found["bench"] = _rss_of(os.getpid())
    return found


def _role(pid: int, supervisor: int) -> str:
    if pid == supervisor:
        return "supervisor"
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "gone"
    return "tracker" if b"resource_tracker" in command else "web"


def _rss_of(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    line = next((line for line in status.splitlines() if line.startswith("VmRSS:")), "VmRSS: 0 kB")
    return int(line.split()[1])


if __name__ == "__main__":
    main()
