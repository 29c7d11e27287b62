"""The moderators' pages, in English and French, through their forms; user text is never rendered raw."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import Report, Sanction
from app.services.moderation import reports
from app.services.social import lobby, messages
from tests.moderation.helpers import (
    api_client,
    audit_actions,
    make_user,
    make_users,
    now,
    page_token,
    running_game,
    seat_of,
)

HOSTILE = '<script>alert("x")</script>'


def _world(db: Session) -> dict[str, Any]:
    mod, admin = make_user(db, "Mod", "moderator"), make_user(db, "Root", "admin")
    ann, ben = make_users(db, "Ann", "Ben")
    game = running_game(db, [ann, ben])
    message = messages.post(db, ben, game.id, HOSTILE, now=now(), per_minute=10)
    draft = reports.ReportDraft(kind="message", reason="insults", details=HOSTILE, message_id=message.id)
    report = reports.file_report(db, ann, draft, now())
    return {"mod": mod, "admin": admin, "ann": ann, "ben": ben, "game": game.id, "report": report.id,
            "seat": seat_of(game, ben)}  # fmt: skip


def _form(client: TestClient, path: str, fields: dict[str, str]) -> Any:
    data = {**fields, "csrf_token": page_token(client, "/moderation")}
    return client.post(path, data=data, follow_redirects=False)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_moderation_page_renders_and_escapes_user_text(
    db: Session, make_client: Any, language: str
) -> None:
    world = _world(db)
    client = api_client(make_client, "root@example.com")
    client.cookies.set("lang", language)
    client.patch("/api/v1/me", json={"language": language})
    pages = [
        "/moderation",
        "/moderation?status=mine",
        "/moderation?status=closed",
        f"/moderation/reports/{world['report']}",
        "/moderation/users?q=e",
        f"/moderation/users/{world['ben'].id}",
        f"/moderation/games/{world['game']}",
        "/admin/audit",
        "/reports",
        f"/reports/new?kind=message&message_id={1}",
        f"/reports/new?kind=player&game_id={world['game']}",
        f"/reports/new?kind=game&game_id={world['game']}",
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, (path, response.text[:300])
        assert response.headers["content-language"] == language
        assert "Traceback" not in response.text and "<script>alert" not in response.text, path
    assert "&lt;script&gt;" in client.get(f"/moderation/reports/{world['report']}").text
    if language == "fr":
        assert "Reports" not in client.get("/moderation").text


def test_a_moderator_handles_a_report_through_the_forms(db: Session, make_client: Any) -> None:
    world = _world(db)
    client = api_client(make_client, "mod@example.com")
    report, ben_id = world["report"], world["ben"].id
    assert _form(client, f"/moderation/reports/{report}/assign", {"assignee": ""}).status_code == 303
    fields = {"kind": "mute", "duration": "24", "reason": "Insults", "note": "first time"}
    assert _form(client, f"/moderation/users/{ben_id}/sanctions", fields).status_code == 303
    resolved = _form(
        client, f"/moderation/reports/{report}/resolve", {"outcome": "action_taken", "note": "muted"}
    )
    assert resolved.status_code == 303
    db.expire_all()
    sanction = db.scalar(select(Sanction))
    assert sanction is not None and sanction.kind == "mute"
    assert db.scalar(select(Report.status)) == "resolved"
    db.commit()
    lift = _form(client, f"/moderation/sanctions/{sanction.id}/lift", {"reason": "Apologised"})
    assert lift.status_code == 303 and lift.headers["location"] == f"/moderation/users/{ben_id}"
    bad = _form(client, f"/moderation/users/{ben_id}/sanctions", {**fields, "duration": "forever"})
    assert bad.status_code == 422
    assert audit_actions(db) == ["report.assign", "sanction.impose", "report.resolve", "sanction.lift"]


def test_a_moderator_intervenes_in_a_game_through_the_forms(db: Session, make_client: Any) -> None:
    world = _world(db)
    client = api_client(make_client, "mod@example.com")
    game = world["game"]
    assert (
        _form(client, f"/moderation/games/{game}/hold", {"kind": "locked", "reason": "Check"}).status_code
        == 303
    )
    assert 'id="hold-state"' in client.get(f"/moderation/games/{game}").text
    revealed = _form(client, f"/moderation/games/{game}/reveal", {"reason": "Report 1"})
    assert revealed.status_code == 200 and 'id="revealed"' in revealed.text
    assert revealed.headers["cache-control"] == "no-store"
    assert _form(client, f"/moderation/games/{game}/resume", {"reason": "Cleared"}).status_code == 303
    extend = {"seat": str(world["seat"]), "hours": "6", "reason": "Asked nicely"}
    assert _form(client, f"/moderation/games/{game}/extend", extend).status_code == 303
    remove = {"seat": str(world["seat"]), "reason": "Abuse"}
    assert _form(client, f"/moderation/games/{game}/remove", remove).status_code == 303
    assert _form(client, f"/moderation/games/{game}/abort", {"reason": "Void"}).status_code == 303
    assert 'id="game-aborted"' in client.get(f"/games/{game}").text
    assert audit_actions(db) == [
        "game.lock", "game.reveal", "game.resume", "game.extend", "game.remove_player", "game.abort"
    ]  # fmt: skip
    log = client.get(f"/games/{game}").text
    assert "A moderator locked the game during an investigation: Check" in log
    assert "A moderator aborted the game: Void" in log


def test_players_report_through_the_form_and_see_the_link_on_the_game_page(
    db: Session, make_client: Any
) -> None:
    world = _world(db)
    client = api_client(make_client, "ben@example.com")
    page = client.get(f"/games/{world['game']}").text
    assert f"/reports/new?kind=game&amp;game_id={world['game']}" in page and "/moderation/games" not in page
    fields = {
        "kind": "player",
        "reason": "rage_quit",
        "player": "Ann",
        "game_id": str(world["game"]),
        "details": "Left mid-game",
    }
    token = page_token(client, "/reports")
    response = client.post("/reports", data={**fields, "csrf_token": token}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"] == "/reports?filed=true"
    assert "Thank you" in client.get("/reports?filed=true").text
    assert client.get("/moderation").status_code == 403


@pytest.mark.parametrize(("language", "running"), [("en", "running"), ("fr", "en cours")])
def test_a_game_is_said_by_its_title_and_status_in_words_never_its_codes(
    db: Session, make_client: Any, language: str, running: str
) -> None:
    world = _world(db)
    client = api_client(make_client, "root@example.com")
    client.patch("/api/v1/me", json={"language": language})
    game_page = client.get(f"/moderation/games/{world['game']}").text
    assert f"Fake · {running} · " in game_page and " · active · " not in game_page
    user_page = client.get(f"/moderation/users/{world['ben'].id}").text
    assert f'<span class="muted">Fake · {running}</span>' in user_page and ">active<" not in user_page


@pytest.mark.parametrize(("language", "phase"), [("en", "sealed bid"), ("fr", "enchère secrète")])
def test_a_wait_is_said_by_its_phase_in_words(
    db: Session, make_client: Any, language: str, phase: str
) -> None:
    make_user(db, "Root", "admin")
    ann, ben, cyd = make_users(db, "Ann", "Ben", "Cyd")
    game = lobby.create_game(db, ann, game_type="dragonstones", players=3, time_limit_hours=24, now=now())
    for user in (ben, cyd):
        lobby.join_game(db, user, game.id, now())
    client = api_client(make_client, "root@example.com")
    client.patch("/api/v1/me", json={"language": language})
    page = client.get(f"/moderation/games/{game.id}").text
    assert page.count(f"<td>{phase} · ") == 3 and "<td>bid" not in page
