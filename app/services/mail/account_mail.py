"""Account mails: address verification and password reset (request, then a signed single-use link).

A reset request answers the same whether or not the address has an account (no account enumeration); the
mail itself is written by the dispatcher, which makes the token when it renders the mail, so no token is
ever stored in a notification row.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from pwdlib import PasswordHash
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import MailSettings, Notification, User
from app.models.records import UserFacts
from app.services.accounts import accounts, tokens
from app.services.errors import ServiceError
from app.services.mail import notify

# The same recommended (Argon2) hasher as accounts: a hash made here verifies there.
_hasher = PasswordHash.recommended()


def is_verified(session: Session, user: UserFacts) -> bool:
    row = session.get(MailSettings, user.id)
    return row is not None and row.verified_email == user.email and row.verified_at is not None


def verify_email(session: Session, secret: str, token: str, now: datetime) -> User:
    """Mark the address named in the token as verified (the user's new address, if they asked for it);
    a bounce flag on it is cleared too."""
    user_id, email, credentials = tokens.read_verify_token(secret, token)
    user = session.get(User, user_id)
    if user is None or not secrets.compare_digest(
        credentials, tokens.password_fingerprint(user.password_hash)
    ):  # a later sign-up on this pending address (or a new password) made this link stale
        raise ServiceError("invalid_token", "This link is invalid or has expired.")
    accounts.confirm_address(session, user, email)
    row = notify.mail_settings(session, user.id)
    row.verified_email, row.verified_at = email, now
    row.failing_since, row.failing_reason = None, None
    session.commit()
    return user


def request_password_reset(session: Session, email: str) -> None:
    """Queue a reset mail if the address has an account; say nothing either way."""
    try:
        address = accounts.check_email(email)
    except ServiceError:
        return
    user = session.scalar(select(User).where(User.email == address))
    if user is None:
        return
    session.add(Notification(user_id=user.id, kind="password_reset", data={}))
    session.commit()


def user_for_reset(session: Session, secret: str, token: str) -> User:
    """The user a reset link is for, if it is still valid (signed, fresh, not used yet)."""
    user_id, fingerprint = tokens.read_reset_token(secret, token)
    user = session.get(User, user_id)
    if user is None or not secrets.compare_digest(
        fingerprint, tokens.password_fingerprint(user.password_hash)
    ):
        raise ServiceError("invalid_token", "This link is invalid or has expired.")
    return user


def reset_password(session: Session, secret: str, token: str, new_password: str) -> User:
    """Set a new password through a reset link; every session ends and the link is spent."""
    user = user_for_reset(session, secret, token)
    accounts.check_password(new_password, user.email, "new_password")
    user.password_hash = _hasher.hash(new_password)
    user.session_version += 1
    session.commit()
    return user
