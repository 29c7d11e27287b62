from __future__ import annotations

from datetime import datetime
from importlib.resources import files
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from sqlalchemy.orm import Session
from starlette.responses import RedirectResponse, Response

from app.models.records import UserFacts
from app.services.accounts import accounts, api_tokens, login_sessions
from app.services.errors import ServiceError
from app.services.privacy import deletion
from app.web.api import privacy as privacy_api
from app.web.deps import (
    DB,
    AdminUser,
    AppSettings,
    CurrentUser,
    Limiter,
    MaybeUser,
    Now,
    client_address,
    current_session_key,
    log_in,
    log_out,
    optional_user,
    render,
)
from app.web.i18n import LANGUAGES
from app.web.refusals import local_path

router = APIRouter()
TextField = Annotated[str, Form(max_length=256)]
NameField = Annotated[str, Form(max_length=80)]  # as the API's: one limit, one sentence


def _home(target: str = "/") -> RedirectResponse:
    return RedirectResponse(local_path(target), 303)


@router.get("/signup")
def signup_page(request: Request, user: MaybeUser, sent: bool = False, next: str = "/") -> Response:
    if user is not None:  # one account is enough: log out first to make another
        return _home(next)
    context = {"zones": _zones(), "sent": sent, "next": local_path(next)}
    return render(request, "account/signup.html", user, context)


@router.post("/signup")
def signup(
    request: Request,
    session: DB,
    limiter: Limiter,
    settings: AppSettings,
    display_name: NameField,  # in the form's order: an empty form is told about its first field
    email: TextField,
    password: TextField,
    now: Now,
    language: Annotated[str, Form()] = "en",
    time_zone: Annotated[str, Form()] = "UTC",
    next: Annotated[str, Form()] = "/",
) -> Response:
    if optional_user(request, session) is not None:  # a form left open in another tab: nothing to make
        return _home(next)
    limiter.sign_up(client_address(request), email)
    if settings.confirms_signups:  # the same answer whether the address is new, taken or barred
        accounts.request_sign_up(
            session,
            email=email,
            password=password,
            display_name=display_name,
            language=language,
            time_zone=time_zone,
            now=now,
        )
        return _home("/signup?sent=true")
    user = accounts.sign_up(
        session,
        email=email,
        password=password,
        display_name=display_name,
        language=language,
        time_zone=time_zone,
    )
    log_in(request, session, user)
    return _home(next)


@router.get("/login")
def login_page(request: Request, user: MaybeUser, next: str = "/") -> Response:
    if user is not None and next != "/":  # a mail's link, say, for someone logged in already
        return _home(next)
    return render(request, "account/login.html", user, {"next": local_path(next)})


@router.post("/login")
def login(
    request: Request,
    session: DB,
    limiter: Limiter,
    email: TextField,
    password: TextField,
    now: Now,
    next: Annotated[str, Form()] = "/",
) -> Response:
    limiter.log_in(client_address(request), email)
    try:
        user = accounts.authenticate(session, email, password, now)
    except ServiceError as error:
        if error.code != "account_banned" or error.details is None:
            raise
        return render(request, "moderation/banned.html", None, {"ban": error.details}, status_code=403)
    limiter.logged_in(client_address(request), email)
    log_in(request, session, user)
    return _home(next)


@router.post("/logout")
def logout(request: Request, session: DB) -> Response:
    log_out(request, session)
    return _home()


@router.post("/logout-everywhere")
def logout_everywhere(request: Request, session: DB, user: CurrentUser) -> Response:
    accounts.log_out_everywhere(session, user)
    log_out(request, session)
    return _home()


@router.get("/account")
def account_page(request: Request, session: DB, user: CurrentUser, now: Now, saved: bool = False) -> Response:
    return render(request, "account/account.html", user, account_context(request, session, user, now, saved))


def account_context(
    request: Request, session: Session, user: UserFacts, now: datetime, saved: bool = False
) -> dict[str, Any]:
    """What the account page shows: the profile's form, the sessions, the API tokens."""
    return {
        "zones": _zones(),
        "saved": saved,
        "login_sessions": login_sessions.sessions_of(session, user, current_session_key(request), now),
        "api_tokens": api_tokens.tokens_of(session, user),
    }


@router.post("/account")
def update_account(
    request: Request,
    session: DB,
    user: CurrentUser,
    email: TextField,
    display_name: NameField,
    language: Annotated[str, Form()],
    time_zone: Annotated[str, Form()],
    now: Now,
    limiter: Limiter,
    current_password: Annotated[str, Form(max_length=256)] = "",
) -> Response:
    profile = accounts.Profile(display_name=display_name, email=email, language=language, time_zone=time_zone)
    if accounts.is_new_address(user, email):
        limiter.address_change(user.id, email)
    accounts.update_profile(session, user, profile, now, current_password)
    return _home("/account?saved=true")


@router.post("/account/password")
def change_password(
    request: Request,
    session: DB,
    user: CurrentUser,
    limiter: Limiter,
    current_password: TextField,
    new_password: TextField,
) -> Response:
    limiter.password_check(client_address(request), user.email)
    changed = accounts.change_password(session, user, current_password, new_password)
    log_in(request, session, changed)
    return _home("/account?saved=true")


@router.post("/language")
def choose_language(
    request: Request,
    session: DB,
    user: MaybeUser,
    settings: AppSettings,
    language: Annotated[str, Form()],
    next: Annotated[str, Form()] = "/",
) -> Response:
    if language not in LANGUAGES:
        raise ServiceError("invalid_input", "Choose English or French.", "language")
    if user is not None:
        accounts.user_row(session, user).language = language
        session.commit()
    response = _home(next)
    response.set_cookie(
        "lang", language, max_age=365 * 86400, samesite="lax", httponly=True, secure=settings.secure_cookies
    )
    return response


def _zones() -> list[str]:
    """The zones people live in, one per region of each country (tzdata's zone.tab), and UTC: a list to
    search, not the 600 names with their aliases (any known zone is still accepted)."""
    return ZONES


def _listed_zones() -> list[str]:
    table = files("tzdata.zoneinfo").joinpath("zone.tab").read_text(encoding="utf-8")
    rows = (line.split("\t") for line in table.splitlines() if line and not line.startswith("#"))
    return sorted({row[2] for row in rows if len(row) > 2} | {"UTC"})


ZONES = _listed_zones()


# --- sessions and API tokens -------------------------------------------------------------------------


@router.post("/account/sessions/{session_id}/end")
def end_session(session_id: privacy_api.Id, session: DB, user: CurrentUser) -> Response:
    login_sessions.end(session, user, session_id)
    return _home("/account#sessions")


@router.post("/account/sessions/end-others")
def end_other_sessions(request: Request, session: DB, user: CurrentUser) -> Response:
    login_sessions.end_others(session, user, current_session_key(request))
    return _home("/account#sessions")


@router.post("/account/tokens")
def create_token(
    request: Request,
    session: DB,
    user: CurrentUser,
    now: Now,
    name: Annotated[str, Form(max_length=api_tokens.MAX_NAME)],
    scopes: Annotated[list[str], Form()],
    days: Annotated[str, Form(max_length=8)] = "",
) -> Response:
    """The new token is shown in this answer only (a redirect would have to carry it in its address)."""
    lasting = _days(days)
    token, facts = api_tokens.create(session, user, name, scopes, lasting, now)
    context = {
        **account_context(request, session, user, now),
        "new_token": token,
        "new_token_name": facts.name,
    }
    response = render(request, "account/account.html", user, context)
    response.headers["Cache-Control"] = "no-store"
    return response


def _days(days: str) -> int | None:
    if not days.strip():
        return None
    if not days.strip().isdigit():
        raise ServiceError("invalid_input", "A token lasts from 1 to 3650 days, or until revoked.", "days")
    return int(days)


@router.post("/account/tokens/{token_id}/revoke")
def revoke_token(token_id: privacy_api.Id, session: DB, user: CurrentUser) -> Response:
    api_tokens.revoke(session, user, token_id)
    return _home("/account#tokens")


@router.get("/account/export")
def export_my_data(session: DB, user: CurrentUser, limiter: Limiter, now: Now) -> Response:
    """The same document as the API's, downloaded from the account page."""
    return privacy_api.export_my_data(session, user, limiter, now)


@router.post("/account/delete")
def delete_my_account(
    request: Request, session: DB, user: CurrentUser, now: Now, password: TextField
) -> Response:
    deletion.delete_own_account(session, user, password, now)
    log_out(request, session)
    return _home()


@router.post("/admin/users/{user_id}/delete")
def delete_account(
    user_id: privacy_api.Id,
    session: DB,
    user: AdminUser,
    now: Now,
    reason: Annotated[str, Form(max_length=500)],
) -> Response:
    """An administrator deletes an account from its moderation page (audited with the reason)."""
    deletion.delete_by_admin(session, user, user_id, reason, now)
    return _home(f"/moderation/users/{user_id}")
