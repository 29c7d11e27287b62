"""What the moderation notices say by mail: the sanction's reason and end, a game's hold, a report's
outcome (never the sanction), and the sign-up attempt on an address that has an account."""

from __future__ import annotations

from email import message_from_string, policy

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.models import OutgoingMail
from app.services.accounts import accounts
from app.services.mail import dispatch
from app.services.moderation import interventions, moderation, reports
from app.settings import Settings
from app.web.emails import EmailRenderer
from tests.conftest import PASSWORD
from tests.moderation.helpers import ban, make_user, make_users, now, running_game


def _mails(db: Session, sessions: sessionmaker[Session], settings: Settings) -> dict[str, list[str]]:
    """Every queued mail's text, by kind."""
    while dispatch.dispatch_notifications(sessions, settings, EmailRenderer(), now()):
        pass
    found: dict[str, list[str]] = {}
    for row in db.scalars(select(OutgoingMail).order_by(OutgoingMail.id)):
        message = message_from_string(row.raw, policy=policy.default)
        body = message.get_body(preferencelist=("plain",))
        assert body is not None
        found.setdefault(row.kind, []).append(f"{message['Subject']}\n{body.get_content()}")
    db.commit()
    return found


def test_moderation_notices_by_mail(db: Session, sessions: sessionmaker[Session], settings: Settings) -> None:
    mod = make_user(db, "Mod", "moderator")
    ann, ben, eve = make_users(db, "Ann", "Ben", "Eve")
    game = running_game(db, [ann, ben, eve])
    report = reports.file_report(
        db, ann, reports.ReportDraft(kind="player", reason="cheating", player="Eve"), now()
    )
    ban(db, mod, eve, hours=None, reason="Two accounts in one game")
    reports.resolve(db, mod, report.id, "action_taken", "banned for good", now())
    interventions.hold(db, mod, game.id, "locked", "Looking into it", now())
    accounts.request_sign_up(
        db, email="ann@example.com", password=PASSWORD, display_name="Other Ann", now=now()
    )
    mails = _mails(db, sessions, settings)
    banned = mails["sanctioned"][0]
    assert "Your Ostraca account is banned" in banned and "Two accounts in one game" in banned
    assert "Permanently." in banned
    outcome = mails["report_closed"][0]
    assert "A moderator took action" in outcome and "Two accounts" not in outcome and "banned" not in outcome
    assert any("Looking into it" in text for text in mails["game_held"])
    assert any("seat" in text for text in mails["player_removed"])
    assert "already have one" in mails["signup_attempt"][0]


def test_a_temporary_mute_says_until_when(
    db: Session, sessions: sessionmaker[Session], settings: Settings
) -> None:
    mod, eve = make_user(db, "Mod", "moderator"), make_user(db, "Eve")
    moderation.impose(db, mod, eve.id, moderation.SanctionOrder("mute", 48, "Spam"), now())
    text = _mails(db, sessions, settings)["sanctioned"][0]
    assert "You are muted" in text and "Until:" in text and "Permanently" not in text
