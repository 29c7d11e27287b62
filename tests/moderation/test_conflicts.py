"""Conflicts of interest: no moderator intervenes in a game they play or played in, nor handles a report
about themselves (or a game of theirs); an administrator may, and the audit log says so."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import AuditEntry, Game, Seat, User
from app.services.moderation import interventions, moderation, reports
from tests.moderation.helpers import api_client, make_user, make_users, now, refused, running_game, seat_of

REASON = "Looking into it"


def _interventions(db: Session, game: Game, opponent_seat: int) -> dict[str, Callable[[User], Any]]:
    return {
        "reveal": lambda actor: interventions.reveal(db, actor, game.id, REASON, now()),
        "extend": lambda actor: interventions.extend_deadline(
            db, actor, game.id, opponent_seat, 24 * 14, REASON, now()
        ),
        "hold": lambda actor: interventions.hold(db, actor, game.id, "paused", REASON, now()),
        "rollback": lambda actor: interventions.rollback(db, actor, game.id, 1, REASON, now()),
        "remove": lambda actor: interventions.remove_player(db, actor, game.id, opponent_seat, REASON, now()),
        "replace": lambda actor: interventions.replace_player(
            db, actor, game.id, opponent_seat, "Sub", REASON, now()
        ),
        "abort": lambda actor: interventions.abort(db, actor, game.id, REASON, now()),
    }


@pytest.mark.parametrize("action", ["reveal", "extend", "hold", "rollback", "remove", "replace", "abort"])
def test_a_moderator_seated_in_the_game_may_not_intervene_in_it(db: Session, action: str) -> None:
    mod = make_user(db, "Mod", "moderator")
    opponent, _ = make_users(db, "Opp", "Sub")
    game = running_game(db, [mod, opponent])
    run = _interventions(db, game, seat_of(game, opponent))[action]
    error = refused(db, "conflict_of_interest", lambda: run(mod))
    assert "another moderator" in error.message
    assert db.scalar(select(AuditEntry.id)) is None  # nothing was done, nothing was audited


def test_a_moderator_who_left_the_game_still_may_not_intervene(db: Session) -> None:
    mod = make_user(db, "Mod", "moderator")
    opponents = make_users(db, "Ann", "Ben")
    game = running_game(db, [mod, *opponents])
    seat = db.scalar(select(Seat).where(Seat.game_id == game.id, Seat.user_id == mod.id))
    assert seat is not None
    admin = make_user(db, "Boss", "admin")
    mod.role = "player"  # an admin removes them while they were a player, then they become a moderator
    db.commit()
    interventions.remove_player(db, admin, game.id, seat_of(game, mod), "Left", now())
    mod.role = "moderator"
    db.commit()
    refused(db, "conflict_of_interest", lambda: interventions.reveal(db, mod, game.id, REASON, now()))
    other = make_user(db, "Other", "moderator")
    assert interventions.reveal(db, other, game.id, REASON, now()).state is not None


def test_an_administrator_may_act_in_their_own_game_and_the_audit_log_says_so(db: Session) -> None:
    admin = make_user(db, "Boss", "admin")
    opponent = make_user(db, "Opp")
    game = running_game(db, [admin, opponent])
    interventions.reveal(db, admin, game.id, REASON, now())
    interventions.extend_deadline(db, admin, game.id, seat_of(game, opponent), 1, REASON, now())
    outsider = make_user(db, "Outsider", "admin")
    interventions.hold(db, outsider, game.id, "paused", REASON, now())
    rows = db.execute(select(AuditEntry.action, AuditEntry.conflict).order_by(AuditEntry.id)).all()
    assert [tuple(row) for row in rows] == [
        ("game.reveal", "own_game"),
        ("game.extend", "own_game"),
        ("game.pause", None),
    ]


def _report_about(db: Session, subject: User, game_id: int | None = None) -> Any:
    reporter = make_user(db, f"Reporter{subject.id}")
    draft = reports.ReportDraft(kind="player", reason="insults", player=subject.display_name, game_id=game_id)
    return reports.file_report(db, reporter, draft, now())


def test_a_moderator_may_not_read_nor_handle_a_report_about_themselves(db: Session) -> None:
    mod, colleague = make_user(db, "Mod", "moderator"), make_user(db, "Colleague", "moderator")
    report = _report_about(db, mod)
    for action in (
        lambda: reports.get_report(db, mod, report.id),
        lambda: reports.assign(db, mod, report.id, None, now()),
        lambda: reports.dismiss(db, mod, report.id, "", now()),
        lambda: reports.resolve(db, mod, report.id, "no_violation", "", now()),
    ):
        error = refused(db, "conflict_of_interest", action)
        assert "another moderator" in error.message
    assert [row.report.id for row in reports.queue(db, mod)] == []  # not even in their queue
    assert [row.report.id for row in reports.queue(db, colleague)] == [report.id]
    refused(db, "conflict_of_interest", lambda: reports.assign(db, colleague, report.id, mod.id, now()))
    assert reports.dismiss(db, colleague, report.id, "", now()).status == "dismissed"


def test_a_moderator_may_not_handle_a_report_on_a_game_they_play(db: Session) -> None:
    mod, colleague = make_user(db, "Mod", "moderator"), make_user(db, "Colleague", "moderator")
    opponent = make_user(db, "Opp")
    game = running_game(db, [mod, opponent])
    report = _report_about(db, opponent, game.id)
    refused(
        db, "conflict_of_interest", lambda: reports.resolve(db, mod, report.id, "no_violation", "", now())
    )
    assert reports.queue(db, mod) == []
    assert [row.report.id for row in reports.queue(db, colleague)] == [report.id]


def test_an_administrator_may_handle_a_report_about_themselves_and_it_is_audited(db: Session) -> None:
    admin = make_user(db, "Boss", "admin")
    report = _report_about(db, admin)
    assert reports.get_report(db, admin, report.id).report.id == report.id
    reports.dismiss(db, admin, report.id, "Nonsense", now())
    entry = db.scalar(select(AuditEntry).where(AuditEntry.report_id == report.id))
    assert entry is not None and (entry.action, entry.conflict) == ("report.dismiss", "about_self")
    assert moderation.conflict_of_interest(db, admin, subject_id=admin.id) == "about_self"


def test_a_moderators_own_record_leaves_out_the_reports_about_them(db: Session) -> None:
    mod, colleague = make_user(db, "Mod", "moderator"), make_user(db, "Colleague", "moderator")
    report = _report_about(db, mod)
    assert moderation.user_record(db, mod, mod.id, now()).reports_about == []
    assert [r.id for r in moderation.user_record(db, colleague, mod.id, now()).reports_about] == [report.id]


def test_a_seated_moderator_may_not_read_the_order_log_of_their_game(db: Session, make_client: Any) -> None:
    """Each order's seat and time (trade orders included) would tell an opponent's timing: refused, as an
    intervention is; another moderator, or an administrator, reads it."""
    mod = make_user(db, "Mod", "moderator")
    opponent, colleague = make_user(db, "Opp"), make_user(db, "Colleague", "moderator")
    game_id = running_game(db, [mod, opponent]).id
    db.commit()
    error = refused(db, "conflict_of_interest", lambda: interventions.moderator_view(db, mod, game_id))
    assert "another moderator" in error.message
    assert interventions.moderator_view(db, colleague, game_id).view.game.id == game_id
    db.commit()
    client = api_client(make_client, "mod@example.com")
    for path in (f"/api/v1/moderation/games/{game_id}", f"/moderation/games/{game_id}"):
        answer = client.get(path)
        assert answer.status_code == 403, path
        assert "conflict_of_interest" in answer.text or "another moderator" in answer.text
    assert client.get("/api/v1/moderation/games/999999").status_code == 404
