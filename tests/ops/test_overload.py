"""Degrading gracefully: past its bound of requests in progress a process answers 503 with Retry-After at
once (never a 500, never a wait), its probes still answer and /readyz says it is saturated; a database pool
that has no connection to give within its timeout is a 503 too."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import sqlalchemy.exc
from fastapi import FastAPI
from starlette.testclient import TestClient

from app.db import make_engine
from app.main import create_app
from app.settings import Settings

BOUND = 2


@pytest.fixture
def held(settings: Settings) -> Iterator[tuple[TestClient, threading.Semaphore, threading.Event]]:
    """A client of an app bounded to BOUND requests, with a route that holds its request until released."""
    app: FastAPI = create_app(settings.model_copy(update={"max_requests_in_flight": BOUND}))
    entered, release = threading.Semaphore(0), threading.Event()

    def hold() -> dict[str, bool]:
        entered.release()
        return {"released": release.wait(timeout=60)}

    app.add_api_route("/test/hold", hold)
    with TestClient(app) as client:
        yield client, entered, release
    release.set()


def test_past_the_bound_a_503_with_retry_after_and_no_500(
    held: tuple[TestClient, threading.Semaphore, threading.Event],
) -> None:
    client, entered, release = held
    with ThreadPoolExecutor(BOUND) as pool:
        holding = [pool.submit(client.get, "/test/hold") for _ in range(BOUND)]
        for _ in range(BOUND):  # both requests are in progress
            assert entered.acquire(timeout=60)
        api = client.get("/api/v1/game-types")
        page = client.get("/help", headers={"Accept-Language": "fr"})
        ready = client.get("/readyz")
        alive = client.get("/healthz")
        release.set()
        answers = [future.result(timeout=60) for future in holding]

    assert api.status_code == 503 and api.headers["retry-after"] == "2"
    assert api.json()["error"]["code"] == "busy"
    assert page.status_code == 503 and page.headers["retry-after"] == "2"
    assert page.headers["content-type"].startswith("text/html") and "Réessayez" in page.text
    assert page.headers["cache-control"] == "private, no-store"  # inside the security headers
    assert ready.status_code == 503 and ready.json()["error"]["code"] == "saturated"
    assert ready.json()["error"]["in_flight"] == BOUND and ready.headers["retry-after"] == "2"
    assert alive.status_code == 200
    assert [answer.status_code for answer in answers] == [200] * BOUND
    assert all(answer.json() == {"released": True} for answer in answers)

    assert client.get("/api/v1/game-types").status_code == 200  # room again
    after = client.get("/readyz")
    assert after.status_code == 200 and after.json()["status"] == "ready"


def test_a_pool_without_a_connection_to_give_is_a_503(settings: Settings) -> None:
    app: FastAPI = create_app(settings)

    def starved() -> None:
        raise sqlalchemy.exc.TimeoutError("QueuePool limit of size 10 overflow 20 reached")

    app.add_api_route("/api/v1/test/starved", starved)
    app.add_api_route("/test/starved", starved)
    with TestClient(app, raise_server_exceptions=False) as client:
        api = client.get("/api/v1/test/starved")
        page = client.get("/test/starved")
    assert api.status_code == 503 and api.headers["retry-after"] == "5"
    assert api.json()["error"]["code"] == "busy"
    assert page.status_code == 503 and page.headers["retry-after"] == "5"


def test_the_pool_waits_no_longer_than_its_timeout() -> None:
    engine: Any = make_engine("postgresql+psycopg://nobody@127.0.0.1:9/none", pool_timeout=1.5)
    try:
        assert engine.pool.timeout() == 1.5
    finally:
        engine.dispose()
    assert Settings(_env_file=None).db_pool_timeout_seconds < 10  # well under a browser's patience
