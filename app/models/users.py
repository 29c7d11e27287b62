from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Protocol

import icu
from sqlalchemy import Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, validates

from app.db import Base, UTCDateTime, utcnow


def name_key(name: str) -> str:
    """A name as people search for it: no accents, no case, single spaces ("Chloé  Roy" gives "chloe roy")."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.casefold().split())


_SPOOF_CHECKER = icu.SpoofChecker()  # ICU's Unicode TR39 data; its skeletons are safe to compute at once


def name_skeletons(name: str) -> tuple[str, str]:
    """What a name looks like, but for case: its Unicode TR39 confusable skeleton, case folded after
    ("AIice" with a capital "I" gives "alice", as "alice" does) and before ("сIV0" with a Cyrillic "с" gives
    "civo", as "civ0" does). Two names alike in either look alike to a reader."""
    shown = " ".join(name.split())
    return _skeleton(_skeleton(shown).casefold()), _skeleton(shown.casefold()).casefold()


def _skeleton(text: str) -> str:
    return str(_SPOOF_CHECKER.getSkeleton(0, text))  # 0: the one table Unicode now publishes


class _HasRole(Protocol):
    @property
    def role(self) -> str: ...


class Roles:
    """What a user row and a user record (`records.UserRecord`) work out alike from the role."""

    __slots__ = ()

    @property
    def is_admin(self: _HasRole) -> bool:
        return self.role == "admin"

    @property
    def is_moderator(self: _HasRole) -> bool:
        """Moderators and admins: who works the reports queue and may intervene in games."""
        return self.role in ("moderator", "admin")


class User(Base, Roles):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)  # stored lower-cased
    # A new address the user asked for: it replaces `email` when its check link is followed.
    pending_email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    display_name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str] = mapped_column(String(40), index=True, default="")  # set with display_name
    # Set with display_name too (`name_skeletons`); not unique: names taken before the look-alike rule
    # keep their owners.
    name_skeleton: Mapped[str] = mapped_column(String, index=True, default="")
    name_folded_skeleton: Mapped[str] = mapped_column(String, index=True, default="")
    password_hash: Mapped[str] = mapped_column(String(255))
    language: Mapped[str] = mapped_column(String(8), default="en")
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC")
    role: Mapped[str] = mapped_column(String(16), default="player")  # player, moderator, admin
    session_version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    # Moderation: when each kind of sanction ends (app.services.moderation.moderation keeps them from
    # `sanctions`; a permanent one ends at moderation.PERMANENT). A sign-up by mail waits for the address's
    # check.
    banned_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    join_banned_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    muted_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    signup_pending: Mapped[bool] = mapped_column(Boolean, default=False, server_default="0")
    # A deleted account keeps its row (games, ratings and messages point at it) under the name "deleted
    # player N", with no address, password or settings left (app.services.accounts.deletion).
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)

    @validates("display_name")
    def _keep_name_key(self, _: str, name: str) -> str:
        self.name_key = name_key(name)
        self.name_skeleton, self.name_folded_skeleton = name_skeletons(name)
        return name


class LoginSession(Base):
    """One log-in. The cookie holds a random key and this row a hash of it; log-out deletes the row, so a
    copied cookie stops working with it. (`User.session_version` still ends every session at once.)"""

    __tablename__ = "login_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the cookie's key, in hex
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    # What the account page shows of it, so that its owner recognises (and ends) a session not theirs.
    last_seen_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    ip_address: Mapped[str] = mapped_column(String(64), default="", server_default="")
    user_agent: Mapped[str] = mapped_column(String(200), default="", server_default="")


class ApiToken(Base):
    """A personal API token: the user's scripts send it as `Authorization: Bearer` on /api/v1. Only a hash
    of it is kept (it is shown once); revoking it deletes the row."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # sha256 of the token, in hex
    scopes: Mapped[str] = mapped_column(String(64))  # space-separated: read, play, messages
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
