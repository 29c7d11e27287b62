"""Game messages (public board, private threads between seats) and the e-mail side of notifications:
outgoing mails, preferences per kind, per-user mail settings and "who is looking at which game"."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class GameMessage(Base):
    """A post on a game's public board (`audience` None) or in a private thread between seats.

    `audience` names the seats of a private thread as ",0,2," (sorted, comma-framed, so "seat 2 is in it"
    is a plain LIKE). Messages belong to seats, not to users: whoever holds a seat reads its history.
    """

    __tablename__ = "game_messages"
    __table_args__ = (
        Index("ix_game_messages_game_id_id", "game_id", "id"),
        Index("ix_game_messages_author_id_created_at", "author_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    audience: Mapped[str | None] = mapped_column(String(64), nullable=True)
    from_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class OutgoingMail(Base):
    """One e-mail, fully rendered, with its Message-ID fixed before the first attempt.

    `next_attempt_at` doubles as the lease of a claim: a worker that claims a mail pushes it forward, so
    a worker that dies mid-batch leaves its mails to be taken again once the lease runs out.
    """

    __tablename__ = "outgoing_mails"
    __table_args__ = (
        Index("ix_outgoing_mails_due", "sent_at", "dead_at", "next_attempt_at"),
        Index("ix_outgoing_mails_recent", "user_id", "game_id", "kind", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"), nullable=True)
    kind: Mapped[str] = mapped_column(String(32))
    to_address: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(255))
    message_id: Mapped[str] = mapped_column(String(255), unique=True)
    raw: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    dead_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)


class NotificationPreference(Base):
    """How one user wants one kind of notification: immediate, digest or off (absent: the kind's default)."""

    __tablename__ = "notification_preferences"
    __table_args__ = (UniqueConstraint("user_id", "kind", name="uq_notification_preferences_user_kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(32))
    mode: Mapped[str] = mapped_column(String(16))


class MailSettings(Base):
    """Per-user mail settings and state; the row is made on first need, absent means the defaults."""

    __tablename__ = "mail_settings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    quiet_start_minute: Mapped[int | None] = mapped_column(Integer, nullable=True)  # local, 0-1439
    quiet_end_minute: Mapped[int | None] = mapped_column(Integer, nullable=True)
    digest_hour: Mapped[int] = mapped_column(Integer, default=8)  # local hour of the daily digest
    your_turn_always: Mapped[bool] = mapped_column(Boolean, default=False)
    next_digest_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    calendar_token: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    verified_email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    verified_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    failing_since: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    failing_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)


class GamePresence(Base):
    """When a user last had a game open (page, live fragment or live stream), in any process."""

    __tablename__ = "game_presence"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime)
