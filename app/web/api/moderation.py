"""Moderation in the JSON API: reports (players), the queue, sanctions and game interventions (moderators),
roles and the audit log (admins). Every route is a thin call to one service function."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from app.services.moderation import audit, interventions, moderation, reports
from app.web.api.schemas import ERROR_RESPONSES, GameSummary
from app.web.deps import DB, AdminUser, CurrentUser, ModeratorUser, Now

router = APIRouter(tags=["moderation"], responses=ERROR_RESPONSES)

MAX_ID = 2**31 - 1
Id = Annotated[int, Path(ge=1, le=MAX_ID)]
Reason = Annotated[str, Field(max_length=500, description="kept in the audit log")]
Seat = Annotated[int, Field(ge=0, le=15)]


# --- bodies ------------------------------------------------------------------------------------------


class ReportIn(BaseModel):
    kind: Literal["message", "player", "game"]
    reason: Literal[reports.REASONS]  # type: ignore[valid-type]
    details: str = Field("", max_length=2000)
    game_id: int | None = Field(None, ge=1, le=MAX_ID)
    message_id: int | None = Field(None, ge=1, le=MAX_ID)
    player: str | None = Field(None, max_length=80, description="the reported player's display name")


class FiledReportOut(BaseModel):
    id: int
    kind: str
    reason: str
    created_at: datetime
    status: str
    outcome: str | None
    game_id: int | None
    subject: str | None


class QueuedReportOut(BaseModel):
    id: int
    kind: str
    reason: str
    details: str
    excerpt: str | None
    status: str
    outcome: str | None
    resolution_note: str | None
    reporter: str
    subject: str | None
    subject_id: int | None
    game_id: int | None
    game_name: str | None
    message_id: int | None
    assignee: str | None
    created_at: datetime
    closed_at: datetime | None


class AssignIn(BaseModel):
    assignee_id: int | None = Field(None, ge=1, le=MAX_ID, description="None: to yourself")


class ResolveIn(BaseModel):
    outcome: Literal["action_taken", "no_violation"]
    note: str = Field("", max_length=2000)


class DismissIn(BaseModel):
    note: str = Field("", max_length=2000)


class SanctionIn(BaseModel):
    kind: Literal["ban", "join_ban", "mute"]
    hours: int | None = Field(None, ge=1, le=moderation.MAX_HOURS, description="None: permanent (not a mute)")
    reason: Reason = Field(description="shown to the user")
    note: str = Field("", max_length=1000, description="for moderators only")


class ReasonIn(BaseModel):
    reason: Reason


class SanctionOut(BaseModel):
    id: int
    user_id: int
    kind: str
    reason: str
    note: str
    starts_at: datetime
    ends_at: datetime | None
    lifted_at: datetime | None
    lift_reason: str | None
    by: str | None = None
    in_force: bool | None = None


class UserBrief(BaseModel):
    id: int
    display_name: str
    role: str
    email: str | None  # admins only
    banned_until: datetime | None
    join_banned_until: datetime | None
    muted_until: datetime | None


class UserRecordOut(BaseModel):
    user: UserBrief
    sanctions: list[SanctionOut]
    reports_about: list[int]
    games: list[GameSummary]


class HoldIn(BaseModel):
    kind: Literal["paused", "locked"]
    reason: Reason


class ExtendIn(BaseModel):
    seat: Seat
    hours: int = Field(ge=1, le=interventions.MAX_EXTENSION_HOURS)
    reason: Reason


class SeatIn(BaseModel):
    seat: Seat
    reason: Reason


class ReplaceIn(BaseModel):
    seat: Seat
    replacement: str = Field(max_length=80, description="the display name of the player offered the seat")
    reason: Reason


class RollbackIn(BaseModel):
    to_seq: int = Field(ge=1, le=MAX_ID, description="the last order kept (1: the start)")
    reason: Reason


class OrderLineOut(BaseModel):
    seq: int
    seat: int
    origin: str
    player: str | None
    created_at: datetime
    rolled_back: bool


class SeatOfferOut(BaseModel):
    seat: int
    offered_to: str = Field(description="the player a moderator offered the open seat to")
    until: datetime | None


class ModeratorGameOut(BaseModel):
    game: GameSummary
    players: list[str | None]
    hold: str | None
    hold_reason: str | None
    held_at: datetime | None
    orders: list[OrderLineOut]
    offers: list[SeatOfferOut] = Field(description="open seats offered to a named player, who has to accept")


class RevealOut(BaseModel):
    game_id: int
    state: dict[str, Any] | None
    orders: list[dict[str, Any]]
    events: list[dict[str, Any]]
    messages: list[dict[str, Any]]


class RoleIn(BaseModel):
    role: Literal["player", "moderator", "admin"]
    reason: Reason


class UserEditIn(BaseModel):
    display_name: str = Field(max_length=80)
    email: str = Field(max_length=254)
    reason: Reason


class AuditOut(BaseModel):
    id: int
    created_at: datetime
    actor: str
    action: str
    reason: str
    subject: str | None
    subject_id: int | None
    game_id: int | None
    report_id: int | None
    sanction_id: int | None
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    conflict: str | None = Field(
        None, description="an admin acting in their own game (own_game), on a report about them (about_self)"
    )


# --- conversions -------------------------------------------------------------------------------------


def report_out(item: reports.QueuedReport) -> QueuedReportOut:
    r = item.report
    return QueuedReportOut(
        id=r.id,
        kind=r.kind,
        reason=r.reason,
        details=r.details,
        excerpt=r.excerpt,
        status=r.status,
        outcome=r.outcome,
        resolution_note=r.resolution_note,
        reporter=item.reporter,
        subject=item.subject,
        subject_id=r.subject_id,
        game_id=r.game_id,
        game_name=item.game_name,
        message_id=r.message_id,
        assignee=item.assignee,
        created_at=r.created_at,
        closed_at=r.closed_at,
    )


def sanction_out(info: moderation.SanctionInfo | Any) -> SanctionOut:
    row = info.sanction if isinstance(info, moderation.SanctionInfo) else info
    extra = {"by": info.by, "in_force": info.in_force} if isinstance(info, moderation.SanctionInfo) else {}
    return SanctionOut(
        id=row.id,
        user_id=row.user_id,
        kind=row.kind,
        reason=row.reason,
        note=row.note,
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        lifted_at=row.lifted_at,
        lift_reason=row.lift_reason,
        **extra,
    )


def user_brief(user: Any, viewer: Any) -> UserBrief:
    return UserBrief(
        id=user.id,
        display_name=user.display_name,
        role=user.role,
        email=user.email if viewer.is_admin else None,
        banned_until=user.banned_until,
        join_banned_until=user.join_banned_until,
        muted_until=user.muted_until,
    )


def moderator_game_out(found: interventions.ModeratorView) -> ModeratorGameOut:
    game = found.view.game
    return ModeratorGameOut(
        game=GameSummary.of(game),
        players=found.view.players,
        hold=game.hold_kind,
        hold_reason=game.hold_reason,
        held_at=game.held_at,
        orders=[OrderLineOut(**line.__dict__) for line in found.orders],
        offers=[
            SeatOfferOut(seat=seat, offered_to=name, until=until)
            for seat, (name, until) in sorted(found.offers.items())
        ],
    )


# --- players: reports --------------------------------------------------------------------------------


@router.post("/reports", status_code=201)
def file_report(body: ReportIn, session: DB, user: CurrentUser, now: Now) -> FiledReportOut:
    draft = reports.ReportDraft(**body.model_dump())
    report = reports.file_report(session, user, draft, now)
    return next(FiledReportOut(**r.__dict__) for r in reports.reports_of(session, user) if r.id == report.id)


@router.get("/reports")
def my_reports(session: DB, user: CurrentUser) -> list[FiledReportOut]:
    """The caller's reports with their outcome (never the sanction itself)."""
    return [FiledReportOut(**r.__dict__) for r in reports.reports_of(session, user)]


# --- moderators: the queue ---------------------------------------------------------------------------


@router.get("/moderation/reports")
def report_queue(
    session: DB, user: ModeratorUser, status: Literal["open", "mine", "closed"] = "open"
) -> list[QueuedReportOut]:
    return [report_out(item) for item in reports.queue(session, user, status)]


@router.get("/moderation/reports/{report_id}")
def get_report(report_id: Id, session: DB, user: ModeratorUser) -> QueuedReportOut:
    return report_out(reports.get_report(session, user, report_id))


@router.post("/moderation/reports/{report_id}/assign")
def assign_report(
    report_id: Id, body: AssignIn, session: DB, user: ModeratorUser, now: Now
) -> QueuedReportOut:
    reports.assign(session, user, report_id, body.assignee_id, now)
    return report_out(reports.get_report(session, user, report_id))


@router.post("/moderation/reports/{report_id}/resolve")
def resolve_report(
    report_id: Id, body: ResolveIn, session: DB, user: ModeratorUser, now: Now
) -> QueuedReportOut:
    reports.resolve(session, user, report_id, body.outcome, body.note, now)
    return report_out(reports.get_report(session, user, report_id))


@router.post("/moderation/reports/{report_id}/dismiss")
def dismiss_report(
    report_id: Id, body: DismissIn, session: DB, user: ModeratorUser, now: Now
) -> QueuedReportOut:
    reports.dismiss(session, user, report_id, body.note, now)
    return report_out(reports.get_report(session, user, report_id))


# --- moderators: users and sanctions -----------------------------------------------------------------


@router.get("/moderation/users")
def find_users(
    session: DB, user: ModeratorUser, q: Annotated[str, Query(max_length=80)] = ""
) -> list[UserBrief]:
    return [user_brief(found, user) for found in moderation.find_users(session, user, q)]


@router.get("/moderation/users/{user_id}")
def user_record(user_id: Id, session: DB, user: ModeratorUser, now: Now) -> UserRecordOut:
    record = moderation.user_record(session, user, user_id, now)
    return UserRecordOut(
        user=user_brief(record.user, user),
        sanctions=[sanction_out(info) for info in record.sanctions],
        reports_about=[report.id for report in record.reports_about],
        games=[GameSummary.of(game) for game in record.games],
    )


@router.post("/moderation/users/{user_id}/sanctions", status_code=201)
def impose_sanction(user_id: Id, body: SanctionIn, session: DB, user: ModeratorUser, now: Now) -> SanctionOut:
    order = moderation.SanctionOrder(body.kind, body.hours, body.reason, body.note)
    return sanction_out(moderation.impose(session, user, user_id, order, now))


@router.post("/moderation/sanctions/{sanction_id}/lift")
def lift_sanction(sanction_id: Id, body: ReasonIn, session: DB, user: ModeratorUser, now: Now) -> SanctionOut:
    return sanction_out(moderation.lift(session, user, sanction_id, body.reason, now))


# --- moderators: games -------------------------------------------------------------------------------


@router.get("/moderation/games/{game_id}")
def moderator_game(game_id: Id, session: DB, user: ModeratorUser) -> ModeratorGameOut:
    """What a spectator sees, with the order log's lines (not their content) and the hold. Refused
    (`conflict_of_interest`) to a moderator who plays or played in the game."""
    return moderator_game_out(interventions.moderator_view(session, user, game_id))


def _summary(game: Any) -> GameSummary:
    return GameSummary.of(game)


@router.post("/moderation/games/{game_id}/hold")
def hold_game(game_id: Id, body: HoldIn, session: DB, user: ModeratorUser, now: Now) -> GameSummary:
    return _summary(interventions.hold(session, user, game_id, body.kind, body.reason, now))


@router.post("/moderation/games/{game_id}/resume")
def resume_game(game_id: Id, body: ReasonIn, session: DB, user: ModeratorUser, now: Now) -> GameSummary:
    return _summary(interventions.resume(session, user, game_id, body.reason, now))


@router.post("/moderation/games/{game_id}/extend")
def extend_deadline(game_id: Id, body: ExtendIn, session: DB, user: ModeratorUser, now: Now) -> GameSummary:
    game = interventions.extend_deadline(session, user, game_id, body.seat, body.hours, body.reason, now)
    return _summary(game)


@router.post("/moderation/games/{game_id}/remove")
def remove_player(game_id: Id, body: SeatIn, session: DB, user: ModeratorUser, now: Now) -> GameSummary:
    return _summary(interventions.remove_player(session, user, game_id, body.seat, body.reason, now))


@router.post("/moderation/games/{game_id}/replace")
def replace_player(game_id: Id, body: ReplaceIn, session: DB, user: ModeratorUser, now: Now) -> GameSummary:
    """Offer the seat to the named player (never yourself), who takes it only by accepting it
    (`POST /api/v1/games/{id}/seats/{seat}/take`); its holder, if any, is taken out at once."""
    game = interventions.replace_player(session, user, game_id, body.seat, body.replacement, body.reason, now)
    return _summary(game)


@router.post("/moderation/games/{game_id}/abort")
def abort_game(game_id: Id, body: ReasonIn, session: DB, user: ModeratorUser, now: Now) -> GameSummary:
    return _summary(interventions.abort(session, user, game_id, body.reason, now))


@router.post("/moderation/games/{game_id}/rollback")
def roll_back(game_id: Id, body: RollbackIn, session: DB, user: ModeratorUser, now: Now) -> GameSummary:
    return _summary(interventions.rollback(session, user, game_id, body.to_seq, body.reason, now))


@router.post("/moderation/games/{game_id}/reveal")
def reveal(game_id: Id, body: ReasonIn, session: DB, user: ModeratorUser, now: Now) -> RevealOut:
    """The game's hidden information, for an investigation: the reason goes to the audit log first."""
    found = interventions.reveal(session, user, game_id, body.reason, now)
    return RevealOut(
        game_id=found.game.id,
        state=found.state,
        orders=found.orders,
        events=found.events,
        messages=found.messages,
    )


# --- admins ------------------------------------------------------------------------------------------


@router.post("/admin/users/{user_id}/role")
def change_role(user_id: Id, body: RoleIn, session: DB, user: AdminUser, now: Now) -> UserBrief:
    return user_brief(moderation.change_role(session, user, user_id, body.role, body.reason, now), user)


@router.post("/admin/users/{user_id}/profile")
def edit_user(user_id: Id, body: UserEditIn, session: DB, user: AdminUser, now: Now) -> UserBrief:
    edited = moderation.edit_user(session, user, user_id, body.display_name, body.email, body.reason, now)
    return user_brief(edited, user)


@router.get("/admin/audit")
def audit_log(
    session: DB,
    user: AdminUser,
    action: Literal[audit.ACTIONS] | None = None,  # type: ignore[valid-type]
    actor_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    subject_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    game_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    before_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
) -> list[AuditOut]:
    """Newest first, a page at a time (`before_id`: the last id of the previous page). Read-only."""
    wanted = audit.AuditFilter(action, actor_id, subject_id, game_id, before_id)
    return [
        AuditOut(
            id=row.entry.id,
            created_at=row.entry.created_at,
            actor=row.actor,
            action=row.entry.action,
            reason=row.entry.reason,
            subject=row.subject,
            subject_id=row.entry.subject_id,
            game_id=row.entry.game_id,
            report_id=row.entry.report_id,
            sanction_id=row.entry.sanction_id,
            before=row.entry.before,
            after=row.entry.after,
            conflict=row.entry.conflict,
        )
        for row in audit.entries(session, user, wanted)
    ]
