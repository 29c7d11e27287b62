"""The secret links of mails (reset, check, calendar, unsubscribe) never appear whole in a log."""

from __future__ import annotations

import io
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.services.ops import logs
from app.web.deps import MaybeUser
from app.web.redaction import RedactTokens, redact_path
from tests.conftest import sign_up

REQUEST_ID = "7f3a9c2e5b8d4f1a"
SECRET = "eyJ1c2VyIjo0Mn0.Z2l2ZW4.c2VjcmV0LXNpZ25hdHVyZQ"
LINKS = (
    f"/password/reset/{SECRET}",
    f"/account/verify/{SECRET}",
    f"/unsubscribe/{SECRET}",
    f"/calendar/{SECRET}.ics",
)


@pytest.mark.parametrize("path", LINKS)
def test_the_token_of_each_secret_link_is_redacted(path: str) -> None:
    redacted = redact_path(f'127.0.0.1:5000 - "GET {path}?x=1 HTTP/1.1" 400')
    assert SECRET not in redacted and "[redacted]" in redacted and "?x=1" in redacted
    assert redact_path("/games/12/replay") == "/games/12/replay"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_access_log_of_the_server_shows_no_token(tmp_path: Path, log_format: str) -> None:
    """`ostraca serve` as a host runs it: uvicorn's own access log, read from its output."""
    port = _free_port()
    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path),
        "DATABASE_URL": "",
        "ENVIRONMENT": "development",
        "LOG_FORMAT": log_format,
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--no-jobs"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        statuses = [_get(f"http://127.0.0.1:{port}{path}", REQUEST_ID) for path in LINKS]
    finally:
        server.terminate()
        _, output = server.communicate(timeout=30)
    assert statuses == [400, 400, 400, 404], output
    assert output.count("[redacted]") >= len(LINKS), output
    assert SECRET not in output
    if log_format == "json":
        lines = [json.loads(line) for line in output.splitlines() if line.strip()]  # every line is JSON
        access = [line for line in lines if line["logger"] == "uvicorn.access"]
        assert len(access) == len(LINKS)
        assert {line["request_id"] for line in access} == {REQUEST_ID}
        assert all("[redacted]" in line["message"] for line in access)
    else:
        assert output.count(f"request={REQUEST_ID}") >= len(LINKS), output


def _get(url: str, request_id: str) -> int:
    deadline = time.monotonic() + 60
    request = urllib.request.Request(url, headers={"X-Request-ID": request_id})
    while True:
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                status: int = response.status
                return status
        except urllib.error.HTTPError as refused:
            return refused.code
        except OSError:  # not listening yet
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_error_log_shows_no_token(app: Any, caplog: pytest.LogCaptureFixture) -> None:
    def broken(token: str) -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/calendar/{token}/broken", broken)
    with caplog.at_level(logging.ERROR), TestClient(app, raise_server_exceptions=False) as client:
        assert client.get(f"/calendar/{SECRET}/broken").status_code == 500
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "unexpected error on GET /calendar/[redacted]/broken" in logged
    assert SECRET not in caplog.text


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The logs configured as in production, into a buffer; the test runner's handlers put back after."""
    root = logging.getLogger()
    kept = (root.handlers[:], root.level)
    uvicorn_loggers = [logging.getLogger(name) for name in ("uvicorn", "uvicorn.error", "uvicorn.access")]
    kept_uvicorn = [(logger.handlers[:], logger.propagate) for logger in uvicorn_loggers]
    buffer = io.StringIO()
    logs.configure(json_lines=True, filters=[RedactTokens()], stream=buffer)
    yield buffer
    root.handlers, root.level = kept
    for logger, (handlers, propagate) in zip(uvicorn_loggers, kept_uvicorn, strict=True):
        logger.handlers, logger.propagate = handlers, propagate


def test_a_log_line_names_the_request_the_user_and_the_game(app: Any, json_log: io.StringIO) -> None:
    def broken(game_id: int, user: MaybeUser) -> None:
        logging.getLogger("app.web.pages").warning("about to fail, see /unsubscribe/%s", SECRET)
        raise RuntimeError("a bug")

    app.add_api_route("/games/{game_id}/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        me = sign_up(client, "Logan")
        answer = client.get("/games/42/broken", headers={"X-Request-ID": REQUEST_ID})
        other = client.get("/healthz")
    assert answer.status_code == 500
    lines = [json.loads(line) for line in json_log.getvalue().splitlines()]
    about = [line for line in lines if line["request_id"] == REQUEST_ID]
    assert [line["level"] for line in about] == ["warning", "error"]
    assert {(line["user_id"], line["game_id"]) for line in about} == {(me["id"], 42)}
    assert "RuntimeError: a bug" in about[1]["exception"]
    assert "/unsubscribe/[redacted]" in about[0]["message"]
    assert SECRET not in json_log.getvalue()
    fresh = other.headers["x-request-id"]
    assert fresh != REQUEST_ID and len(fresh) == 32  # a new id when the proxy gives none


def test_a_malformed_request_id_is_replaced(client: TestClient) -> None:
    answer = client.get("/healthz", headers={"X-Request-ID": "bad id\r\nforged: line"})
    assert answer.headers["x-request-id"] != "bad id" and len(answer.headers["x-request-id"]) == 32


def test_background_work_names_its_game_in_readable_logs() -> None:
    buffer = io.StringIO()
    record = logging.LogRecord("app.services.jobs", logging.INFO, __file__, 1, "swept", None, None)
    handler = logging.StreamHandler(buffer)
    handler.addFilter(logs.ContextFilter())
    handler.setFormatter(logging.Formatter(logs.TEXT_FORMAT))
    with logs.about(game_id=7):
        handler.handle(record)
    assert buffer.getvalue().rstrip().endswith("app.services.jobs [game=7] swept")
