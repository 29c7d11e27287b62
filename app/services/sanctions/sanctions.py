"""The checks other services make against a user's sanctions in force, kept on the user row (cheap).

Imposing and lifting sanctions is `app.services.moderation.moderation`; this module imports only the models,
so that accounts, the lobby, the queue and the web layer can ask "is this user banned?" without import cycles.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from app.models import BannedEmail, Sanction
from app.models.records import UserFacts
from app.services.errors import ServiceError

PERMANENT = datetime(9999, 1, 1, tzinfo=UTC)  # the end kept on the user for a permanent sanction


def in_force(until: datetime | None, now: datetime) -> bool:
    return until is not None and until > now


def is_banned(user: UserFacts, now: datetime) -> bool:
    return in_force(user.banned_until, now)


def check_may_write_to_players(user: UserFacts, now: datetime) -> None:
    """A muted user writes nothing that other players are shown or mailed: messages, game names, pause
    reasons (a mute that stopped only messages would leave them those other ways to speak)."""
    if in_force(user.muted_until, now):
        raise ServiceError("muted", "You are muted for now: you cannot write to other players.")


def shown_end(until: datetime | None) -> datetime | None:
    """The end to show a user: None for a permanent sanction."""
    return None if until is None or until >= PERMANENT else until


def check_may_join(user: UserFacts, now: datetime) -> None:
    """Refuse a new game (joining, creating, the queue, an open seat) to a banned or join-banned user."""
    ends = [end for end in (user.join_banned_until, user.banned_until) if end is not None and end > now]
    if ends:
        raise ServiceError(
            "join_banned",
            "A moderator has barred you from joining new games for now.",
            details={"until": shown_end(max(ends))},
        )


def ban_refusal(session: Session, user: UserFacts, now: datetime) -> ServiceError | None:
    """The log-in refusal of a banned user, with the reason and the end of the ban, if they are banned."""
    if not is_banned(user, now):
        return None
    ban = session.scalar(
        select(Sanction)
        .where(
            Sanction.user_id == user.id,
            Sanction.kind == "ban",
            Sanction.lifted_at.is_(None),
            or_(Sanction.ends_at.is_(None), Sanction.ends_at > now),
        )
        .order_by(Sanction.ends_at.is_(None).desc(), Sanction.ends_at.desc())
        .limit(1)
    )
    return ServiceError(
        "account_banned",
        "This account is banned.",
        details={"reason": ban.reason if ban else "", "until": shown_end(user.banned_until)},
    )


def canonical_email(email: str) -> str:
    """The address lower-cased and without its "+tag": name+games@example.com is name@example.com."""
    local, _, domain = email.strip().lower().partition("@")
    return f"{local.split('+', 1)[0]}@{domain}"


def is_barred_address(session: Session, email: str) -> bool:
    """Whether the address (in any "+tag" form) belongs to a banned account."""
    query = select(BannedEmail.id).where(BannedEmail.email == canonical_email(email))
    return session.scalar(query) is not None
