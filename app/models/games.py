from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app.db import Base, JSONDocument, UTCDateTime, utcnow

GAME_STATUSES = ("open", "active", "finished", "cancelled", "aborted")  # aborted: by a moderator


class _Seated(Protocol):
    @property
    def seats(self) -> Sequence[object]: ...
    @property
    def quarantined_at(self) -> datetime | None: ...
    @property
    def held_at(self) -> datetime | None: ...


class GameFigures:
    """What a game row and a game record (`records.GameRecord`) work out alike from their fields."""

    __slots__ = ()

    @property
    def seats_taken(self: _Seated) -> int:
        return len(self.seats)

    @property
    def clock_stopped(self: _Seated) -> bool:
        """Whether the sweeper leaves the game alone: quarantined by the clock, or held by a moderator."""
        return self.quarantined_at is not None or self.held_at is not None


class Game(Base, GameFigures):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_type: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(80))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    players: Mapped[int] = mapped_column(Integer)
    time_limit_hours: Mapped[int | None] = mapped_column(Integer, nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSONDocument, default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    creator_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    standings: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONDocument, nullable=True)
    # The absence ladder, chosen at creation (app.clock.AbsenceLadder); the clock's quarantine.
    warning_percent: Mapped[int] = mapped_column(Integer, default=80, server_default="80")
    eviction_preset: Mapped[int] = mapped_column(Integer, default=4, server_default="4")
    vote_after: Mapped[int] = mapped_column(Integer, default=2, server_default="2")
    quarantined_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    quarantine_reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    min_reliability: Mapped[int | None] = mapped_column(Integer, nullable=True)  # the creator's join gate, %
    # A moderator's hold: "paused" or "locked" (an investigation); no orders, and the clock stands still.
    held_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    hold_kind: Mapped[str | None] = mapped_column(String(16), nullable=True)
    hold_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)
    # Bots at the table (app.services.deadlines.bot_seats): seats a bot plays from the start (the game is then
    # unrated), and whether a bot plays a seat that opens until a replacement takes it.
    bot_seats: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    bots_keep_seats: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.joined_at, Seat.id", lazy="selectin"
    )


class Seat(Base):
    """A place at the table. Before the start it has no number; at the start numbers follow the pick order."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_seats_game_user"),
        UniqueConstraint("game_id", "number", name="uq_seats_game_number"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pick: Mapped[int | None] = mapped_column(Integer, nullable=True)  # drawn on joining, 1..players
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing, open, bot
    missed_turns: Mapped[int] = mapped_column(Integer, default=0)
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    opened_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # when it became open
    offered_to: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)  # named replacement
    offered_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    game: Mapped[Game] = relationship(back_populates="seats")


class SeatTenure(Base):
    """Who held a seat when; ratings and history are per tenure and never overwritten."""

    __tablename__ = "seat_tenures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), index=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(16), nullable=True)


class GameOrder(Base):
    """The append-only log of every state change of a game."""

    __tablename__ = "game_orders"
    __table_args__ = (
        UniqueConstraint("game_id", "seq", name="uq_game_orders_game_seq"),
        # The timeouts of a seat, for a player's record, without reading the rest of the log.
        Index(
            "ix_game_orders_timeouts",
            "game_id",
            "seat",
            "created_at",
            postgresql_where=text("origin = 'timeout'"),
            sqlite_where=text("origin = 'timeout'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    origin: Mapped[str] = mapped_column(String(16))  # player, timeout, admin, clock, bot
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class GameEvent(Base):
    """What happened, with who may see it (`visible_to` None = everyone)."""

    __tablename__ = "game_events"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_game_events_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    order_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    kind: Mapped[str] = mapped_column(String(48))
    data: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    visible_to: Mapped[list[int] | None] = mapped_column(JSONDocument, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class WaitRow(Base):
    """A seat the game waits on, with its deadline (None: no time limit)."""

    __tablename__ = "waits"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_waits_game_seat"),
        Index("ix_waits_deadline_at", "deadline_at"),
        Index("ix_waits_check_at", "check_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(48))
    simultaneous: Mapped[bool] = mapped_column(Boolean, default=False)
    first_in_phase: Mapped[bool] = mapped_column(Boolean, default=False)
    since_version: Mapped[int] = mapped_column(Integer)  # the game's version when this wait began
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    market: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    extension_seconds: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # outages
    warn_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # the 80% warning
    warned_for: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # deadline warned of
    check_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)  # when the sweeper looks
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # claims not finished
    last_error: Mapped[str | None] = mapped_column(String(200), nullable=True)
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")  # a bot answers it
