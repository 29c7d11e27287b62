"""Rate limits: a sliding window per (scope, key), and the policies the routes apply.

The counts live in this process: several web processes each allow the limit (see docs/moderation.md).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict, deque

from app.services.accounts import normalise_email
from app.services.errors import ServiceError
from app.settings import Settings

PER_ADDRESS_PER_HOUR = 3  # sign-ups, reset, check and address-change mails per e-mail address or account


class RateLimiter:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
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

    def sign_up(self, client: str, email: str) -> None:
        self.hit("signup", client, self.settings.signups_per_hour, 3600)
        if self.settings.confirms_signups:  # each one mails the address
            self.hit("signup-email", normalise_email(email), PER_ADDRESS_PER_HOUR, 3600)

    def log_in(self, client: str, email: str) -> None:
        per_minute = self.settings.login_attempts_per_minute
        self.hit("login-ip", client, per_minute, 60)
        self.hit("login-email", normalise_email(email), per_minute, 60)

    def password_reset(self, client: str, email: str) -> None:
        self.hit("reset-ip", client, self.settings.login_attempts_per_minute, 60)
        self.hit("reset-email", normalise_email(email), PER_ADDRESS_PER_HOUR, 3600)

    def address_check(self, user_id: int) -> None:
        self.hit("verify-mail", str(user_id), PER_ADDRESS_PER_HOUR, 3600)

    def address_change(self, user_id: int, email: str) -> None:
        """Each change mails the new address (or its owner): a few an hour per account and per address."""
        self.hit("address-change", str(user_id), PER_ADDRESS_PER_HOUR, 3600)
        self.hit("address-change-email", normalise_email(email), PER_ADDRESS_PER_HOUR, 3600)

    def order(self, user_id: int) -> None:
        self.hit("orders", str(user_id), self.settings.orders_per_minute, 60)
