"""One part of a page that fails to render: in production a neutral line, an error logged with the game,
the part and the exception, and a count in /metrics; in development and the tests, a loud failure."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest
from jinja2 import UndefinedError
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.games.contract import Event
from app.main import create_app, make_templates
from app.settings import Settings
from tests.test_advciv_web import play_one, start_game, store_events

BASE = "https://ostraca.example.com"
TOKEN = "metrics-token-for-the-render-guard-test"
BROKEN = Event("city_revolted", {"seat": 0, "area": "carthago"})  # a line that needs a field left out


def production(settings: Settings, tmp_path: Path) -> Settings:
    return Settings(
        environment="production",
        secret_key="a-real-secret-of-some-length-32-bytes",
        base_url=BASE,
        database_url=settings.sqlalchemy_url,
        data_dir=tmp_path / "production",
        metrics_token=TOKEN,
        run_jobs=False,
        _env_file=None,
    )


def broken_game(make_client: Any, db: Session) -> int:
    game_id, _, _ = start_game(make_client, 3)
    assert play_one(db, game_id, random.Random(1))
    store_events(db, game_id, [BROKEN])
    return game_id


def test_a_line_that_fails_is_a_loud_error_outside_production(make_client: Any, db: Session) -> None:
    game_id = broken_game(make_client, db)
    spectator = make_client()
    for path in ("", "/fragment", "/log"):
        with pytest.raises(UndefinedError):
            spectator.get(f"/games/{game_id}{path}")


def test_in_production_a_line_that_fails_is_a_neutral_line_logged_and_counted(
    make_client: Any, db: Session, settings: Settings, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    game_id = broken_game(make_client, db)
    with TestClient(create_app(production(settings, tmp_path)), base_url=BASE) as spectator:
        metrics = {"Authorization": f"Bearer {TOKEN}"}
        before = failures(spectator.get("/metrics", headers=metrics).text)
        with caplog.at_level(logging.ERROR, logger="app.web.guard"):
            for path in ("", "/fragment", "/log"):
                page = spectator.get(f"/games/{game_id}{path}")
                assert page.status_code == 200, path
                assert "This entry could not be shown." in page.text and 'data-part="event"' in page.text
                assert "starts in" in page.text  # the entries around it show
        logged = [record for record in caplog.records if record.name == "app.web.guard"]
        assert len(logged) == 3
        assert all(
            f"of game {game_id}" in r.getMessage() and "city_revolted" in r.getMessage() for r in logged
        )
        assert all(r.exc_info is not None and r.exc_info[0] is UndefinedError for r in logged)
        assert failures(spectator.get("/metrics", headers=metrics).text) == before + 3


def failures(exposition: str) -> float:
    wanted = 'ostraca_render_failures_total{kind="city_revolted",part="event"}'
    lines = [line for line in exposition.splitlines() if line.startswith(wanted)]
    return float(lines[0].split()[-1]) if lines else 0.0


@pytest.mark.parametrize("strict", [True, False])
def test_a_panel_that_fails_is_guarded_the_same_way(strict: bool) -> None:
    env = make_templates(strict=strict).env
    page = env.from_string(
        '<p>before</p>{% guarded "panel", "board", 7, "This panel could not be shown." %}'
        "{{ board.missing.field }}{% endguarded %}<p>after</p>"
    )
    if strict:
        with pytest.raises(UndefinedError):
            page.render(board={})
        return
    shown = page.render(board={})
    neutral = '<span class="render-failed muted" data-part="panel">This panel could not be shown.</span>'
    assert shown == f"<p>before</p>{neutral}<p>after</p>"
