"""A real server (uvicorn in a thread, SQLite) and a real browser (Debian's Chromium through Playwright)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from app import migrate
from app.db import make_engine
from app.main import create_app
from app.settings import Settings

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    settings = Settings(data_dir=tmp_path / "var", run_jobs=False, _env_file=None)
    engine = make_engine(settings.sqlalchemy_url)
    migrate.upgrade(engine)
    engine.dispose()
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """Pages in separate contexts (separate cookies), phone-sized when asked; screenshots kept on failure."""
    contexts: list[Any] = []

    def make(phone: bool = False, locale: str = "en-GB", timezone: str = "UTC") -> Any:
        viewport = {"width": 390, "height": 844} if phone else {"width": 1366, "height": 900}
        context = browser.new_context(viewport=viewport, locale=locale, timezone_id=timezone)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for number, context in enumerate(contexts):
        for index, page in enumerate(context.pages):
            page.screenshot(path=str(tmp_path / f"page-{number}-{index}.png"), full_page=True)
        context.close()
