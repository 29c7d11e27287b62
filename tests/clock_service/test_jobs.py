"""Background jobs: periodic jobs once per slot, the scheduler's start and stop, `ostraca worker`."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app import cli
from app.models import GameOrder, JobRun
from app.services.jobs import jobs
from app.settings import Settings
from tests.clock_service.factory import HOUR, NOW, make_users, running_game


def test_slots_are_counted_from_the_epoch() -> None:
    day = timedelta(days=1)
    assert jobs.slot_of(NOW, day) == datetime(2026, 11, 30, tzinfo=UTC)
    assert jobs.slot_of(NOW, timedelta(minutes=5)) == NOW
    assert jobs.slot_of(NOW + timedelta(minutes=7), timedelta(minutes=5)) == NOW + timedelta(minutes=5)


def test_a_periodic_job_runs_once_per_slot_whatever_the_number_of_processes(
    sessions: sessionmaker[Session],
) -> None:
    runs: list[datetime] = []
    job = jobs.PeriodicJob("count", timedelta(hours=1), lambda _session, now: runs.append(now))
    for minute in (0, 10, 59):  # three processes (or ticks) in the same slot
        jobs.run_periodic(sessions, NOW + timedelta(minutes=minute), [job])
    jobs.run_periodic(sessions, NOW + HOUR, [job])
    assert runs == [NOW, NOW + HOUR]
    with sessions() as session:
        assert session.scalar(select(func.count()).select_from(JobRun)) == 2


def test_old_job_runs_are_pruned(sessions: sessionmaker[Session]) -> None:
    with sessions() as session:
        jobs.claim_slot(session, "old", NOW - timedelta(days=40), NOW - timedelta(days=40))
        jobs.claim_slot(session, "new", NOW, NOW)
    prune = [job for job in jobs.PERIODIC_JOBS if job.name == "prune_job_runs"]
    assert jobs.run_periodic(sessions, NOW, prune) == ["prune_job_runs"]
    with sessions() as session:
        assert set(session.scalars(select(JobRun.job))) == {"new", "prune_job_runs"}


def test_the_scheduler_starts_sweeps_at_once_and_stops(
    db: Session, sessions: sessionmaker[Session], settings: Settings
) -> None:
    running_game(db, make_users(db, "Ann", "Ben"), now=NOW - 25 * HOUR)
    background = jobs.Jobs(sessions, settings.model_copy(update={"sweep_seconds": 3600.0}), clock=lambda: NOW)
    background.start()
    assert background.scheduler is not None
    assert {job.id for job in background.scheduler.get_jobs()} == {"sweep", "bots", "periodic"}
    sweep_job = background.scheduler.get_job("sweep")
    assert (sweep_job.max_instances, sweep_job.coalesce) == (1, True)
    assert background.swept.wait(timeout=60)  # the first sweep runs at start
    background.stop()
    with sessions() as session:
        assert (
            session.scalar(select(func.count()).select_from(GameOrder).where(GameOrder.origin == "timeout"))
            == 2
        )


def test_ostraca_worker_once_sweeps_and_exits(
    db: Session, settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    running_game(db, make_users(db, "Ann", "Ben"), now=datetime.now(UTC) - 25 * HOUR)
    monkeypatch.setenv("DATABASE_URL", settings.sqlalchemy_url)
    monkeypatch.setenv("DATA_DIR", str(settings.data_dir))
    assert cli.main(["worker", "--once"]) == 0
    assert "timeouts=2" in capsys.readouterr().out
