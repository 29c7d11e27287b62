"""Readiness: the database answers and its schema is at the newest migration."""

from __future__ import annotations

from dataclasses import dataclass

from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text
from sqlalchemy.exc import SQLAlchemyError

from app import migrate


@dataclass(frozen=True)
class Readiness:
    code: str  # "ready", "database_unavailable" or "migrations_pending"
    message: str
    current: tuple[str, ...] = ()
    head: tuple[str, ...] = ()

    @property
    def ready(self) -> bool:
        return self.code == "ready"


def head_revisions() -> tuple[str, ...]:
    return tuple(sorted(ScriptDirectory.from_config(migrate.alembic_config()).get_heads()))


def readiness(engine: Engine) -> Readiness:
    head = head_revisions()
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
            current = tuple(sorted(MigrationContext.configure(connection).get_current_heads()))
    except SQLAlchemyError as error:
        return Readiness("database_unavailable", f"The database does not answer: {type(error).__name__}.")
    if current != head:
        behind = "The database schema is not at the newest migration."
        return Readiness("migrations_pending", behind, current, head)
    return Readiness("ready", "Ready.", current, head)
