"""The cross-channel leak test, for moderators: a moderator sees a game as a spectator does, on the
public pages and on their own; secrets come only through "reveal for investigation", which is audited."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import AuditEntry, Game, User
from tests.moderation.helpers import page_token
from tests.test_dragonstones_web import hide_differently, play_one, start_game
from tests.web_views import CSRF, responses


def moderator_client(make_client: Any, db: Session) -> TestClient:
    from tests.conftest import sign_up

    client: TestClient = make_client()
    me = sign_up(client, "Warden")
    user = db.get(User, me["id"])
    assert user is not None
    user.role = "moderator"
    db.commit()
    return client


def moderator_responses(client: TestClient, game_id: int) -> tuple[Any, ...]:
    """Everything a moderator can read about the game without revealing it."""
    page = CSRF.sub(r"\1", client.get(f"/moderation/games/{game_id}").text)
    detail = client.get(f"/api/v1/moderation/games/{game_id}").json()
    return (*responses(client, game_id), page, detail)


def test_a_moderator_sees_no_secret_unless_revealing_it_and_every_reveal_is_audited(
    make_client: Any, db: Session
) -> None:
    rng = random.Random(7)
    game_id, _by_seat, _spectator = start_game(make_client, 3)
    warden = moderator_client(make_client, db)
    steps = reveals = 0
    while play_one(db, game_id, rng) and steps < 120:
        steps += 1
        if steps % 9:
            continue
        before = moderator_responses(warden, game_id)
        assert "Traceback" not in before[0] and "Traceback" not in before[4]
        shown = _reveal(warden, game_id)
        game = db.get(Game, game_id)
        assert game is not None
        original = game.state
        assert original is not None
        game.state = hide_differently(original, None, rng)
        db.commit()
        after = moderator_responses(warden, game_id)
        changed = _reveal(warden, game_id)
        game.state = original
        db.commit()
        reveals += 4  # two reveals (the page and the API) before the change, two after
        assert after == before, f"a moderator sees a secret at step {steps}"
        assert changed != shown, "the reveal shows the hidden state"
        db.rollback()
    assert reveals > 0
    audited = db.scalar(
        select(func.count()).select_from(AuditEntry).where(AuditEntry.action == "game.reveal")
    )
    db.commit()
    assert audited == reveals


def _reveal(client: TestClient, game_id: int) -> Any:
    form = {
        "reason": "Investigating a report",
        "csrf_token": page_token(client, f"/moderation/games/{game_id}"),
    }
    page = client.post(f"/moderation/games/{game_id}/reveal", data=form)
    assert page.status_code == 200
    api = client.post(f"/api/v1/moderation/games/{game_id}/reveal", json={"reason": "Same report"})
    assert api.status_code == 200
    return api.json()["state"]
