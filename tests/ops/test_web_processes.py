"""Several web processes on one Postgres database: `ostraca serve --processes 2 --no-jobs` (B, two
processes behind one port) beside a plain `ostraca serve --processes 1` (A). The players' orders alternate
between A and B; after each, the other server's live stream tells the new version, and its game page, its
API and its replay (cached per process) show it.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.db import make_engine, session_factory
from app.games import registry
from app.games.contract import RuleError
from app.models import Game, WaitRow
from tests.conftest import POSTGRES_URL
from tests.ops import topology

ROOT = Path(__file__).resolve().parents[2]
ORDERS = 6  # three through each server

pytestmark = pytest.mark.skipif(not POSTGRES_URL, reason="needs Postgres: set TEST_DATABASE_URL")


class Server:
    def __init__(self, name: str, workdir: Path, env: dict[str, str], *arguments: str) -> None:
        self.name = name
        self.port = topology.free_port()
        self.log = workdir / f"{name}.log"
        command = [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port), *arguments]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
        self.heard: set[int] = set()
        self.news = threading.Condition()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 120  # a bound for a busy machine
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()[-2000:]
            try:
                if httpx.get(f"{self.base}/readyz").is_success:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        raise AssertionError(f"{self.name} did not come up: {self.log.read_text()[-2000:]}")

    def web_processes(self) -> int:
        """The processes serving the port: the children uvicorn's supervisor spawned, or itself alone."""
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        spawned = [c for c in children if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]
        return len(spawned) or 1

    def listen(self, game_id: int, connected: threading.Event, stop: threading.Event) -> None:
        with httpx.Client(timeout=httpx.Timeout(30, read=30)) as client:
            while not stop.is_set():
                try:
                    with client.stream("GET", f"{self.base}/games/{game_id}/live") as stream:
                        connected.set()
                        for line in stream.iter_lines():
                            if line.startswith("data:"):
                                with self.news:
                                    self.heard.add(int(line.removeprefix("data:").strip()))
                                    self.news.notify_all()
                            if stop.is_set():
                                return
                except httpx.TransportError:
                    time.sleep(0.2)

    def wait_to_hear(self, version: int, seconds: float = 30) -> bool:
        with self.news:
            return self.news.wait_for(lambda: version in self.heard, timeout=seconds)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


def player(server: Server, name: str) -> httpx.Client:
    """A signed-up player; the session cookie is good on every server (one secret, one database)."""
    client = httpx.Client(timeout=60)
    client.headers["X-CSRF-Token"] = client.get(f"{server.base}/api/v1/auth/csrf").json()["csrf_token"]
    body = {"email": topology.email_of(name), "password": topology.PASSWORD, "display_name": name}
    answer = client.post(f"{server.base}/api/v1/auth/signup", json=body)
    answer.raise_for_status()
    client.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
    return client


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    database_url = f"{POSTGRES_URL}_processes"
    topology.empty_database(database_url)
    env = {
        **os.environ,
        "ENVIRONMENT": "development",
        "DATABASE_URL": database_url,
        "DATA_DIR": str(tmp_path / "data"),
        "SIGNUP_CONFIRMATION": "false",
        "ORDERS_PER_MINUTE": "100000",
    }
    subprocess.run([sys.executable, "-m", "app.cli", "migrate"], cwd=ROOT, env=env, check=True)
    pair = (
        Server("a", tmp_path, env, "--processes", "1"),
        Server("b", tmp_path, env, "--processes", "2", "--no-jobs"),
    )
    try:
        for server in pair:
            server.wait_ready()
        yield pair
    finally:
        for server in pair:
            server.stop()


@pytest.mark.timeout(300)  # a bound for a busy machine: on two idle cores it takes about fifteen seconds
def test_orders_through_one_process_are_seen_live_and_fresh_through_another(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    assert (a.web_processes(), b.web_processes()) == (1, 2)
    first, second = player(a, "Process Player A"), player(b, "Process Player B")
    created = first.post(f"{a.base}/api/v1/games", json={"game_type": "tigris", "players": 2})
    created.raise_for_status()
    game_id = created.json()["id"]
    second.post(f"{b.base}/api/v1/games/{game_id}/join").raise_for_status()
    seats = {c.get(f"{b.base}/api/v1/games/{game_id}").json()["your_seat"]: c for c in (first, second)}

    stop = threading.Event()
    connected = [threading.Event(), threading.Event()]
    listeners = [
        threading.Thread(target=server.listen, args=(game_id, event, stop), daemon=True)
        for server, event in zip(servers, connected, strict=True)
    ]
    for listener in listeners:
        listener.start()
    assert all(event.wait(timeout=30) for event in connected)
    time.sleep(1.0)  # the streams subscribe right after their headers go out
    for server in servers:  # each process's replay cache now holds the starting version
        assert first.get(f"{server.base}/api/v1/games/{game_id}/replay").json()["orders"] == 0

    engine = make_engine(f"{POSTGRES_URL}_processes")
    sessions, rules, rng = session_factory(engine), registry.get("tigris"), random.Random(18)
    versions: list[int] = []
    try:
        for number in range(1, ORDERS + 1):
            through, other = (a, b) if number % 2 else (b, a)
            with sessions() as session:
                game = session.get(Game, game_id)
                assert game is not None and game.state is not None
                seat = session.scalars(select(WaitRow.seat).where(WaitRow.game_id == game_id)).first()
                state, version = game.state, game.version
            assert seat is not None
            try:
                order = rules.sample_order(rules.load(state), seat, rng)
            except RuleError as error:
                raise AssertionError(f"no order for seat {seat}: {error}") from error
            answer = seats[seat].post(
                f"{through.base}/api/v1/games/{game_id}/orders",
                json={"order": order, "expected_version": version},
            )
            assert answer.status_code == 200, answer.text
            new_version = answer.json()["version"]
            assert new_version == _version_of(sessions, game_id) > version
            versions.append(new_version)
            assert other.wait_to_hear(new_version), (other.name, new_version, sorted(other.heard))
            page = seats[seat].get(f"{other.base}/games/{game_id}")
            assert re.findall(r"Version (\d+)", page.text) == [str(new_version)]
            detail = seats[seat].get(f"{other.base}/api/v1/games/{game_id}").json()
            assert detail["game"]["version"] == new_version
            replayed = seats[seat].get(f"{other.base}/api/v1/games/{game_id}/replay").json()
            assert (replayed["version"], replayed["orders"]) == (new_version, number)
            assert replayed["matches_stored_state"] is True
    finally:
        stop.set()
        engine.dispose()
    assert a.wait_to_hear(versions[-1]) and b.wait_to_hear(versions[-1])
    assert a.heard >= set(versions) and b.heard >= set(versions)  # each process hears every order


def _version_of(sessions: sessionmaker[Session], game_id: int) -> int:
    with sessions() as session:
        return session.scalar(select(Game.version).where(Game.id == game_id)) or 0
