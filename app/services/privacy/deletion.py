"""Deleting an account, by its owner (after their password) or by an administrator (audited either way).

What goes: the log-in, address, password, settings, sessions, tokens, friends and blocks, queue entries,
invitations, availability windows and pauses, notifications and every mail to the account. Seats in
running games are freed as a quit frees them (open to a replacement); forming games are left, or cancelled
when the account made them. What stays: the user row, under the name "deleted player N", because finished
games, their ratings, messages, reports and sanctions point at it; it holds no address and no way in.
See docs/privacy.md.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from app.models import (
    ApiToken,
    AvailabilityWindow,
    Block,
    Friendship,
    Game,
    GameEvent,
    GameInvitation,
    GamePresence,
    LoginSession,
    MailSettings,
    Notification,
    NotificationPreference,
    OutgoingMail,
    PauseRequest,
    QueueEntry,
    Seat,
    SeatTenure,
    User,
)
from app.models.records import UserFacts
from app.services.accounts import accounts
from app.services.errors import ServiceError, not_found
from app.services.moderation import audit
from app.services.play import seats
from app.services.social import lobby

DELETED_DOMAIN = "deleted.invalid"  # reserved (RFC 2606): no mail is ever sent there


def deleted_name(user_id: int) -> str:
    return f"{accounts.DELETED_NAME_PREFIX} {user_id}"


def delete_own_account(session: Session, user: UserFacts, password: str, now: datetime) -> None:
    """The user deletes their own account; the password proves it is them, not a stolen session."""
    row = accounts.user_row(session, user)
    accounts.require_password(row, password)
    _delete(session, row, row, "", now)


def delete_by_admin(session: Session, admin: UserFacts, user_id: int, reason: str, now: datetime) -> None:
    if not admin.is_admin:
        raise ServiceError("forbidden", "Only administrators may delete an account.")
    target = session.get(User, user_id)
    if target is None or target.deleted_at is not None:
        raise not_found("There is no such account.")
    if target.id == admin.id:
        raise ServiceError("forbidden", "Delete your own account from your account page.")
    if not reason.strip():
        raise ServiceError("invalid_input", "Say why.", "reason")
    _delete(session, admin, target, reason.strip(), now)


def _delete(session: Session, actor: UserFacts, user: User, reason: str, now: datetime) -> None:
    user_id, old_name, address = user.id, user.display_name, user.email
    _leave_games(session, user, now)
    _erase_rows(session, user_id, address)
    _rename_in_notices(session, user_id, old_name)
    user.email = f"deleted-{user_id}@{DELETED_DOMAIN}"
    user.pending_email = None
    user.display_name = deleted_name(user_id)
    user.password_hash = accounts.unusable_password_hash(secrets.token_urlsafe(32))
    user.language, user.time_zone, user.role = "en", "UTC", "player"
    user.session_version += 1
    user.signup_pending = False
    user.deleted_at = now
    audit.record(
        session,
        actor,
        "account.delete",
        reason=reason,
        now=now,
        target=audit.Target(subject_id=user_id),
        before={"display_name": old_name},
    )
    session.commit()


def _leave_games(session: Session, user: User, now: datetime) -> None:
    """Each running seat is quit (open to a replacement); each forming game is left (cancelled if theirs)."""
    held = session.execute(
        select(Game.id, Game.status, Game.creator_id)
        .join(Seat, Seat.game_id == Game.id)
        .where(Seat.user_id == user.id, Game.status.in_(("open", "active")))
    ).all()
    for game_id, status, creator_id in held:
        if status == "active":
            seats.quit_game(session, user, game_id, None, now)
        elif creator_id == user.id:
            lobby.cancel_game(session, user, game_id)
        else:
            lobby.leave_game(session, user, game_id)
    session.execute(
        update(Seat).where(Seat.offered_to == user.id).values(offered_to=None, offered_until=None)
    )


def _erase_rows(session: Session, user_id: int, address: str) -> None:
    for model, column in (
        (LoginSession, LoginSession.user_id),
        (ApiToken, ApiToken.user_id),
        (QueueEntry, QueueEntry.user_id),
        (GameInvitation, GameInvitation.user_id),
        (NotificationPreference, NotificationPreference.user_id),
        (MailSettings, MailSettings.user_id),
        (Notification, Notification.user_id),
        (AvailabilityWindow, AvailabilityWindow.user_id),
        (PauseRequest, PauseRequest.user_id),
        (GamePresence, GamePresence.user_id),
    ):
        session.execute(delete(model).where(column == user_id))
    session.execute(
        delete(Friendship).where(or_(Friendship.user_id == user_id, Friendship.friend_id == user_id))
    )
    session.execute(delete(Block).where(or_(Block.user_id == user_id, Block.blocked_id == user_id)))
    session.execute(
        delete(OutgoingMail).where(or_(OutgoingMail.user_id == user_id, OutgoingMail.to_address == address))
    )


def _rename_in_notices(session: Session, user_id: int, old_name: str) -> None:
    """The few records that wrote the name down rather than the id (a seat taken, an offer, an
    invitation) say "deleted player N" too."""
    new_name = deleted_name(user_id)
    games = (
        select(Seat.game_id)
        .join(SeatTenure, SeatTenure.seat_id == Seat.id)
        .where(SeatTenure.user_id == user_id)
    )
    for event in session.scalars(
        select(GameEvent).where(GameEvent.game_id.in_(games), GameEvent.kind == "platform:seat_taken")
    ):
        if event.data.get("player") == old_name:
            event.data = {**event.data, "player": new_name}
    for notification in session.scalars(
        select(Notification).where(Notification.kind.in_(("seat_offered", "game_invitation")))
    ):
        renamed = {key: new_name if value == old_name else value for key, value in notification.data.items()}
        if renamed != notification.data:
            notification.data = renamed
