"""Notification settings, the calendar address, address verification and the password-reset flow."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from starlette.responses import RedirectResponse, Response

from app.models import MailSettings
from app.services.accounts import accounts
from app.services.errors import ServiceError
from app.services.mail import account_mail, notify
from app.web.deps import (
    DB,
    AppSettings,
    CurrentUser,
    Limiter,
    MaybeUser,
    client_address,
    log_out,
    public_base_url,
    render,
)
from app.web.emails import KIND_TITLES
from app.web.forms import FormFields

router = APIRouter()
TextField = Annotated[str, Form(max_length=256)]


def calendar_url(base_url: str, token: str) -> str:
    return f"{base_url}/calendar/{token}.ics"


@router.get("/account/notifications")
def notifications_page(
    request: Request, session: DB, user: CurrentUser, settings: AppSettings, saved: str = ""
) -> Response:
    own = session.get(MailSettings, user.id)
    context = {
        "modes": notify.modes_of(session, user.id),
        "kind_titles": KIND_TITLES,
        "quiet_start": notify.minute_text(own.quiet_start_minute if own else None),
        "quiet_end": notify.minute_text(own.quiet_end_minute if own else None),
        "digest_hour": own.digest_hour if own else 8,
        "your_turn_always": bool(own and own.your_turn_always),
        "calendar_url": calendar_url(
            public_base_url(request, settings), notify.calendar_token(session, user)
        ),
        "verified": account_mail.is_verified(session, user),
        "failing_since": own.failing_since if own else None,
        "failing_reason": own.failing_reason if own else None,
        "saved": saved,
    }
    return render(request, "account/notifications.html", user, context)


@router.post("/account/notifications")
def save_notifications(session: DB, user: CurrentUser, fields: FormFields) -> Response:
    try:
        digest_hour = int(fields.get("digest_hour", "8"))
    except ValueError:
        raise ServiceError("invalid_input", "The digest hour is 0 to 23.", "digest_hour") from None
    modes = fields.get("mode", {})
    preferences = notify.Preferences(
        modes={kind: str(mode) for kind, mode in modes.items()} if isinstance(modes, dict) else {},
        quiet_start=str(fields.get("quiet_start", "")),
        quiet_end=str(fields.get("quiet_end", "")),
        digest_hour=digest_hour,
        your_turn_always=fields.get("your_turn_always") == "on",
    )
    notify.save_preferences(session, user, preferences)
    return RedirectResponse("/account/notifications?saved=preferences", 303)


@router.post("/account/notifications/calendar")
def regenerate_calendar(session: DB, user: CurrentUser) -> Response:
    notify.new_calendar_token(session, user)
    return RedirectResponse("/account/notifications?saved=calendar#calendar", 303)


@router.post("/account/verify")
def send_verification(session: DB, user: CurrentUser, limiter: Limiter) -> Response:
    limiter.address_check(user.id)
    accounts.queue_address_check(session, user)
    session.commit()
    return RedirectResponse("/account/notifications?saved=verification#address", 303)


@router.get("/password/forgot")
def forgot_page(request: Request, user: MaybeUser, sent: bool = False) -> Response:
    return render(request, "account/password_forgot.html", user, {"sent": sent})


@router.post("/password/forgot")
def forgot(request: Request, session: DB, limiter: Limiter, email: TextField) -> Response:
    """The same answer whether or not the address has an account."""
    limiter.password_reset(client_address(request), email)
    account_mail.request_password_reset(session, email)
    return RedirectResponse("/password/forgot?sent=true", 303)


@router.get("/password/reset/{token}")
def reset_page(request: Request, session: DB, user: MaybeUser, settings: AppSettings, token: str) -> Response:
    owner = account_mail.user_for_reset(session, settings.secret_key, token)
    return render(request, "account/password_reset.html", user, {"token": token, "email": owner.email})


@router.post("/password/reset/{token}")
def reset(
    request: Request, session: DB, settings: AppSettings, token: str, new_password: TextField
) -> Response:
    account_mail.reset_password(session, settings.secret_key, token, new_password)
    log_out(request, session)
    return RedirectResponse("/login?reset=done", 303)
