"""Security headers on every response."""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# No inline script anywhere (htmx runs with allowEval off), no plugins, no framing, forms post home only.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")


NO_STORE = (b"cache-control", b"private, no-store")
CACHEABLE_PREFIXES = ("/static/", "/api/docs/assets/")


class SecurityHeadersMiddleware:
    """Adds the headers to every HTTP response; over HTTPS (`https`), HSTS too.

    A response that sets its own Content-Security-Policy or Cache-Control keeps it. Every other response
    but the static files is `private, no-store`: pages, fragments and the API carry a player's hidden view,
    the CSRF token or private messages, which no shared cache (nor the browser's disk) may keep.

    A server error is answered outside every middleware (by Starlette's outermost one), so its handler
    calls `secure` itself."""

    def __init__(self, app: ASGIApp, https: bool = False) -> None:
        self.app = app
        self.https = https

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = with_headers(message.get("headers", []), scope["path"], self.https)
            await send(message)

        await self.app(scope, receive, send_with_headers)


def secure(response: Response, path: str, https: bool) -> Response:
    """The response with the headers the middleware gives every other one."""
    response.raw_headers = with_headers(response.raw_headers, path, https)
    return response


def with_headers(headers: Iterable[tuple[bytes, bytes]], path: str, https: bool) -> list[tuple[bytes, bytes]]:
    result = list(headers)
    present = {name.lower() for name, _ in result}
    wanted = [*HEADERS, HSTS] if https else HEADERS
    result += [(name, value) for name, value in wanted if name not in present]
    if not path.startswith(CACHEABLE_PREFIXES) and NO_STORE[0] not in present:
        result.append(NO_STORE)
    return result


def same_secret(sent: str, expected: str) -> bool:
    """A constant-time comparison of two secrets as UTF-8 bytes (any text a client sends compares)."""
    return hmac.compare_digest(
        sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
    )
