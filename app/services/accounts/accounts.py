"""Accounts: sign-up, log-in and the sessions it opens, profile, password, log out everywhere."""

from __future__ import annotations

import hashlib
import re
import secrets
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pwdlib import PasswordHash
from sqlalchemy import bindparam, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db import table_of
from app.models import LoginSession, MailSettings, Notification, User
from app.models.records import USER_COLUMNS, USERS, UserFacts, UserRecord
from app.models.users import name_skeletons
from app.services.accounts import api_tokens, tokens
from app.services.deadlines import deadlines
from app.services.errors import ServiceError
from app.services.sanctions import sanctions

LANGUAGES = ("en", "fr")
MIN_PASSWORD_LENGTH = 10
MIN_DISTINCT_CHARACTERS = 4
DELETED_NAME_PREFIX = "deleted player"  # the name a deleted account keeps: nobody else may take it
MIN_PASSWORD_NAME = 3  # an address's name shorter than this is no clue to the password
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
NAME_PATTERN = re.compile(r"^[\w][\w .'-]{1,38}[\w.]$")
COMMON_PASSWORDS = frozenset(
    {"password123", "1234567890", "azertyuiop", "qwertyuiop", "motdepasse", "0123456789", "password1234"}
)

_hasher = PasswordHash.recommended()
# Verified against when the e-mail is unknown, so a failed log-in takes as long either way.
_DUMMY_HASH = _hasher.hash("not a real password, only for timing")


@dataclass(frozen=True)
class Profile:
    display_name: str
    email: str
    language: str
    time_zone: str


def normalise_email(email: str) -> str:
    return email.strip().lower()


def check_email(email: str) -> str:
    email = normalise_email(email)
    if len(email) > 254 or not EMAIL_PATTERN.match(email):
        raise ServiceError("invalid_input", "This is not a valid e-mail address.", "email")
    return email


def check_display_name(name: str) -> str:
    name = " ".join(name.split())
    if not NAME_PATTERN.match(name) or name.lower().startswith(DELETED_NAME_PREFIX):
        raise ServiceError(
            "invalid_input",
            "A display name has 3 to 40 letters, digits, spaces, dots, dashes or apostrophes.",
            "display_name",
        )
    return name


def check_password(password: str, email: str = "", field: str = "password") -> None:
    """The first rule `password` breaks, named in the refusal (the sign-up page lists them all)."""
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceError("weak_password", "The password must have at least 10 characters.", field)
    if len(set(password)) < MIN_DISTINCT_CHARACTERS:
        raise ServiceError("weak_password", "The password must use at least 4 different characters.", field)
    if password.lower() in COMMON_PASSWORDS:
        raise ServiceError("weak_password", "This password is one of the most common ones.", field)
    name = normalise_email(email).split("@")[0]
    if len(name) >= MIN_PASSWORD_NAME and name in password.lower():
        raise ServiceError(
            "weak_password",
            "The password must not contain the name of your e-mail address (%(name)s).",
            field,
            params={"name": name},
        )


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ServiceError("invalid_input", "Choose English or French.", "language")
    return language


def check_time_zone(zone: str) -> str:
    if zone not in zoneinfo.available_timezones():
        raise ServiceError("invalid_input", "This is not a known time zone.", "time_zone")
    return zone


def sign_up(
    session: Session,
    *,
    email: str,
    password: str,
    display_name: str,
    language: str = "en",
    time_zone: str = "UTC",
) -> User:
    email = check_email(email)
    if sanctions.is_barred_address(session, email):
        raise ServiceError("email_banned", "This e-mail address may not be used here.", "email")
    name = check_display_name(display_name)
    check_password(password, email)
    user = User(
        email=email,
        display_name=name,
        password_hash=_hasher.hash(password),
        language=check_language(language),
        time_zone=check_time_zone(time_zone),
    )
    _refuse_taken(session, email, name)
    session.add(user)
    try:
        session.flush()
        queue_address_check(session, user)
        session.commit()
    except IntegrityError:  # lost a race with another sign-up
        session.rollback()
        _refuse_taken(session, email, name)
        raise
    return user


def queue_address_check(session: Session, user: UserFacts, address: str | None = None) -> None:
    """A mail with a link that proves the address (the user's, or the new one they asked for) is theirs.

    The row keeps which credentials the link is for, so that a mail rendered after a later sign-up replaced
    them is not sent with a link that would confirm the newcomer's password (see `tokens`)."""
    credentials = tokens.password_fingerprint(user_row(session, user).password_hash)
    data = {"email": address or user.email, "credentials": credentials}
    session.add(Notification(user_id=user.id, kind="verify_email", data=data))


# --- sign-up by mail (no account enumeration) --------------------------------------------------------

ATTEMPT_MAILS_PER_DAY = 3  # "someone tried to sign up with your address" mails to one account


def request_sign_up(
    session: Session,
    *,
    email: str,
    password: str,
    display_name: str,
    language: str = "en",
    time_zone: str = "UTC",
    now: datetime,
) -> None:
    """A sign-up whose answer says nothing about the address: the account waits for the address check.

    A new address gets a pending account and the check mail (its link confirms the account, then the user
    logs in); an address with an account gets a mail telling its owner (at most a few a day); a barred
    address gets nothing. A pending account's details are replaced by the newest sign-up's, and only the
    newest link confirms it: each link is bound to the password it was mailed for, so the owner's first
    link never confirms someone else's later sign-up. Display names are public, so a taken one is
    refused as usual.
    """
    email = check_email(email)
    name = check_display_name(display_name)
    check_password(password, email)
    language, zone = check_language(language), check_time_zone(time_zone)
    password_hash = _hasher.hash(password)  # in every case, so that every answer takes as long
    existing = session.scalar(select(User).where(User.email == email))
    pending = existing if existing is not None and existing.signup_pending else None
    _refuse_taken_name(session, name, exclude_id=pending.id if pending else None)
    if sanctions.is_barred_address(session, email):
        return
    if existing is not None and pending is None:
        _tell_owner_of_attempt(session, existing, now)
        session.commit()
        return
    user = pending or User(email=email, signup_pending=True, created_at=now)
    user.display_name, user.password_hash = name, password_hash
    user.language, user.time_zone = language, zone
    session.add(user)
    try:
        session.flush()
        queue_address_check(session, user)
        session.commit()
    except IntegrityError:  # a sign-up with the same address or name won the race: answer the same
        session.rollback()


def _tell_owner_of_attempt(
    session: Session, owner: UserFacts, now: datetime, kind: str = "signup_attempt"
) -> None:
    """Tell an address's owner that someone tried to use it (a sign-up, another account's address change)."""
    recent = session.scalar(
        select(func.count())
        .select_from(Notification)
        .where(
            Notification.user_id == owner.id,
            Notification.kind == kind,
            Notification.created_at > now - timedelta(days=1),
        )
    )
    if (recent or 0) < ATTEMPT_MAILS_PER_DAY:
        session.add(Notification(user_id=owner.id, kind=kind, data={}, created_at=now))


# A pending sign-up whose check link has expired holds its display name for nobody: it goes.
UNCONFIRMED_SIGN_UPS_KEPT = timedelta(seconds=tokens.VERIFY_MAX_AGE_SECONDS, days=1)


def purge_unconfirmed_sign_ups(session: Session, now: datetime) -> int:
    """Delete the pending sign-ups whose check link can no longer be followed; returns how many."""
    stale = select(User.id).where(
        User.signup_pending.is_(True), User.created_at < now - UNCONFIRMED_SIGN_UPS_KEPT
    )
    ids = list(session.scalars(stale))
    if ids:
        session.execute(delete(User).where(User.id.in_(ids)))
    return len(ids)


def _confirmed(session: Session, user: UserFacts) -> bool:
    """An account made by a sign-up by mail counts once its address is checked (then for good)."""
    if not user.signup_pending:
        return True
    checked = session.get(MailSettings, user.id)
    if checked is None or checked.verified_at is None or checked.verified_email != user.email:
        return False
    user_row(session, user).signup_pending = False
    session.commit()
    return True


def refuse_taken(session: Session, email: str, name: str, exclude_id: int | None = None) -> None:
    """Refuse an address or a display name another account has (for an admin's edit of an account)."""
    _refuse_taken(session, email, name, exclude_id)


def _refuse_taken(session: Session, email: str, name: str, exclude_id: int | None = None) -> None:
    others = select(User.id).where(User.id != exclude_id) if exclude_id else select(User.id)
    if session.scalar(others.where(User.email == email)):
        raise ServiceError(
            "email_taken", "This e-mail address is already registered: log in instead.", "email"
        )
    _refuse_taken_name(session, name, exclude_id)


def _refuse_taken_name(session: Session, name: str, exclude_id: int | None = None) -> None:
    """Refuse a name that looks like another account's, but for case and spaces (`name_skeletons`: "сiv0"
    with a Cyrillic "с", "CIV0" or "civO" beside "civ0"). Keeping one's own name is no new name: names
    taken before the look-alike rule keep their owners, who may still save their profile."""
    if exclude_id and session.scalar(select(User.display_name).where(User.id == exclude_id)) == name:
        return
    others = select(User.id).where(User.id != exclude_id) if exclude_id else select(User.id)
    looks = name_skeletons(name)
    alike = or_(User.name_skeleton.in_(looks), User.name_folded_skeleton.in_(looks))
    if session.scalar(others.where(alike)):
        raise ServiceError("name_taken", "This display name is taken: choose another.", "display_name")


def authenticate(session: Session, email: str, password: str, now: datetime | None = None) -> User:
    """The user with these credentials. A banned user is refused with the ban's reason and end, but only
    once the password is right (the ban of an account is nobody else's business)."""
    user = session.scalar(select(User).where(User.email == normalise_email(email)))
    if user is None:
        _hasher.verify(password, _DUMMY_HASH)
        raise _bad_credentials()
    valid, new_hash = _hasher.verify_and_update(password, user.password_hash)
    if not valid or not _confirmed(session, user):
        raise _bad_credentials()
    refusal = sanctions.ban_refusal(session, user, now or datetime.now(UTC))
    if refusal is not None:
        raise refusal
    if new_hash:
        user.password_hash = new_hash
        session.commit()
    return user


def _bad_credentials() -> ServiceError:
    return ServiceError("bad_credentials", "Wrong e-mail address or password.")


def get_user(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def update_profile(
    session: Session, user: UserFacts, profile: Profile, now: datetime, current_password: str = ""
) -> User:
    """Save the profile. A new e-mail address needs the current password (a stolen session must not be
    enough to take the account over), then waits for its check (see `ask_for_address`)."""
    email = check_email(profile.email)
    name = check_display_name(profile.display_name)
    language = check_language(profile.language)
    zone = check_time_zone(profile.time_zone)
    _refuse_taken_name(session, name, exclude_id=user.id)
    row = user_row(session, user)
    new_address = is_new_address(row, email)
    if new_address:
        _require_password(row, current_password)
    zone_changed = zone != row.time_zone
    row.display_name, row.language, row.time_zone = name, language, zone
    if new_address:
        ask_for_address(session, row, email, now)
    if zone_changed:  # availability windows are read in the user's zone: running deadlines move with it
        deadlines.recompute_games_of(session, row.id, now)
    session.commit()
    return row


def is_new_address(user: UserFacts, email: str) -> bool:
    """Whether asking for `email` is a change of address (not the current one, nor the one pending)."""
    address = normalise_email(email)
    return address not in (user.email, user.pending_email)


def ask_for_address(session: Session, user: UserFacts, email: str, now: datetime) -> None:
    """The user wants `email` as their address: it becomes theirs when they follow the link mailed there.

    The answer is the same whoever has the address, so that nobody learns which addresses have accounts:
    the address is pending in every case, but only a free one gets the link; an address another account
    has gets a mail telling its owner instead; a barred one gets nothing.
    """
    user_row(session, user).pending_email = email
    owner = session.scalar(select(User).where(User.email == email))
    if owner is not None:
        _tell_owner_of_attempt(session, owner, now, kind="address_attempt")
    elif not sanctions.is_barred_address(session, email):
        queue_address_check(session, user, email)


def confirm_address(session: Session, user: UserFacts, email: str) -> None:
    """The user followed the link mailed to `email`: it becomes their address (and is checked)."""
    if email == user.email:
        return
    if email != user.pending_email:  # they asked for another address since
        raise ServiceError("invalid_token", "This link is invalid or has expired.")
    if session.scalar(select(User.id).where(User.email == email, User.id != user.id)):
        raise ServiceError("email_taken", "Another account has taken this address since you asked for it.")
    row = user_row(session, user)
    row.email, row.pending_email = email, None


def require_password(user: User, current: str) -> None:
    """Refuse unless `current` is the user's password (for what a stolen session must not be enough)."""
    _require_password(user, current)


def unusable_password_hash(secret: str) -> str:
    """A hash of a secret nobody keeps: no password ever matches it."""
    return _hasher.hash(secret)


def _require_password(user: User, current: str) -> None:
    if not _hasher.verify(current, user.password_hash):
        raise ServiceError("bad_credentials", "The current password is wrong.", "current_password")


def change_password(session: Session, user: UserFacts, current: str, new: str) -> User:
    row = user_row(session, user)
    _require_password(row, current)
    check_password(new, row.email, "new_password")
    row.password_hash = _hasher.hash(new)
    row.session_version += 1  # every other session ends
    api_tokens.revoke_all(session, row.id)  # and every key given to a script
    session.commit()
    return row


def log_out_everywhere(session: Session, user: UserFacts) -> User:
    row = user_row(session, user)
    row.session_version += 1
    session.execute(delete(LoginSession).where(LoginSession.user_id == row.id))
    session.commit()
    return row


# --- log-in sessions ---------------------------------------------------------------------------------


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def open_login_session(
    session: Session,
    user: UserFacts,
    now: datetime,
    lifetime: timedelta,
    ip_address: str = "",
    user_agent: str = "",
) -> str:
    """A new session for `user`; returns its key, for the cookie (the database keeps only its hash)."""
    key = secrets.token_urlsafe(32)
    session.add(
        LoginSession(
            user_id=user.id,
            key_hash=key_hash(key),
            created_at=now,
            expires_at=now + lifetime,
            last_seen_at=now,
            ip_address=ip_address[:64],
            user_agent=user_agent[:200],
        )
    )
    session.commit()
    return key


LOGIN_SESSIONS = table_of(LoginSession)
_USER_OF_LOGIN_SESSION = (
    select(*(USERS.c[name] for name in USER_COLUMNS), LOGIN_SESSIONS.c.id, LOGIN_SESSIONS.c.last_seen_at)
    .join(LOGIN_SESSIONS, LOGIN_SESSIONS.c.user_id == USERS.c.id)
    .where(LOGIN_SESSIONS.c.key_hash == bindparam("key_hash"), LOGIN_SESSIONS.c.expires_at > bindparam("now"))
)  # built once, a Core statement read into a record: every request runs it


# How stale a session's "last seen" may get: it is written at most this often, not at every request.
LAST_SEEN_STEP = timedelta(minutes=10)


def user_of_login_session(session: Session, key: str, now: datetime) -> UserRecord | None:
    """The user whose session has this key, while it lasts (None once logged out or expired)."""
    row = session.execute(_USER_OF_LOGIN_SESSION, {"key_hash": key_hash(key), "now": now}).first()
    if row is None:
        return None
    *user, session_id, last_seen_at = row
    if last_seen_at is None or last_seen_at < now - LAST_SEEN_STEP:
        session.execute(update(LoginSession).where(LoginSession.id == session_id).values(last_seen_at=now))
        session.commit()
    return UserRecord(*user)


def user_row(session: Session, user: UserFacts) -> User:
    """The ORM row of a user read as a record, for a change made through it."""
    if isinstance(user, User):
        return user
    row = session.get(User, user.id)
    if row is None:
        raise ServiceError("login_required", "Log in first.")
    return row


def close_login_session(session: Session, key: str) -> None:
    """Log-out: the session's row goes, so its cookie (or any copy of it) no longer logs anyone in."""
    session.execute(delete(LoginSession).where(LoginSession.key_hash == key_hash(key)))
    session.commit()


def purge_expired_login_sessions(session: Session, now: datetime) -> int:
    expired = session.execute(delete(LoginSession).where(LoginSession.expires_at <= now))
    return int(getattr(expired, "rowcount", 0) or 0)


def create_admin(session: Session, *, email: str, password: str, display_name: str) -> User:
    existing = session.scalar(select(User).where(User.email == normalise_email(email)))
    if existing is not None:
        existing.role = "admin"
        session.commit()
        return existing
    user = sign_up(session, email=email, password=password, display_name=display_name)
    user.role = "admin"
    session.commit()
    return user
