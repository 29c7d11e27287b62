"""Reports: a player reports a message, a player or a game; moderators assign, resolve or dismiss; the
reporter sees the outcome, not the sanction."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.services.moderation import moderation, reports
from app.services.social import messages
from tests.moderation.helpers import (
    api_client,
    audit_actions,
    kinds_for,
    make_user,
    make_users,
    now,
    refused,
    running_game,
    seat_of,
)


def _message(db: Session, author: Any, game_id: int, text: str, to: list[int] | None = None) -> int:
    message = messages.post(db, author, game_id, text, to_seats=to or [], now=now(), per_minute=10)
    return message.id


def test_a_reported_message_is_copied_and_only_a_readable_one_can_be_reported(db: Session) -> None:
    ann, ben, cat, spy = make_users(db, "Ann", "Ben", "Cat", "Spy")
    game = running_game(db, [ann, ben, cat])
    public = _message(db, ben, game.id, "You are all idiots")
    private = _message(db, ben, game.id, "Secret deal?", to=[seat_of(game, ann)])
    draft = reports.ReportDraft(kind="message", reason="insults", message_id=public)
    report = reports.file_report(db, spy, draft, now())  # the board is public
    assert report.subject_id == ben.id and report.excerpt == "You are all idiots"
    assert report.game_id == game.id
    hidden = reports.ReportDraft(kind="message", reason="cheating", message_id=private)
    refused(db, "not_found", lambda: reports.file_report(db, cat, hidden, now()))  # not in the thread
    reports.file_report(db, ann, hidden, now())
    refused(db, "already_reported", lambda: reports.file_report(db, ann, hidden, now()))
    refused(db, "invalid_input", lambda: reports.file_report(db, ben, draft, now()))  # oneself


def test_player_and_game_reports_and_their_checks(db: Session) -> None:
    ann, ben = make_users(db, "Ann", "Ben")
    game = running_game(db, [ann, ben])
    reports.file_report(db, ann, reports.ReportDraft(kind="player", reason="rage_quit", player="Ben"), now())
    draft = reports.ReportDraft(kind="game", reason="rules_bug", details="Scored twice", game_id=game.id)
    reports.file_report(db, ben, draft, now())
    refused(
        db,
        "invalid_input",
        lambda: reports.file_report(db, ann, reports.ReportDraft("game", "rules_bug"), now()),
    )
    refused(
        db,
        "invalid_input",
        lambda: reports.file_report(db, ann, reports.ReportDraft("player", "other", player="Ben"), now()),
    )
    refused(
        db,
        "invalid_input",
        lambda: reports.file_report(db, ann, reports.ReportDraft("player", "bad", player="Ben"), now()),
    )
    refused(
        db,
        "invalid_input",
        lambda: reports.file_report(db, ann, reports.ReportDraft("player", "spam", player="Nobody"), now()),
    )
    refused(
        db,
        "not_found",
        lambda: reports.file_report(db, ann, reports.ReportDraft("game", "spam", game_id=999), now()),
    )


def test_a_player_may_file_only_so_many_reports_a_day(db: Session) -> None:
    users = make_users(db, "Ann", *[f"Target{n}" for n in range(reports.PER_DAY + 1)])
    for target in users[1 : reports.PER_DAY + 1]:
        draft = reports.ReportDraft(kind="player", reason="spam", player=target.display_name)
        reports.file_report(db, users[0], draft, now())
    last = reports.ReportDraft(kind="player", reason="spam", player=users[-1].display_name)
    refused(db, "rate_limited", lambda: reports.file_report(db, users[0], last, now()))


def test_moderators_work_the_queue_and_the_reporter_sees_only_the_outcome(
    db: Session, make_client: Any
) -> None:
    mod, other_mod = make_user(db, "Mod", "moderator"), make_user(db, "Max", "moderator")
    ann, ben = make_users(db, "Ann", "Ben")
    first = reports.file_report(
        db, ann, reports.ReportDraft(kind="player", reason="insults", player="Ben"), now()
    )
    second = reports.file_report(
        db, ann, reports.ReportDraft(kind="player", reason="spam", player="Mod"), now()
    )
    assert [item.report.id for item in reports.queue(db, other_mod)] == [first.id, second.id]
    assert [item.report.id for item in reports.queue(db, mod)] == [first.id]  # not the one about Mod
    refused(db, "forbidden", lambda: reports.queue(db, ann))
    reports.assign(db, mod, first.id, other_mod.id, now())
    assert [item.report.id for item in reports.queue(db, other_mod, "mine")] == [first.id]
    refused(db, "invalid_input", lambda: reports.assign(db, mod, first.id, ben.id, now()))
    moderation.impose(db, other_mod, ben.id, moderation.SanctionOrder("mute", 72, "Repeated slurs"), now())
    reports.resolve(db, other_mod, first.id, "action_taken", "muted 3 days", now())
    refused(db, "conflict_of_interest", lambda: reports.dismiss(db, mod, second.id, "not a thing", now()))
    reports.dismiss(db, other_mod, second.id, "not a thing", now())
    refused(db, "wrong_status", lambda: reports.dismiss(db, mod, first.id, "", now()))
    assert [item.report.id for item in reports.queue(db, other_mod, "closed")] == [second.id, first.id]
    assert [item.report.id for item in reports.queue(db, mod, "closed")] == [first.id]
    assert kinds_for(db, ann).count("report_closed") == 2
    assert audit_actions(db) == ["report.assign", "sanction.impose", "report.resolve", "report.dismiss"]
    client = api_client(make_client, "ann@example.com")
    mine = client.get("/api/v1/reports").json()
    assert [(r["status"], r["outcome"]) for r in mine] == [
        ("dismissed", "dismissed"),
        ("resolved", "action_taken"),
    ]
    page = client.get("/reports").text
    assert "A moderator took action" in page
    assert "muted 3 days" not in page and "Repeated slurs" not in page and "mute" not in str(mine).lower()
