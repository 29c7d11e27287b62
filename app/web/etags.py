"""Conditional reads: a response's ETag, and a 304 when the client already holds that version."""

from __future__ import annotations

from fastapi import Request
from starlette.responses import Response


def etag_matches(request: Request, etag: str) -> bool:
    """Whether the client's If-None-Match names this ETag (weakly compared, as RFC 9110 says for GET)."""
    sent = request.headers.get("if-none-match", "")
    if not sent:
        return False
    tags = {tag.strip().removeprefix("W/") for tag in sent.split(",")}
    return etag in tags or "*" in tags


def not_modified(etag: str) -> Response:
    return Response(status_code=304, headers={"ETag": etag})


def with_etag(response: Response, etag: str | None) -> Response:
    if etag is not None:
        response.headers["ETag"] = etag
    return response
