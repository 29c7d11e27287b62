"""Everything the site holds about one player, as one JSON document they may download.

Their games are shown as they see them: each game's public record and the rules' view for their own seat
(`rules.view(state, seat)`), the events and messages their seat may read, and the orders they sent. No
other seat's hidden information is read into it, and no secret that would open the account (password hash,
session keys, token hashes, the calendar link's key) nor moderators' private notes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from app.db import Base
from app.models import (
    ApiToken,
    AvailabilityWindow,
    Block,
    Friendship,
    Game,
    GameMessage,
    GameOrder,
    LoginSession,
    MailSettings,
    Notification,
    NotificationPreference,
    OutgoingMail,
    PauseRequest,
    QueueEntry,
    Rating,
    Report,
    Sanction,
    Seat,
    SeatTenure,
    User,
)
from app.models.records import UserFacts
from app.services.accounts.accounts import user_row
from app.services.moderation import audit
from app.services.play import play
from app.services.social import messages

FORMAT = "ostraca-export/1"
LOG_EVENTS = 100_000  # a whole game's log, however long
# Columns never exported: what would open the account, and what is for moderators only.
SECRET_COLUMNS = frozenset(
    {"password_hash", "key_hash", "token_hash", "calendar_token", "note", "resolution_note", "assignee_id"}
)


def export(session: Session, user: UserFacts, now: datetime) -> dict[str, Any]:
    """The document, and an audit entry saying it was made (committed with it)."""
    row = user_row(session, user)
    document: dict[str, Any] = {
        "format": FORMAT,
        "exported_at": now.isoformat(),
        "profile": _columns(row),
        "settings": {
            "mail": [_columns(found) for found in _of(session, MailSettings, MailSettings.user_id, row.id)],
            "notifications": _rows(session, NotificationPreference, NotificationPreference.user_id, row.id),
        },
        "availability_windows": _rows(session, AvailabilityWindow, AvailabilityWindow.user_id, row.id),
        "pauses": _rows(session, PauseRequest, PauseRequest.user_id, row.id),
        "friends": _rows(session, Friendship, Friendship.user_id, row.id),
        "blocks": _rows(session, Block, Block.user_id, row.id),
        "queue": _rows(session, QueueEntry, QueueEntry.user_id, row.id),
        "ratings": _rows(session, Rating, Rating.user_id, row.id),
        "games": [_game(session, row, game) for game in _games_of(session, row.id)],
        "messages_written": _rows(session, GameMessage, GameMessage.author_id, row.id),
        "notifications": _rows(session, Notification, Notification.user_id, row.id),
        "mails": _rows(session, OutgoingMail, OutgoingMail.user_id, row.id),
        "reports_made": _rows(session, Report, Report.reporter_id, row.id),
        "sanctions": _rows(session, Sanction, Sanction.user_id, row.id),
        "sessions": _rows(session, LoginSession, LoginSession.user_id, row.id),
        "api_tokens": _rows(session, ApiToken, ApiToken.user_id, row.id),
    }
    audit.record(session, row, "account.export", reason="", now=now, target=audit.Target(subject_id=row.id))
    session.commit()
    return document


def _of(session: Session, model: type[Base], column: Any, user_id: int) -> list[Any]:
    return list(session.scalars(select(model).where(column == user_id)))


def _rows(session: Session, model: type[Base], column: Any, user_id: int) -> list[dict[str, Any]]:
    return [_columns(found) for found in _of(session, model, column, user_id)]


def _columns(row: Any) -> dict[str, Any]:
    return {
        column.key: _plain(getattr(row, column.key))
        for column in row.__table__.columns
        if column.key not in SECRET_COLUMNS
    }


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _games_of(session: Session, user_id: int) -> list[Game]:
    """The games the user sits in, sat in, or joined before the start."""
    held = select(Seat.game_id).where(Seat.user_id == user_id)
    past = (
        select(Seat.game_id)
        .join(SeatTenure, SeatTenure.seat_id == Seat.id)
        .where(SeatTenure.user_id == user_id)
    )
    query = select(Game).where(or_(Game.id.in_(held), Game.id.in_(past))).order_by(Game.id)
    return list(session.scalars(query))


def _game(session: Session, user: User, game: Game) -> dict[str, Any]:
    """One game as the user sees it now: a seat they left shows only what everyone sees."""
    view = play.game_view(session, game.id, user, with_log=False)
    log = play.visible_log(session, game.id, view.seat, limit=LOG_EVENTS)
    orders = session.scalars(
        select(GameOrder)
        .where(GameOrder.game_id == game.id, GameOrder.user_id == user.id)
        .order_by(GameOrder.seq)
    )
    tenures = session.scalars(
        select(SeatTenure)
        .join(Seat, Seat.id == SeatTenure.seat_id)
        .where(Seat.game_id == game.id, SeatTenure.user_id == user.id)
    )
    return {
        "id": game.id,
        "game_type": game.game_type,
        "name": game.name,
        "status": game.status,
        "created_at": _plain(game.created_at),
        "started_at": _plain(game.started_at),
        "finished_at": _plain(game.finished_at),
        "players": view.players,
        "standings": game.standings,
        "your_seat": view.seat,
        "your_tenures": [_columns(tenure) for tenure in tenures],
        "view": play.as_json(view.board),
        "log": [
            {"seq": event.seq, "kind": event.kind, "data": event.data, "created_at": _plain(event.created_at)}
            for event in reversed(log)
        ],
        "your_orders": [_columns(order) for order in orders],
        "messages": [
            {
                "author": shown.author,
                "from_seat": shown.from_seat,
                "to": shown.to,
                "body": shown.body,
                "created_at": _plain(shown.created_at),
            }
            for shown in reversed(messages.visible_messages(session, game, user, limit=LOG_EVENTS))
        ],
    }
