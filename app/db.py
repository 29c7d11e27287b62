"""Engine, sessions, the declarative base, the UTC datetime type, an insert that may lose a race and an
insert of many rows in one statement."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    MetaData,
    Table,
    create_engine,
    event,
    insert,
    literal_column,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.sql.schema import ColumnDefault
from sqlalchemy.types import TypeDecorator

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class UTCDateTime(TypeDecorator[datetime]):
    """Stores aware datetimes as UTC; SQLite keeps no zone, so it is put back on read."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


JSONDocument = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


def make_engine(url: str, pool_timeout: float = 30.0) -> Engine:
    """`pool_timeout`: how long a request waits for a connection before it is answered 503 (Postgres)."""
    if url.startswith("sqlite"):
        path = url.removeprefix("sqlite:///")
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin_immediate)
        return engine
    # No pre-ping (a round trip per checkout); connections are renewed every half hour instead. psycopg
    # prepares a statement at its second run and keeps it until a ROLLBACK: reads end in COMMIT
    # (`end_request`), so the hot statements are parsed and planned once per connection.
    engine = create_engine(
        url,
        pool_size=10,
        max_overflow=20,
        pool_recycle=POOL_RECYCLE_SECONDS,
        pool_timeout=pool_timeout,
        connect_args={"prepare_threshold": 2},
    )
    event.listen(engine, "before_cursor_execute", _note_writes)
    for name in ("begin", "commit", "rollback"):
        event.listen(engine, name, _forget_writes)
    return engine


POOL_RECYCLE_SECONDS = 1800


def _note_writes(connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
    if not statement.startswith("SELECT") or statement.startswith("SELECT pg_notify"):
        connection.info["wrote"] = True


def _forget_writes(connection: Any) -> None:
    connection.info.pop("wrote", None)


def end_request(session: Session) -> None:
    """End a request's transaction: COMMIT when it only read (a ROLLBACK would drop psycopg's prepared
    statements), ROLLBACK when it wrote something it did not commit."""
    if not session.in_transaction():
        return
    if session.get_bind().dialect.name == "postgresql" and not session.connection().info.get("wrote"):
        session.commit()
    else:
        session.rollback()


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy emits BEGIN itself (see _sqlite_begin_immediate)
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _sqlite_begin_immediate(connection: Any) -> None:
    # One writer at a time: take the write lock at BEGIN, so two order submissions serialise
    # instead of both reading the same version and one failing at commit.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def upsert(session: Session, table: type[Base] | Table) -> postgresql.Insert | sqlite.Insert:
    """The database's own INSERT, which has ON CONFLICT."""
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    return dialect.insert(table)


def insert_ignoring_conflicts(session: Session, table: type[Base], **values: object) -> bool:
    """INSERT ... ON CONFLICT DO NOTHING RETURNING; True when the row went in (this caller won)."""
    statement = upsert(session, table).values(**values).on_conflict_do_nothing()
    return session.execute(statement.returning(literal_column("1"))).first() is not None


def table_of(model: type[Base]) -> Table:
    """The model's table, for Core statements."""
    table = model.__table__
    assert isinstance(table, Table)
    return table


def insert_many(session: Session, model: type[Base], rows: Sequence[dict[str, Any]]) -> None:
    """Rows into `model`'s table, all with the same keys. On Postgres one COPY in the session's transaction:
    the rows go as one stream of text, formatted by psycopg's C code, with no statement to parse or plan
    and no parameter to dump one by one. Elsewhere, an executemany. Columns the rows leave out get their
    Python-side default, computed once for all the rows."""
    if not rows:
        return
    table = table_of(model)
    dialect = session.get_bind().dialect
    if dialect.name != "postgresql":
        session.execute(insert(table), list(rows))
        return
    names = list(rows[0])
    defaults = {
        column.name: column.default.arg(None) if column.default.is_callable else column.default.arg
        for column in table.columns
        if column.name not in names and isinstance(column.default, ColumnDefault) and not column.primary_key
    }
    columns = [*names, *defaults]
    documents = {name for name in columns if isinstance(table.columns[name].type.dialect_impl(dialect), JSON)}
    tail = tuple(_copy_value(value, name in documents) for name, value in defaults.items())
    driver = session.connection().connection.driver_connection
    assert driver is not None
    copied = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
    with driver.cursor() as cursor, cursor.copy(copied) as copy:
        for row in rows:
            values = [_copy_value(row[name], name in documents) for name in names]
            copy.write_row((*values, *tail))


def _copy_value(value: Any, document: bool) -> Any:
    """A value as COPY takes it: a JSON document as its text (None stays NULL)."""
    return json.dumps(value) if document and value is not None else value


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any exception."""
    with factory() as session, session.begin():
        yield session
