"""The mail as written on the wire (`mail.compose`, without the standard library's header registry) reads
back, through that same library, as what was composed: names, subjects and bodies in and out of ASCII,
specials, long lines, and no header split by a line break smuggled into a value."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_string, policy
from email.message import EmailMessage

import pytest

from app.services.mail import mail
from app.settings import Settings

NOW = datetime(2026, 12, 2, 8, 30, tzinfo=UTC)
SETTINGS = Settings(mail_from="Ostraca Tables <noreply@games.example.com>", _env_file=None)
LONG_URL = "https://games.example.com/mail/unsubscribe/" + "t" * 400


def composed(name: str, subject: str, text: str, html: str, url: str = LONG_URL) -> tuple[str, EmailMessage]:
    envelope = mail.Envelope(name, "chloe@example.com", url, "your_turn")
    raw = mail.compose(SETTINGS, envelope, mail.RenderedMail(subject, text, html, "fr"), "<id@x>", "k", NOW)
    parsed = message_from_string(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return raw, parsed


def unix(text: str) -> str:
    return text.replace("\r\n", "\n")


CASES = [
    ("Alice", "Your turn in Dragons 12", "Hello Alice,\n\nplay.\n", "<p>Hello</p>"),
    ("Chloé Dupont", "C'est à vous : « Les Dragons » — partie 12", "Bonjour Chloé,\n\nà vous.", "<p>é</p>"),
    ('Bob "the Bold", Jr.', "Ünïcödé " * 30, "a line with trailing spaces   \nx=1 =?no?=\n", "<b>" * 400),
    ("東京 プレイヤー", "=?utf-8?q?not_an_encoded_word?=", "\n".join("ligne é" * 40 for _ in range(5)), ""),
]


@pytest.mark.parametrize(("name", "subject", "text", "html"), CASES)
def test_a_composed_mail_reads_back_as_composed(name: str, subject: str, text: str, html: str) -> None:
    raw, message = composed(name, subject, text, html)
    assert raw.isascii() and "\r\n" in raw and "\n" not in raw.replace("\r\n", "")
    assert max(len(line) for line in raw.split("\r\n")) <= 998
    assert message["To"].addresses[0].display_name == name
    assert message["To"].addresses[0].addr_spec == "chloe@example.com"
    assert str(message["Subject"]) == subject
    assert message["From"].addresses[0].display_name == "Ostraca Tables"
    assert message["Date"].datetime == NOW
    assert message["List-Unsubscribe"] == f"<{LONG_URL}>"  # never folded: clients would not read it
    assert message["Message-ID"] == "<id@x>" and message["X-Ostraca-Kind"] == "k"
    assert message["Content-Language"] == "fr"
    assert message["List-Id"] == "<your-turn.games.example.com>"
    assert message.get_content_type() == "multipart/alternative" and not message.defects
    plain, rich = message.get_body(("plain",)), message.get_body(("html",))
    assert plain is not None and rich is not None
    assert unix(plain.get_content()) == "".join(f"{line}\n" for line in text.splitlines())
    assert unix(rich.get_content()) == "".join(f"{line}\n" for line in html.splitlines())
    header_block = raw.split("\r\n\r\n", 1)[0]
    assert all(len(line) <= 76 for line in header_block.split("\r\n") if "=?utf-8?b?" in line)


def test_a_line_break_in_a_value_never_starts_a_header_of_its_own() -> None:
    raw, message = composed("Eve\r\nBcc: victim@example.com", "Hi\nBcc: victim@example.com", "x", "y")
    assert message["Bcc"] is None and "\r\nBcc:" not in raw
    assert str(message["Subject"]) == "Hi Bcc: victim@example.com"


def test_an_address_outside_ascii_is_refused_as_before() -> None:
    envelope = mail.Envelope("C", "chloé@exämple.com", LONG_URL, "your_turn")
    with pytest.raises(ValueError, match="outside ASCII"):
        mail.compose(SETTINGS, envelope, mail.RenderedMail("s", "t", "h", "en"), "<id@x>", "k", NOW)
