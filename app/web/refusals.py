"""A refused form comes back as it was typed, and a page that needs a log-in sends there and back.

A browser's plain form post that the server refuses goes back (303) to the page it was posted from. The
session keeps, for that one page view, what was typed (never a password nor the CSRF token), the reason
and the field it is about; the page draws the reason above its content, and static/js/forms.js fills the
form in again and moves the reason beside the field or the button, announced to screen readers. An htmx
form keeps what was typed by itself: the same script moves its refusal beside the field.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

SESSION_KEY = "refusal"
SECRET_FIELDS = re.compile(r"password|csrf_token", re.IGNORECASE)
MAX_KEPT_CHARACTERS = 2000  # the session is a cookie: past this, only the reason is kept
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def local_path(target: str, fallback: str = "/") -> str:
    """`target` when it is a path on this site, else `fallback`: a `next` parameter never leads to another
    host (`//evil.example`, `/\\evil.example`, `https://…`, or a control character browsers drop)."""
    parts = urlsplit(target)
    on_this_site = not parts.scheme and not parts.netloc and target.startswith("/")
    if on_this_site and not target.startswith("//") and "\\" not in target and target.isprintable():
        return target
    return fallback


def _is_browser_navigation(request: Request) -> bool:
    return "text/html" in request.headers.get("accept", "") and not request.headers.get("hx-request")


async def typed_values(request: Request) -> list[tuple[str, str]] | None:
    """The fields of a browser's plain form post, secrets left out (none past the cookie's room);
    None for any other request."""
    content_type = request.headers.get("content-type", "")
    if (
        request.method != "POST"
        or not _is_browser_navigation(request)
        or not content_type.startswith(FORM_TYPES)
    ):
        return None
    try:
        form = await request.form()  # read once already by the endpoint: Starlette keeps it
    except Exception:  # a body that is no form, or one already read elsewhere: the plain error page
        return None
    typed = [(key, value) for key, value in form.multi_items() if isinstance(value, str)]
    kept = [(key, value) for key, value in typed if not SECRET_FIELDS.search(key)]
    return kept if sum(len(key) + len(value) for key, value in kept) <= MAX_KEPT_CHARACTERS else []


def form_page(request: Request) -> str | None:
    """The page of this site the form was posted from (its Referer), or None."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc != request.headers.get("host") or referer.scheme not in ("http", "https"):
        return None
    page = referer.path + (f"?{referer.query}" if referer.query else "")
    return local_path(page, fallback="") or None


def keep(request: Request, code: str, message: str, field: str | None, typed: list[tuple[str, str]]) -> None:
    request.session[SESSION_KEY] = {
        "page": form_page(request),
        "action": request.url.path,
        "code": code,
        "message": message,
        "field": field,
        "values": [list(pair) for pair in typed],
    }


def take(request: Request) -> dict[str, Any] | None:
    """The refusal to show on this page view, once; a page it was not meant for drops it."""
    if request.method != "GET" or request.headers.get("hx-request") or SESSION_KEY not in request.session:
        return None
    refusal: dict[str, Any] = request.session.pop(SESSION_KEY)
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return refusal if refusal.get("page") == here else None


def log_in_path(next_page: str) -> str:
    return "/login?next=" + quote(local_path(next_page), safe="/")


def to_log_in(request: Request) -> Response | None:
    """Where a request that needs a log-in is sent: a page to the log-in page and back, an htmx request
    likewise (HX-Redirect, from the page it was made on); None for the API and other clients (401)."""
    if request.headers.get("hx-request"):
        current = urlsplit(request.headers.get("hx-current-url", ""))
        page = current.path + (f"?{current.query}" if current.query else "")
        return Response(status_code=401, headers={"HX-Redirect": log_in_path(page)})
    if not _is_browser_navigation(request):
        return None
    if request.method == "GET":
        return RedirectResponse(
            log_in_path(request.url.path + (f"?{request.url.query}" if request.url.query else "")), 303
        )
    return RedirectResponse(log_in_path(form_page(request) or "/"), 303)


def pending(request: Request) -> bool:
    """Whether a refused form waits to be shown again (a page that shows one is never a 304)."""
    return SESSION_KEY in request.session
