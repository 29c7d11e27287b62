"""Live updates: "game N is at version V", fanned out to the SSE streams of this process.

On Postgres the news travels through NOTIFY, which is delivered only when the transaction commits and
reaches every process; each process runs one LISTEN connection (`listen_postgres`) that feeds its local
streams. On SQLite (one process) the news is handed to the local streams right after the commit.

News may have an audience (the users a private message is for): then only their streams get it, so that
nobody else learns when a private message was posted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Collection

log = logging.getLogger(__name__)
CHANNEL = "ostraca_games"


Subscriber = tuple[asyncio.AbstractEventLoop, asyncio.Queue[int], int | None]  # the loop, queue, viewer


class LiveBus:
    def __init__(self) -> None:
        self._queues: dict[int, set[Subscriber]] = defaultdict(set)
        self._lock = threading.Lock()

    @contextlib.asynccontextmanager
    async def subscribe(self, game_id: int, viewer: int | None = None) -> AsyncIterator[asyncio.Queue[int]]:
        """The versions of a game, as `viewer` (a user id; None: anonymous) may hear of them."""
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=64)
        entry = (asyncio.get_running_loop(), queue, viewer)
        with self._lock:
            self._queues[game_id].add(entry)
        try:
            yield queue
        finally:
            with self._lock:
                self._queues[game_id].discard(entry)

    def publish(self, game_id: int, version: int, audience: Collection[int] | None = None) -> None:
        """Safe to call from any thread. `audience`: the only users who may hear of it (None: everyone)."""
        with self._lock:
            targets = list(self._queues.get(game_id, ()))
        for loop, queue, viewer in targets:
            if audience is not None and viewer not in audience:
                continue
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(_offer, queue, version)

    def subscribers(self, game_id: int) -> int:
        with self._lock:
            return len(self._queues.get(game_id, ()))


def _offer(queue: asyncio.Queue[int], version: int) -> None:
    with contextlib.suppress(asyncio.QueueFull):  # a slow reader re-fetches the latest view anyway
        queue.put_nowait(version)


BUS = LiveBus()


def notify_payload(game_id: int, version: int, audience: Collection[int] | None = None) -> str:
    news: dict[str, object] = {"game": game_id, "version": version}
    if audience is not None:
        news["to"] = sorted(audience)
    return json.dumps(news)


async def listen_postgres(dsn: str, bus: LiveBus = BUS) -> None:
    """Forward NOTIFYs to the local bus until cancelled; reconnects after a lost connection."""
    import psycopg

    while True:
        try:
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                async for note in connection.notifies():
                    payload = json.loads(note.payload)
                    audience = payload.get("to")
                    bus.publish(
                        int(payload["game"]),
                        int(payload["version"]),
                        None if audience is None else {int(user_id) for user_id in audience},
                    )
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("live-update listener lost its connection; retrying")
            await asyncio.sleep(2)
