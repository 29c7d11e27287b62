"""In-game messages: a public board per game and private threads between sets of seats.

Messages belong to seats: a private thread is the set of seats in it, so whoever holds one of those seats
(a replacement too) reads the whole thread, and a spectator reads only the board. Text is stored as typed;
the web layer escapes it and makes http(s) links clickable. Posting tells live pages through the game's
live channel, after the commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Select, bindparam, func, or_, select
from sqlalchemy.orm import Session

from app.models import Game, GameMessage, User
from app.models.records import GameFacts, UserFacts
from app.services.errors import ServiceError
from app.services.mail import notify
from app.services.play import play

MAX_LENGTH = 2000
SHOWN = 100


@dataclass(frozen=True)
class Shown:
    """A message as one viewer sees it."""

    id: int
    author: str | None
    from_seat: int | None
    to: list[int]  # the seats of a private thread; [] for the board
    body: str
    created_at: datetime

    @property
    def private(self) -> bool:
        return bool(self.to)


def audience_key(seats: Iterable[int]) -> str:
    return "," + ",".join(str(seat) for seat in sorted(set(seats))) + ","


def audience_seats(key: str | None) -> list[int]:
    return [int(part) for part in (key or "").split(",") if part]


def muted_until(user: UserFacts, now: datetime) -> datetime | None:
    """The moderation hook: a user with a `muted_until` in the future may not post until then.

    The column belongs to moderation (`User.muted_until`); until it exists, nobody is muted.
    """
    until = getattr(user, "muted_until", None)
    return until if isinstance(until, datetime) and until > now else None


def post(
    session: Session,
    user: UserFacts,
    game_id: int,
    body: str,
    *,
    to_seats: Iterable[int] = (),
    now: datetime,
    per_minute: int,
) -> GameMessage:
    """Post on the board (no `to_seats`) or to a private thread of the poster's seat and `to_seats`."""
    game = play.locked_game(session, game_id)
    text = _checked_body(body)
    if muted_until(user, now) is not None:
        raise ServiceError("muted", "You are muted for now: you cannot post messages.")
    seat = play.viewer_seat(game, user)
    recipients = sorted(set(to_seats))
    _check_may_post(game, user, seat, recipients)
    _check_rate(session, user, now, per_minute)
    audience = audience_key([*recipients, seat]) if recipients and seat is not None else None
    message = GameMessage(
        game_id=game.id, audience=audience, from_seat=seat, author_id=user.id, body=text, created_at=now
    )
    session.add(message)
    session.flush()
    readers = _notify(session, game, message, recipients, user)
    play.announce(session, game, None if readers is None else [*readers, user.id])
    session.commit()
    return message


def _checked_body(body: str) -> str:
    text = body.replace("\r\n", "\n").strip()
    if not text:
        raise ServiceError("invalid_input", "A message cannot be empty.", "body")
    if len(text) > MAX_LENGTH:
        raise ServiceError("invalid_input", "A message has at most 2000 characters.", "body")
    return text


def _check_may_post(game: Game, user: UserFacts, seat: int | None, recipients: list[int]) -> None:
    member = any(s.user_id == user.id and s.status == "playing" for s in game.seats)
    if game.status == "cancelled" or not member:
        raise ServiceError("not_your_game", "Only the players of this game may post here.")
    if not recipients:
        return
    if game.status != "active" or seat is None:
        raise ServiceError("wrong_status", "Private messages are for running games.")
    if seat in recipients or any(not 0 <= other < game.players for other in recipients):
        raise ServiceError("invalid_input", "Choose other seats of this game.", "to")


def _check_rate(session: Session, user: UserFacts, now: datetime, per_minute: int) -> None:
    recent = session.scalar(
        select(func.count())
        .select_from(GameMessage)
        .where(GameMessage.author_id == user.id, GameMessage.created_at > now - timedelta(minutes=1))
    )
    if (recent or 0) >= per_minute:
        raise ServiceError("rate_limited", "You are posting too fast: wait a minute and try again.")


def _notify(
    session: Session, game: Game, message: GameMessage, recipients: list[int], author: UserFacts
) -> list[int] | None:
    """Tell the readers of the message; returns them for a private one (None: the board, everyone's)."""
    data: dict[str, Any] = {"message_id": message.id}
    if not recipients:
        notify.notify_game(session, game, "board_post", data, exclude=[author.id])
        return None
    holders = [s.user_id for s in game.seats if s.number in recipients and s.status == "playing"]
    readers = [u for u in holders if u is not None]
    notify.notify_users(session, readers, "private_message", data, game.id)
    return readers


def _newest_messages(readable: ColumnElement[bool]) -> Select[GameMessage]:
    query = select(GameMessage).where(GameMessage.game_id == bindparam("game_id"), readable)
    return query.order_by(GameMessage.id.desc()).limit(bindparam("limit"))


# Built once: every game page reads them.
_BOARD_MESSAGES = _newest_messages(GameMessage.audience.is_(None))
_SEAT_MESSAGES = _newest_messages(
    or_(GameMessage.audience.is_(None), GameMessage.audience.contains(bindparam("seat")))
)


def visible_messages(
    session: Session, game: GameFacts, user: UserFacts | None, limit: int = SHOWN
) -> list[Shown]:
    """The newest messages the viewer may read: the board, and the private threads of their seat."""
    seat = play.viewer_seat(game, user)
    wanted: dict[str, object] = {"game_id": game.id, "limit": limit}
    if seat is not None:
        wanted["seat"] = f",{seat},"
    messages = list(session.scalars(_SEAT_MESSAGES if seat is not None else _BOARD_MESSAGES, wanted))
    names = _author_names(session, {row.author_id for row in messages})
    return [
        Shown(
            row.id,
            names.get(row.author_id),
            row.from_seat,
            audience_seats(row.audience),
            row.body,
            row.created_at,
        )
        for row in messages
    ]


def _author_names(session: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return dict(session.execute(select(User.id, User.display_name).where(User.id.in_(ids))).all())
