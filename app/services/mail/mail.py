"""The e-mail outbox: rendered mails wait in `outgoing_mails` and a job delivers them.

Exactly once across processes: a worker claims due mails with `FOR UPDATE SKIP LOCKED` (a no-op on
SQLite, whose single writer serialises the claims) and pushes their `next_attempt_at` forward by a lease,
then commits, sends, and marks each mail sent as soon as the server accepts it (`SentMarks`: one
prepared statement on a connection held for the batch, its commits not waiting for their WAL flush);
refusals and untried mails are recorded once per batch. A worker that dies leaves its unsent mails to be
claimed again when the lease runs out. The Message-ID is fixed when the mail is queued, so the one mail
that may be in flight when a worker dies is recognisable if it arrives twice.

Failures back off exponentially; after `mail_max_attempts` claims, or at once on a permanent (5xx)
refusal, a mail is marked dead and listed for the administrators.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from email import quoprimime
from email.utils import format_datetime, parseaddr
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib
from sqlalchemy import ColumnElement, Connection, Engine, bindparam, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from app.db import transaction
from app.models import OutgoingMail
from app.settings import Settings

log = logging.getLogger(__name__)
MAX_RETRY_DELAY = timedelta(hours=6)
CRLF = "\r\n"
MAX_LINE = 998  # RFC 5322; long enough that a List-Unsubscribe URL is never folded
ENCODED_WORD_BYTES = 39  # 52 characters of base64: a line of "Subject: " and one word is within 76
QP_LINE = 76  # RFC 2045
SPECIALS = frozenset('()<>@,;:\\".[]')


@dataclass(frozen=True)
class RenderedMail:
    subject: str
    text: str
    html: str
    language: str


@dataclass(frozen=True)
class Envelope:
    """Who gets a mail and how they leave its list (RFC 8058)."""

    to_name: str
    to_address: str
    unsubscribe_url: str
    list_name: str


def domain_of(settings: Settings) -> str:
    address = parseaddr(settings.mail_from)[1]
    return address.rpartition("@")[2] or "ostraca.invalid"


def new_message_id(settings: Settings) -> str:
    return f"<{uuid.uuid4().hex}@{domain_of(settings)}>"


def compose(
    settings: Settings, envelope: Envelope, mail: RenderedMail, message_id: str, kind: str, now: datetime
) -> str:
    """The mail as it goes on the wire: CRLF, ASCII only, a text and an HTML alternative.

    Written out directly rather than through `email.message.EmailMessage`, whose header registry parses
    every header when it is set and again when it is folded (about 3 ms a mail, most of composing one)."""
    boundary = f"=_{uuid.uuid4().hex}"  # "=_" never occurs in a quoted-printable body
    headers = [
        f"From: {_sender(settings.mail_from)}",
        f"To: {address_header(envelope.to_name, envelope.to_address)}",
        f"Subject: {unstructured_header(mail.subject, len('Subject: '))}",
        f"Date: {format_datetime(now)}",
        f"Message-ID: {message_id}",
        f"List-Id: <{envelope.list_name.replace('_', '-')}.{domain_of(settings)}>",
        f"List-Unsubscribe: <{_single_line(envelope.unsubscribe_url)}>",
        "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
        "Auto-Submitted: auto-generated",
        f"X-Ostraca-Kind: {_single_line(kind)}",
        "MIME-Version: 1.0",
        f'Content-Type: multipart/alternative; boundary="{boundary}"',
        f"Content-Language: {_single_line(mail.language)}",
    ]
    parts = [_text_part("plain", mail.text), _text_part("html", mail.html)]
    body = "".join(f"--{boundary}{CRLF}{part}{CRLF}" for part in parts)
    return f"{CRLF.join(headers)}{CRLF}{CRLF}{body}--{boundary}--{CRLF}"


def _single_line(value: str) -> str:
    """No CR or LF in a header: they would start a header of their own."""
    return " ".join(value.splitlines()) if "\r" in value or "\n" in value else value


def encoded_words(value: str) -> str:
    """RFC 2047 base64 words of UTF-8, a character never split between two words, one word a line."""
    words: list[str] = []
    chunk: list[str] = []
    size = 0
    for character in value:
        length = len(character.encode())
        if size + length > ENCODED_WORD_BYTES:
            words.append("".join(chunk))
            chunk, size = [], 0
        chunk.append(character)
        size += length
    words.append("".join(chunk))
    encoded = (base64.b64encode(word.encode()).decode("ascii") for word in words)
    return f"{CRLF} ".join(f"=?utf-8?b?{word}?=" for word in encoded)


def unstructured_header(value: str, prefix: int) -> str:
    """As is when it is plain ASCII that fits on its line; else encoded words."""
    value = _single_line(value)
    if value.isascii() and "=?" not in value and prefix + len(value) <= MAX_LINE:
        return value
    return encoded_words(value)


def address_header(name: str, address: str) -> str:
    """`Name <address>`: a name with specials quoted, a name outside ASCII in encoded words."""
    if not address.isascii():  # as the standard library refuses it: no SMTPUTF8 on our wire
        raise ValueError(f"a mail address outside ASCII cannot be sent: {address!r}")
    name = _single_line(name).strip()
    if not name:
        return address
    if not name.isascii() or "=?" in name:
        return f"{encoded_words(name)} <{address}>"
    if SPECIALS.intersection(name):
        escaped = name.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}" <{address}>'
    return f"{name} <{address}>"


@functools.lru_cache(maxsize=8)
def _sender(mail_from: str) -> str:
    name, address = parseaddr(mail_from)
    return address_header(name, address or mail_from)


def _text_part(subtype: str, text: str) -> str:
    """One alternative: 7bit when it is ASCII in short lines, else quoted-printable UTF-8."""
    lines = text.splitlines()
    if text.isascii() and all(len(line) <= MAX_LINE for line in lines):
        encoding, payload = "7bit", "".join(f"{line}{CRLF}" for line in lines)
    else:
        utf8 = "\n".join(lines).encode().decode("latin-1")  # quoprimime encodes bytes given as latin-1
        payload = quoprimime.body_encode(utf8, QP_LINE, eol=CRLF) + CRLF
        encoding = "quoted-printable"
    return (
        f'Content-Type: text/{subtype}; charset="utf-8"{CRLF}'
        f"Content-Transfer-Encoding: {encoding}{CRLF}{CRLF}{payload}"
    )


def enqueue(
    session: Session,
    settings: Settings,
    *,
    envelope: Envelope,
    mail: RenderedMail,
    kind: str,
    user_id: int | None,
    game_id: int | None,
    now: datetime,
) -> OutgoingMail:
    """Queue one mail inside the caller's transaction; its Message-ID is fixed here, before any attempt."""
    message_id = new_message_id(settings)
    raw = compose(settings, envelope, mail, message_id, kind, now)
    row = OutgoingMail(
        user_id=user_id,
        game_id=game_id,
        kind=kind,
        to_address=envelope.to_address,
        subject=mail.subject[:255],
        message_id=message_id,
        raw=raw,
        created_at=now,
        attempts=0,
        next_attempt_at=now,
    )
    session.add(row)
    return row


# --- transports -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claimed:
    id: int
    to_address: str
    raw: str
    attempts: int


@dataclass(frozen=True)
class SendError:
    message: str
    permanent: bool = False


# Called after each mail with its outcome (None: accepted); returns False when the batch should stop.
OnResult = Callable[[Claimed, SendError | None], bool]


class Transport(Protocol):
    def send_batch(self, mails: Sequence[Claimed], on_result: OnResult) -> None: ...


@dataclass(frozen=True)
class SmtpConfig:
    hostname: str
    port: int
    username: str | None
    password: str | None
    use_tls: bool
    start_tls: bool | None


def parse_smtp_url(url: str) -> SmtpConfig:
    """smtp://user:pass@host:port (STARTTLS when offered), smtp://…?starttls=required, smtps:// (TLS)."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("SMTP_URL must look like smtp://user:pass@host:port")
    query = parse_qs(parts.query)
    starttls = (query.get("starttls") or ["auto"])[0]
    return SmtpConfig(
        hostname=parts.hostname,
        port=parts.port or (465 if parts.scheme == "smtps" else 25),
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
        use_tls=parts.scheme == "smtps",
        start_tls={"required": True, "no": False}.get(starttls),
    )


class SmtpTransport:
    """One SMTP connection per batch; each accepted mail is reported at once."""

    def __init__(self, settings: Settings) -> None:
        self.config = parse_smtp_url(settings.smtp_url)
        self.sender = parseaddr(settings.mail_from)[1]
        self.timeout = settings.smtp_timeout_seconds

    def send_batch(self, mails: Sequence[Claimed], on_result: OnResult) -> None:
        """Runs its own event loop; in a thread of its own if this thread already runs one."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(self._send_batch(mails, on_result))
            return
        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(asyncio.run, self._send_batch(mails, on_result)).result()

    async def _send_batch(self, mails: Sequence[Claimed], on_result: OnResult) -> None:
        config = self.config
        client = aiosmtplib.SMTP(
            hostname=config.hostname,
            port=config.port,
            username=config.username,
            password=config.password,
            use_tls=config.use_tls,
            start_tls=config.start_tls,
            timeout=self.timeout,
        )
        try:
            await client.connect()
        except (aiosmtplib.SMTPException, OSError) as error:
            for mail in mails:  # every claimed mail had its attempt; they all back off
                on_result(mail, SendError(f"cannot connect: {error}"))
            return
        try:
            await self._send_each(client, mails, on_result)
        finally:
            if client.is_connected:
                try:
                    await client.quit()
                except (aiosmtplib.SMTPException, OSError):
                    client.close()

    async def _send_each(
        self, client: aiosmtplib.SMTP, mails: Sequence[Claimed], on_result: OnResult
    ) -> None:
        for index, mail in enumerate(mails):
            error = await self._send_one(client, mail)
            if not on_result(mail, error):
                return
            if error is not None and not client.is_connected:
                for rest in mails[index + 1 :]:
                    on_result(rest, SendError("connection lost earlier in the batch"))
                return

    async def _send_one(self, client: aiosmtplib.SMTP, mail: Claimed) -> SendError | None:
        try:
            await client.sendmail(self.sender, [mail.to_address], mail.raw.encode("ascii"))
        except aiosmtplib.SMTPRecipientsRefused as error:
            return SendError(f"refused: {error.recipients}"[:500], permanent=_permanent(error.recipients))
        except aiosmtplib.SMTPResponseException as error:
            return SendError(f"{error.code} {error.message}"[:500], permanent=error.code >= 500)
        except (aiosmtplib.SMTPException, OSError) as error:
            return SendError(f"{type(error).__name__}: {error}"[:500])
        return None


def _permanent(refusals: Sequence[aiosmtplib.SMTPRecipientRefused]) -> bool:
    return all(refusal.code >= 500 for refusal in refusals)


class FileTransport:
    """Development without SMTP: each mail becomes `<mail_dir>/<id>.eml` (rewriting it is harmless)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def send_batch(self, mails: Sequence[Claimed], on_result: OnResult) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for mail in mails:
            target = self.directory / f"{mail.id:08d}.eml"
            partial = target.with_suffix(".part")
            partial.write_bytes(mail.raw.encode("ascii"))
            partial.replace(target)
            if not on_result(mail, None):
                return


def transport_for(settings: Settings) -> Transport:
    return SmtpTransport(settings) if settings.smtp_url else FileTransport(settings.mail_dir)


# --- delivery ---------------------------------------------------------------------------------------------


def deliver_outbox(
    sessions: sessionmaker[Session], settings: Settings, transport: Transport, now: datetime
) -> int:
    """Claim one batch of due mails, send it, record each outcome. Returns how many were accepted."""
    claimed = claim_mails(sessions, settings, now)
    if not claimed:
        return 0
    started = time.monotonic()
    pending = {mail.id for mail in claimed}
    failures: list[tuple[Claimed, SendError]] = []
    with SentMarks(sessions, now) as marks:

        def on_result(mail: Claimed, error: SendError | None) -> bool:
            pending.discard(mail.id)
            if error is None:
                marks.mark(mail.id)
            else:
                failures.append((mail, error))
            return time.monotonic() - started < settings.mail_lease_seconds / 2

        transport.send_batch(claimed, on_result)
    record_failures(sessions, settings, failures, pending, now)
    return marks.accepted


MARK_SENT = (
    update(OutgoingMail)
    .where(OutgoingMail.id == bindparam("mail_id"), OutgoingMail.sent_at.is_(None))
    .values(sent_at=bindparam("now"), last_error=None)
)


class SentMarks:
    """Each accepted mail marked sent as soon as the server accepts it, so that a worker killed later in
    the batch sends it no second time: one prepared UPDATE on one connection held for the batch.

    On Postgres these commits do not wait for their WAL flush (`synchronous_commit` off, on this
    connection and for the batch only): a mark is visible to every worker at once and Postgres's WAL
    writer makes the marks durable in groups, a fraction of a second later. Only a crash of Postgres
    itself inside that fraction can lose a mark; its mail is then sent again, with its Message-ID."""

    def __init__(self, sessions: sessionmaker[Session], now: datetime) -> None:
        with sessions() as session:
            bind = session.get_bind()
        self.engine = bind if isinstance(bind, Engine) else bind.engine
        self.now = now
        self.accepted = 0
        self.connection: Connection | None = None

    def __enter__(self) -> SentMarks:
        self.connection = self.engine.connect()
        self.postgres = self.connection.dialect.name == "postgresql"
        if self.postgres:
            self.connection.exec_driver_sql("SET synchronous_commit = off")
            self.connection.commit()
        return self

    def mark(self, mail_id: int) -> None:
        assert self.connection is not None
        result = self.connection.execute(MARK_SENT, {"mail_id": mail_id, "now": self.now})
        self.connection.commit()
        self.accepted += int(getattr(result, "rowcount", 0) or 0)

    def __exit__(self, *error: object) -> None:
        assert self.connection is not None
        try:
            if self.postgres:  # the connection goes back to the pool as it came, or not at all
                self.connection.rollback()
                self.connection.exec_driver_sql("RESET synchronous_commit")
                self.connection.commit()
        except Exception:
            self.connection.invalidate()
            raise
        finally:
            self.connection.close()


def record_failures(
    sessions: sessionmaker[Session],
    settings: Settings,
    failures: Sequence[tuple[Claimed, SendError]],
    untried: set[int],
    now: datetime,
) -> None:
    """The batch's refusals and the mails it never tried, in one transaction: a refused mail backs off
    (or is dead), an untried one is due again at once. Were the worker killed before this, the leases
    would run out and the same mails be tried again, which is as safe."""
    if not failures and not untried:
        return
    with transaction(sessions) as session:
        for mail, error in failures:
            mark_failed(session, settings, mail, error, now)
        release(session, untried, now)


def claim_mails(sessions: sessionmaker[Session], settings: Settings, now: datetime) -> list[Claimed]:
    lease = timedelta(seconds=settings.mail_lease_seconds)
    with transaction(sessions) as session:
        ids = list(
            session.scalars(
                select(OutgoingMail.id)
                .where(
                    OutgoingMail.sent_at.is_(None),
                    OutgoingMail.dead_at.is_(None),
                    OutgoingMail.next_attempt_at <= now,
                )
                .order_by(OutgoingMail.next_attempt_at, OutgoingMail.id)
                .limit(settings.mail_batch_size)
                .with_for_update(skip_locked=True)
            )
        )
        if not ids:
            return []
        session.execute(
            update(OutgoingMail)
            .where(OutgoingMail.id.in_(ids))
            .values(attempts=OutgoingMail.attempts + 1, next_attempt_at=now + lease)
        )
        rows = session.execute(
            select(OutgoingMail.id, OutgoingMail.to_address, OutgoingMail.raw, OutgoingMail.attempts)
            .where(OutgoingMail.id.in_(ids))
            .order_by(OutgoingMail.id)
        )
        return [Claimed(*row) for row in rows]


def retry_delay(settings: Settings, attempts: int) -> timedelta:
    delay = timedelta(seconds=settings.mail_retry_seconds * 2 ** max(attempts - 1, 0))
    return min(delay, MAX_RETRY_DELAY)


def mark_failed(session: Session, settings: Settings, mail: Claimed, error: SendError, now: datetime) -> None:
    dead = error.permanent or mail.attempts >= settings.mail_max_attempts
    values: dict[str, object] = {"last_error": error.message[:500]}
    if dead:
        values["dead_at"] = now
        log.warning("mail %s is dead after %s attempts: %s", mail.id, mail.attempts, error.message)
    else:
        values["next_attempt_at"] = now + retry_delay(settings, mail.attempts)
    session.execute(
        update(OutgoingMail).where(OutgoingMail.id == mail.id, OutgoingMail.sent_at.is_(None)).values(values)
    )


def release(session: Session, mail_ids: set[int], now: datetime) -> None:
    if not mail_ids:
        return
    session.execute(
        update(OutgoingMail)
        .where(OutgoingMail.id.in_(mail_ids), OutgoingMail.sent_at.is_(None))
        .values(attempts=OutgoingMail.attempts - 1, next_attempt_at=now)
    )


# --- administration ---------------------------------------------------------------------------------------


def dead_mails(session: Session, limit: int = 200) -> list[OutgoingMail]:
    query = select(OutgoingMail).where(OutgoingMail.dead_at.is_not(None)).order_by(OutgoingMail.id.desc())
    return list(session.scalars(query.limit(limit)))


def retry_dead(session: Session, mail_id: int, now: datetime) -> bool:
    """Give a dead mail a fresh set of attempts (an administrator fixed the cause)."""
    result = session.execute(
        update(OutgoingMail)
        .where(OutgoingMail.id == mail_id, OutgoingMail.dead_at.is_not(None), OutgoingMail.sent_at.is_(None))
        .values(dead_at=None, attempts=0, next_attempt_at=now)
    )
    session.commit()
    return bool(getattr(result, "rowcount", 0))


def outbox_counts(session: Session) -> dict[str, int]:
    def count(*conditions: ColumnElement[bool]) -> int:
        return session.scalar(select(func.count()).select_from(OutgoingMail).where(*conditions)) or 0

    return {
        "queued": count(OutgoingMail.sent_at.is_(None), OutgoingMail.dead_at.is_(None)),
        "sent": count(OutgoingMail.sent_at.is_not(None)),
        "dead": count(OutgoingMail.dead_at.is_not(None), OutgoingMail.sent_at.is_(None)),
    }
