"""Game messages and notification settings in the JSON API."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter
from pydantic import BaseModel, Field

from app.models import MailSettings
from app.services.mail import notify
from app.services.play import play
from app.services.social import messages
from app.web.api.schemas import ERROR_RESPONSES
from app.web.deps import DB, AppSettings, CurrentUser, MaybeUser, Now

router = APIRouter(tags=["messages"], responses=ERROR_RESPONSES)


class MessageIn(BaseModel):
    body: str = Field(max_length=10_000)
    to: list[int] = Field(default_factory=list, max_length=16, description="seats; empty: the public board")


class MessageOut(BaseModel):
    id: int
    author: str | None
    from_seat: int | None
    to: list[int]
    body: str
    created_at: datetime

    @classmethod
    def of(cls, shown: messages.Shown) -> MessageOut:
        return cls(
            id=shown.id,
            author=shown.author,
            from_seat=shown.from_seat,
            to=shown.to,
            body=shown.body,
            created_at=shown.created_at,
        )


@router.get("/games/{game_id}/messages")
def list_messages(game_id: int, session: DB, user: MaybeUser) -> list[MessageOut]:
    """The newest messages you may read: the board, and the private threads of your seat."""
    game = play.get_game(session, game_id)
    return [MessageOut.of(shown) for shown in messages.visible_messages(session, game, user)]


@router.post("/games/{game_id}/messages", status_code=201)
def post_message(
    game_id: int, body: MessageIn, session: DB, user: CurrentUser, now: Now, settings: AppSettings
) -> dict[str, int]:
    message = messages.post(
        session, user, game_id, body.body, to_seats=body.to, now=now, per_minute=settings.messages_per_minute
    )
    return {"id": message.id}


class NotificationSettings(BaseModel):
    modes: dict[str, str] = Field(description="kind -> immediate, digest or off")
    quiet_start: str = Field("", description="HH:MM in your zone, or empty")
    quiet_end: str = ""
    digest_hour: int = 8
    your_turn_always: bool = False


@router.get("/me/notifications")
def get_notifications(session: DB, user: CurrentUser) -> NotificationSettings:
    own = session.get(MailSettings, user.id)
    return NotificationSettings(
        modes=notify.modes_of(session, user.id),
        quiet_start=notify.minute_text(own.quiet_start_minute if own else None),
        quiet_end=notify.minute_text(own.quiet_end_minute if own else None),
        digest_hour=own.digest_hour if own else 8,
        your_turn_always=bool(own and own.your_turn_always),
    )


@router.put("/me/notifications")
def put_notifications(body: NotificationSettings, session: DB, user: CurrentUser) -> NotificationSettings:
    preferences = notify.Preferences(
        modes=body.modes,
        quiet_start=body.quiet_start,
        quiet_end=body.quiet_end,
        digest_hour=body.digest_hour,
        your_turn_always=body.your_turn_always,
    )
    notify.save_preferences(session, user, preferences)
    return get_notifications(session, user)
