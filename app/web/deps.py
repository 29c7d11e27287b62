"""Dependencies shared by the API and the pages: the database session, the user, CSRF, rendering."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session, object_session
from starlette.responses import Response

from app.models import User
from app.services import accounts, sanctions, turns
from app.services.errors import ServiceError
from app.settings import Settings
from app.web.i18n import Translator, pick_language
from app.web.ratelimit import RateLimiter

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_db(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as session:
        yield session


def get_limiter(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.limiter
    return limiter


def get_now() -> datetime:
    return datetime.now(UTC)


DB = Annotated[Session, Depends(get_db)]
Now = Annotated[datetime, Depends(get_now)]
AppSettings = Annotated[Settings, Depends(get_settings)]
Limiter = Annotated[RateLimiter, Depends(get_limiter)]


def optional_user(request: Request, session: DB) -> User | None:
    """The logged-in user, if the session cookie names one whose session version still holds."""
    user_id = request.session.get("uid")
    if user_id is None:
        return None
    user = accounts.get_user(session, int(user_id))
    stale = user is None or request.session.get("sv") != user.session_version
    if stale or (user is not None and sanctions.is_banned(user, get_now())):
        request.session.pop("uid", None)
        request.session.pop("sv", None)
        return None
    return user


def required_user(user: Annotated[User | None, Depends(optional_user)]) -> User:
    if user is None:
        raise ServiceError("login_required", "Log in first.")
    return user


def moderator_user(user: Annotated[User, Depends(required_user)]) -> User:
    if not user.is_moderator:
        raise ServiceError("forbidden", "Only moderators may see this.")
    return user


def admin_user(user: Annotated[User, Depends(required_user)]) -> User:
    if not user.is_admin:
        raise ServiceError("forbidden", "Only administrators may see this.")
    return user


MaybeUser = Annotated[User | None, Depends(optional_user)]
CurrentUser = Annotated[User, Depends(required_user)]
ModeratorUser = Annotated[User, Depends(moderator_user)]
AdminUser = Annotated[User, Depends(admin_user)]


def log_in(request: Request, user: User) -> None:
    request.session.clear()
    request.session.update({"uid": user.id, "sv": user.session_version, "csrf": secrets.token_urlsafe(24)})


def log_out(request: Request) -> None:
    request.session.clear()


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return str(token)


async def csrf_protect(request: Request) -> None:
    """Every state change carries the session's token, in the X-CSRF-Token header or a form field."""
    if request.method in SAFE_METHODS:
        return
    expected = request.session.get("csrf")
    sent: object = request.headers.get(CSRF_HEADER)
    if not sent and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        sent = (await request.form()).get(CSRF_FIELD)
    if not expected or not isinstance(sent, str) or not secrets.compare_digest(sent, str(expected)):
        raise ServiceError("csrf_failed", "This form has expired: reload the page and try again.")
    origin = request.headers.get("origin")
    if origin and origin != "null" and _host_of(origin) != request.headers.get("host"):
        raise ServiceError("csrf_failed", "This request came from another site.")


def _host_of(origin: str) -> str:
    return origin.split("://", 1)[-1].rstrip("/")


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def translator(request: Request, user: User | None) -> Translator:
    settings: Settings = request.app.state.settings
    return Translator(pick_language(request, user.language if user else None, settings.default_language))


def render(
    request: Request,
    template: str,
    user: User | None,
    context: dict[str, Any] | None = None,
    status_code: int = 200,
) -> Response:
    templates: Jinja2Templates = request.app.state.templates
    tr = translator(request, user)
    full_context: dict[str, Any] = {
        "user": user,
        "csrf_token": csrf_token(request),
        **tr.template_globals(),
        **(context or {}),
    }
    if "turns_waiting" not in full_context:  # a page that read the user's turns gives the count itself
        full_context["turns_waiting"] = _turns_waiting(user)
    response = templates.TemplateResponse(request, template, full_context, status_code=status_code)
    response.headers["Content-Language"] = tr.language
    return response


def _turns_waiting(user: User | None) -> int:
    """The navigation's count of games waiting on the user, read in the request's own session."""
    session = object_session(user) if user is not None else None
    return turns.turns_of(session, user).waiting_on_you if user is not None and session else 0
