"""The ways into games and what the site keeps about players: friends and blocks, the player queue, the
seat draft, ratings (per game type, with one change per seat tenure), seat statistics and move times."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db import Base, UTCDateTime, utcnow


class Friendship(Base):
    """`friend_id` is on `user_id`'s friends list (a list is one person's; it need not be mutual)."""

    __tablename__ = "friendships"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    friend_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class GameInvitation(Base):
    """`user_id` is invited into a forming game by `invited_by`, its creator: they are seated only if they
    accept (nobody is put into a game without their consent)."""

    __tablename__ = "game_invitations"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    invited_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Block(Base):
    """`user_id` never sits at a table with `blocked_id` (both ways)."""

    __tablename__ = "blocks"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class QueueEntry(Base):
    """A player waiting in the queue of one game type, with the time limits they accept."""

    __tablename__ = "queue_entries"
    __table_args__ = (
        UniqueConstraint("user_id", "game_type", name="uq_queue_entries_user_type"),
        Index("ix_queue_entries_type_created", "game_type", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_type: Mapped[str] = mapped_column(String(32))
    min_hours: Mapped[int] = mapped_column(Integer)
    max_hours: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: no maximum, nor limit
    new_games: Mapped[bool] = mapped_column(Boolean, default=True)
    in_progress: Mapped[bool] = mapped_column(Boolean, default=False)
    # the table sizes accepted; None: no preference (the type's range; a new game is made at its smallest)
    min_players: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_players: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class QueueBook(Base):
    """One row per game type: placing queued players locks it, so two placements never race."""

    __tablename__ = "queue_books"

    game_type: Mapped[str] = mapped_column(String(32), primary_key=True)
    placed: Mapped[int] = mapped_column(Integer, default=0)  # players the queue has seated so far


class DraftPick(Base):
    """One seat in a seat draft: its secret pre-selection, then its choice once resolved."""

    __tablename__ = "draft_picks"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)  # seat number = pick number - 1
    preselection: Mapped[str | None] = mapped_column(String(40), nullable=True)  # secret to the seat
    choice: Mapped[str | None] = mapped_column(String(40), nullable=True)  # public once set
    chosen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Rating(Base):
    """A player's skill in one game type (openskill Plackett-Luce); only the order is ever shown."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_type_ordinal", "game_type", "ordinal"),)

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game_type: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    ordinal: Mapped[float] = mapped_column(Double)  # mu - 3 sigma: the ranking order
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingBook(Base):
    """One row per game type: rating a finished game locks it and numbers the game (`RatedGame.seq`)."""

    __tablename__ = "rating_books"

    game_type: Mapped[str] = mapped_column(String(32), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatedGame(Base):
    """A finished game taken into the ratings, in the order it was taken (a recomputation follows it)."""

    __tablename__ = "rated_games"
    __table_args__ = (UniqueConstraint("game_type", "seq", name="uq_rated_games_type_seq"),)

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    game_type: Mapped[str] = mapped_column(String(32))
    seq: Mapped[int] = mapped_column(Integer)
    rated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingChange(Base):
    """What one seat tenure did to its player's rating in one finished game."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_rating_changes_game_user"),
        Index("ix_rating_changes_user_type", "user_id", "game_type"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    tenure_id: Mapped[int | None] = mapped_column(
        ForeignKey("seat_tenures.id", ondelete="SET NULL"), nullable=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game_type: Mapped[str] = mapped_column(String(32))
    seq: Mapped[int] = mapped_column(Integer)  # the game's RatedGame.seq
    outcome: Mapped[str] = mapped_column(String(16))  # finished, replacement, quit, evicted
    place: Mapped[int] = mapped_column(Integer)  # 1 = won; quitters count after every seat
    seat_key: Mapped[str] = mapped_column(String(48))
    mu_before: Mapped[float] = mapped_column(Double)
    sigma_before: Mapped[float] = mapped_column(Double)
    mu_after: Mapped[float] = mapped_column(Double)
    sigma_after: Mapped[float] = mapped_column(Double)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class SeatStat(Base):
    """How a seat (a drafted choice such as a nation, else a seat number) finished, over all games."""

    __tablename__ = "seat_stats"

    game_type: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat_key: Mapped[str] = mapped_column(String(48), primary_key=True)
    games: Mapped[int] = mapped_column(Integer, default=0)
    place_total: Mapped[int] = mapped_column(Integer, default=0)  # sum of finishing places
    relative_total: Mapped[float] = mapped_column(Double, default=0.0)  # sum of (place-1)/(seats-1)


class MoveStat(Base):
    """A player's orders given in time, and how long they took (reliability, kept apart from skill)."""

    __tablename__ = "move_stats"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    move_seconds: Mapped[int] = mapped_column(BigInteger, default=0)
