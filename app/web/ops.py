"""What a host's probes and Prometheus read: /healthz, /readyz, /metrics, and the request timer."""

from __future__ import annotations

import hmac
import re
import time
import uuid

from fastapi import APIRouter, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.services.ops import health, logs, metrics
from app.web.overload import InFlight

router = APIRouter(include_in_schema=False)
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})
PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8"
REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{8,64}")  # what a proxy's id looks like (nginx: 32 hex digits)


@router.get("/healthz")
def healthz() -> JSONResponse:
    """The process is up and answers; nothing else is looked at (no database)."""
    return JSONResponse({"status": "ok"})


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    in_flight: InFlight = request.app.state.in_flight
    load = {"in_flight": in_flight.current, "limit": in_flight.limit, "refused": in_flight.refused}
    if in_flight.saturated:  # answered without the database or a thread: the process has none to spare
        saturated = {"code": "saturated", "message": "This process answers as many requests as it may."}
        headers = {"Retry-After": str(in_flight.retry_after_seconds)}
        return JSONResponse({"error": {**saturated, **load}}, status_code=503, headers=headers)
    state = await run_in_threadpool(health.readiness, request.app.state.engine)
    if not state.ready:
        body = {"code": state.code, "message": state.message, "current": state.current, "head": state.head}
        return JSONResponse({"error": body}, status_code=503, headers={"Retry-After": "5"})
    return JSONResponse({"status": "ready", "revision": list(state.head)})


@router.get("/metrics")
async def prometheus_metrics(request: Request) -> Response:
    if not _may_scrape(request):
        refusal = {"code": "metrics_forbidden", "message": "Metrics are for loopback or the metrics token."}
        return JSONResponse({"error": refusal}, status_code=403)
    text = await run_in_threadpool(metrics.exposition, request.app.state.sessions)
    return Response(text, media_type=PROMETHEUS_TEXT)


def _may_scrape(request: Request) -> bool:
    if request.client is not None and request.client.host in LOOPBACK:
        return True
    token: str = request.app.state.settings.metrics_token
    given = request.headers.get("authorization", "")
    return bool(token) and hmac.compare_digest(given.encode(), f"Bearer {token}".encode())


class RequestTimer:
    """Times every HTTP request under its route template ("/games/{game_id}"), never its raw path."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed_send(message: Message) -> None:
            if message["type"] == "http.response.start":  # time to first byte: streams stay open for hours
                route = route_template(scope)
                metrics.REQUEST_SECONDS.labels(scope["method"], route).observe(time.perf_counter() - started)
            await send(message)

        await self.app(scope, receive, timed_send)


def route_template(scope: Scope) -> str:
    """The matched route's template with its router prefixes ("/api/v1/games/{game_id}").

    The matched route knows only its own template ("/games/{game_id}"): the prefixes of the routers that
    include it are the leading segments of the path that the template does not cover.
    """
    route = scope.get("route")
    template: str | None = getattr(route, "path", None)
    if template is None:
        return "unmatched"
    if isinstance(route, Mount) or ":path}" in template:  # the rest of the path is one file or subpath
        return template
    covered = template.count("/")
    segments = scope["path"].rstrip("/").split("/")
    prefix = "/".join(segments[: len(segments) - covered]) if covered < len(segments) else ""
    return prefix + template


class RequestContext:
    """Gives every HTTP request an id (the proxy's X-Request-ID, or a new one) for its log lines and its
    answer's X-Request-ID header; the user and the game join it as the request goes on (`logs`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = _given_request_id(scope) or uuid.uuid4().hex
        logs.begin(logs.LogContext(request_id=request_id, path_params=lambda: scope.get("path_params", {})))

        async def tagged_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        await self.app(scope, receive, tagged_send)


def _given_request_id(scope: Scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"x-request-id":
            text = value.decode("latin-1")
            return text if REQUEST_ID.fullmatch(text) else None
    return None
