"""Moderation: sanctions, banned e-mails, reports, the append-only audit log, game rollbacks and holds.

Revision ID: 19fe4e0050a3
Revises: 04c03339480f
Create Date: 2026-11-30 12:45:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "19fe4e0050a3"
down_revision: str | None = "04c03339480f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY_MESSAGE = "audit_log is append-only"
SQLITE_TRIGGERS = [
    f"CREATE TRIGGER audit_log_no_{verb.lower()} BEFORE {verb} ON audit_log "
    f"BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY_MESSAGE}'); END"
    for verb in ("UPDATE", "DELETE")
]
POSTGRES_TRIGGERS = [
    "CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS "
    f"$$ BEGIN RAISE EXCEPTION '{APPEND_ONLY_MESSAGE}'; END $$",
    "CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log "
    "FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()",
]


def upgrade() -> None:
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("note", sa.String(length=1000), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("lifted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lifted_by", sa.Integer(), nullable=True),
        sa.Column("lift_reason", sa.String(length=500), nullable=True),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name=op.f("fk_sanctions_created_by_users")),
        sa.ForeignKeyConstraint(["lifted_by"], ["users.id"], name=op.f("fk_sanctions_lifted_by_users")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_sanctions_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sanctions")),
    )
    with op.batch_alter_table("sanctions", schema=None) as batch_op:
        batch_op.create_index("ix_sanctions_user_id_kind", ["user_id", "kind"], unique=False)

    op.create_table(
        "banned_emails",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("sanction_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["sanction_id"], ["sanctions.id"], name=op.f("fk_banned_emails_sanction_id_sanctions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_banned_emails")),
        sa.UniqueConstraint("email", name=op.f("uq_banned_emails_email")),
    )
    with op.batch_alter_table("banned_emails", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_banned_emails_sanction_id"), ["sanction_id"], unique=False)

    op.create_table(
        "game_rollbacks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("to_seq", sa.Integer(), nullable=False),
        sa.Column("from_version", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=1000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"], name=op.f("fk_game_rollbacks_actor_id_users")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_rollbacks_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_rollbacks")),
    )
    with op.batch_alter_table("game_rollbacks", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_game_rollbacks_game_id"), ["game_id"], unique=False)

    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=32), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("message_id", sa.Integer(), nullable=True),
        sa.Column("excerpt", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("assignee_id", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(length=32), nullable=True),
        sa.Column("resolution_note", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["assignee_id"], ["users.id"], name=op.f("fk_reports_assignee_id_users")),
        sa.ForeignKeyConstraint(["closed_by"], ["users.id"], name=op.f("fk_reports_closed_by_users")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_reports_game_id_games")),
        sa.ForeignKeyConstraint(
            ["message_id"],
            ["game_messages.id"],
            name=op.f("fk_reports_message_id_game_messages"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(["reporter_id"], ["users.id"], name=op.f("fk_reports_reporter_id_users")),
        sa.ForeignKeyConstraint(["subject_id"], ["users.id"], name=op.f("fk_reports_subject_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    with op.batch_alter_table("reports", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_reports_reporter_id"), ["reporter_id"], unique=False)
        batch_op.create_index("ix_reports_status_created_at", ["status", "created_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_reports_subject_id"), ["subject_id"], unique=False)

    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=48), nullable=False),
        sa.Column("reason", sa.String(length=1000), nullable=False),
        sa.Column("subject_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("report_id", sa.Integer(), nullable=True),
        sa.Column("sanction_id", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=True),
        sa.Column("after", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=True),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"], name=op.f("fk_audit_log_actor_id_users")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_audit_log_game_id_games")),
        sa.ForeignKeyConstraint(["report_id"], ["reports.id"], name=op.f("fk_audit_log_report_id_reports")),
        sa.ForeignKeyConstraint(
            ["sanction_id"], ["sanctions.id"], name=op.f("fk_audit_log_sanction_id_sanctions")
        ),
        sa.ForeignKeyConstraint(["subject_id"], ["users.id"], name=op.f("fk_audit_log_subject_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_log_actor_id"), ["actor_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_audit_log_created_at"), ["created_at"], unique=False)
        batch_op.create_index("ix_audit_log_game_id", ["game_id"], unique=False)
        batch_op.create_index("ix_audit_log_subject_id", ["subject_id"], unique=False)
    for statement in POSTGRES_TRIGGERS if _is_postgres() else SQLITE_TRIGGERS:
        op.execute(statement)

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("held_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("hold_kind", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("hold_reason", sa.String(length=500), nullable=True))

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("banned_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("join_banned_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("signup_pending", sa.Boolean(), server_default="0", nullable=False))


def downgrade() -> None:
    op.drop_table("audit_log")  # its triggers go with it
    if _is_postgres():
        op.execute("DROP FUNCTION audit_log_append_only()")
    op.drop_table("reports")
    op.drop_table("game_rollbacks")
    op.drop_table("banned_emails")
    op.drop_table("sanctions")

    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("hold_reason")
        batch_op.drop_column("hold_kind")
        batch_op.drop_column("held_at")

    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("signup_pending")
        batch_op.drop_column("muted_until")
        batch_op.drop_column("join_banned_until")
        batch_op.drop_column("banned_until")


def _is_postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"
