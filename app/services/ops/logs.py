"""Structured logs: one line a record, JSON in production and readable text in development, each carrying
the request id, user id and game id of what it is about.

The context is one mutable object per request (or per job), held in a context variable: a dependency that
runs in a worker thread sees the same object and can name the user on it, and a game id is read from the
request's path parameters when a record is written, since routing fills them in after the context is made.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

CONTEXT_FIELDS = ("request_id", "user_id", "game_id")


@dataclass
class LogContext:
    request_id: str | None = None
    user_id: int | None = None
    game_id: int | None = None
    path_params: Callable[[], dict[str, Any]] | None = None  # the request's, once routed

    def resolved_game_id(self) -> int | None:
        if self.game_id is not None or self.path_params is None:
            return self.game_id
        raw = str(self.path_params().get("game_id", ""))  # the path's text: FastAPI converts it later
        return int(raw) if raw.isdigit() and len(raw) < 19 else None


_CURRENT: ContextVar[LogContext | None] = ContextVar("ostraca_log_context", default=None)


def begin(context: LogContext) -> None:
    """Make `context` the current one for the rest of this task (a request's task ends with it)."""
    _CURRENT.set(context)


@contextlib.contextmanager
def about(**fields: Any) -> Iterator[LogContext]:
    """A context for a piece of background work: `with logs.about(game_id=7): ...`."""
    token = _CURRENT.set(LogContext(**fields))
    try:
        yield _CURRENT.get() or LogContext()
    finally:
        _CURRENT.reset(token)


def about_user(user_id: int) -> None:
    current = _CURRENT.get()
    if current is not None:
        current.user_id = user_id


class ContextFilter(logging.Filter):
    """Puts the current request, user and game on every record (None when there is none)."""

    def filter(self, record: logging.LogRecord) -> bool:
        current = _CURRENT.get()
        record.request_id = current.request_id if current else None
        record.user_id = current.user_id if current else None
        record.game_id = current.resolved_game_id() if current else None
        record.context = " ".join(
            f"{name.removesuffix('_id')}={getattr(record, name)}"
            for name in CONTEXT_FIELDS
            if getattr(record, name) is not None
        )
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update({name: getattr(record, name, None) for name in CONTEXT_FIELDS})
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(context)s] %(message)s"


def configure(
    json_lines: bool, filters: Sequence[logging.Filter] = (), stream: IO[str] | None = None
) -> logging.Handler:
    """One handler on the root logger; uvicorn's loggers write through it too."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(ContextFilter())
    for extra in filters:
        handler.addFilter(extra)
    handler.setFormatter(JsonFormatter() if json_lines else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(logging.INFO)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True
    logging.getLogger("apscheduler").setLevel(logging.WARNING)  # not two lines for every run of every job
    return handler
