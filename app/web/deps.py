"""Dependencies shared by the API and the pages: the database session, the user, CSRF, rendering."""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from ipaddress import ip_address
from typing import Annotated, Any

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.templating import Jinja2Templates
from sqlalchemy.orm import Session
from starlette.responses import Response

from app.db import end_request, utcnow
from app.models.records import UserFacts, UserRecord
from app.services.accounts import accounts, api_tokens
from app.services.errors import ServiceError
from app.services.ops import logs
from app.services.play import turns
from app.services.sanctions import sanctions
from app.settings import Network, Settings
from app.web import refusals
from app.web.i18n import Translator, pick_language
from app.web.ratelimit import RateLimiter
from app.web.security import same_secret

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
CSRF_HEADER = "x-csrf-token"
CSRF_FIELD = "csrf_token"


# The dependencies that wait on nothing are `async`: FastAPI runs a plain `def` one in the thread pool, a
# hand-off that costs more than the work. Those that touch the database stay plain functions.


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_db(request: Request) -> Iterator[Session]:
    with request.app.state.sessions() as session:
        request.state.db = session  # the session `render` counts the navigation's waiting games in
        yield session
        end_request(session)


async def get_limiter(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.limiter
    return limiter


async def get_now() -> datetime:
    """The request's time (tests stop it with a dependency override)."""
    return utcnow()


DB = Annotated[Session, Depends(get_db)]
Now = Annotated[datetime, Depends(get_now)]
AppSettings = Annotated[Settings, Depends(get_settings)]
Limiter = Annotated[RateLimiter, Depends(get_limiter)]


API_PREFIX = "/api/v1/"
_bearer_scheme = HTTPBearer(
    auto_error=False,
    scheme_name="PersonalToken",
    description="A personal API token, made on the account page: `Authorization: Bearer ost_...`. "
    "A request with one needs no CSRF token and ignores the session cookie.",
)


def bearer_key(request: Request) -> str | None:
    """The personal token a script sent to the API (None elsewhere, and without one)."""
    if not request.url.path.startswith(API_PREFIX):
        return None
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def optional_user(
    request: Request,
    session: DB,
    _declared: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer_scheme)] = None,
) -> UserRecord | None:
    """The logged-in user: the cookie's session key names a session still open on the server, of a user
    whose session version has not moved since (log out everywhere, a new password, a ban). A request to the
    API with a personal token is that token's user's instead, and the cookie is not read at all."""
    token = bearer_key(request)
    if token is not None:
        return _token_user(request, session, token)
    key = request.session.get("sid")
    if key is None:
        return None
    now = utcnow()
    user = accounts.user_of_login_session(session, str(key), now)
    if user is None or request.session.get("sv") != user.session_version or sanctions.is_banned(user, now):
        for name in ("sid", "sv"):
            request.session.pop(name, None)
        return None
    logs.about_user(user.id)
    return user


def _token_user(request: Request, session: Session, token: str) -> UserRecord:
    now = utcnow()
    bearer = api_tokens.bearer_of(session, token, now)
    if bearer is None or sanctions.is_banned(bearer.user, now):
        raise ServiceError("bad_token", "This API token is unknown, revoked or expired.")
    needed = token_scope(request.method, request.url.path)
    if needed not in bearer.token.scopes:
        raise ServiceError("token_scope", "This API token's scopes do not allow this request.")
    limiter: RateLimiter = request.app.state.limiter
    limiter.token_request(bearer.token.id)
    request.state.api_token = bearer.token
    logs.about_user(bearer.user.id)
    return bearer.user


def token_scope(method: str, path: str) -> str:
    """The scope a request with a personal token needs: reading, writing messages, or playing."""
    if method in SAFE_METHODS:
        return "read"
    if path.endswith("/messages") or path.rstrip("/").endswith("/reports"):
        return "messages"
    return "play"


# What a personal token may never do, whatever its scopes: the account itself (its password, address,
# tokens, sessions, export, deletion), logging in or out, and moderation.
TOKENLESS_PREFIXES = (
    "/api/v1/auth/",
    "/api/v1/moderation/",
    "/api/v1/admin/",
    "/api/v1/me/password",
    "/api/v1/me/tokens",
    "/api/v1/me/sessions",
    "/api/v1/me/delete",
    "/api/v1/me/export",
)


def request_token(request: Request) -> api_tokens.TokenFacts | None:
    """The personal token the request came with, if any."""
    token: api_tokens.TokenFacts | None = getattr(request.state, "api_token", None)
    return token


async def required_user(user: Annotated[UserRecord | None, Depends(optional_user)]) -> UserRecord:
    if user is None:
        raise ServiceError("login_required", "Log in first.")
    return user


async def moderator_user(user: Annotated[UserRecord, Depends(required_user)]) -> UserRecord:
    if not user.is_moderator:
        raise ServiceError("forbidden", "Only moderators may see this.")
    return user


async def admin_user(user: Annotated[UserRecord, Depends(required_user)]) -> UserRecord:
    if not user.is_admin:
        raise ServiceError("forbidden", "Only administrators may see this.")
    return user


MaybeUser = Annotated[UserRecord | None, Depends(optional_user)]
CurrentUser = Annotated[UserRecord, Depends(required_user)]
ModeratorUser = Annotated[UserRecord, Depends(moderator_user)]
AdminUser = Annotated[UserRecord, Depends(admin_user)]


def log_in(request: Request, session: Session, user: UserFacts) -> None:
    """A new server-side session (the one this browser had, if any, ends: no fixation)."""
    log_out(request, session)
    settings: Settings = request.app.state.settings
    lifetime = timedelta(days=settings.session_max_age_days)
    key = accounts.open_login_session(
        session, user, utcnow(), lifetime, client_address(request), request.headers.get("user-agent", "")
    )
    request.session.update({"sid": key, "sv": user.session_version, "csrf": secrets.token_urlsafe(24)})


def log_out(request: Request, session: Session) -> None:
    key = request.session.get("sid")
    if key is not None:
        accounts.close_login_session(session, str(key))
    request.session.clear()


def csrf_token(request: Request) -> str:
    token = request.session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        request.session["csrf"] = token
    return str(token)


async def csrf_protect(request: Request) -> None:
    """Every state change carries the session's token, in the X-CSRF-Token header or a form field."""
    if bearer_key(request) is not None:  # the token authenticates, the cookie is not read: no CSRF to fear
        _refuse_tokenless(request)
        return
    if request.method in SAFE_METHODS:
        return
    expected = request.session.get("csrf")
    sent: object = request.headers.get(CSRF_HEADER)
    if not sent and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        sent = (await request.form()).get(CSRF_FIELD)
    if not expected or not isinstance(sent, str) or not same_secret(sent, str(expected)):
        raise ServiceError("csrf_failed", "This form has expired: reload the page and try again.")
    origin = request.headers.get("origin")
    if origin and origin != "null" and _host_of(origin) != request.headers.get("host"):
        raise ServiceError("csrf_failed", "This request came from another site.")


def _refuse_tokenless(request: Request) -> None:
    path = request.url.path
    if path.startswith(TOKENLESS_PREFIXES) or (path == "/api/v1/me" and request.method not in SAFE_METHODS):
        raise ServiceError("token_scope", "This request needs a log-in: an API token cannot make it.")


def current_session_key(request: Request) -> str | None:
    key = request.session.get("sid")
    return str(key) if key is not None else None


def _host_of(origin: str) -> str:
    return origin.split("://", 1)[-1].rstrip("/")


def client_address(request: Request) -> str:
    """The address the rate limits count: the socket's peer, or, when the peer is a trusted proxy, the
    nearest address in X-Forwarded-For that is not one (every hop left of it could have been made up)."""
    settings: Settings = request.app.state.settings
    peer = request.client.host if request.client else "unknown"
    forwarded = ",".join(request.headers.getlist("x-forwarded-for"))
    return forwarded_client(peer, forwarded, settings.trusted_proxy_networks)


def forwarded_client(peer: str, forwarded_for: str, trusted: Sequence[Network]) -> str:
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    address = peer
    while _is_trusted(address, trusted) and hops:
        address = hops.pop()
    return address[:64]


def _is_trusted(address: str, trusted: Sequence[Network]) -> bool:
    try:
        ip = ip_address(address)
    except ValueError:  # "unknown", or a hop that is no address: trust stops there
        return False
    return any(ip in network for network in trusted)


def public_base_url(request: Request, settings: Settings) -> str:
    """BASE_URL when the operator set it, else the address this request reached (its port included)."""
    if settings.base_url_chosen:
        return settings.base_url
    return str(request.base_url).rstrip("/")


def translator(request: Request, user: UserFacts | None) -> Translator:
    settings: Settings = request.app.state.settings
    return Translator(pick_language(request, user.language if user else None, settings.default_language))


def render(
    request: Request,
    template: str,
    user: UserFacts | None,
    context: dict[str, Any] | None = None,
    status_code: int = 200,
) -> Response:
    templates: Jinja2Templates = request.app.state.templates
    full_context = page_context(request, user, context)
    response = templates.TemplateResponse(request, template, full_context, status_code=status_code)
    response.headers["Content-Language"] = full_context["lang"]
    return response


def render_text(request: Request, template: str, user: UserFacts | None, context: dict[str, Any]) -> str:
    """A part of a page as text, with what `render` gives every template (a cached part's pieces)."""
    templates: Jinja2Templates = request.app.state.templates
    full_context = {"request": request, **page_context(request, user, {"refusal": None, **context})}
    return templates.get_template(template).render(full_context)


def page_context(request: Request, user: UserFacts | None, context: dict[str, Any] | None) -> dict[str, Any]:
    """What every page's template reads besides its own context: the user, the language's words, the
    CSRF token, a refused form to fill again, the navigation's count of waiting games."""
    tr = translator(request, user)
    full_context: dict[str, Any] = {"user": user, **tr.template_globals(), **(context or {})}
    if "csrf_token" not in full_context:  # an error page says None: it shows no token
        full_context["csrf_token"] = csrf_token(request)
    if "refusal" not in full_context:
        full_context["refusal"] = refusals.take(request)
    if "turns_waiting" not in full_context:  # a page that read the user's turns gives the count itself
        full_context["turns_waiting"] = turns_waiting(request, user)
    return full_context


def turns_waiting(request: Request, user: UserFacts | None) -> int:
    """The navigation's count of games waiting on the user, read in the request's own session."""
    session: Session | None = getattr(request.state, "db", None)
    return turns.turns_of(session, user).waiting_on_you if user is not None and session is not None else 0
