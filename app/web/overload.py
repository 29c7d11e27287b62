"""Shedding load: past a bound of requests in progress, a process answers 503 with Retry-After at once rather
than queue requests until they time out, and /readyz says it is saturated so that a proxy routes around it.

Live streams, static files and the probes are not counted: a stream holds no database connection while it
waits, and a probe must answer most of all when the process is busy."""

from __future__ import annotations

import json
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.i18n import Translator, pick_language

BUSY = "The server is too busy to answer now; nothing was changed. Try again in a moment."
UNCOUNTED_PREFIXES = ("/static/", "/healthz", "/readyz", "/metrics", "/api/docs")


@dataclass
class InFlight:
    """The requests this process is answering, and its bound."""

    limit: int
    retry_after_seconds: int = 2
    current: int = 0
    refused: int = 0

    @property
    def saturated(self) -> bool:
        return self.current >= self.limit


class InFlightLimit:
    """ASGI middleware: a request past `in_flight.limit` gets a 503 with Retry-After, drawn from nothing."""

    def __init__(self, app: ASGIApp, in_flight: InFlight, language: str = "en") -> None:
        self.app = app
        self.in_flight = in_flight
        self.default_language = language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not counted(scope["path"]):
            await self.app(scope, receive, send)
            return
        if self.in_flight.saturated:
            self.in_flight.refused += 1
            await self._refuse(scope)(scope, receive, send)
            return
        self.in_flight.current += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight.current -= 1

    def _refuse(self, scope: Scope) -> Response:
        headers = {"Retry-After": str(self.in_flight.retry_after_seconds)}
        words = Translator(pick_language(Request(scope), None, self.default_language))
        message = words.gettext(BUSY)
        if scope["path"].startswith("/api/"):
            body = json.dumps({"error": {"code": "busy", "message": message, "field": None}})
            return Response(body, 503, headers, media_type="application/json")
        page = f'<!doctype html><html lang="{words.language}"><title>503</title><p>{message}</p></html>'
        return Response(page, 503, headers, media_type="text/html; charset=utf-8")


def counted(path: str) -> bool:
    return not path.startswith(UNCOUNTED_PREFIXES) and not path.endswith("/live")
