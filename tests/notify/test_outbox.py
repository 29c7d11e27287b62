"""The outbox: Message-IDs fixed before sending, retries with back-off, dead mails, the file transport."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.main import create_app
from app.models import OutgoingMail
from app.services.mail import mail
from app.settings import Settings
from tests.conftest import NOW
from tests.notify.conftest import RunMail, Sink, free_port, log_in, make_user, start_game


def _mails(db: Session) -> list[OutgoingMail]:
    db.expire_all()
    rows = list(db.scalars(select(OutgoingMail).order_by(OutgoingMail.id)))
    db.commit()
    return rows


def test_the_message_id_is_stored_before_the_first_attempt(
    db: Session, run_mail: RunMail, sink: Sink, mail_settings: Settings, sessions: sessionmaker[Session]
) -> None:
    from app.services.mail import dispatch
    from app.web.emails import EmailRenderer

    start_game(db, [make_user(db, "Alice"), make_user(db, "Bruno")])
    dispatch.dispatch_notifications(sessions, mail_settings, EmailRenderer(), NOW)
    queued = _mails(db)
    assert len(queued) == 4 and all(row.sent_at is None and row.attempts == 0 for row in queued)
    assert all(f"Message-ID: {row.message_id}" in row.raw for row in queued)
    run_mail()
    assert sorted(str(m["Message-ID"]) for m in sink.messages) == sorted(row.message_id for row in queued)
    assert all(row.sent_at == NOW and row.attempts == 1 for row in _mails(db))


@pytest.fixture
def down_settings(mail_settings: Settings) -> Settings:
    """SMTP at an address where nothing listens."""
    return mail_settings.model_copy(
        update={
            "smtp_url": f"smtp://127.0.0.1:{free_port()}",
            "mail_max_attempts": 3,
            "mail_retry_seconds": 60,
        }
    )


def test_a_server_that_is_down_means_retries_with_back_off_then_a_dead_mail(
    db: Session, run_mail: RunMail, down_settings: Settings
) -> None:
    from app.services.mail import account_mail

    alice = make_user(db, "Alice")

    account_mail.request_password_reset(db, alice.email)
    run_mail(NOW, down_settings)
    (row,) = _mails(db)
    assert (row.attempts, row.next_attempt_at, row.sent_at) == (1, NOW + timedelta(seconds=60), None)
    assert row.last_error is not None and "cannot connect" in row.last_error
    run_mail(NOW + timedelta(seconds=59), down_settings)
    assert _mails(db)[0].attempts == 1  # not due yet
    run_mail(NOW + timedelta(seconds=60), down_settings)
    (row,) = _mails(db)
    assert (row.attempts, row.next_attempt_at) == (2, NOW + timedelta(seconds=180))  # doubled: 120 s
    run_mail(NOW + timedelta(seconds=180), down_settings)
    (row,) = _mails(db)
    assert row.attempts == 3 and row.dead_at == NOW + timedelta(seconds=180)


def test_dead_mails_are_shown_to_admins_who_may_retry_them(
    db: Session, run_mail: RunMail, down_settings: Settings, mail_app: Any, sink: Sink
) -> None:
    from app.services.mail import account_mail

    admin, alice = make_user(db, "Admin"), make_user(db, "Alice")
    admin.role = "admin"
    db.commit()
    account_mail.request_password_reset(db, alice.email)
    for seconds in (0, 60, 180):
        run_mail(NOW + timedelta(seconds=seconds), down_settings)
    (dead,) = _mails(db)
    with TestClient(mail_app) as client:
        log_in(client, alice)
        assert client.get("/admin/mail").status_code == 403
        log_in(client, admin)
        page = client.get("/admin/mail")
        assert page.status_code == 200 and "alice@example.com" in page.text and "cannot connect" in page.text
        token = str(client.headers["X-CSRF-Token"])
        assert client.post(f"/admin/mail/{dead.id}/retry", data={"csrf_token": token}).status_code == 200
    run_mail(datetime.now(UTC) + timedelta(seconds=1))  # the server is back (the retry is due at once)
    assert [m["X-Ostraca-Kind"] for m in sink.messages] == ["password_reset"]
    assert _mails(db)[0].sent_at is not None


class Refusing:
    """An SMTP server that refuses every recipient with `reply`."""

    def __init__(self, reply: str) -> None:
        self.reply = reply

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        return self.reply


@pytest.fixture
def refusing(request: pytest.FixtureRequest) -> Iterator[int]:
    port = free_port()
    controller = Controller(Refusing(request.param), hostname="127.0.0.1", port=port)
    controller.start()
    yield port
    controller.stop()


@pytest.mark.parametrize(
    ("refusing", "dead"),
    [("550 5.1.1 no such user", True), ("451 4.3.0 try later", False)],
    indirect=["refusing"],
)
def test_a_permanent_refusal_kills_a_mail_at_once_a_temporary_one_does_not(
    db: Session, run_mail: RunMail, mail_settings: Settings, refusing: int, dead: bool
) -> None:
    from app.services.mail import account_mail

    account_mail.request_password_reset(db, make_user(db, "Alice").email)
    run_mail(NOW, mail_settings.model_copy(update={"smtp_url": f"smtp://127.0.0.1:{refusing}"}))
    (row,) = _mails(db)
    assert (row.dead_at is not None) is dead and row.sent_at is None
    assert row.last_error is not None and ("550" in row.last_error or "451" in row.last_error)


def test_a_claimed_batch_is_not_claimed_again_until_its_lease_runs_out(
    db: Session, mail_settings: Settings, sessions: sessionmaker[Session]
) -> None:
    from app.services.mail import account_mail, dispatch
    from app.web.emails import EmailRenderer

    for name in ("Alice", "Bruno", "Chloe"):
        account_mail.request_password_reset(db, make_user(db, name).email)
    dispatch.dispatch_notifications(sessions, mail_settings, EmailRenderer(), NOW)
    first = mail.claim_mails(sessions, mail_settings, NOW)
    assert len(first) == 3
    assert mail.claim_mails(sessions, mail_settings, NOW + timedelta(seconds=10)) == []  # a worker has them
    lease = timedelta(seconds=mail_settings.mail_lease_seconds)
    again = mail.claim_mails(sessions, mail_settings, NOW + lease)  # that worker died: they come back
    assert [m.id for m in again] == [m.id for m in first] and {m.attempts for m in again} == {2}


def test_a_batch_stopped_early_releases_the_mails_it_did_not_try(
    db: Session, mail_settings: Settings, sessions: sessionmaker[Session]
) -> None:
    from app.services.mail import account_mail, dispatch
    from app.web.emails import EmailRenderer

    for name in ("Alice", "Bruno", "Chloe"):
        account_mail.request_password_reset(db, make_user(db, name).email)
    dispatch.dispatch_notifications(sessions, mail_settings, EmailRenderer(), NOW)

    class OneThenStop:
        def send_batch(self, mails: Any, on_result: Any) -> None:
            on_result(mails[0], None)

    assert mail.deliver_outbox(sessions, mail_settings, OneThenStop(), NOW) == 1
    rows = _mails(db)
    assert [row.sent_at is not None for row in rows] == [True, False, False]
    assert [(row.attempts, row.next_attempt_at) for row in rows[1:]] == [(0, NOW), (0, NOW)]


def test_without_smtp_mail_is_written_to_files_and_listed_in_development(
    db: Session, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    from app.services.mail import account_mail, mail_jobs
    from app.web.emails import EmailRenderer

    alice = make_user(db, "Alice")
    account_mail.request_password_reset(db, alice.email)
    assert settings.smtp_url == ""
    transport = mail.transport_for(settings)
    assert isinstance(transport, mail.FileTransport)
    report = mail_jobs.run_mail_once(sessions, settings, EmailRenderer(), transport, clock=lambda: NOW)
    assert report.delivered == 1
    (written,) = sorted(settings.mail_dir.glob("*.eml"))
    assert b"Subject: Reset your Ostraca password" in written.read_bytes()
    with TestClient(create_app(settings), client=("127.0.0.1", 50000)) as client:
        listing = client.get("/dev/mail")
        assert listing.status_code == 200 and "Reset your Ostraca password" in listing.text
        one = client.get(f"/dev/mail/{written.name}")
        assert one.status_code == 200 and "/password/reset/" in one.text
        assert client.get("/dev/mail/..%2Fostraca.sqlite3").status_code == 404
    production = settings.model_copy(update={"environment": "production", "secret_key": "x" * 40})
    with TestClient(create_app(production)) as client:
        assert client.get("/dev/mail").status_code == 404
        assert client.get(f"/dev/mail/{written.name}").status_code == 404


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtp://mail.example.com", ("mail.example.com", 25, None, None, False, None)),
        ("smtp://u%40x:p%3Aw@mail.example.com:587", ("mail.example.com", 587, "u@x", "p:w", False, None)),
        ("smtp://mail.example.com:587?starttls=required", ("mail.example.com", 587, None, None, False, True)),
        ("smtp://127.0.0.1:1025?starttls=no", ("127.0.0.1", 1025, None, None, False, False)),
        ("smtps://u:p@mail.example.com", ("mail.example.com", 465, "u", "p", True, None)),
    ],
)
def test_smtp_urls(url: str, expected: tuple[Any, ...]) -> None:
    config = mail.parse_smtp_url(url)
    assert (
        config.hostname,
        config.port,
        config.username,
        config.password,
        config.use_tls,
        config.start_tls,
    ) == expected


def test_a_bad_smtp_url_is_refused() -> None:
    with pytest.raises(ValueError):
        mail.parse_smtp_url("http://mail.example.com")
