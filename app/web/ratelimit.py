"""A sliding-window rate limiter, per process (several processes each allow the limit)."""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque

from app.services.errors import ServiceError


class RateLimiter:
    def __init__(self) -> None:
        self._hits: dict[tuple[str, str], deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def hit(self, scope: str, key: str, limit: int, window_seconds: float) -> None:
        """Count one request; refuse it (nothing counted) past `limit` in the window."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits[(scope, key)]
            while hits and hits[0] <= now - window_seconds:
                hits.popleft()
            if len(hits) >= limit:
                raise ServiceError("rate_limited", "Too many attempts: wait a minute and try again.")
            hits.append(now)

    def reset(self) -> None:
        with self._lock:
            self._hits.clear()
