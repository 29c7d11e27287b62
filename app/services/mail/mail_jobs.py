"""The mail jobs of one process: notifications to mails, digests, delivery, and a daily clean-up.

`MailJobs.register(scheduler)` adds them to the process's APScheduler (app.services.jobs.jobs.Jobs); the
renderer comes from whoever builds the jobs (app.main, app.cli), since templates belong to the web layer.
Every job is safe to run in any number of processes at once: the work is claimed row by row in the
database (see app.services.mail.dispatch and app.services.mail.mail); the clean-up runs once per day across
all processes through its job-run row.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.base import BaseScheduler
from sqlalchemy import delete
from sqlalchemy.orm import Session, sessionmaker

from app.models import OutgoingMail
from app.services.jobs.jobs import PeriodicJob, run_periodic
from app.services.mail import dispatch, mail, notify
from app.settings import Settings

log = logging.getLogger(__name__)
MAX_BATCHES_PER_RUN = 20  # then the next run goes on, so one run never holds its thread for long
SENT_MAILS_KEPT = timedelta(days=30)
PRESENCE_KEPT = timedelta(days=1)


def utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass
class MailReport:
    notifications: int = 0
    digests: int = 0
    delivered: int = 0


def run_mail_once(
    sessions: sessionmaker[Session],
    settings: Settings,
    renderer: dispatch.MailRenderer,
    transport: mail.Transport,
    clock: Callable[[], datetime] = utcnow,
    stop: Callable[[], bool] = lambda: False,
) -> MailReport:
    """Due notifications to mails, due digests, due mails delivered: a bounded number of batches each."""
    report = MailReport()
    for _ in range(MAX_BATCHES_PER_RUN):
        handled = dispatch.dispatch_notifications(sessions, settings, renderer, clock())
        report.notifications += handled
        if handled < settings.mail_batch_size or stop():
            break
    report.digests = dispatch.send_digests(sessions, settings, renderer, clock())
    for _ in range(MAX_BATCHES_PER_RUN):
        delivered = mail.deliver_outbox(sessions, settings, transport, clock())
        report.delivered += delivered
        if delivered == 0 or stop():
            break
    return report


def clean_up(session: Session, now: datetime) -> None:
    """Forget old presence rows and mails sent long ago (dead ones stay for the administrators)."""
    notify.forget_presence(session, now - PRESENCE_KEPT)
    session.execute(delete(OutgoingMail).where(OutgoingMail.sent_at < now - SENT_MAILS_KEPT))


CLEAN_UP = PeriodicJob("mail_clean_up", timedelta(days=1), clean_up)


class MailJobs:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        settings: Settings,
        renderer: dispatch.MailRenderer,
        clock: Callable[[], datetime] = utcnow,
        transport: mail.Transport | None = None,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.renderer = renderer
        self.clock = clock
        self.transport = transport or mail.transport_for(settings)
        self.stopping = threading.Event()

    def run(self) -> MailReport | None:
        try:
            return run_mail_once(
                self.sessions, self.settings, self.renderer, self.transport, self.clock, self.stopping.is_set
            )
        except Exception:
            log.exception("the mail job failed; the next run will retry")
            return None

    def clean(self) -> None:
        try:
            run_periodic(self.sessions, self.clock(), [CLEAN_UP])
        except Exception:
            log.exception("the mail clean-up failed; the next slot will run")

    def register(self, scheduler: BaseScheduler) -> None:
        now = self.clock()
        every = self.settings.mail_every_seconds
        scheduler.add_job(self.run, "interval", seconds=every, id="mail", next_run_time=now)
        scheduler.add_job(self.clean, "interval", hours=1, id="mail_clean_up", next_run_time=now)

    def stop(self) -> None:
        self.stopping.set()
