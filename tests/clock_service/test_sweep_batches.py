"""The set-wise sweeper leaves the database as the one-by-one sweeper does, rare cases included."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import delete, event, select, text
from sqlalchemy.orm import Session, sessionmaker

from app.db import Base
from app.games import registry
from app.models import AvailabilityWindow, Game, PauseRequest, Seat, SeatTenure, User, WaitRow
from app.services.jobs import sweeper
from tests.clock_service.factory import HOUR, NOW, make_user, seed_due_games

DUE = NOW - timedelta(minutes=1)
WALL_CLOCK = {("users", "created_at"), ("notifications", "created_at"), ("pauses", "created_at")}
LATER = NOW + 5 * HOUR


def table(
    session: Session,
    users: list[User],
    due: list[bool],
    *,
    chooser: int | None = None,
    missed: int = 0,
    warn_at: Any = None,
    quarantined: bool = False,
) -> None:
    """A running fake game: a pick wait per seat (or the chooser's wait), due or not."""
    rules = registry.get("fake")
    state = rules.dump(rules.new_game(rules.Options(), len(users), 1))
    if chooser is not None:
        state = {**state, "picks": [1] * len(users), "chooser": chooser}
    started = NOW - 24 * HOUR
    game = Game(
        game_type="fake",
        name="batch",
        status="active",
        players=len(users),
        time_limit_hours=24,
        options={},
        seed=1,
        state=state,
        version=1,
        creator_id=users[0].id,
        created_at=started,
        started_at=started,
        quarantined_at=NOW - HOUR if quarantined else None,
    )
    session.add(game)
    session.flush()
    for number, user in enumerate(users):
        seat = Seat(
            game_id=game.id,
            user_id=user.id,
            number=number,
            status="playing",
            joined_at=started,
            missed_turns=missed if number == 0 else 0,
        )
        session.add(seat)
        session.flush()
        session.add(SeatTenure(seat_id=seat.id, user_id=user.id, started_at=started))
        if chooser is not None and number != chooser:
            continue
        deadline = DUE if due[number] else LATER
        check = DUE if due[number] or warn_at is not None else LATER
        session.add(
            WaitRow(
                game_id=game.id,
                seat=number,
                phase="choose" if chooser is not None else "pick",
                simultaneous=chooser is None,
                since_version=1,
                started_at=started,
                deadline_at=deadline,
                warn_at=warn_at,
                check_at=check,
            )
        )


def scenario(session: Session) -> None:
    """Plain timeouts, a new round, a deadline that moved, a warning, a possible eviction, a quarantine;
    players with availability windows and a pause, whose new deadlines the batch must read right."""
    users = [
        make_user(session, f"P{index}", zone="Europe/Paris" if index == 1 else "UTC") for index in range(4)
    ]
    session.add(AvailabilityWindow(user_id=users[1].id, weekday=1, start_minute=9 * 60, end_minute=17 * 60))
    first_day = (NOW + 2 * HOUR * 24).date()
    session.add(PauseRequest(user_id=users[2].id, first_day=first_day, last_day=first_day, zone="UTC"))
    session.add(
        PauseRequest(user_id=users[3].id, first_day=date(2026, 1, 1), last_day=date(2026, 1, 2), zone="UTC")
    )
    table(session, users[:3], [True, True, True])  # all time out: the chooser's wait starts
    table(session, users, [True, False, True, False])  # two of four
    table(session, users[1:4], [False, True, False], chooser=1)  # the chooser times out: a new round
    table(session, users[:2], [False, False])  # checked, but the deadline moved
    table(session, users[:3], [False, False, False], warn_at=DUE)  # a warning is due: one by one
    table(session, users[:2], [True, True], missed=1)  # the first seat may be evicted: one by one
    table(session, users[:3], [True, True, True], quarantined=True)  # gone
    table(session, [users[3], users[0], users[2]], [True, True, True])
    session.commit()


def dump(sessions: sessionmaker[Session]) -> dict[str, list[str]]:
    """Every table's rows, surrogate ids left out (the rare cases come after the batch, so their rows
    are numbered in another order), sorted."""
    found: dict[str, list[str]] = {}
    with sessions() as session:
        for model_table in Base.metadata.sorted_tables:
            columns = [
                column
                for column in model_table.columns
                if column.name != "id" and (model_table.name, column.name) not in WALL_CLOCK
            ]
            rows = session.execute(select(*columns)).all()
            found[model_table.name] = sorted(repr(tuple(row)) for row in rows)
    return found


def empty(sessions: sessionmaker[Session]) -> None:
    """No rows, and ids from 1 again (so both runs' foreign keys agree)."""
    with sessions() as session:
        if session.get_bind().dialect.name == "postgresql":
            tables = ", ".join(model_table.name for model_table in Base.metadata.sorted_tables)
            session.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        else:  # SQLite numbers a row after the largest id there is
            for model_table in reversed(Base.metadata.sorted_tables):
                session.execute(delete(model_table))
        session.commit()


def swept(
    sessions: sessionmaker[Session], set_wise: bool
) -> tuple[sweeper.SweepReport, dict[str, list[str]]]:
    empty(sessions)
    with sessions() as session:
        scenario(session)
    config = sweeper.SweepSettings(batch=10, set_wise=set_wise)
    report = sweeper.sweep(sessions, lambda: NOW, config)
    return report, dump(sessions)


def test_set_wise_and_one_by_one_leave_the_same_database(sessions: sessionmaker[Session]) -> None:
    one_by_one, expected = swept(sessions, set_wise=False)
    set_wise, found = swept(sessions, set_wise=True)
    assert (one_by_one.timeouts, one_by_one.warnings, one_by_one.failed) == (11, 3, 0)
    assert (set_wise.timeouts, set_wise.warnings, set_wise.rescheduled) == (
        one_by_one.timeouts,
        one_by_one.warnings,
        one_by_one.rescheduled,
    )
    assert set_wise.failed == 0
    assert found == expected


def test_a_batch_of_plain_timeouts_costs_a_few_statements_in_all(
    db: Session, sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    waits = seed_due_games(db, 25, 4, DUE)
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if not statement.startswith(("BEGIN", "COMMIT", "ROLLBACK")):
            statements.append(statement)

    engine = db.get_bind()
    event.listen(engine, "before_cursor_execute", count)
    try:
        report = sweeper.sweep(sessions, lambda: NOW, sweeper.SweepSettings(batch=100))
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert (report.timeouts, report.failed) == (waits, 0)
    assert not [record for record in caplog.records if record.levelname == "ERROR"]
    assert len(statements) <= 25, "\n".join(statements)  # two claims, one batch, 100 timeouts
