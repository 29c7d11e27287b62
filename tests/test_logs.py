"""The secret links of mails (reset, check, calendar, unsubscribe) never appear whole in a log."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.web.redaction import redact_path

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


def test_the_access_log_of_the_server_shows_no_token(tmp_path: Path) -> None:
    """`ostraca serve` as a host runs it: uvicorn's own access log, read from its output."""
    port = _free_port()
    env = {**os.environ, "DATA_DIR": str(tmp_path), "DATABASE_URL": "", "ENVIRONMENT": "development"}
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--no-jobs"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        statuses = [_get(f"http://127.0.0.1:{port}{path}") for path in LINKS]
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert statuses == [400, 400, 400, 404], output
    assert output.count("[redacted]") >= len(LINKS), output
    assert SECRET not in output


def _get(url: str) -> int:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
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
