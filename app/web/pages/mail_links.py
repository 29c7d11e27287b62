"""Links that arrive by e-mail or from other servers: they carry their own proof (a signed token, a secret)
instead of a session, so this router has no CSRF check and is mounted by app.main on its own.

- /unsubscribe/{token}: RFC 8058. A POST unsubscribes at once, without cookies, whatever its body (mail
  clients send `List-Unsubscribe=One-Click`); a GET only shows a page with a button, because mail scanners
  fetch links.
- /account/verify/{token}: same pattern for the address check (a GET never verifies).
- /calendar/{token}.ics: the user's deadlines, for calendar applications.
- /hooks/bounce: the outgoing server reports an address that bounces (shared secret in a header).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field
from starlette.responses import Response

from app.services.accounts import tokens
from app.services.errors import ServiceError, not_found
from app.services.mail import account_mail, ical, notify
from app.services.mail.mail import domain_of
from app.web.deps import DB, AppSettings, MaybeUser, Now, public_base_url, render, translator
from app.web.emails import KIND_TITLES
from app.web.security import same_secret

router = APIRouter(include_in_schema=False)


@router.get("/unsubscribe/{token}")
def unsubscribe_page(request: Request, user: MaybeUser, settings: AppSettings, token: str) -> Response:
    _, mail_list = tokens.read_unsubscribe_token(settings.secret_key, token)
    context = {"token": token, "mail_list": mail_list, "title": KIND_TITLES.get(mail_list), "done": False}
    return render(request, "mail/unsubscribe.html", user, context)


@router.post("/unsubscribe/{token}")
def unsubscribe(
    request: Request, session: DB, user: MaybeUser, settings: AppSettings, token: str
) -> Response:
    user_id, mail_list = tokens.read_unsubscribe_token(settings.secret_key, token)
    notify.unsubscribe(session, user_id, mail_list)
    context = {"token": token, "mail_list": mail_list, "title": KIND_TITLES.get(mail_list), "done": True}
    return render(request, "mail/unsubscribe.html", user, context)


@router.get("/account/verify/{token}")
def verify_page(request: Request, user: MaybeUser, settings: AppSettings, token: str) -> Response:
    tokens.read_verify_token(settings.secret_key, token)  # its signature and age; the POST checks the rest
    return render(request, "mail/verify.html", user, {"token": token, "done": False})


@router.post("/account/verify/{token}")
def verify(
    request: Request, session: DB, user: MaybeUser, settings: AppSettings, now: Now, token: str
) -> Response:
    verified = account_mail.verify_email(session, settings.secret_key, token, now)
    return render(request, "mail/verify.html", user, {"token": token, "done": True, "email": verified.email})


@router.get("/calendar/{token}.ics")
def calendar(request: Request, session: DB, settings: AppSettings, now: Now, token: str) -> Response:
    owner = notify.user_by_calendar_token(session, token)
    if owner is None:
        raise not_found("This calendar does not exist.")
    words = translator(request, owner)
    _ = words.plain  # plain text, not HTML; `_` so that the strings are extracted
    domain = domain_of(settings)
    base_url = public_base_url(request, settings)
    entries = []
    for deadline in ical.deadlines_of(session, owner):
        game = deadline.game_name
        entry = ical.Entry(
            uid=ical.uid_of(deadline, domain),
            start=deadline.deadline_at,
            summary=_("Your turn in %(game)s") % {"game": game},
            description=_("Deadline of your turn in %(game)s (phase: %(phase)s).")
            % {"game": game, "phase": deadline.phase},
            url=f"{base_url}/games/{deadline.game_id}#game-orders",
            alarm=_("One hour left to play in %(game)s") % {"game": game},
        )
        entries.append(entry)
    body = ical.feed(_("Ostraca deadlines"), entries, now)
    headers = {
        "Cache-Control": "private, max-age=300",
        "Content-Disposition": 'inline; filename="ostraca.ics"',
    }
    return Response(body, media_type="text/calendar; charset=utf-8", headers=headers)


class Bounce(BaseModel):
    email: str = Field(max_length=254)
    reason: str = Field("", max_length=500)


@router.post("/hooks/bounce")
def bounce(
    body: Bounce,
    session: DB,
    settings: AppSettings,
    now: Now,
    x_bounce_secret: Annotated[str, Header()] = "",
) -> dict[str, bool]:
    """JSON {"email": ..., "reason": ...}; answers the same whether or not the address is known."""
    if not settings.bounce_secret or not same_secret(x_bounce_secret, settings.bounce_secret):
        raise ServiceError("forbidden", "This hook needs its secret.")
    notify.mark_failing(session, body.email, body.reason, now)
    return {"ok": True}
