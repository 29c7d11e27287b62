"""Signed tokens in e-mail links: one-click unsubscribe, address verification and password reset.

Each purpose has its own salt, so a token of one kind is never accepted as another. Unsubscribe tokens do
not expire (a mail read months later must still unsubscribe); verification tokens last a week; reset
tokens an hour. Reset and verification tokens carry a fingerprint of the password hash they were made
for: the first reset (which changes the hash) spends every reset link, and a check link confirms only
the credentials it was mailed for (a later sign-up on the same pending address, which replaces them,
spends the earlier links; so does a new password).
"""

from __future__ import annotations

import hashlib
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer

from app.services.errors import ServiceError

VERIFY_MAX_AGE_SECONDS = 7 * 86400
RESET_MAX_AGE_SECONDS = 3600


def _invalid() -> ServiceError:
    return ServiceError("invalid_token", "This link is invalid or has expired.")


def unsubscribe_token(secret: str, user_id: int, mail_list: str) -> str:
    return URLSafeSerializer(secret, salt="ostraca-unsubscribe").dumps([user_id, mail_list])


def read_unsubscribe_token(secret: str, token: str) -> tuple[int, str]:
    try:
        user_id, mail_list = URLSafeSerializer(secret, salt="ostraca-unsubscribe").loads(token)
    except (BadSignature, ValueError, TypeError):
        raise _invalid() from None
    return int(user_id), str(mail_list)


def verify_token(secret: str, user_id: int, email: str, credentials: str) -> str:
    """`credentials`: the `password_fingerprint` of the hash the link confirms along with the address."""
    return URLSafeTimedSerializer(secret, salt="ostraca-verify").dumps([user_id, email, credentials])


def read_verify_token(secret: str, token: str) -> tuple[int, str, str]:
    user_id, email, credentials = _timed_load(secret, "ostraca-verify", token, VERIFY_MAX_AGE_SECONDS, 3)
    return int(user_id), str(email), str(credentials)


def password_fingerprint(password_hash: str) -> str:
    return hashlib.sha256(password_hash.encode()).hexdigest()[:20]


def reset_token(secret: str, user_id: int, password_hash: str) -> str:
    serializer = URLSafeTimedSerializer(secret, salt="ostraca-reset")
    return serializer.dumps([user_id, password_fingerprint(password_hash)])


def read_reset_token(secret: str, token: str) -> tuple[int, str]:
    user_id, fingerprint = _timed_load(secret, "ostraca-reset", token, RESET_MAX_AGE_SECONDS)
    return int(user_id), str(fingerprint)


def _timed_load(secret: str, salt: str, token: str, max_age: int, length: int = 2) -> list[Any]:
    try:
        value = URLSafeTimedSerializer(secret, salt=salt).loads(token, max_age=max_age)
    except (SignatureExpired, BadSignature, ValueError, TypeError):
        raise _invalid() from None
    if not isinstance(value, list) or len(value) != length:
        raise _invalid()
    return value
