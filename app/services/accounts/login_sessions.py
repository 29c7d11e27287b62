"""A player's log-in sessions as the account page lists them, and ending one, or all but this one."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.models import LoginSession
from app.models.records import UserFacts
from app.services.accounts.accounts import key_hash
from app.services.errors import ServiceError


@dataclass(frozen=True)
class SessionFacts:
    id: int
    created_at: datetime
    last_seen_at: datetime | None
    expires_at: datetime
    ip_address: str
    user_agent: str
    current: bool  # the session that asks


def sessions_of(
    session: Session, user: UserFacts, current_key: str | None, now: datetime
) -> list[SessionFacts]:
    """The user's open sessions, the most recently seen first."""
    current = key_hash(current_key) if current_key else None
    rows = session.scalars(
        select(LoginSession)
        .where(LoginSession.user_id == user.id, LoginSession.expires_at > now)
        .order_by(LoginSession.last_seen_at.desc(), LoginSession.id.desc())
    )
    return [
        SessionFacts(
            row.id,
            row.created_at,
            row.last_seen_at,
            row.expires_at,
            row.ip_address,
            row.user_agent,
            row.key_hash == current,
        )
        for row in rows
    ]


def end(session: Session, user: UserFacts, session_id: int) -> None:
    """End one of the user's sessions (its cookie no longer logs anyone in)."""
    gone = session.execute(
        delete(LoginSession).where(LoginSession.id == session_id, LoginSession.user_id == user.id)
    )
    if not getattr(gone, "rowcount", 0):
        raise ServiceError("not_found", "This session has ended already.")
    session.commit()


def end_others(session: Session, user: UserFacts, current_key: str | None) -> int:
    """End every session of the user but the one that asks; returns how many ended."""
    others = delete(LoginSession).where(LoginSession.user_id == user.id)
    if current_key:
        others = others.where(LoginSession.key_hash != key_hash(current_key))
    gone = session.execute(others)
    session.commit()
    return int(getattr(gone, "rowcount", 0) or 0)
