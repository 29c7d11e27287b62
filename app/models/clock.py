"""The clock's tables: availability windows, pauses, eviction votes, market windows, marks, job runs and the
timeouts played."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import Date, Float, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, JSONDocument, UTCDateTime, utcnow


class AvailabilityWindow(Base):
    """One weekly window of a user, in minutes since midnight on their wall clock (their zone)."""

    __tablename__ = "availability_windows"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    weekday: Mapped[int] = mapped_column(Integer)  # 0 = Monday ... 6 = Sunday
    start_minute: Mapped[int] = mapped_column(Integer)  # 0 ... 1439
    end_minute: Mapped[int] = mapped_column(Integer)  # at or before the start: crosses midnight


class PauseRequest(Base):
    """A pause of all the user's games: whole days, read in the zone the user had when asking."""

    __tablename__ = "pauses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    first_day: Mapped[date] = mapped_column(Date)
    last_day: Mapped[date] = mapped_column(Date)
    zone: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    removed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class EvictionVote(Base):
    """A player's vote to evict the holder of another seat sooner; cleared when that seat's count resets."""

    __tablename__ = "eviction_votes"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", "voter_id", name="uq_eviction_votes_game_seat_voter"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    voter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class MarketWindow(Base):
    """The open trade market of a game (at most one), as `app.clock.Market` sees it."""

    __tablename__ = "market_windows"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    phase: Mapped[str] = mapped_column(String(48))
    phase_started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    limit_hours: Mapped[int | None] = mapped_column(Integer, nullable=True)
    counted: Mapped[list[int]] = mapped_column(JSONDocument)
    base: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    closes_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    # When the rules' clock order announced the end of the embargo (None: not yet).
    embargo_signalled_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class ClockMark(Base):
    """A named instant the clock remembers; "last_sweep" is when a sweeper last ran."""

    __tablename__ = "clock_marks"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class JobRun(Base):
    """One run of a periodic job in one slot: the row that makes it run once across all processes."""

    __tablename__ = "job_runs"

    job: Mapped[str] = mapped_column(String(48), primary_key=True)
    slot: Mapped[datetime] = mapped_column(UTCDateTime, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    owner: Mapped[str] = mapped_column(String(64))


class TimeoutPlayed(Base):
    """A deadline the sweeper acted on: when it fell due and when its default was played.

    The public "phases resolved on time" figure and the admins' lateness are read from these rows, and a
    deadline acted on twice would show as two rows of one (game, seat, deadline)."""

    __tablename__ = "timeouts_played"
    __table_args__ = (Index("ix_timeouts_played_played_at", "played_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    deadline_at: Mapped[datetime] = mapped_column(UTCDateTime)
    played_at: Mapped[datetime] = mapped_column(UTCDateTime)
    late_seconds: Mapped[float] = mapped_column(Float)
