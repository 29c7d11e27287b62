"""Notifications: the kinds, each user's preferences and mail settings, presence, and the helpers that
write notification rows (always inside the caller's transaction, next to the change that causes them).

Turning the rows into mails is `app.services.mail.dispatch`; sending them is `app.services.mail.mail`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from app.models import Game, GamePresence, MailSettings, Notification, NotificationPreference, User
from app.models.records import UserFacts
from app.services.errors import ServiceError

MODES = ("immediate", "digest", "off")
LOOKING_SECONDS = 60  # a game page, fragment or live stream seen this recently: the user is looking
PRESENCE_REFRESH_SECONDS = 15  # write the presence row at most this often per user and game
TIME_PATTERN = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


@dataclass(frozen=True)
class Kind:
    name: str
    default: str  # immediate, digest or off
    account: bool = False  # about the account itself: always immediate, ignores quiet hours and bounces


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("your_turn", "immediate"),
        Kind("deadline_warning", "immediate"),
        Kind("game_started", "immediate"),
        Kind("player_joined", "digest"),
        Kind("player_quit", "immediate"),
        Kind("player_evicted", "immediate"),
        Kind("evicted", "immediate"),
        Kind("seat_offered", "immediate"),
        Kind("queue_placed", "immediate"),  # the player queue put you into a game
        Kind("game_invitation", "immediate"),  # a friend invites you into the game they created
        Kind("pause_requested", "immediate"),
        Kind("pause_removed", "digest"),
        Kind("game_over", "immediate"),
        Kind("private_message", "immediate"),
        Kind("board_post", "off"),
        Kind("game_news", "immediate"),  # an event worth a mail (`Event.mail`): a trade announced
        Kind("calamity_news", "immediate"),  # a calamity that strikes you (`Event.mail_to`)
        Kind("city_news", "immediate"),  # a city of yours lost in a conflict
        Kind("verify_email", "immediate", account=True),
        Kind("password_reset", "immediate", account=True),
    )
}
CHOOSABLE = tuple(name for name, kind in KINDS.items() if not kind.account)
MAIL_LISTS = (*CHOOSABLE, "digest", "all")  # what an unsubscribe link may name


def kind_of(name: str) -> Kind:
    """The kind called `name`; a kind this code does not know yet is treated as a plain immediate one."""
    return KINDS.get(name) or Kind(name, "immediate")


# --- preferences and settings -------------------------------------------------------------------------


def modes_of(session: Session, user_id: int) -> dict[str, str]:
    """Every choosable kind with this user's mode (their choice, else the kind's default)."""
    chosen = dict(
        session.execute(
            select(NotificationPreference.kind, NotificationPreference.mode).where(
                NotificationPreference.user_id == user_id
            )
        ).all()
    )
    return {kind: chosen.get(kind, KINDS[kind].default) for kind in CHOOSABLE}


def mode_of(session: Session, user_id: int, kind: str) -> str:
    if kind_of(kind).account:
        return "immediate"
    chosen = session.scalar(
        select(NotificationPreference.mode).where(
            NotificationPreference.user_id == user_id, NotificationPreference.kind == kind
        )
    )
    return chosen or kind_of(kind).default


def mail_settings(session: Session, user_id: int) -> MailSettings:
    """The user's settings row, made (in the caller's transaction) when it does not exist yet."""
    row = session.get(MailSettings, user_id)
    if row is None:
        row = MailSettings(user_id=user_id, digest_hour=8, your_turn_always=False)
        session.add(row)
        session.flush()
    return row


@dataclass(frozen=True)
class Preferences:
    modes: Mapping[str, str]
    quiet_start: str  # "HH:MM" or "" for none
    quiet_end: str
    digest_hour: int
    your_turn_always: bool


def save_preferences(session: Session, user: UserFacts, preferences: Preferences) -> None:
    for kind, mode in preferences.modes.items():
        if kind not in CHOOSABLE:
            raise ServiceError("invalid_input", "There is no such kind of notification.", "kind")
        if mode not in MODES:
            raise ServiceError("invalid_input", "Choose immediately, daily digest or never.", kind)
    start, end = _minute(preferences.quiet_start, "quiet_start"), _minute(preferences.quiet_end, "quiet_end")
    if (start is None) != (end is None):
        raise ServiceError("invalid_input", "Quiet hours need both a start and an end.", "quiet_start")
    if not 0 <= preferences.digest_hour <= 23:
        raise ServiceError("invalid_input", "The digest hour is 0 to 23.", "digest_hour")
    for kind, mode in preferences.modes.items():
        _set_mode(session, user.id, kind, mode)
    row = mail_settings(session, user.id)
    row.quiet_start_minute, row.quiet_end_minute = start, end
    if row.digest_hour != preferences.digest_hour:
        row.next_digest_at = None  # recomputed at the next digest notification
    row.digest_hour = preferences.digest_hour
    row.your_turn_always = preferences.your_turn_always
    session.commit()


def _minute(value: str, field: str) -> int | None:
    value = value.strip()
    if not value:
        return None
    match = TIME_PATTERN.match(value)
    if match is None:
        raise ServiceError("invalid_input", "Give a time as HH:MM.", field)
    return int(match.group(1)) * 60 + int(match.group(2))


def minute_text(minute: int | None) -> str:
    return "" if minute is None else f"{minute // 60:02d}:{minute % 60:02d}"


def minute_time(minute: int) -> time:
    return time(minute // 60, minute % 60)


def _set_mode(session: Session, user_id: int, kind: str, mode: str) -> None:
    row = session.scalar(
        select(NotificationPreference).where(
            NotificationPreference.user_id == user_id, NotificationPreference.kind == kind
        )
    )
    if row is None:
        session.add(NotificationPreference(user_id=user_id, kind=kind, mode=mode))
    else:
        row.mode = mode


def unsubscribe(session: Session, user_id: int, mail_list: str) -> list[str]:
    """Turn off what a one-click unsubscribe names: one kind, every kind now in the digest, or all kinds.

    Returns the kinds turned off. Repeating it changes nothing (mail clients may POST twice).
    """
    if session.get(User, user_id) is None or mail_list not in MAIL_LISTS:
        raise ServiceError("invalid_token", "This link is invalid or has expired.")
    modes = modes_of(session, user_id)
    if mail_list == "all":
        kinds = list(CHOOSABLE)
    elif mail_list == "digest":
        kinds = [kind for kind, mode in modes.items() if mode == "digest"]
    else:
        kinds = [mail_list]
    for kind in kinds:
        _set_mode(session, user_id, kind, "off")
    session.commit()
    return kinds


# --- presence -------------------------------------------------------------------------------------------


def mark_looking(session: Session, user_id: int, game_id: int, now: datetime) -> None:
    """Record that the user has the game open now (written at most every few seconds); commits."""
    row = session.get(GamePresence, (user_id, game_id))
    if row is not None and now - row.seen_at < timedelta(seconds=PRESENCE_REFRESH_SECONDS):
        return
    if row is None:
        session.add(GamePresence(user_id=user_id, game_id=game_id, seen_at=now))
    else:
        row.seen_at = now
    try:
        session.commit()
    except Exception:  # another request of the same user wrote it first: that is as good
        session.rollback()


def is_looking(session: Session, user_id: int, game_id: int, now: datetime) -> bool:
    seen = session.scalar(
        select(GamePresence.seen_at).where(GamePresence.user_id == user_id, GamePresence.game_id == game_id)
    )
    return seen is not None and now - seen < timedelta(seconds=LOOKING_SECONDS)


def forget_presence(session: Session, before: datetime) -> None:
    session.execute(delete(GamePresence).where(GamePresence.seen_at < before))


# --- writing notification rows (inside the caller's transaction) ---------------------------------------


def notify_users(
    session: Session, user_ids: Iterable[int], kind: str, data: Mapping[str, Any], game_id: int | None = None
) -> None:
    for user_id in dict.fromkeys(user_ids):
        session.add(Notification(user_id=user_id, game_id=game_id, kind=kind, data=dict(data)))


def seat_holders(game: Game) -> list[int]:
    """The users who hold a seat now (before the start: everyone who joined)."""
    return [seat.user_id for seat in game.seats if seat.user_id is not None and seat.status == "playing"]


def notify_game(
    session: Session,
    game: Game,
    kind: str,
    data: Mapping[str, Any],
    *,
    exclude: Iterable[int | None] = (),
) -> None:
    """One notification to every current seat holder of `game` but those in `exclude`."""
    skipped = set(exclude)
    notify_users(session, [u for u in seat_holders(game) if u not in skipped], kind, data, game.id)


# --- calendar secret ------------------------------------------------------------------------------------


def calendar_token(session: Session, user: UserFacts) -> str:
    """The user's secret calendar token, made on first use; commits when it makes one."""
    row = mail_settings(session, user.id)
    if row.calendar_token is None:
        row.calendar_token = secrets.token_urlsafe(24)
        session.commit()
    return row.calendar_token


def new_calendar_token(session: Session, user: UserFacts) -> str:
    """A new secret: the old calendar address stops working at once."""
    row = mail_settings(session, user.id)
    row.calendar_token = secrets.token_urlsafe(24)
    session.commit()
    return row.calendar_token


def user_by_calendar_token(session: Session, token: str) -> User | None:
    if not token:
        return None
    user_id = session.scalar(select(MailSettings.user_id).where(MailSettings.calendar_token == token))
    return session.get(User, user_id) if user_id is not None else None


# --- bounces --------------------------------------------------------------------------------------------


def mark_failing(session: Session, email: str, reason: str, now: datetime) -> bool:
    """The outgoing server says mail to `email` bounces: stop game mails to it and tell the user.

    Returns whether an account has that address (the webhook answers the same either way).
    """
    user = session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        return False
    row = mail_settings(session, user.id)
    row.failing_since = row.failing_since or now
    row.failing_reason = (reason.strip() or "bounced")[:200]
    session.commit()
    return True


def clear_failing(session: Session, user_id: int) -> None:
    session.execute(
        update(MailSettings)
        .where(MailSettings.user_id == user_id)
        .values(failing_since=None, failing_reason=None)
    )
