"""Game renders drawn once per (game as shown, viewer, language, time zone) and kept: a game page's body, its
live fragment, a log page and the API's reads.

The key holds everything a render depends on, so a kept render is never stale nor someone else's:
- the game as shown: its version, and what moves without a new version (status, name, a moderator's hold,
  who holds each seat, the waits and their deadlines, a trade market's clock), folded into one mark;
- the viewer: a seat (its own hand), a spectator (every spectator shares one render) or a visitor, and
  whether a moderator (a link more);
- the language and the time zone the page writes dates in.

What changes from one request to the next stays out: the CSRF token (a mark in the kept text, replaced per
request), the messages (rendered per request into their slot), the navigation and a refused form (the
page's shell, rendered per request). Relative times ("in 23 hr") are drawn in the browser from the exact
time, which is what a kept render says.

Kept in this process within a byte budget, least recently used first out; with `REDIS_URL` set, also in
Redis, shared by every process."""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis import Redis
from redis.exceptions import RedisError
from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from app.models.records import WAIT_COLUMNS, WAITS, GameFacts, GameRecord, UserFacts, WaitRecord
from app.services.deadlines import markets
from app.services.play import play

log = logging.getLogger(__name__)
CSRF_MARK = "csrf-kept-render-0f3a9c"  # stands for the viewer's CSRF token in a kept render
MESSAGES_MARK = "<!--kept-render-messages-->"  # where the per-request messages go (no user text has "<!--")
DEFAULT_BUDGET_BYTES = 64 * 1024 * 1024
REDIS_SECONDS = 6 * 3600
REDIS_PREFIX = "ostraca:render:"
_WAITS = select(*(WAITS.c[name] for name in WAIT_COLUMNS)).where(WAITS.c.game_id == bindparam("game_id"))


def keepable(game: GameFacts) -> bool:
    """A game under way or over (a forming game, with its invitations, and a seat draft: drawn each time)."""
    return game.state is not None and game.status in ("active", "finished")


@dataclass(frozen=True)
class Read:
    """A game as its renders depend on it, read in two statements: the game, its seats and their holders'
    names, and its waits; `mark` folds the version and what moves without one (status, name, a moderator's
    hold, who holds each seat under which name, the waits and their deadlines, a trade market's clock)."""

    game: GameRecord
    names: dict[int | None, str]
    waits: list[WaitRecord]
    mark: str

    def seat_names(self) -> tuple[str | None, ...]:
        """The seats' holders' names by seat number (None: an empty seat)."""
        names: list[str | None] = [None] * self.game.players
        for seat in self.game.seats:
            if seat.number is not None and seat.user_id is not None:
                names[seat.number] = self.names.get(seat.user_id)
        return tuple(names)

    def asked(self, seat: int | None) -> int | None:
        """The version the seat's question was asked at (None: nothing is asked of it)."""
        return next((wait.since_version for wait in self.waits if wait.seat == seat), None)


def read(session: Session, game_id: int) -> Read:
    game, names = play.read_game(session, game_id)
    waits = sorted((WaitRecord(*row) for row in session.execute(_WAITS, {"game_id": game_id})), key=_by_seat)
    seats = sorted((s.number if s.number is not None else -1, s.user_id or 0, s.status) for s in game.seats)
    parts: list[Any] = [game.version, game.status, game.name, game.hold_kind, game.hold_reason, seats, waits]
    parts.append(sorted(names.items(), key=lambda item: item[0] or 0))
    if any(wait.market for wait in waits):  # a trade market is open: its clock moves without a new version
        parts.append(markets.market_clock(session, game_id))
    return Read(game, names, waits, hashlib.sha256(repr(parts).encode()).hexdigest()[:32])


def _by_seat(wait: WaitRecord) -> int:
    return wait.seat


def viewer_key(game: GameFacts, user: UserFacts | None) -> str:
    """Whose render: a seat's own, a spectator's (shared), a visitor's; a moderator's has a link more."""
    if user is None:
        return "visitor"
    seat = play.viewer_seat(game, user)
    who = "spectator" if seat is None else f"seat{seat}"
    return f"{who}+moderator" if user.is_moderator else who


@dataclass(frozen=True)
class RenderKey:
    kind: str  # page, fragment, log, api, api-log
    game_id: int
    mark: str
    viewer: str
    language: str = ""
    time_zone: str = ""
    extra: str = ""  # the route's own choice: a log page's start, a fragment with or without the orders

    def text(self) -> str:
        return "|".join(
            (self.kind, str(self.game_id), self.mark, self.viewer, self.language, self.time_zone, self.extra)
        )

    def etag(self, *per_request: object) -> str:
        """A strong validator of this render and what the request adds to it."""
        digest = hashlib.sha256("|".join((self.text(), *map(str, per_request))).encode()).hexdigest()
        return f'"{digest[:32]}"'


@dataclass(frozen=True)
class Kept:
    text: str  # the render (HTML or JSON), with CSRF_MARK for the token and MESSAGES_MARK for the messages

    def size(self) -> int:
        return len(self.text) + 64


class RenderCache:
    """Renders by key, in this process within `budget_bytes`, and in Redis when given one."""

    def __init__(self, budget_bytes: int = DEFAULT_BUDGET_BYTES, redis: Redis | None = None) -> None:
        self.budget_bytes = budget_bytes
        self.redis = redis
        self._kept: OrderedDict[str, Kept] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self.renders = 0  # renders drawn (a miss), for the tests and the bench
        self.hits = 0

    def get_or_render(self, key: RenderKey, draw: Callable[[], Kept]) -> Kept:
        name = key.text()
        kept = self._local(name) or self._shared(name)
        if kept is not None:
            self.hits += 1
            return kept
        kept = draw()
        self.renders += 1
        self._keep(name, kept)
        self._share(name, kept)
        return kept

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._bytes = 0

    def _local(self, name: str) -> Kept | None:
        with self._lock:
            kept = self._kept.get(name)
            if kept is not None:
                self._kept.move_to_end(name)
            return kept

    def _keep(self, name: str, kept: Kept) -> None:
        if kept.size() > self.budget_bytes:
            return
        with self._lock:
            old = self._kept.pop(name, None)
            self._bytes -= old.size() if old is not None else 0
            self._kept[name] = kept
            self._bytes += kept.size()
            while self._bytes > self.budget_bytes:
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= dropped.size()

    def _shared(self, name: str) -> Kept | None:
        if self.redis is None:
            return None
        try:
            stored = self.redis.get(REDIS_PREFIX + _digest(name))
        except RedisError as error:
            log.warning("render cache: Redis unreachable (%s); drawing the page here", error)
            return None
        if not isinstance(stored, bytes):
            return None
        data = json.loads(stored)
        if data.get("key") != name:  # a digest shared by two keys: draw it rather than risk another's
            return None
        kept = Kept(data["text"])
        self._keep(name, kept)
        return kept

    def _share(self, name: str, kept: Kept) -> None:
        if self.redis is None:
            return
        data = json.dumps({"key": name, "text": kept.text})
        try:
            self.redis.set(REDIS_PREFIX + _digest(name), data, ex=REDIS_SECONDS)
        except RedisError as error:
            log.warning("render cache: Redis unreachable (%s); the render stays in this process", error)


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()


def make_cache(redis_url: str, budget_bytes: int = DEFAULT_BUDGET_BYTES) -> RenderCache:
    """This process's renders, shared through Redis when `redis_url` is set."""
    redis = Redis.from_url(redis_url, socket_timeout=0.2, socket_connect_timeout=0.2) if redis_url else None
    return RenderCache(budget_bytes, redis)


def with_token(text: str, token: str) -> str:
    return text.replace(CSRF_MARK, token)
