"""Live updates: "game N is at version V", fanned out to the SSE streams of this process.

On Postgres the news travels through NOTIFY, which is delivered only when the transaction commits and
reaches every process; each process runs one LISTEN connection (`listen_postgres`) that feeds its local
streams. On SQLite (one process) the news is handed to the local streams right after the commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import defaultdict
from collections.abc import AsyncIterator

log = logging.getLogger(__name__)
CHANNEL = "ostraca_games"


class LiveBus:
    def __init__(self) -> None:
        self._queues: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Queue[int]]]] = defaultdict(set)
        self._lock = threading.Lock()

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: int) -> AsyncIterator[asyncio.Queue[int]]:
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=64)
        entry = (asyncio.get_running_loop(), queue)
        with self._lock:
            self._queues[game_id].add(entry)
        try:
            yield queue
        finally:
            with self._lock:
                self._queues[game_id].discard(entry)

    def publish(self, game_id: int, version: int) -> None:
        """Safe to call from any thread."""
        with self._lock:
            targets = list(self._queues.get(game_id, ()))
        for loop, queue in targets:
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(_offer, queue, version)

    def subscribers(self, game_id: int) -> int:
        with self._lock:
            return len(self._queues.get(game_id, ()))


def _offer(queue: asyncio.Queue[int], version: int) -> None:
    with contextlib.suppress(asyncio.QueueFull):  # a slow reader re-fetches the latest view anyway
        queue.put_nowait(version)


BUS = LiveBus()


def notify_payload(game_id: int, version: int) -> str:
    return json.dumps({"game": game_id, "version": version})


async def listen_postgres(dsn: str, bus: LiveBus = BUS) -> None:
    """Forward NOTIFYs to the local bus until cancelled; reconnects after a lost connection."""
    import psycopg

    while True:
        try:
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                async for note in connection.notifies():
                    payload = json.loads(note.payload)
                    bus.publish(int(payload["game"]), int(payload["version"]))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("live-update listener lost its connection; retrying")
            await asyncio.sleep(2)
