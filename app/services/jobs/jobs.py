"""Background jobs: APScheduler 3.11 interval jobs whose correctness lives in the database.

Every process that runs jobs (`ostraca serve`, `ostraca worker`) has one in-memory scheduler with:
- the sweeper, every `sweep_seconds` (max_instances=1, coalesce): it checks in (outage compensation),
  then handles every due wait; any number of processes may sweep at once (see app.services.jobs.sweeper);
- the bots job, every `bot_seconds`: it plays the turns of the seats a bot plays, each once, however many
  processes run it (see app.services.jobs.bots);
- a tick every minute for the periodic jobs (PERIODIC_JOBS), each run once per slot across all processes
  by inserting its (job, slot) row with ON CONFLICT DO NOTHING: only the process whose insert went in
  runs it.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from app.db import insert_ignoring_conflicts
from app.models import JobRun
from app.services.accounts import accounts
from app.services.deadlines import outage
from app.services.jobs import bots, sweeper
from app.settings import Settings

log = logging.getLogger(__name__)
OWNER = f"{socket.gethostname()}:{os.getpid()}"[:64]
TICK_SECONDS = 60
JOB_RUNS_KEPT = timedelta(days=30)


def utcnow() -> datetime:
    return datetime.now(UTC)


def sweep_settings(settings: Settings) -> sweeper.SweepSettings:
    return sweeper.SweepSettings(
        batch=settings.sweep_batch,
        lease=timedelta(seconds=settings.sweep_lease_seconds),
        max_attempts=settings.sweep_max_attempts,
    )


def outage_threshold(settings: Settings) -> timedelta:
    return timedelta(seconds=settings.outage_threshold_seconds)


# --- periodic jobs, once per slot --------------------------------------------------------------------


@dataclass(frozen=True)
class PeriodicJob:
    name: str
    every: timedelta
    run: Callable[[Session, datetime], None]


def slot_of(now: datetime, every: timedelta) -> datetime:
    """The start of the slot `now` falls in (slots are counted from the Unix epoch)."""
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    return epoch + every * ((now - epoch) // every)


def claim_slot(session: Session, job: str, slot: datetime, now: datetime) -> bool:
    """Whether this process runs `job` for `slot`: only the first insert of its row goes in."""
    claimed = insert_ignoring_conflicts(session, JobRun, job=job, slot=slot, started_at=now, owner=OWNER)
    session.commit()
    return claimed


def prune_job_runs(session: Session, now: datetime) -> None:
    session.execute(delete(JobRun).where(JobRun.slot < now - JOB_RUNS_KEPT))


def purge_unconfirmed_sign_ups(session: Session, now: datetime) -> None:
    purged = accounts.purge_unconfirmed_sign_ups(session, now)
    if purged:
        log.info("deleted %d sign-up(s) whose address was never confirmed", purged)


def purge_expired_login_sessions(session: Session, now: datetime) -> None:
    accounts.purge_expired_login_sessions(session, now)


PERIODIC_JOBS: list[PeriodicJob] = [
    PeriodicJob("prune_job_runs", timedelta(days=1), prune_job_runs),
    PeriodicJob("purge_unconfirmed_sign_ups", timedelta(hours=1), purge_unconfirmed_sign_ups),
    PeriodicJob("purge_expired_login_sessions", timedelta(hours=1), purge_expired_login_sessions),
]


def run_periodic(
    sessions: sessionmaker[Session], now: datetime, jobs: list[PeriodicJob] | None = None
) -> list[str]:
    """Run each periodic job whose current slot no process has claimed yet; returns those run here."""
    ran = []
    for job in PERIODIC_JOBS if jobs is None else jobs:
        with sessions() as session:
            if not claim_slot(session, job.name, slot_of(now, job.every), now):
                continue
            job.run(session, now)
            session.commit()
            ran.append(job.name)
    return ran


# --- the scheduler ------------------------------------------------------------------------------------


class Jobs:
    """The jobs of one process: start, stop, and the job bodies (which never raise into APScheduler)."""

    def __init__(
        self, sessions: sessionmaker[Session], settings: Settings, clock: Callable[[], datetime] = utcnow
    ):
        self.sessions = sessions
        self.settings = settings
        self.clock = clock
        self.stopping = threading.Event()
        self.swept = threading.Event()  # set after each pass of the sweeper (tests and tools wait on it)
        self.bots_played = threading.Event()  # set after each pass of the bots job
        self.scheduler: BaseScheduler | None = None
        self.more_jobs: list[Callable[[BaseScheduler], None]] = []  # other modules add their jobs here

    def check_in(self) -> outage.Compensation | None:
        """Outage compensation (at start, and before each pass)."""
        with self.sessions() as session:
            found = outage.check_in(session, self.clock(), outage_threshold(self.settings))
        if found is not None:
            log.warning("no sweep for %s: %d game(s) given the time back", found.gap, len(found.games))
        return found

    def sweep(self) -> sweeper.SweepReport | None:
        try:
            self.check_in()
            return sweeper.sweep(
                self.sessions,
                self.clock,
                sweep_settings(self.settings),
                stop=self.stopping.is_set,
                on_batch=self._touch,
            )
        except Exception:
            log.exception("the sweep failed; the next one will retry")
            return None
        finally:
            self.swept.set()

    def play_bots(self) -> bots.BotReport | None:
        try:
            return bots.play_bots(
                self.sessions, self.clock, sweep_settings(self.settings), stop=self.stopping.is_set
            )
        except Exception:
            log.exception("the bots job failed; the next one will retry")
            return None
        finally:
            self.bots_played.set()

    def _touch(self, now: datetime) -> None:
        with self.sessions() as session:
            outage.touch(session, now)

    def tick(self) -> None:
        try:
            run_periodic(self.sessions, self.clock())
        except Exception:
            log.exception("a periodic job failed; its slot is spent, the next slot will run")

    def start(self, blocking: bool = False) -> None:
        """Compensate for an outage, then run the jobs (in the background, or in this thread)."""
        self.check_in()
        kind = BlockingScheduler if blocking else BackgroundScheduler
        defaults = {"coalesce": True, "max_instances": 1, "misfire_grace_time": None}
        self.scheduler = kind(timezone=UTC, job_defaults=defaults)
        now = utcnow()
        self.scheduler.add_job(
            self.sweep, "interval", seconds=self.settings.sweep_seconds, id="sweep", next_run_time=now
        )
        self.scheduler.add_job(
            self.play_bots, "interval", seconds=self.settings.bot_seconds, id="bots", next_run_time=now
        )
        self.scheduler.add_job(self.tick, "interval", seconds=TICK_SECONDS, id="periodic", next_run_time=now)
        for register in self.more_jobs:
            register(self.scheduler)
        self.scheduler.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=True)
