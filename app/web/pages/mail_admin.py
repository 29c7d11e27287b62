"""Mail for administrators (dead mails, failing addresses) and, in development, the mails written to files."""

from __future__ import annotations

import ipaddress
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from sqlalchemy import select
from starlette.responses import RedirectResponse, Response

from app.models import MailSettings, User
from app.models.records import UserFacts
from app.services.errors import ServiceError, not_found
from app.services.mail import mail, notify
from app.settings import Settings
from app.web.deps import DB, AppSettings, CurrentUser, MaybeUser, Now, client_address, render

router = APIRouter()
DEV_MAIL_SHOWN = 200


def _admin(user: UserFacts) -> None:
    if not user.is_admin:
        raise ServiceError("forbidden", "This page is for administrators.")


@router.get("/admin/mail")
def admin_mail(request: Request, session: DB, user: CurrentUser) -> Response:
    _admin(user)
    failing = session.execute(
        select(User.display_name, User.email, MailSettings.failing_since, MailSettings.failing_reason)
        .join(MailSettings, MailSettings.user_id == User.id)
        .where(MailSettings.failing_since.is_not(None))
        .order_by(MailSettings.failing_since.desc())
    ).all()
    context = {"dead": mail.dead_mails(session), "failing": failing, "counts": mail.outbox_counts(session)}
    return render(request, "admin/mail.html", user, context)


@router.post("/admin/mail/{mail_id}/retry")
def retry_mail(session: DB, user: CurrentUser, now: Now, mail_id: int) -> Response:
    _admin(user)
    if not mail.retry_dead(session, mail_id, now):
        raise not_found("This dead mail does not exist.")
    return RedirectResponse("/admin/mail", 303)


@router.post("/admin/mail/failing")
def mark_failing(
    session: DB,
    user: CurrentUser,
    now: Now,
    email: Annotated[str, Form(max_length=254)],
    reason: Annotated[str, Form(max_length=200)] = "",
) -> Response:
    """What the outgoing server's bounce report says, entered by hand."""
    _admin(user)
    if not notify.mark_failing(session, email, reason or "marked by an administrator", now):
        raise not_found("An account with this address does not exist.")
    return RedirectResponse("/admin/mail", 303)


# --- development: mails written to files -------------------------------------------------------------


def _dev_only(request: Request, settings: Settings, user: UserFacts | None) -> Path:
    """The mails hold reset and check links: never in production, and in development only to this
    machine's own browser or an administrator (a development server may still be reachable from others)."""
    if not settings.development:
        raise not_found()
    if not (_is_loopback(client_address(request)) or (user is not None and user.is_admin)):
        raise ServiceError("forbidden", "The mails written to files are shown on this machine only.")
    return settings.mail_dir


def _is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:  # "unknown", or a name
        return False


def _read(path: Path) -> EmailMessage:
    parsed = message_from_bytes(path.read_bytes(), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def _summary(path: Path) -> dict[str, Any]:
    message = _read(path)
    return {"name": path.name, "to": message["To"], "subject": message["Subject"], "date": message["Date"]}


@router.get("/dev/mail")
def dev_mail(request: Request, user: MaybeUser, settings: AppSettings) -> Response:
    directory = _dev_only(request, settings, user)
    files = sorted(directory.glob("*.eml"), reverse=True)[:DEV_MAIL_SHOWN] if directory.exists() else []
    return render(request, "dev/mail.html", user, {"mails": [_summary(path) for path in files]})


@router.get("/dev/mail/{name}")
def dev_mail_one(request: Request, user: MaybeUser, settings: AppSettings, name: str) -> Response:
    directory = _dev_only(request, settings, user)
    path = directory / name
    if not name.endswith(".eml") or "/" in name or name.startswith(".") or not path.is_file():
        raise not_found("This mail does not exist.")
    message = _read(path)
    text = message.get_body(preferencelist=("plain",))
    context = {
        "name": name,
        "headers": list(message.items()),
        "text": text.get_content() if text is not None else "",
    }
    return render(request, "dev/mail_one.html", user, context)
