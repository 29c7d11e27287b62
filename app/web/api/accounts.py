from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel
from starlette.responses import JSONResponse

from app.services.accounts import accounts
from app.web.api.schemas import ERROR_RESPONSES, LogIn, Me, PasswordChange, ProfileUpdate, SignUp
from app.web.deps import (
    DB,
    AppSettings,
    CurrentUser,
    Limiter,
    Now,
    client_address,
    csrf_token,
    log_in,
    log_out,
)

router = APIRouter(tags=["accounts"], responses=ERROR_RESPONSES)


class SignUpSent(BaseModel):
    """The answer to every valid sign-up when sign-ups wait for the address check."""

    status: str = "check_your_mail"


SIGNUP_RESPONSES: dict[int | str, dict[str, Any]] = {
    202: {"model": SignUpSent, "description": "Sign-ups by mail: a link was mailed, whoever owns the address"}
}


@router.get("/auth/csrf")
def get_csrf_token(request: Request) -> dict[str, str]:
    """The token to send as X-CSRF-Token with every state change (sign-up and log-in included)."""
    return {"csrf_token": csrf_token(request)}


@router.post("/auth/signup", status_code=201, response_model=Me, responses=SIGNUP_RESPONSES)
def sign_up(
    body: SignUp, request: Request, session: DB, limiter: Limiter, settings: AppSettings, now: Now
) -> Any:
    """201 and logged in; or, where sign-ups wait for the address check, 202 for every valid request."""
    limiter.sign_up(client_address(request), body.email)
    if settings.confirms_signups:
        accounts.request_sign_up(
            session,
            email=body.email,
            password=body.password,
            display_name=body.display_name,
            language=body.language,
            time_zone=body.time_zone,
            now=now,
        )
        return JSONResponse(SignUpSent().model_dump(), status_code=202)
    user = accounts.sign_up(
        session,
        email=body.email,
        password=body.password,
        display_name=body.display_name,
        language=body.language,
        time_zone=body.time_zone,
    )
    log_in(request, session, user)
    return Me.of(session, user, csrf_token(request))


@router.post("/auth/login")
def login(body: LogIn, request: Request, session: DB, limiter: Limiter, now: Now) -> Me:
    """A banned account gets 403 `account_banned`, with the ban's `reason` and `until` in `details`."""
    limiter.log_in(client_address(request), body.email)
    user = accounts.authenticate(session, body.email, body.password, now)
    limiter.logged_in(client_address(request), body.email)
    log_in(request, session, user)
    return Me.of(session, user, csrf_token(request))


@router.post("/auth/logout", status_code=204)
def logout(request: Request, session: DB) -> None:
    """Ends this session on the server too: a copy of its cookie no longer works."""
    log_out(request, session)


@router.post("/auth/logout-everywhere", status_code=204)
def logout_everywhere(request: Request, session: DB, user: CurrentUser) -> None:
    accounts.log_out_everywhere(session, user)
    log_out(request, session)


@router.get("/me")
def me(request: Request, session: DB, user: CurrentUser) -> Me:
    return Me.of(session, user, csrf_token(request))


@router.patch("/me")
def update_me(
    body: ProfileUpdate, request: Request, session: DB, limiter: Limiter, user: CurrentUser, now: Now
) -> Me:
    """A new `email` needs `current_password`; the answer is the same whether or not the address is taken
    (`pending_email` shows it either way; only a free address gets the check link)."""
    profile = accounts.Profile(
        display_name=body.display_name or user.display_name,
        email=body.email or user.email,
        language=body.language or user.language,
        time_zone=body.time_zone or user.time_zone,
    )
    if accounts.is_new_address(user, profile.email):
        limiter.address_change(user.id, profile.email)
    updated = accounts.update_profile(session, user, profile, now, body.current_password)
    return Me.of(session, updated, csrf_token(request))


@router.post("/me/password", status_code=204)
def change_password(
    body: PasswordChange, request: Request, session: DB, limiter: Limiter, user: CurrentUser
) -> None:
    limiter.password_check(client_address(request), user.email)
    changed = accounts.change_password(session, user, body.current_password, body.new_password)
    log_in(request, session, changed)  # this session stays; every other one ends
