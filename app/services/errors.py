"""One error type for the service layer, with a closed set of codes and their HTTP status."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

STATUS_BY_CODE: dict[str, int] = {
    "invalid_input": 422,
    "unknown_option": 422,  # a game option the game does not have
    "invalid_option": 422,  # a game option's value it does not take
    "illegal_order": 422,
    "weak_password": 422,
    "email_taken": 409,
    "name_taken": 409,
    "bad_credentials": 401,
    "login_required": 401,
    "csrf_failed": 403,
    "forbidden": 403,
    "not_your_game": 403,
    "not_found": 404,
    "stale_version": 409,
    "not_your_turn": 409,
    "clock_only": 403,  # the rules' clock order: only the clock sends it
    "wrong_status": 409,
    "already_joined": 409,
    "game_full": 409,
    "seat_taken": 409,
    "vote_not_open": 409,
    "already_voted": 409,
    "shared_games_cap": 409,
    "blocked": 403,
    "reliability_gate": 403,
    "draft_taken": 409,
    "rate_limited": 429,
    "muted": 403,
    "invalid_token": 400,
    "bad_token": 401,  # a personal API token unknown, revoked or expired
    "token_scope": 403,  # a personal API token without the scope, or a request no token may make
    # moderation
    "account_banned": 403,
    "join_banned": 403,
    "email_banned": 403,
    "game_paused": 409,
    "game_locked": 409,
    "already_reported": 409,
    "conflict_of_interest": 403,
    "replay_failed": 409,
    # the server itself
    "busy": 503,
    "server_error": 500,
}


class ServiceError(Exception):
    """A refused request: nothing was written. `message` is plain English, translated by the web layer."""

    def __init__(
        self,
        code: str,
        message: str,
        field: str | None = None,
        status: int | None = None,
        *,
        details: Mapping[str, Any] | None = None,
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        if code not in STATUS_BY_CODE and status is None:
            raise ValueError(f"unknown error code {code!r}")
        self.template = message  # what is translated; `%(name)s` placeholders are filled from `params`
        self.params = dict(params or {})
        self.message = message % self.params if self.params else message
        super().__init__(self.message)
        self.code = code
        self.field = field
        self.status = status or STATUS_BY_CODE[code]
        self.details = dict(details) if details else None  # values the message cannot hold (a reason, a date)


def not_found(message: str = "This page does not exist.") -> ServiceError:
    return ServiceError("not_found", message)
