"""Rate limits: a moving window per (scope, key), counted by the `limits` library, and the policies the
routes apply.

The counts live in this process (`memory://`), so several web processes each allow the limit; with
`REDIS_URL` set they live in Redis and every process shares them (see docs/moderation.md).
"""

from __future__ import annotations

import logging

from limits import RateLimitItemPerSecond
from limits.errors import StorageError
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from app.services.accounts.accounts import normalise_email
from app.services.errors import ServiceError
from app.settings import Settings

PER_ADDRESS_PER_HOUR = 3  # sign-ups, reset, check and address-change mails per e-mail address or account
# Log-in: an address may try one account `login_attempts_per_minute` times a minute; an address that tries
# many accounts, LOGIN_ADDRESS_FACTOR times that (each try costs an Argon2 hash); and all addresses together
# may try one account LOGIN_ACCOUNT_FACTOR times that an hour, so a guesser spread over many addresses is
# slowed down too. That last limit spares the addresses the account logged in from lately (KNOWN_FOR), so
# someone else's guesses never lock the owner out at home.
LOGIN_ADDRESS_FACTOR = 3
LOGIN_ACCOUNT_FACTOR = 10
KNOWN_FOR = 30 * 86400
GAMES_CREATED_PER_HOUR = 20  # per user
RENAMES_PER_HOUR = 20  # per user
QUEUE_CHANGES_PER_HOUR = 30  # entering, changing or leaving a queue, per user
TOKEN_REQUESTS_PER_MINUTE = 120  # per personal API token, on top of the user's own limits
EXPORTS_PER_HOUR = 3  # per user: an export reads everything the user has
REPLAYS_PER_MINUTE = 20  # per address and per user: a replay is cached, but there are many games and steps
NAMESPACE = "ostraca"
log = logging.getLogger(__name__)


def make_storage(settings: Settings) -> Storage:
    """Redis when `REDIS_URL` is set (shared by every process), else this process's memory."""
    if not settings.redis_url:
        return MemoryStorage()
    storage = storage_from_string(settings.redis_url, wrap_exceptions=True)
    if not isinstance(storage, Storage):  # an async:// URL names a storage this synchronous code cannot use
        raise ValueError("REDIS_URL must be a redis:// URL")
    return storage


class RateLimiter:
    def __init__(self, settings: Settings, storage: Storage | None = None) -> None:
        self.settings = settings
        self.storage = storage or make_storage(settings)
        self._windows = MovingWindowRateLimiter(self.storage)

    def hit(self, scope: str, key: str, limit: int, window_seconds: int) -> None:
        """Count one request; refuse it (nothing counted) past `limit` in the window."""
        item = RateLimitItemPerSecond(limit, window_seconds, namespace=NAMESPACE)
        try:
            allowed = self._windows.hit(item, scope, key)
        except StorageError as error:  # Redis is down: refuse, as when the database is
            log.warning("rate-limit storage unavailable: %s", error)
            raise _busy() from None
        if not allowed:
            raise ServiceError("rate_limited", "Too many attempts: wait a minute and try again.")

    def reset(self) -> None:
        """Forget every count (memory storage; on Redis, the storage's own reset)."""
        self.storage.reset()

    def sign_up(self, client: str, email: str) -> None:
        self.hit("signup", client, self.settings.signups_per_hour, 3600)
        if self.settings.confirms_signups:  # each one mails the address
            self.hit("signup-email", normalise_email(email), PER_ADDRESS_PER_HOUR, 3600)

    def log_in(self, client: str, email: str) -> None:
        per_minute = self.settings.login_attempts_per_minute
        account = normalise_email(email)
        self.hit("login-pair", f"{client} {account}", per_minute, 60)
        self.hit("login-ip", client, per_minute * LOGIN_ADDRESS_FACTOR, 60)
        if not self._known(client, account):
            self.hit("login-account", account, per_minute * LOGIN_ACCOUNT_FACTOR, 3600)

    def password_check(self, client: str, email: str) -> None:
        """Checking a logged-in user's current password (to change it) counts as a log-in attempt: a stolen
        session must not guess it faster than a log-in form would."""
        self.log_in(client, email)

    def logged_in(self, client: str, email: str) -> None:
        """Remember that this address logged in to this account (it is then spared the account's limit)."""
        try:
            self.storage.incr(self._known_key(client, normalise_email(email)), KNOWN_FOR)
        except StorageError as error:
            log.warning("rate-limit storage unavailable: %s", error)

    def _known(self, client: str, account: str) -> bool:
        try:
            return self.storage.get(self._known_key(client, account)) > 0
        except StorageError as error:
            log.warning("rate-limit storage unavailable: %s", error)
            raise _busy() from None

    @staticmethod
    def _known_key(client: str, account: str) -> str:
        return f"{NAMESPACE}/known-login/{client} {account}"

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

    def token_request(self, token_id: int) -> None:
        self.hit("api-token", str(token_id), TOKEN_REQUESTS_PER_MINUTE, 60)

    def token_order(self, token_id: int) -> None:
        """A script's orders: fewer than a person's, so that a runaway loop does not flood a game."""
        self.hit("api-token-orders", str(token_id), max(1, self.settings.orders_per_minute // 2), 60)

    def export(self, user_id: int) -> None:
        self.hit("export", str(user_id), EXPORTS_PER_HOUR, 3600)

    def game_creation(self, user_id: int) -> None:
        self.hit("create-game", str(user_id), GAMES_CREATED_PER_HOUR, 3600)

    def rename(self, user_id: int) -> None:
        self.hit("rename", str(user_id), RENAMES_PER_HOUR, 3600)

    def replay(self, client: str, user_id: int | None) -> None:
        """A replay, through the API or the page: per address, and per account for a logged-in reader
        (whose addresses may be many)."""
        self.hit("replay", client, REPLAYS_PER_MINUTE, 60)
        if user_id is not None:
            self.hit("replay-user", str(user_id), REPLAYS_PER_MINUTE, 60)

    def queue_change(self, user_id: int) -> None:
        self.hit("queue", str(user_id), QUEUE_CHANGES_PER_HOUR, 3600)


def _busy() -> ServiceError:
    return ServiceError(
        "busy", "The server is too busy to answer now; nothing was changed. Try again in a moment."
    )
