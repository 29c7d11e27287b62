"""One handler per kind of failure; every refusal has the same JSON shape or the same page."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from sqlalchemy.exc import DataError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse, RedirectResponse, Response

from app.games import input_errors
from app.models.records import UserRecord
from app.services.errors import ServiceError, not_found
from app.web import refusals, security
from app.web.deps import optional_user, render, translator
from app.web.i18n import interpolate

log = logging.getLogger(__name__)

HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


def install(app: FastAPI) -> None:
    app.add_exception_handler(ServiceError, _service_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(OverflowError, _out_of_range)  # SQLite: an id past 64 bits
    app.add_exception_handler(DataError, _out_of_range)  # Postgres: a value its column cannot hold
    app.add_exception_handler(OperationalError, _database_unavailable)  # type: ignore[arg-type]
    app.add_exception_handler(PoolTimeout, _database_unavailable)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _unexpected_error)


async def _service_error(request: Request, error: ServiceError) -> Response:
    return await _respond(request, error)


async def _validation_error(request: Request, error: RequestValidationError) -> Response:
    first = error.errors()[0] if error.errors() else {"loc": (), "type": "missing"}
    if first["loc"] and first["loc"][0] == "path":  # /users/abc: no such page, whatever the framework says
        return await _respond(request, not_found("This page does not exist."))
    field = input_errors.field_path(first["loc"])
    template, params = input_errors.sentence(first, field)
    return await _respond(request, ServiceError("invalid_input", template, field, params=params))


async def _http_error(request: Request, error: HTTPException) -> Response:
    if error.status_code == 404:
        return await _respond(request, not_found("This page does not exist."))
    code = HTTP_CODES.get(error.status_code, "http_error")
    refusal = ServiceError(code, str(error.detail), status=error.status_code)
    return await _respond(request, refusal, error.headers)


async def _out_of_range(request: Request, error: Exception) -> Response:
    """A number the database cannot even hold (an id of 2**63, say): bad input, not a server fault."""
    return await _respond(request, ServiceError("invalid_input", "A number in this request is out of range."))


async def _database_unavailable(request: Request, error: OperationalError | PoolTimeout) -> Response:
    """The database is down or too busy (SQLite's write lock held past its timeout, every pooled connection
    taken past the pool's timeout): try again later."""
    log.warning("database unavailable on %s %s: %s", request.method, request.url.path, error)
    busy = ServiceError(
        "busy", "The server is too busy to answer now; nothing was changed. Try again in a moment."
    )
    return await _respond(request, busy, {"Retry-After": "5"})


async def _unexpected_error(request: Request, error: Exception) -> Response:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    fault = ServiceError("server_error", "Something went wrong on our side; nothing was changed.")
    response = await _respond(request, fault)
    # Answered by Starlette's outermost middleware, outside the one that adds the headers to the others
    return security.secure(response, request.url.path, request.app.state.settings.secure_cookies)


async def _respond(
    request: Request, error: ServiceError, headers: Mapping[str, str] | None = None
) -> Response:
    # The error page reads the user from the database: never on the event loop, where a blocking read
    # would stall every other request (and, on SQLite, the one holding the write lock).
    typed = await refusals.typed_values(request) if error.status < 500 else None
    return await run_in_threadpool(_error_response, request, error, headers, typed)


def _error_response(
    request: Request,
    error: ServiceError,
    headers: Mapping[str, str] | None,
    typed: list[tuple[str, str]] | None,
) -> Response:
    wants_json = request.url.path.startswith("/api/") or "application/json" in request.headers.get(
        "accept", ""
    )
    user = _user_or_none(request)
    # Translated here, as plain text: a message is never trusted as HTML.
    words = translator(request, user)
    params = dict(error.params)
    what = params.get("what")
    if isinstance(what, str):  # a field's name as people say it (app.games.input_errors)
        params["what"] = words.plain(what)
    message = interpolate(words.language, words.plain(error.template), params)
    if wants_json:
        body: dict[str, Any] = {"code": error.code, "message": message, "field": error.field}
        if error.details:
            body["details"] = {key: _json_value(value) for key, value in error.details.items()}
        return JSONResponse({"error": body}, status_code=error.status, headers=headers)
    if error.code == "login_required":
        login = refusals.to_log_in(request)
        if login is not None:
            return login
    sanction = error.details is not None and ("until" in error.details or "reason" in error.details)
    back = refusals.form_page(request) if typed is not None and not sanction else None
    if back is not None:  # a browser's form: shown again, as typed, with the reason beside it
        refusals.keep(request, error.code, message, error.field, typed or [])
        return RedirectResponse(back, 303)
    context = {
        "code": error.code,
        "message": message,
        "field": error.field,
        "status": error.status,
        "details": error.details or {},
        "turns_waiting": 0,  # not counted: the request's own session may be what failed
        "csrf_token": None,  # an error page has no form to post; a token there would only leak
    }
    if request.headers.get("hx-request"):  # shown in the page's message area, whatever the form's target
        response = render(request, "partials/error.html", user, context, status_code=error.status)
        # "global": found from the document even when a live update replaced the form meanwhile
        response.headers.update({"HX-Retarget": "global #flash", "HX-Reswap": "innerHTML"})
    else:
        response = render(request, "error.html", user, context, status_code=error.status)
    response.headers.update(headers or {})
    return response


def _json_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def _user_or_none(request: Request) -> UserRecord | None:
    try:
        with request.app.state.sessions() as session:
            return optional_user(request, session)
    except Exception:  # the error page must render even when the database is the problem
        return None
