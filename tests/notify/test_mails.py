"""Every kind of mail, in English and in French, through a real SMTP server: structure, link, headers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from app.models import GameEvent, Notification, OutgoingMail, Seat, SeatTenure, User
from app.services.accounts import accounts, tokens
from app.services.mail import account_mail, notify
from app.services.play import play
from app.services.players import friends
from app.services.social import lobby, messages, queue
from app.settings import Settings
from tests.conftest import NOW
from tests.notify.conftest import RunMail, Sink, html_of, make_user, seat_of, start_game, text_of

BASE = "https://games.example.com"


@dataclass(frozen=True)
class Case:
    recipient: User
    link: str  # a path (and anchor) the mail must link to
    mail_list: str  # what its unsubscribe link names
    when: timedelta = timedelta(0)  # run the mail job this long after NOW


def _all_immediate(db: Session, *users: User) -> None:
    for user in users:
        modes = dict.fromkeys(notify.CHOOSABLE, "immediate")
        notify.save_preferences(db, user, notify.Preferences(modes, "", "", 8, True))


def _players(db: Session, language: str, count: int = 2) -> list[User]:
    users = [make_user(db, name, language) for name in ("Alice", "Bruno", "Chloe", "David")[:count]]
    _all_immediate(db, *users)
    return users


def your_turn(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    return Case(alice, f"/games/{game.id}?play=1#game-orders", "your_turn")


def deadline_warning(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    data = {"seat": seat_of(game, alice), "phase": "pick"}
    db.add(Notification(user_id=alice.id, game_id=game.id, kind="deadline_warning", data=data))
    db.commit()
    return Case(alice, f"/games/{game.id}?play=1#game-orders", "deadline_warning", timedelta(hours=20))


def game_started(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    return Case(bruno, f"/games/{game.id}", "game_started")


def player_joined(db: Session, language: str) -> Case:
    alice, bruno, _ = _players(db, language, 3)
    game = lobby.create_game(db, alice, game_type="fake", players=3, time_limit_hours=24, now=NOW)
    lobby.join_game(db, bruno, game.id, NOW)
    return Case(alice, f"/games/{game.id}", "player_joined")


def player_quit(db: Session, language: str) -> Case:
    alice, bruno, _ = _players(db, language, 3)
    game = lobby.create_game(db, alice, game_type="fake", players=3, time_limit_hours=24, now=NOW)
    lobby.join_game(db, bruno, game.id, NOW)
    lobby.leave_game(db, bruno, game.id)
    return Case(alice, f"/games/{game.id}", "player_quit")


def _open_seat(db: Session, user: User, game_id: int) -> int:
    """What eviction or quitting does to a seat: the tenure ends, the seat is open."""
    seat = db.scalar(select(Seat).where(Seat.game_id == game_id, Seat.user_id == user.id))
    assert seat is not None and seat.number is not None
    tenure = db.scalar(select(SeatTenure).where(SeatTenure.seat_id == seat.id))
    assert tenure is not None
    tenure.ended_at, tenure.end_reason = NOW, "evicted"
    seat.user_id, seat.status = None, "open"
    db.flush()
    return seat.number


def player_evicted(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    number = _open_seat(db, bruno, game.id)
    db.add(Notification(user_id=alice.id, game_id=game.id, kind="player_evicted", data={"seat": number}))
    db.commit()
    return Case(alice, f"/games/{game.id}", "player_evicted")


def evicted(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    number = _open_seat(db, bruno, game.id)
    db.add(Notification(user_id=bruno.id, game_id=game.id, kind="evicted", data={"seat": number}))
    db.commit()
    return Case(bruno, f"/games/{game.id}", "evicted")


def seat_offered(db: Session, language: str) -> Case:
    alice, bruno, chloe = _players(db, language, 3)
    game = start_game(db, [alice, bruno])
    number = _open_seat(db, bruno, game.id)
    seat = db.scalar(select(Seat).where(Seat.game_id == game.id, Seat.number == number))
    assert seat is not None
    seat.offered_to, seat.offered_until = chloe.id, NOW + timedelta(hours=48)
    data = {"seat": number, "from": "Bruno"}
    db.add(Notification(user_id=chloe.id, game_id=game.id, kind="seat_offered", data=data))
    db.commit()
    return Case(chloe, f"/games/{game.id}", "seat_offered")


def queue_placed(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    for user in (alice, bruno):
        placed = queue.enter(db, user, "fake", queue.QueuePreferences(), NOW)
    return Case(bruno, f"/games/{placed[0].game_id}", "queue_placed")


def game_invitation(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    friends.add_friend(db, alice, "Bruno", NOW)
    game = lobby.create_game(
        db, alice, game_type="fake", players=3, time_limit_hours=24, friends_invited=["Bruno"], now=NOW
    )
    return Case(bruno, f"/games/{game.id}", "game_invitation")


def _pause(kind: str) -> Callable[[Session, str], Case]:
    def make(db: Session, language: str) -> Case:
        alice, bruno = _players(db, language)
        game = start_game(db, [alice, bruno])
        data = {
            "user_id": bruno.id,
            "first_day": "2026-12-01",
            "last_day": "2026-12-03",
            "reason": "a wedding",
        }
        db.add(Notification(user_id=alice.id, game_id=game.id, kind=kind, data=data))
        db.commit()
        return Case(alice, f"/games/{game.id}", kind)

    return make


def game_over(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = lobby.create_game(
        db, alice, game_type="fake", players=2, time_limit_hours=24, options={"target": 3}, now=NOW
    )
    lobby.join_game(db, bruno, game.id, NOW)
    for user in (alice, bruno):
        play.submit(db, user, game.id, {"type": "pick", "value": 3}, game.version, NOW)
    chooser = next(u for u in (alice, bruno) if play.game_view(db, game.id, u).my_wait is not None)
    play.submit(db, chooser, game.id, {"type": "choose", "take": True}, game.version, NOW)
    assert game.status == "finished"
    return Case(alice, f"/games/{game.id}", "game_over")


def private_message(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    to = [seat_of(game, bruno)]
    messages.post(db, alice, game.id, "Shall we share the Nile?", to_seats=to, now=NOW, per_minute=9)
    return Case(bruno, f"/games/{game.id}#game-messages", "private_message")


def board_post(db: Session, language: str) -> Case:
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    messages.post(db, alice, game.id, "Good luck, everyone!", now=NOW, per_minute=9)
    return Case(bruno, f"/games/{game.id}#game-messages", "board_post")


def _news(kind: str) -> Callable[[Session, str], Case]:
    return lambda db, language: game_news(db, language, kind)


def game_news(db: Session, language: str, kind: str = "game_news") -> Case:
    """An event worth a mail, as `play.notify_news` points at it: the order that made it, its place (each
    kind of news alike: a trade announced, a calamity that strikes, a city lost)."""
    alice, bruno = _players(db, language)
    game = start_game(db, [alice, bruno])
    last = db.scalar(select(func.max(GameEvent.seq)).where(GameEvent.game_id == game.id)) or 0
    order_seq = game.version + 1  # no event of the game has this order number yet
    data = {"seat": seat_of(game, alice), "value": 3}
    event = GameEvent(
        game_id=game.id, seq=last + 1, order_seq=order_seq, kind="picked", data=data, created_at=NOW
    )
    db.add(event)
    news = {"order_seq": order_seq, "index": 1, "kind": "picked"}
    db.add(Notification(user_id=bruno.id, game_id=game.id, kind=kind, data=news))
    db.commit()
    return Case(bruno, f"/games/{game.id}", kind)


def verify_email(db: Session, language: str) -> Case:
    (alice,) = _players(db, language, 1)
    accounts.queue_address_check(db, alice)
    db.commit()
    return Case(alice, "/account/verify/", "all")


def password_reset(db: Session, language: str) -> Case:
    (alice,) = _players(db, language, 1)
    account_mail.request_password_reset(db, "ALICE@example.com ")
    return Case(alice, "/password/reset/", "all")


SCENARIOS: dict[str, Callable[[Session, str], Case]] = {
    "your_turn": your_turn,
    "deadline_warning": deadline_warning,
    "game_started": game_started,
    "player_joined": player_joined,
    "player_quit": player_quit,
    "player_evicted": player_evicted,
    "evicted": evicted,
    "seat_offered": seat_offered,
    "queue_placed": queue_placed,
    "game_invitation": game_invitation,
    "pause_requested": _pause("pause_requested"),
    "pause_removed": _pause("pause_removed"),
    "game_over": game_over,
    "private_message": private_message,
    "board_post": board_post,
    "game_news": game_news,
    "calamity_news": _news("calamity_news"),
    "city_news": _news("city_news"),
    "verify_email": verify_email,
    "password_reset": password_reset,
}


def test_every_kind_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(notify.KINDS)


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("kind", list(SCENARIOS))
def test_each_kind_of_mail(
    kind: str, language: str, db: Session, run_mail: RunMail, sink: Sink, mail_settings: Settings
) -> None:
    case = SCENARIOS[kind](db, language)
    run_mail(NOW + case.when)
    mails = [m for m in sink.to(case.recipient.email) if m["X-Ostraca-Kind"] == kind]
    assert len(mails) == 1, [m["Subject"] for m in sink.to(case.recipient.email)]
    message = mails[0]
    text, html = text_of(message), html_of(message)

    assert message.get_content_type() == "multipart/alternative"
    assert message["Content-Language"] == language
    assert f'<html lang="{language}">' in html
    assert message["Subject"] and "\n" not in message["Subject"]
    assert f"{BASE}{case.link}" in text and f'href="{BASE}{case.link}' in html
    assert case.recipient.display_name in text

    stored = db.scalar(select(OutgoingMail).where(OutgoingMail.message_id == message["Message-ID"]))
    assert stored is not None and stored.sent_at is not None and stored.user_id == case.recipient.id

    unsubscribe = message["List-Unsubscribe"]
    assert unsubscribe.startswith(f"<{BASE}/unsubscribe/") and unsubscribe.endswith(">")
    token = unsubscribe[len(f"<{BASE}/unsubscribe/") : -1]
    assert tokens.read_unsubscribe_token(mail_settings.secret_key, token) == (
        case.recipient.id,
        case.mail_list,
    )
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_language_changes_dates_and_headers(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice", "en"), make_user(db, "Bruno", "fr", "Europe/Paris")
    start_game(db, [alice, bruno])
    run_mail()
    english = next(m for m in sink.to(alice.email) if m["X-Ostraca-Kind"] == "your_turn")
    french = next(m for m in sink.to(bruno.email) if m["X-Ostraca-Kind"] == "your_turn")
    assert "Tue 1 Dec 2026, 12:00 UTC" in text_of(english)
    assert "mar. 1 déc. 2026, 13:00 CET" in text_of(french)
    assert (english["Content-Language"], french["Content-Language"]) == ("en", "fr")


def test_your_turn_says_the_default_and_what_happened(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    notify.save_preferences(db, alice, notify.Preferences({}, "", "", 8, True))
    game = start_game(db, [alice, bruno])
    run_mail()
    sink.clear()
    for user in (alice, bruno):
        play.submit(
            db, user, game.id, {"type": "pick", "value": 2 if user is alice else 1}, game.version, NOW
        )
    run_mail(NOW + timedelta(minutes=5))
    turn = [m for m in sink.to(alice.email) if m["X-Ostraca-Kind"] == "your_turn"]
    assert len(turn) == 1
    text = text_of(turn[0])
    assert "server plays for you: choose — take: False" in text
    picks = [2, 1] if seat_of(game, alice) == 0 else [1, 2]
    since = f"- picked — seat: {seat_of(game, bruno)}\r\n- revealed — picks: {picks}"
    assert since in text  # what happened since her pick
    assert "my_pick" not in text  # Bruno's secret pick event is his alone


def test_a_game_footer_shows_only_the_public_view(
    db: Session, mail_settings: Settings, sessions: sessionmaker[Session], sink: Sink
) -> None:
    from jinja2 import ChoiceLoader, DictLoader

    from app.services.mail import mail_jobs
    from app.services.mail.mail import SmtpTransport
    from app.web.emails import EmailRenderer, make_environment

    env = make_environment()
    footer = {
        "emails/footers/fake.txt": "Public scores: {{ footer.view.scores|join(' / ') }}",
        "emails/footers/fake.html": "<p>Public scores: {{ footer.view.scores|join(' / ') }}</p>",
    }
    assert env.loader is not None
    env.loader = ChoiceLoader([DictLoader(footer), env.loader])
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    start_game(db, [alice, bruno])
    mail_jobs.run_mail_once(
        sessions,
        mail_settings,
        EmailRenderer(env),
        SmtpTransport(mail_settings),
        clock=lambda: NOW,
    )
    turn = next(m for m in sink.to(alice.email) if m["X-Ostraca-Kind"] == "your_turn")
    assert "Public scores: 0 / 0" in text_of(turn) and "<p>Public scores: 0 / 0</p>" in html_of(turn)


def test_platform_log_entries_read_as_on_the_page(db: Session, run_mail: RunMail, sink: Sink) -> None:
    from sqlalchemy import func

    from app.models import GameEvent

    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    game = start_game(db, [alice, bruno])
    last = db.scalar(select(func.max(GameEvent.seq)).where(GameEvent.game_id == game.id)) or 0
    data = {"seat": 1, "player": "Chloe"}
    db.add(GameEvent(game_id=game.id, seq=last + 1, kind="platform:seat_taken", data=data, created_at=NOW))
    db.commit()
    run_mail()
    turn = next(m for m in sink.to(alice.email) if m["X-Ostraca-Kind"] == "your_turn")
    assert "- Chloe takes over seat 2." in text_of(turn)


def test_a_private_message_mail_names_its_recipients_not_its_author(
    db: Session, run_mail: RunMail, sink: Sink
) -> None:
    alice, bruno, chloe = (make_user(db, name) for name in ("Alice", "Bruno", "Chloe"))
    game = start_game(db, [alice, bruno, chloe])
    to = [seat_of(game, bruno), seat_of(game, chloe)]
    messages.post(db, alice, game.id, "Shall we share the Nile?", to_seats=to, now=NOW, per_minute=9)
    run_mail()
    mail = next(m for m in sink.to(bruno.email) if m["X-Ostraca-Kind"] == "private_message")
    wrote = next(line for line in text_of(mail).splitlines() if "wrote to" in line)
    assert wrote.startswith("Alice wrote to ") and "Alice" not in wrote.removeprefix("Alice")
    assert "Bruno" in wrote and "Chloe" in wrote


@pytest.mark.parametrize(("language", "words"), [("en", "A moderator offers you"), ("fr", "Un modérateur")])
def test_a_moderators_offer_of_a_seat_says_who_offers_it(
    language: str, words: str, db: Session, run_mail: RunMail, sink: Sink
) -> None:
    case = seat_offered(db, language)
    row = db.scalar(select(Notification).where(Notification.kind == "seat_offered"))
    assert row is not None
    row.data = {"seat": row.data["seat"], "moderator": True}
    db.commit()
    run_mail(NOW)
    [mail] = [m for m in sink.to(case.recipient.email) if m["X-Ostraca-Kind"] == "seat_offered"]
    assert words in mail["Subject"] and words in text_of(mail) and "Bruno" not in text_of(mail)
