"""Roles (admins grant and revoke them) and the audit log: every action written, readable by admins,
never editable, by the database itself and by the absence of any route that would."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import routing
from fastapi.routing import APIRoute
from sqlalchemy import delete, text, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from app.models import AuditEntry
from app.services.moderation import audit, moderation
from tests.moderation.helpers import api_client, audit_actions, ban, make_user, now, refused


def test_admins_grant_and_revoke_roles_and_nobody_changes_their_own(db: Session) -> None:
    admin, ann, mod = make_user(db, "Root", "admin"), make_user(db, "Ann"), make_user(db, "Mod", "moderator")
    moderation.change_role(db, admin, ann.id, "moderator", "Trusted player", now())
    assert ann.role == "moderator"
    moderation.change_role(db, admin, ann.id, "player", "Stepped down", now())
    refused(db, "forbidden", lambda: moderation.change_role(db, mod, ann.id, "moderator", "x", now()))
    refused(db, "forbidden", lambda: moderation.change_role(db, admin, admin.id, "player", "x", now()))
    refused(db, "invalid_input", lambda: moderation.change_role(db, admin, ann.id, "king", "x", now()))
    refused(db, "invalid_input", lambda: moderation.change_role(db, admin, ann.id, "moderator", "", now()))
    rows = audit.entries(db, admin, audit.AuditFilter(action="role.change"))
    assert [(r.entry.before, r.entry.after) for r in rows] == [
        ({"role": "moderator"}, {"role": "player"}),
        ({"role": "player"}, {"role": "moderator"}),
    ]
    assert rows[0].actor == "Root" and rows[0].subject == "Ann" and rows[0].entry.reason == "Stepped down"


def test_an_admin_may_rename_a_user_and_it_is_logged(db: Session) -> None:
    admin, ann = make_user(db, "Root", "admin"), make_user(db, "Ann")
    moderation.edit_user(db, admin, ann.id, "Annie", "annie@example.com", "Asked by mail", now())
    assert (ann.display_name, ann.email) == ("Annie", "annie@example.com")
    refused(
        db,
        "name_taken",
        lambda: moderation.edit_user(db, admin, ann.id, "Root", "annie@example.com", "x", now()),
    )
    assert audit_actions(db) == ["user.edit"]


def test_the_audit_log_is_for_admins_only(db: Session, make_client: Any) -> None:
    admin, mod, eve = make_user(db, "Root", "admin"), make_user(db, "Mod", "moderator"), make_user(db, "Eve")
    ban(db, mod, eve)
    refused(db, "forbidden", lambda: audit.entries(db, mod, audit.AuditFilter()))
    db.commit()
    assert api_client(make_client, "mod@example.com").get("/api/v1/admin/audit").status_code == 403
    rows = api_client(make_client, "root@example.com").get("/api/v1/admin/audit").json()
    assert [(r["actor"], r["action"], r["subject"]) for r in rows] == [("Mod", "sanction.impose", "Eve")]
    assert rows[0]["before"]["banned_until"] is None and rows[0]["after"]["banned_until"] is not None
    assert admin.id


@pytest.mark.parametrize(
    "statement",
    ["UPDATE audit_log SET reason = 'nothing happened'", "DELETE FROM audit_log"],
)
def test_the_database_refuses_to_change_the_audit_log(db: Session, statement: str) -> None:
    mod, eve = make_user(db, "Mod", "moderator"), make_user(db, "Eve")
    ban(db, mod, eve)
    with pytest.raises(DBAPIError, match="append-only"):
        db.execute(text(statement))
    db.rollback()
    with pytest.raises(DBAPIError, match="append-only"):
        db.execute(update(AuditEntry).values(action="role.change"))
    db.rollback()
    with pytest.raises(DBAPIError, match="append-only"):
        db.execute(delete(AuditEntry))
    db.rollback()
    entry = db.query(AuditEntry).one()
    entry.reason = "edited"
    with pytest.raises(DBAPIError, match="append-only"):
        db.commit()
    db.rollback()
    assert audit_actions(db) == ["sanction.impose"]


def test_no_route_writes_to_the_audit_log_except_by_acting(app: Any, make_client: Any, db: Session) -> None:
    paths = [
        (method, context.path)
        for context in routing.iter_route_contexts(app.routes)
        if isinstance(context.original_route, APIRoute) and "audit" in (context.path or "")
        for method in context.methods or ()
    ]
    assert sorted(paths) == [("GET", "/admin/audit"), ("GET", "/api/v1/admin/audit")]
    make_user(db, "Root", "admin")
    client = api_client(make_client, "root@example.com")
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        assert client.request(method, "/api/v1/admin/audit").status_code == 405
        assert client.request(method, "/api/v1/admin/audit/1").status_code == 404
