"""Request and response bodies of the JSON API."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app.models.records import GameFacts, UserFacts
from app.services.play import turns
from app.services.players.open_places import GameListing


class ErrorDetail(BaseModel):
    code: str
    message: str
    field: str | None = None
    details: dict[str, Any] | None = Field(None, description="e.g. a ban's reason and end (`until`)")


class ErrorBody(BaseModel):
    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 422, 429)
}


class SignUp(BaseModel):
    email: str = Field(max_length=254)
    password: str = Field(max_length=256)
    display_name: str = Field(max_length=80)
    language: str = "en"
    time_zone: str = "UTC"


class LogIn(BaseModel):
    email: str = Field(max_length=254)
    password: str = Field(max_length=256)


class ProfileUpdate(BaseModel):
    display_name: str | None = Field(None, max_length=80)
    email: str | None = Field(None, max_length=254)
    language: str | None = None
    time_zone: str | None = None
    current_password: str = Field("", max_length=256, description="needed to change the address")


class PasswordChange(BaseModel):
    current_password: str = Field(max_length=256)
    new_password: str = Field(max_length=256)


class Me(BaseModel):
    id: int
    email: str
    pending_email: str | None  # the new address waiting for its check link
    display_name: str
    language: str
    time_zone: str
    role: str
    csrf_token: str
    games_waiting_on_you: int  # running games whose current turn or phase waits on one of the user's seats

    @classmethod
    def of(cls, session: Session, user: UserFacts, csrf_token: str) -> Me:
        """The user as the API shows them, their waiting games counted in the request's own session."""
        return cls(
            games_waiting_on_you=turns.turns_of(session, user).waiting_on_you,
            id=user.id,
            email=user.email,
            pending_email=user.pending_email,
            display_name=user.display_name,
            language=user.language,
            time_zone=user.time_zone,
            role=user.role,
            csrf_token=csrf_token,
        )


class GameCreate(BaseModel):
    game_type: str
    players: int
    time_limit_hours: int | None = 48
    options: dict[str, Any] = Field(default_factory=dict)
    name: str | None = Field(None, max_length=80)
    absence: dict[str, Any] | None = None  # the absence ladder's settings (defaults: 80%, 4, 2)
    friends: list[str] = Field(
        default_factory=list, max_length=16
    )  # invited (names of friends): seated once they accept
    min_reliability: int | None = Field(None, ge=0, le=100)  # the join gate, a reliability percentage
    bot_seats: int = 0  # seats a bot plays (0 to players - 1, games with a bot only): the game is unrated
    bots_keep_seats: bool = False  # a bot plays a seat that opens until a replacement takes it


class GameRename(BaseModel):
    name: str = Field(max_length=200)


class SeatOut(BaseModel):
    number: int | None
    player: str | None
    status: str


class GameSummary(BaseModel):
    id: int
    game_type: str
    name: str
    status: str
    players: int
    seats_taken: int
    time_limit_hours: int | None
    version: int
    created_at: datetime
    bot_seats: int = 0  # seats a bot plays: a game with bots is unrated

    @classmethod
    def of(cls, game: GameFacts | GameListing) -> GameSummary:
        return cls(
            id=game.id,
            game_type=game.game_type,
            name=game.name,
            status=game.status,
            players=game.players,
            seats_taken=game.seats_taken,
            time_limit_hours=game.time_limit_hours,
            version=game.version,
            created_at=game.created_at,
            bot_seats=game.bot_seats,
        )


class WaitOut(BaseModel):
    seat: int
    player: str | None
    phase: str
    deadline_at: datetime | None
    default_order: dict[str, Any] | None = None


class EventOut(BaseModel):
    seq: int
    kind: str
    data: dict[str, Any]
    private: bool
    created_at: datetime


class GameDetail(BaseModel):
    game: GameSummary
    options: dict[str, Any]
    your_seat: int | None
    players: list[str | None]
    waits: list[WaitOut]
    view: dict[str, Any] | None
    standings: list[dict[str, Any]] | None


class OrderIn(BaseModel):
    order: dict[str, Any]
    expected_version: int


class OrderAccepted(BaseModel):
    version: int
    status: str


class OrderAnswered(OrderAccepted):
    game: GameDetail  # the game as the mover now sees it (asked for with Prefer: return=representation)
