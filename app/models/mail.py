from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONDocument, UTCDateTime, utcnow


class Notification(Base):
    """Outbox row, written in the same transaction as the change that causes it."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_unsent", "sent_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), nullable=True, index=True
    )
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSONDocument, default=dict)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # handled (mailed or not)
    due_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # held back until then
    outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)  # what became of it
