"""The production topology on one machine, for `test_topology.py` and `bench/topology.py`.

nginx (Debian's, configured from `deploy/nginx.conf`) in front of two `ostraca serve --no-jobs`, two
`ostraca worker`, one Postgres, Redis for the rate limits and a real SMTP server (aiosmtpd) for the mail.
Simulated players play Dragonstones and Tigris & Euphrates games to the end over HTTP, each order a legal
random one (`sample_order`). Time is compressed: a player sometimes falls asleep on a turn, and once the
wait has lasted `limit_seconds` the harness moves its deadline to now, as an hour-long limit would have
run out; the workers then play the default. Spectators follow each game's live stream through nginx.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import httpx2 as httpx
from aiosmtpd.controller import Controller
from sqlalchemy import Engine, func, make_url, select, text, update
from sqlalchemy.orm import Session, sessionmaker

from app.db import make_engine, session_factory
from app.games import registry
from app.games.contract import RuleError
from app.models import Game, GameOrder, OutgoingMail, TimeoutPlayed, WaitRow

ROOT = Path(__file__).resolve().parent.parent.parent
PASSWORD = "topology password 2026"
LOGIN_LIMIT = 5  # LOGIN_ATTEMPTS_PER_MINUTE of the web processes


def find_nginx() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_timeout=2).ping())
    except Exception:
        return False


def empty_database(database_url: str) -> None:
    """The Postgres database of `database_url` dropped and created again, empty."""
    url = make_url(database_url)
    admin = make_engine(url.set(database="postgres").render_as_string(hide_password=False))
    with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{url.database}"'))
    admin.dispose()


def email_of(name: str) -> str:
    return f"{name.lower().replace(' ', '.')}@example.com"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Size:
    dragonstones: int = 1  # games of 3 players
    dragonstones_points: int = 3  # points to win (2: a shorter game)
    tigris: int = 1  # games of 2 players
    sleep_chance: float = 0.08  # a player falls asleep on this share of their turns
    limit_seconds: float = 1.0  # how long a sleeping player's wait lasts before its deadline falls
    seed: int = 2026


@dataclass
class MailSink:
    """The SMTP server: every Message-ID received, as often as it came."""

    received: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.received[str(message["Message-ID"])] += 1
        return "250 OK"


@dataclass
class Table:
    game_id: int
    game_type: str
    seats: dict[int, httpx.Client]
    start_version: int = 0
    slept: int = 0
    refused: Counter[int] = field(default_factory=Counter)  # status -> answers other than 200
    seen: set[int] = field(default_factory=set)  # versions its spectator heard of
    finished: bool = False


@dataclass
class Figures:
    games: int
    finished: int
    orders: int
    timeouts: int
    deadlines_twice: int
    mails_sent: int
    mails_lost: int
    mails_twice: int
    mails_dead: int
    versions_missed: int
    p99_lateness: float
    seconds: float

    missed_by_game: dict[int, list[int]] = field(default_factory=dict)

    def lines(self) -> list[str]:
        return [f"{name}: {value}" for name, value in vars(self).items()]


class Topology:
    def __init__(self, database_url: str, redis_url: str, nginx: str, workdir: Path) -> None:
        self.database_url = database_url
        self.redis_url = redis_url
        self.nginx = nginx
        self.workdir = workdir
        self.sink = MailSink()
        self.smtp = Controller(self.sink, hostname="127.0.0.1", port=free_port())
        self.web_ports = [free_port(), free_port()]
        self.port = free_port()
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.engine: Engine = make_engine(database_url)
        self.sessions: sessionmaker[Session] = session_factory(self.engine)

    # --- processes -------------------------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "ENVIRONMENT": "development",
            "DATABASE_URL": self.database_url,
            "DATA_DIR": str(self.workdir / "data"),
            "BASE_URL": f"http://127.0.0.1:{self.port}",
            "SMTP_URL": f"smtp://127.0.0.1:{self.smtp.port}",
            "REDIS_URL": self.redis_url,
            "TRUSTED_PROXIES": "127.0.0.1",
            "SIGNUP_CONFIRMATION": "false",
            "SIGNUPS_PER_HOUR": "100000",
            "ORDERS_PER_MINUTE": "100000",
            "LOGIN_ATTEMPTS_PER_MINUTE": str(LOGIN_LIMIT),
            "SWEEP_SECONDS": "0.25",
            "SWEEP_LEASE_SECONDS": "20",  # what a killed worker held comes back after this
            "MAIL_EVERY_SECONDS": "0.5",
            "MAIL_LEASE_SECONDS": "30",  # longer than a batch takes to send, or another worker sends it too
            "YOUR_TURN_EVERY_HOURS": "0",
        }

    def spawn(self, name: str, *arguments: str) -> None:
        log = (self.workdir / f"{name}.log").open("ab")
        command = [sys.executable, "-m", "app.cli", *arguments]
        self.processes[name] = subprocess.Popen(command, cwd=ROOT, env=self.env(), stdout=log, stderr=log)

    def start(self) -> None:
        self._empty_database()
        subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, env=self.env(), check=True)
        self.smtp.start()
        for index, port in enumerate(self.web_ports):
            self.spawn(f"web{index}", "serve", "--no-jobs", "--port", str(port))
        for index in range(2):
            self.spawn(f"worker{index}", "worker")
        self._start_nginx()
        self._wait_ready()

    def kill(self, name: str) -> None:
        """As a crash: SIGKILL, no clean-up; its claims are left to expire."""
        self.processes[name].send_signal(signal.SIGKILL)
        self.processes[name].wait(timeout=30)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        self.smtp.stop()
        self.engine.dispose()

    def _empty_database(self) -> None:
        empty_database(self.database_url)

    def _start_nginx(self) -> None:
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        upstreams = "\n".join(f"    server 127.0.0.1:{port};" for port in self.web_ports)
        site = site.replace("    server web:8000;", upstreams, 1).replace(
            "listen 80;", f"listen 127.0.0.1:{self.port};"
        )
        site = site.replace(
            "    client_max_body_size 1m;",
            "    client_max_body_size 1m;\n    add_header X-Upstream $upstream_addr always;",
        )
        prefix = self.workdir / "nginx"
        prefix.mkdir()
        temp = " ".join(
            f"{kind}_temp_path {prefix}/{kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (prefix / "site.conf").write_text(site)
        (prefix / "nginx.conf").write_text(
            f"daemon off;\npid {prefix}/nginx.pid;\nerror_log {prefix}/error.log;\nworker_processes 1;\n"
            f"events {{ worker_connections 512; }}\n"
            f"http {{\n access_log off;\n {temp}\n include {prefix}/site.conf;\n}}\n"
        )
        log = (self.workdir / "nginx.log").open("ab")
        self.processes["nginx"] = subprocess.Popen(
            [self.nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf")], stdout=log, stderr=log
        )

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 300  # a bound for a busy machine; an idle one is up in seconds
        while time.monotonic() < deadline:
            try:
                direct = all(httpx.get(f"http://127.0.0.1:{p}/readyz").is_success for p in self.web_ports)
                if direct and httpx.get(f"{self.base}/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            for name, process in self.processes.items():
                if process.poll() is not None:
                    raise RuntimeError(
                        f"{name} stopped: {(self.workdir / f'{name}.log').read_text()[-2000:]}"
                    )
            time.sleep(0.3)
        raise RuntimeError(f"the topology did not come up: {self.log_tails()}")

    def log_tails(self) -> str:
        logs = [*self.workdir.glob("*.log"), self.workdir / "nginx" / "error.log"]
        return "\n".join(f"== {log.name}\n{log.read_text()[-1500:]}" for log in logs if log.exists())

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # --- players ---------------------------------------------------------------------------------------

    def player(self, name: str) -> httpx.Client:
        client = httpx.Client(base_url=self.base, timeout=60)
        client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
        body = {"email": email_of(name), "password": PASSWORD, "display_name": name}
        answer = client.post("/api/v1/auth/signup", json=body)
        answer.raise_for_status()
        client.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
        return client

    def table(
        self, game_type: str, players: int, number: int, options: dict[str, Any] | None = None
    ) -> Table:
        clients = [self.player(f"{game_type.title()} {number} Player {n}") for n in range(players)]
        body = {"game_type": game_type, "players": players, "time_limit_hours": 1, "options": options or {}}
        created = clients[0].post("/api/v1/games", json=body)
        created.raise_for_status()
        game_id = created.json()["id"]
        for client in clients[1:]:
            client.post(f"/api/v1/games/{game_id}/join").raise_for_status()
        seats = {client.get(f"/api/v1/games/{game_id}").json()["your_seat"]: client for client in clients}
        return Table(game_id, game_type, seats)

    def play(self, table: Table, rng: random.Random, size: Size, stop: threading.Event) -> None:
        """Play one game to its end: an order for an awake seat, or a deadline that runs out on a sleeper."""
        rules = registry.get(table.game_type)
        asleep: dict[tuple[int, int], float] = {}  # (seat, wait's version) -> when it fell asleep
        slept_last: set[int] = set()  # never twice in a row: a sleeper is late, not gone (no eviction)
        while not stop.is_set():
            with self.sessions() as session:
                game = session.get(Game, table.game_id)
                assert game is not None
                if game.status != "active":
                    table.finished = game.status == "finished"
                    return
                waits = list(session.scalars(select(WaitRow).where(WaitRow.game_id == game.id)))
                state, version = game.state, game.version
            awake = []
            for wait in waits:
                key = (wait.seat, wait.since_version)
                if key not in asleep and wait.seat not in slept_last and rng.random() < size.sleep_chance:
                    asleep[key] = time.monotonic()
                    slept_last.add(wait.seat)
                    table.slept += 1
                if key in asleep:
                    if time.monotonic() - asleep[key] >= size.limit_seconds:
                        self._run_out(wait.id, wait.since_version)
                else:
                    awake.append(wait.seat)
            if not awake:
                time.sleep(0.05)
                continue
            seat = rng.choice(awake)
            try:
                order = rules.sample_order(rules.load(state or {}), seat, rng)
            except RuleError:  # the waits were read after a commit the state was read before: read again
                continue
            try:
                answer = table.seats[seat].post(
                    f"/api/v1/games/{table.game_id}/orders",
                    json={"order": order, "expected_version": version},
                )
            except httpx.TransportError:  # a connection the proxy closed: the version says what happened
                table.refused[0] += 1
                continue
            if answer.status_code == 200:
                slept_last.discard(seat)
            else:
                table.refused[answer.status_code] += 1

    def _run_out(self, wait_id: int, since_version: int) -> None:
        """The wait's deadline falls now (the game locked first, as every writer of a game does)."""
        with self.sessions.begin() as session:
            game_id = select(WaitRow.game_id).where(WaitRow.id == wait_id).scalar_subquery()
            locked = session.scalar(
                select(Game.id).where(Game.id == game_id).with_for_update(skip_locked=True)
            )
            if locked is None:
                return
            now = datetime.now(UTC)
            session.execute(
                update(WaitRow)
                .where(
                    WaitRow.id == wait_id, WaitRow.since_version == since_version, WaitRow.deadline_at > now
                )
                .values(deadline_at=now, check_at=now)
            )

    # --- spectators ------------------------------------------------------------------------------------

    def spectate(self, table: Table, connected: threading.Event, stop: threading.Event) -> None:
        """Hear every version of the game on its live stream, through nginx, until it ends."""
        with httpx.Client(base_url=self.base, timeout=httpx.Timeout(60, read=60)) as client:
            while not stop.is_set():
                try:
                    heard = str(max(table.seen, default=table.start_version))  # as EventSource does
                    live = f"/games/{table.game_id}/live"
                    with client.stream("GET", live, headers={"Last-Event-ID": heard}) as stream:
                        connected.set()
                        for line in stream.iter_lines():
                            if line.startswith("data:"):
                                table.seen.add(int(line.removeprefix("data:").strip()))
                            if stop.is_set():
                                return
                except httpx.TransportError:  # the stream dropped (pings come every 20 s): listen again
                    time.sleep(0.2)

    # --- what came of it -------------------------------------------------------------------------------

    def wait_for_outbox(self, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            with self.sessions() as session:
                waiting = session.scalar(
                    select(func.count()).where(OutgoingMail.sent_at.is_(None), OutgoingMail.dead_at.is_(None))
                )
            if not waiting:
                return
            time.sleep(0.5)

    def figures(self, tables: list[Table], seconds: float) -> Figures:
        with self.sessions() as session:
            twice = session.execute(
                select(TimeoutPlayed.game_id, TimeoutPlayed.seat, TimeoutPlayed.deadline_at)
                .group_by(TimeoutPlayed.game_id, TimeoutPlayed.seat, TimeoutPlayed.deadline_at)
                .having(func.count() > 1)
            ).all()
            lateness = sorted(session.scalars(select(TimeoutPlayed.late_seconds)))
            timeouts = session.scalar(select(func.count()).where(GameOrder.origin == "timeout")) or 0
            orders = session.scalar(select(func.count()).select_from(GameOrder)) or 0
            sent = set(
                session.scalars(select(OutgoingMail.message_id).where(OutgoingMail.sent_at.is_not(None)))
            )
            dead = session.scalar(select(func.count()).where(OutgoingMail.dead_at.is_not(None))) or 0
            finals = {game.id: game.version for game in session.scalars(select(Game))}
        with self.sink.lock:
            received = Counter(self.sink.received)
        missed = {
            t.game_id: sorted(set(range(t.start_version + 1, finals[t.game_id] + 1)) - t.seen) for t in tables
        }
        return Figures(
            games=len(tables),
            finished=sum(t.finished for t in tables),
            orders=orders,
            timeouts=timeouts,
            deadlines_twice=len(twice),
            mails_sent=len(sent),
            mails_lost=len(sent - set(received)),
            mails_twice=sum(1 for count in received.values() if count > 1),
            mails_dead=dead,
            versions_missed=sum(len(versions) for versions in missed.values()),
            p99_lateness=lateness[int(0.99 * (len(lateness) - 1))] if lateness else 0.0,
            seconds=round(seconds, 1),
            missed_by_game={game: versions for game, versions in missed.items() if versions},
        )


def game_version(topology: Topology, game_id: int) -> int:
    with topology.sessions() as session:
        return session.scalar(select(Game.version).where(Game.id == game_id)) or 0


def run(topology: Topology, size: Size, kill_after_orders: int) -> tuple[list[Table], float]:
    """Set up the tables, follow them live, play them to the end with a worker killed and restarted midway."""
    short = {"points_to_win": size.dragonstones_points}
    tables = [topology.table("dragonstones", 3, n, short) for n in range(size.dragonstones)]
    tables += [topology.table("tigris", 2, n) for n in range(size.tigris)]
    stop = threading.Event()
    connected = [threading.Event() for _ in tables]
    spectators = [
        threading.Thread(target=topology.spectate, args=(t, c, stop), daemon=True)
        for t, c in zip(tables, connected, strict=True)
    ]
    for spectator in spectators:
        spectator.start()
    for event in connected:
        event.wait(timeout=60)
    time.sleep(2.0)  # the streams subscribe right after their headers go out
    for table in tables:
        table.start_version = game_version(topology, table.game_id)
    started = time.monotonic()
    players = [
        threading.Thread(
            target=topology.play, args=(t, random.Random(size.seed + n), size, stop), daemon=True
        )
        for n, t in enumerate(tables)
    ]
    for player in players:
        player.start()
    _kill_a_worker_midway(topology, players, kill_after_orders)
    for player in players:
        player.join(timeout=600)
    elapsed = time.monotonic() - started
    time.sleep(2.0)  # the last versions reach the streams
    stop.set()
    for spectator in spectators:
        spectator.join(timeout=1)  # one still listening ends with nginx
    return tables, elapsed


def _kill_a_worker_midway(topology: Topology, players: list[threading.Thread], after_orders: int) -> None:
    while any(player.is_alive() for player in players):
        with topology.sessions() as session:
            orders = session.scalar(select(func.count()).select_from(GameOrder)) or 0
        if orders >= after_orders:
            topology.kill("worker0")
            time.sleep(1.0)
            topology.spawn("worker0", "worker")
            return
        time.sleep(0.2)


def rate_limit_answers(topology: Topology, attempts: int) -> tuple[list[int], set[str]]:
    """Wrong passwords for one account from one address, through nginx: the statuses and the upstreams."""
    topology.player("Limited Player")
    statuses, upstreams = [], set()
    with httpx.Client(base_url=topology.base, timeout=60) as client:
        client.headers["X-CSRF-Token"] = client.get("/api/v1/auth/csrf").json()["csrf_token"]
        for _ in range(attempts):
            body = {"email": email_of("Limited Player"), "password": "wrong password"}
            answer = client.post("/api/v1/auth/login", json=body)
            statuses.append(answer.status_code)
            upstreams.add(answer.headers.get("x-upstream", ""))
    return statuses, upstreams
