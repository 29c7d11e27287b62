"""A mail worker process for the fault test: the mail jobs in a loop, on the real clock, settings from the
environment (DATABASE_URL, SMTP_URL, MAIL_*). Usage: python -m tests.notify.mail_worker SECONDS"""

from __future__ import annotations

import sys
import time

from app.db import make_engine, session_factory
from app.services.mail import mail, mail_jobs
from app.settings import Settings
from app.web.emails import EmailRenderer


def main(seconds: float) -> None:
    settings = Settings(_env_file=None)
    engine = make_engine(settings.sqlalchemy_url)
    sessions = session_factory(engine)
    jobs = mail_jobs.MailJobs(sessions, settings, EmailRenderer(), transport=mail.transport_for(settings))
    print("ready", flush=True)
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        report = jobs.run()  # as the scheduler runs it: a failed run is logged and the next one retries
        if report is None or (not report.delivered and not report.notifications):
            time.sleep(settings.mail_every_seconds)
    engine.dispose()


if __name__ == "__main__":
    main(float(sys.argv[1]))
