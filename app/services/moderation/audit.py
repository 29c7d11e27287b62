"""The audit log: every moderator and admin action, who did it, why, when, and what it changed.

Entries are only ever added (`record`, inside the transaction of the action itself, so an action and its
entry commit or fail together). The database refuses any UPDATE or DELETE of the table (triggers made by
the migration), and no route edits it: admins can only read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import AuditEntry, User
from app.models.records import UserFacts
from app.services.errors import ServiceError

PAGE = 100
ACTIONS = (
    "role.change",
    "user.edit",
    "sanction.impose",
    "sanction.lift",
    "report.assign",
    "report.resolve",
    "report.dismiss",
    "game.pause",
    "game.lock",
    "game.resume",
    "game.extend",
    "game.remove_player",
    "game.replace_player",
    "game.abort",
    "game.rollback",
    "game.reveal",
    "account.export",  # a player downloaded their data (the actor is the player)
    "account.delete",  # an account deleted, by its owner or an administrator
)


@dataclass(frozen=True)
class Target:
    """What an action was about (any of them may be None)."""

    subject_id: int | None = None
    game_id: int | None = None
    report_id: int | None = None
    sanction_id: int | None = None


def record(
    session: Session,
    actor: UserFacts,
    action: str,
    *,
    reason: str,
    now: datetime,
    target: Target = Target(),
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    conflict: str | None = None,
) -> AuditEntry:
    """Add one entry in the caller's transaction. `conflict`: see `moderation.conflict_of_interest`."""
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}")
    entry = AuditEntry(
        conflict=conflict,
        created_at=now,
        actor_id=actor.id,
        action=action,
        reason=reason,
        subject_id=target.subject_id,
        game_id=target.game_id,
        report_id=target.report_id,
        sanction_id=target.sanction_id,
        before=dict(before) if before is not None else None,
        after=dict(after) if after is not None else None,
    )
    session.add(entry)
    session.flush()
    return entry


@dataclass(frozen=True)
class AuditFilter:
    action: str | None = None
    actor_id: int | None = None
    subject_id: int | None = None
    game_id: int | None = None
    before_id: int | None = None  # the next page: entries older than this one


@dataclass(frozen=True)
class AuditRow:
    entry: AuditEntry
    actor: str
    subject: str | None


def entries(session: Session, viewer: UserFacts, wanted: AuditFilter, limit: int = PAGE) -> list[AuditRow]:
    """The newest entries matching `wanted`, newest first. Admins only."""
    if not viewer.is_admin:
        raise ServiceError("forbidden", "Only administrators may read the audit log.")
    if wanted.action is not None and wanted.action not in ACTIONS:
        raise ServiceError("invalid_input", "There is no such action in the audit log.", "action")
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(min(max(limit, 1), PAGE))
    for column, value in (
        (AuditEntry.action, wanted.action),
        (AuditEntry.actor_id, wanted.actor_id),
        (AuditEntry.subject_id, wanted.subject_id),
        (AuditEntry.game_id, wanted.game_id),
    ):
        if value is not None:
            query = query.where(column == value)
    if wanted.before_id is not None:
        query = query.where(AuditEntry.id < wanted.before_id)
    found = list(session.scalars(query))
    names = names_of(session, {e.actor_id for e in found} | {e.subject_id for e in found if e.subject_id})
    return [AuditRow(e, names.get(e.actor_id, "?"), names.get(e.subject_id or 0)) for e in found]


def names_of(session: Session, user_ids: set[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    rows = session.execute(select(User.id, User.display_name).where(User.id.in_(user_ids)))
    return {user_id: name for user_id, name in rows}
