"""Personal API tokens: keys a player gives their own scripts, each with a name, scopes and an optional end.

A token is shown once, when made; the database keeps a SHA-256 of it (it is 256 random bits, so a plain
hash is enough: there is nothing to guess). Revoking a token deletes its row, as do a new password and the
account's deletion (`revoke_all`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, delete, func, select, update
from sqlalchemy.orm import Session

from app.db import table_of
from app.models import ApiToken
from app.models.records import USER_COLUMNS, USERS, UserFacts, UserRecord
from app.services.errors import ServiceError

SCOPES = ("read", "play", "messages")
PREFIX = "ost_"
MAX_TOKENS = 20  # per user
MAX_NAME = 60
MAX_DAYS = 3650
LAST_USED_STEP = timedelta(minutes=10)  # "last used" is written at most this often


@dataclass(frozen=True)
class TokenFacts:
    """A token as its owner's list shows it (never the token itself)."""

    id: int
    name: str
    scopes: tuple[str, ...]
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None

    @classmethod
    def of(cls, row: ApiToken) -> TokenFacts:
        return cls(
            row.id, row.name, tuple(row.scopes.split()), row.created_at, row.expires_at, row.last_used_at
        )


@dataclass(frozen=True)
class Bearer:
    """Who a valid token speaks for, and as what."""

    user: UserRecord
    token: TokenFacts


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_scopes(scopes: list[str]) -> tuple[str, ...]:
    chosen = tuple(scope for scope in SCOPES if scope in scopes)
    if not chosen or len(chosen) != len(set(scopes)):
        raise ServiceError(
            "invalid_input", "Choose one or more of the scopes read, play and messages.", "scopes"
        )
    return chosen


def create(
    session: Session, user: UserFacts, name: str, scopes: list[str], days: int | None, now: datetime
) -> tuple[str, TokenFacts]:
    """A new token: returns it (to show once) and what the list will show of it."""
    name = " ".join(name.split())
    if not 1 <= len(name) <= MAX_NAME:
        raise ServiceError("invalid_input", "A token's name has 1 to 60 characters.", "name")
    chosen = check_scopes(scopes)
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise ServiceError("invalid_input", "A token lasts from 1 to 3650 days, or until revoked.", "days")
    held = session.scalar(select(func.count()).select_from(ApiToken).where(ApiToken.user_id == user.id))
    if (held or 0) >= MAX_TOKENS:
        raise ServiceError("invalid_input", "You have 20 tokens already: revoke one first.", "name")
    token = PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(
        user_id=user.id,
        name=name,
        token_hash=_hash(token),
        scopes=" ".join(chosen),
        created_at=now,
        expires_at=now + timedelta(days=days) if days is not None else None,
    )
    session.add(row)
    session.commit()
    return token, TokenFacts.of(row)


def tokens_of(session: Session, user: UserFacts) -> list[TokenFacts]:
    rows = session.scalars(select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id))
    return [TokenFacts.of(row) for row in rows]


def revoke(session: Session, user: UserFacts, token_id: int) -> None:
    gone = session.execute(delete(ApiToken).where(ApiToken.id == token_id, ApiToken.user_id == user.id))
    if not getattr(gone, "rowcount", 0):
        raise ServiceError("not_found", "You have no such token.")
    session.commit()


def revoke_all(session: Session, user_id: int) -> None:
    """In the caller's transaction (a new password, the account's deletion)."""
    session.execute(delete(ApiToken).where(ApiToken.user_id == user_id))


TOKENS = table_of(ApiToken)
_BEARER = (
    select(*(USERS.c[name] for name in USER_COLUMNS), *TOKENS.c)
    .join(TOKENS, TOKENS.c.user_id == USERS.c.id)
    .where(TOKENS.c.token_hash == bindparam("token_hash"), USERS.c.deleted_at.is_(None))
)  # built once: every request a script sends runs it


def bearer_of(session: Session, token: str, now: datetime) -> Bearer | None:
    """The user and token a script's `Authorization: Bearer` names, while the token holds (None if unknown,
    revoked or expired, or if its user's account is deleted)."""
    found = session.execute(_BEARER, {"token_hash": _hash(token)}).first()
    if found is None:
        return None
    user = UserRecord(*found[: len(USER_COLUMNS)])
    row = ApiToken(**dict(zip(TOKENS.c.keys(), found[len(USER_COLUMNS) :], strict=True)))
    if row.expires_at is not None and row.expires_at <= now:
        return None
    if row.last_used_at is None or row.last_used_at < now - LAST_USED_STEP:
        session.execute(update(ApiToken).where(ApiToken.id == row.id).values(last_used_at=now))
        session.commit()
    return Bearer(user, TokenFacts.of(row))
