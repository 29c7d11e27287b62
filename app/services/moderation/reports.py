"""Reports: a player reports a message, a player or a game; moderators work the queue.

A report has a reason from the site's code of conduct plus free text. A reported message is copied into
the report as it was (the evidence stays, whatever happens to the message), and only a message the
reporter may read can be reported. Moderators assign a report (to themselves or another moderator), then
resolve it with an outcome or dismiss it; the reporter sees the outcome, never the sanction itself.
A moderator never sees nor handles a report about themselves or a game they play or played in (nor is
given one); an administrator may, and the audit entry records the conflict.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import Session

from app.models import Game, GameMessage, Report, Seat, SeatTenure, User
from app.models.records import UserFacts
from app.services.errors import ServiceError, not_found
from app.services.mail import notify
from app.services.moderation import audit, moderation
from app.services.play import play
from app.services.social import messages

KINDS = ("message", "player", "game")
REASONS = (
    "insults",  # rude or degrading behaviour, insults (code of conduct, 1 and 2)
    "harassment",
    "cheating",  # collusion, breaking the rules of the site
    "multiple_accounts",  # several accounts in one game (code of conduct, 8)
    "rage_quit",  # quitting or stalling on purpose (3, 6)
    "pause_abuse",  # (5)
    "spam",
    "rules_bug",  # the game did something its rules do not say
    "other",
)
OUTCOMES = ("action_taken", "no_violation")  # resolving; dismissing gives "dismissed"
OPEN_STATUSES = ("open", "assigned")
DETAILS_LENGTH = 2000
PER_DAY = 10  # reports one player may file in a day
LIST_LIMIT = 200


@dataclass(frozen=True)
class ReportDraft:
    kind: str  # message, player, game
    reason: str
    details: str = ""
    game_id: int | None = None
    message_id: int | None = None
    player: str | None = None  # the reported player's display name


@dataclass(frozen=True)
class _Target:
    subject_id: int | None
    game_id: int | None
    message_id: int | None
    excerpt: str | None


def file_report(session: Session, reporter: UserFacts, draft: ReportDraft, now: datetime) -> Report:
    """Record a report in the moderators' queue."""
    if draft.reason not in REASONS:
        raise ServiceError("invalid_input", "Choose a reason from the list.", "reason")
    details = draft.details.replace("\r\n", "\n").strip()
    if len(details) > DETAILS_LENGTH:
        raise ServiceError("invalid_input", "The details have at most 2000 characters.", "details")
    if draft.reason == "other" and not details:
        raise ServiceError("invalid_input", "Say what happened.", "details")
    target = _target(session, reporter, draft)
    if target.subject_id == reporter.id:
        raise ServiceError("invalid_input", "You cannot report yourself.", "player")
    _check_not_repeated(session, reporter, draft.kind, target, now)
    report = Report(
        reporter_id=reporter.id,
        kind=draft.kind,
        reason=draft.reason,
        details=details,
        subject_id=target.subject_id,
        game_id=target.game_id,
        message_id=target.message_id,
        excerpt=target.excerpt,
        status="open",
        created_at=now,
    )
    session.add(report)
    session.commit()
    return report


def _target(session: Session, reporter: UserFacts, draft: ReportDraft) -> _Target:
    if draft.kind == "message":
        return _message_target(session, reporter, draft.message_id)
    if draft.kind == "player":
        game_id = _game(session, draft.game_id).id if draft.game_id is not None else None
        return _Target(_player(session, draft.player).id, game_id, None, None)
    if draft.kind == "game":
        if draft.game_id is None:
            raise ServiceError("invalid_input", "Name the game you report.", "game_id")
        return _Target(None, _game(session, draft.game_id).id, None, None)
    raise ServiceError("invalid_input", "Report a message, a player or a game.", "kind")


def _message_target(session: Session, reporter: UserFacts, message_id: int | None) -> _Target:
    message = readable_message(session, reporter, message_id)
    return _Target(message.author_id, message.game_id, message.id, message.body)


def readable_message(session: Session, reader: UserFacts, message_id: int | None) -> GameMessage:
    """The message, if the reader may read it: the board, or a private thread of their seat (else 404)."""
    message = session.get(GameMessage, message_id) if message_id is not None else None
    game = session.get(Game, message.game_id) if message is not None else None
    if message is None or game is None:
        raise not_found("This message does not exist.")
    if message.audience is not None and play.viewer_seat(game, reader) not in messages.audience_seats(
        message.audience
    ):
        raise not_found("This message does not exist.")
    return message


def _player(session: Session, name: str | None) -> User:
    user = session.scalar(select(User).where(User.display_name == " ".join((name or "").split())))
    if user is None:
        raise ServiceError("invalid_input", "There is no player with this name.", "player")
    return user


def _game(session: Session, game_id: int) -> Game:
    game = session.get(Game, game_id)
    if game is None:
        raise not_found("This game does not exist.")
    return game


def _check_not_repeated(
    session: Session, reporter: UserFacts, kind: str, target: _Target, now: datetime
) -> None:
    mine = select(func.count()).select_from(Report).where(Report.reporter_id == reporter.id)
    if (session.scalar(mine.where(Report.created_at > now - timedelta(days=1))) or 0) >= PER_DAY:
        raise ServiceError("rate_limited", "You have filed many reports today: wait a day and try again.")
    same = mine.where(
        Report.status.in_(OPEN_STATUSES),
        Report.kind == kind,
        Report.subject_id.is_(None) if target.subject_id is None else Report.subject_id == target.subject_id,
        Report.game_id.is_(None) if target.game_id is None else Report.game_id == target.game_id,
        Report.message_id.is_(None) if target.message_id is None else Report.message_id == target.message_id,
    )
    if session.scalar(same):
        raise ServiceError("already_reported", "You have already reported this; moderators will look at it.")


# --- the reporter's side -----------------------------------------------------------------------------


@dataclass(frozen=True)
class FiledReport:
    """A report as its reporter sees it: the outcome, not what was done about it."""

    id: int
    kind: str
    reason: str
    created_at: datetime
    status: str  # open, assigned (being looked at), resolved, dismissed
    outcome: str | None
    game_id: int | None
    subject: str | None


def reports_of(session: Session, reporter: UserFacts) -> list[FiledReport]:
    query = (
        select(Report).where(Report.reporter_id == reporter.id).order_by(Report.id.desc()).limit(LIST_LIMIT)
    )
    rows = list(session.scalars(query))
    names = audit.names_of(session, {row.subject_id for row in rows if row.subject_id})
    return [
        FiledReport(
            row.id,
            row.kind,
            row.reason,
            row.created_at,
            row.status,
            row.outcome,
            row.game_id,
            names.get(row.subject_id or 0),
        )
        for row in rows
    ]


# --- the moderators' queue ---------------------------------------------------------------------------


@dataclass(frozen=True)
class QueuedReport:
    report: Report
    reporter: str
    subject: str | None
    assignee: str | None
    game_name: str | None


def queue(session: Session, viewer: UserFacts, which: str = "open") -> list[QueuedReport]:
    """Open reports oldest first ("open"), the viewer's own ("mine"), or closed ones newest first.

    A moderator's queue leaves out the reports they may not handle (about them, or a game of theirs)."""
    moderation.require_moderator(viewer)
    query = select(Report) if viewer.is_admin else select(Report).where(*_not_conflicted(viewer))
    if which == "open":
        query = query.where(Report.status.in_(OPEN_STATUSES)).order_by(Report.id)
    elif which == "mine":
        query = query.where(Report.status == "assigned", Report.assignee_id == viewer.id).order_by(Report.id)
    elif which == "closed":
        query = query.where(Report.status.not_in(OPEN_STATUSES)).order_by(Report.id.desc())
    else:
        raise ServiceError("invalid_input", "Show open, mine or closed reports.", "status")
    return _described(session, list(session.scalars(query.limit(LIST_LIMIT))))


def _not_conflicted(viewer: UserFacts) -> list[ColumnElement[bool]]:
    """Conditions on a report that `viewer` may handle (see `moderation.refuse_conflict_of_interest`)."""
    seated = select(Seat.game_id).where(Seat.user_id == viewer.id)
    held = (
        select(Seat.game_id)
        .join(SeatTenure, SeatTenure.seat_id == Seat.id)
        .where(SeatTenure.user_id == viewer.id)
    )
    return [
        or_(Report.subject_id.is_(None), Report.subject_id != viewer.id),
        or_(Report.game_id.is_(None), Report.game_id.not_in(seated.union(held).scalar_subquery())),
    ]


def _refuse_conflict(session: Session, viewer: UserFacts, report: Report) -> str | None:
    return moderation.refuse_conflict_of_interest(
        session, viewer, game_id=report.game_id, subject_id=report.subject_id
    )


def get_report(session: Session, viewer: UserFacts, report_id: int) -> QueuedReport:
    moderation.require_moderator(viewer)
    report = session.get(Report, report_id)
    if report is None:
        raise not_found("This report does not exist.")
    _refuse_conflict(session, viewer, report)
    return _described(session, [report])[0]


def _described(session: Session, rows: list[Report]) -> list[QueuedReport]:
    users = (
        {r.reporter_id for r in rows} | {r.subject_id or 0 for r in rows} | {r.assignee_id or 0 for r in rows}
    )
    names = audit.names_of(session, users - {0})
    game_ids = {row.game_id for row in rows if row.game_id is not None}
    games = (
        dict(session.execute(select(Game.id, Game.name).where(Game.id.in_(game_ids))).all())
        if game_ids
        else {}
    )
    return [
        QueuedReport(
            row,
            names.get(row.reporter_id, "?"),
            names.get(row.subject_id or 0),
            names.get(row.assignee_id or 0),
            games.get(row.game_id) if row.game_id is not None else None,
        )
        for row in rows
    ]


def _open_report(session: Session, viewer: UserFacts, report_id: int) -> tuple[Report, str | None]:
    """The open report, locked, if the viewer may handle it; and their conflict (an admin's), if any."""
    moderation.require_moderator(viewer)
    report = session.scalar(select(Report).where(Report.id == report_id).with_for_update())
    if report is None:
        raise not_found("This report does not exist.")
    conflict = _refuse_conflict(session, viewer, report)
    if report.status not in OPEN_STATUSES:
        raise ServiceError("wrong_status", "This report is closed.")
    return report, conflict


def _state(report: Report) -> dict[str, object]:
    return {"status": report.status, "assignee_id": report.assignee_id, "outcome": report.outcome}


def assign(
    session: Session, viewer: UserFacts, report_id: int, assignee_id: int | None, now: datetime
) -> Report:
    """Give the report to a moderator (None: to oneself)."""
    report, conflict = _open_report(session, viewer, report_id)
    assignee = moderation.get_user(session, assignee_id) if assignee_id is not None else viewer
    if not assignee.is_moderator:
        raise ServiceError("invalid_input", "Reports go to moderators.", "assignee")
    if not assignee.is_admin and moderation.conflict_of_interest(
        session, assignee, game_id=report.game_id, subject_id=report.subject_id
    ):
        raise ServiceError(
            "conflict_of_interest", "This report concerns that moderator: give it to another.", "assignee"
        )
    before = _state(report)
    report.status, report.assignee_id = "assigned", assignee.id
    _audit(session, viewer, "report.assign", report, before, f"to {assignee.display_name}", now, conflict)
    session.commit()
    return report


def resolve(
    session: Session, viewer: UserFacts, report_id: int, outcome: str, note: str, now: datetime
) -> Report:
    """Close the report with an outcome the reporter is told; the note stays with the moderators."""
    if outcome not in OUTCOMES:
        raise ServiceError("invalid_input", "The outcome is: action taken, or no violation.", "outcome")
    return _close(session, viewer, report_id, "resolved", outcome, note, now)


def dismiss(session: Session, viewer: UserFacts, report_id: int, note: str, now: datetime) -> Report:
    """Close the report without looking further (a duplicate, nonsense)."""
    return _close(session, viewer, report_id, "dismissed", "dismissed", note, now)


def _close(
    session: Session, viewer: UserFacts, report_id: int, status: str, outcome: str, note: str, now: datetime
) -> Report:
    report, conflict = _open_report(session, viewer, report_id)
    cleaned = note.replace("\r\n", "\n").strip()
    if len(cleaned) > DETAILS_LENGTH:
        raise ServiceError("invalid_input", "The note has at most 2000 characters.", "note")
    before = _state(report)
    report.status, report.outcome, report.resolution_note = status, outcome, cleaned
    report.closed_at, report.closed_by = now, viewer.id
    report.assignee_id = report.assignee_id or viewer.id
    action = "report.resolve" if status == "resolved" else "report.dismiss"
    _audit(session, viewer, action, report, before, cleaned, now, conflict)
    notify.notify_users(
        session, [report.reporter_id], "report_closed", {"report_id": report.id, "outcome": outcome}
    )
    session.commit()
    return report


def _audit(
    session: Session,
    viewer: UserFacts,
    action: str,
    report: Report,
    before: dict[str, object],
    reason: str,
    now: datetime,
    conflict: str | None,
) -> None:
    audit.record(
        session,
        viewer,
        action,
        reason=reason,
        now=now,
        target=audit.Target(subject_id=report.subject_id, game_id=report.game_id, report_id=report.id),
        before=before,
        after=_state(report),
        conflict=conflict,
    )
