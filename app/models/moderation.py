"""Moderation: sanctions, reports, the append-only audit log, banned e-mail addresses, game rollbacks.

The audit log is append-only in the database itself: the migration puts triggers on `audit_log` that refuse
every UPDATE and DELETE, on SQLite and on Postgres alike.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONDocument, UTCDateTime, utcnow

SANCTION_KINDS = ("ban", "join_ban", "mute")


class Sanction(Base):
    """A ban, a game-joining ban or a mute of one user, from `starts_at` to `ends_at` (None: permanent).

    `reason` is shown to the user; `note` is for moderators only. Lifting one early fills the `lifted_*`
    columns (and the audit log); nothing is ever deleted.
    """

    __tablename__ = "sanctions"
    __table_args__ = (Index("ix_sanctions_user_id_kind", "user_id", "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    kind: Mapped[str] = mapped_column(String(16))  # ban, join_ban, mute
    reason: Mapped[str] = mapped_column(String(500))
    note: Mapped[str] = mapped_column(String(1000), default="")
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    lifted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    lifted_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    lift_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)


class BannedEmail(Base):
    """An address that may not sign up again while its ban holds (stored in canonical form)."""

    __tablename__ = "banned_emails"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    sanction_id: Mapped[int] = mapped_column(ForeignKey("sanctions.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Report(Base):
    """A player's report of a message, a player or a game, and what moderators made of it."""

    __tablename__ = "reports"
    __table_args__ = (Index("ix_reports_status_created_at", "status", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # message, player, game
    reason: Mapped[str] = mapped_column(String(32))
    details: Mapped[str] = mapped_column(Text, default="")
    subject_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    message_id: Mapped[int | None] = mapped_column(
        ForeignKey("game_messages.id", ondelete="SET NULL"), nullable=True
    )
    excerpt: Mapped[str | None] = mapped_column(Text, nullable=True)  # the message as it was reported
    status: Mapped[str] = mapped_column(String(16), default="open")  # open, assigned, resolved, dismissed
    assignee_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    outcome: Mapped[str | None] = mapped_column(String(32), nullable=True)  # what the reporter is told
    resolution_note: Mapped[str | None] = mapped_column(Text, nullable=True)  # moderators only
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)


class AuditEntry(Base):
    """One moderator or admin action: who, what, why, when, and the state before and after."""

    __tablename__ = "audit_log"
    __table_args__ = (
        Index("ix_audit_log_subject_id", "subject_id"),
        Index("ix_audit_log_game_id", "game_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    actor_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    action: Mapped[str] = mapped_column(String(48))
    reason: Mapped[str] = mapped_column(String(1000), default="")
    subject_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    report_id: Mapped[int | None] = mapped_column(ForeignKey("reports.id"), nullable=True)
    sanction_id: Mapped[int | None] = mapped_column(ForeignKey("sanctions.id"), nullable=True)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument, nullable=True)
    # An administrator acting where a moderator may not: "own_game" (they play or played in the game),
    # "about_self" (the report or the account is theirs). None: no conflict of interest.
    conflict: Mapped[str | None] = mapped_column(String(16), nullable=True)


class GameRollback(Base):
    """A game rolled back to order `to_seq`: the orders after it, up to `from_version`, no longer count.

    They stay in `game_orders` (the log is append-only); replays skip them, and the pages mark them.
    """

    __tablename__ = "game_rollbacks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    to_seq: Mapped[int] = mapped_column(Integer)  # the last version kept (1: the start, before any order)
    from_version: Mapped[int] = mapped_column(Integer)  # the game's version before the rollback
    actor_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    reason: Mapped[str] = mapped_column(String(1000))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
