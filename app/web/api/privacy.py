"""The account's own data: its log-in sessions, its personal API tokens, its export and deletion."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.services.accounts import api_tokens, login_sessions
from app.services.privacy import deletion, export
from app.web.api.schemas import ERROR_RESPONSES
from app.web.deps import DB, AdminUser, CurrentUser, Limiter, Now, current_session_key, log_out

router = APIRouter(tags=["your account"], responses=ERROR_RESPONSES)
Id = Annotated[int, Path(ge=1, le=2**31 - 1)]  # an id the database's integer can hold
Scope = Literal["read", "play", "messages"]


class SessionOut(BaseModel):
    id: int
    created_at: datetime
    last_seen_at: datetime | None
    expires_at: datetime
    ip_address: str
    user_agent: str
    current: bool = Field(description="the session this request came with")


class TokenIn(BaseModel):
    name: str = Field(max_length=60)
    scopes: list[Scope] = Field(min_length=1, max_length=3)
    days: int | None = Field(None, ge=1, le=api_tokens.MAX_DAYS, description="none: until revoked")


class TokenOut(BaseModel):
    id: int
    name: str
    scopes: list[str]
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None

    @classmethod
    def of(cls, token: api_tokens.TokenFacts) -> TokenOut:
        return cls(
            id=token.id,
            name=token.name,
            scopes=list(token.scopes),
            created_at=token.created_at,
            expires_at=token.expires_at,
            last_used_at=token.last_used_at,
        )


class TokenMade(TokenOut):
    token: str = Field(description="shown this once: send it as `Authorization: Bearer <token>`")


@router.get("/me/sessions")
def my_sessions(request: Request, session: DB, user: CurrentUser, now: Now) -> list[SessionOut]:
    found = login_sessions.sessions_of(session, user, current_session_key(request), now)
    return [SessionOut(**vars(facts)) for facts in found]


@router.post("/me/sessions/{session_id}/end", status_code=204)
def end_session(session_id: Id, session: DB, user: CurrentUser) -> Response:
    login_sessions.end(session, user, session_id)
    return Response(status_code=204)


@router.post("/me/sessions/end-others")
def end_other_sessions(request: Request, session: DB, user: CurrentUser) -> dict[str, int]:
    return {"ended": login_sessions.end_others(session, user, current_session_key(request))}


@router.get("/me/tokens")
def my_tokens(session: DB, user: CurrentUser) -> list[TokenOut]:
    return [TokenOut.of(token) for token in api_tokens.tokens_of(session, user)]


@router.post("/me/tokens", status_code=201)
def create_token(body: TokenIn, session: DB, user: CurrentUser, now: Now) -> TokenMade:
    token, facts = api_tokens.create(session, user, body.name, list(body.scopes), body.days, now)
    return TokenMade(**TokenOut.of(facts).model_dump(), token=token)


@router.post("/me/tokens/{token_id}/revoke", status_code=204)
def revoke_token(token_id: Id, session: DB, user: CurrentUser) -> Response:
    api_tokens.revoke(session, user, token_id)
    return Response(status_code=204)


@router.get("/me/export")
def export_my_data(session: DB, user: CurrentUser, limiter: Limiter, now: Now) -> JSONResponse:
    """Everything held about you, as one JSON document (a few an hour)."""
    limiter.export(user.id)
    document = export.export(session, user, now)
    return JSONResponse(document, headers=_download_headers(now))


def _download_headers(now: datetime) -> dict[str, str]:
    name = f"ostraca-export-{now:%Y-%m-%d}.json"
    return {"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"}


class DeletionIn(BaseModel):
    password: str = Field(max_length=256)


class AdminDeletionIn(BaseModel):
    reason: str = Field(min_length=1, max_length=1000)


@router.post("/me/delete", status_code=204)
def delete_my_account(
    body: DeletionIn, request: Request, session: DB, user: CurrentUser, now: Now
) -> Response:
    """Deletes the account for good (see the privacy notes): running seats are freed, the rest erased."""
    deletion.delete_own_account(session, user, body.password, now)
    log_out(request, session)
    return Response(status_code=204)


@router.post("/admin/users/{user_id}/delete", status_code=204)
def delete_account(user_id: Id, body: AdminDeletionIn, session: DB, user: AdminUser, now: Now) -> Response:
    """An administrator deletes an account (written in the audit log with the reason)."""
    deletion.delete_by_admin(session, user, user_id, body.reason, now)
    return Response(status_code=204)
