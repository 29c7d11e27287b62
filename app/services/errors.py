"""One error type for the service layer, with a closed set of codes and their HTTP status."""

from __future__ import annotations

STATUS_BY_CODE: dict[str, int] = {
    "invalid_input": 422,
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
    "wrong_status": 409,
    "already_joined": 409,
    "game_full": 409,
    "rate_limited": 429,
}


class ServiceError(Exception):
    """A refused request: nothing was written. `message` is plain English, translated by the web layer."""

    def __init__(self, code: str, message: str, field: str | None = None, status: int | None = None) -> None:
        super().__init__(message)
        if code not in STATUS_BY_CODE and status is None:
            raise ValueError(f"unknown error code {code!r}")
        self.code = code
        self.message = message
        self.field = field
        self.status = status or STATUS_BY_CODE[code]


def not_found(what: str = "This page") -> ServiceError:
    return ServiceError("not_found", f"{what} does not exist.")
