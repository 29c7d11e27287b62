"""Preferences: digests, off, quiet hours, coalescing of "your turn", looking at the game, one-click
unsubscribe and bounces."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import GamePresence, MailSettings, User
from app.services.accounts import accounts
from app.services.mail import account_mail, notify
from app.services.play import play
from app.settings import Settings
from tests.conftest import NOW
from tests.notify.conftest import (
    RunMail,
    Sink,
    log_in,
    make_user,
    notifications_of,
    seat_of,
    start_game,
    text_of,
)
from tests.web_views import hear_live, stop_clock


def _prefer(db: Session, user: User, modes: dict[str, str], **settings: Any) -> None:
    preferences = notify.Preferences(
        modes=modes,
        quiet_start=settings.get("quiet_start", ""),
        quiet_end=settings.get("quiet_end", ""),
        digest_hour=settings.get("digest_hour", 8),
        your_turn_always=settings.get("always", False),
    )
    notify.save_preferences(db, user, preferences)


def _kinds(sink: Sink, user: User) -> list[str]:
    return [str(message["X-Ostraca-Kind"]) for message in sink.to(user.email)]


# --- digests ------------------------------------------------------------------------------------------


def test_a_digest_groups_a_days_notifications_by_kind(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice = make_user(db, "Alice", zone="America/New_York")  # NOW, 12:00 UTC, is 07:00 in New York
    bruno, chloe = make_user(db, "Bruno"), make_user(db, "Chloe")
    _prefer(db, alice, {"game_started": "digest", "your_turn": "digest"}, digest_hour=8)
    first = start_game(db, [alice, bruno])
    second = start_game(db, [chloe, alice])
    run_mail()
    assert _kinds(sink, alice) == []
    own = db.get(MailSettings, alice.id)
    assert own is not None and own.next_digest_at == datetime(2026, 11, 30, 13, 0, tzinfo=UTC)

    play.submit(db, alice, first.id, {"type": "pick", "value": 2}, first.version, NOW)  # that turn is over
    run_mail(datetime(2026, 11, 30, 12, 59, tzinfo=UTC))
    assert _kinds(sink, alice) == []
    run_mail(datetime(2026, 11, 30, 13, 0, tzinfo=UTC))

    assert _kinds(sink, alice) == ["digest"]
    digest = sink.to(alice.email)[0]
    text = text_of(digest)
    assert digest["Subject"] == "Your Ostraca digest: 3 notifications"
    assert "/unsubscribe/" in digest["List-Unsubscribe"]
    assert text.index("== Your turn ==") < text.index("== Games started ==")
    turns = text[text.index("== Your turn ==") : text.index("== Games started ==")]
    assert f"/games/{second.id}?play=1#game-orders" in turns and f"/games/{first.id}?" not in turns
    started = text[text.index("== Games started ==") :]
    assert f"/games/{first.id}" in started and f"/games/{second.id}" in started
    assert {row.outcome for row in notifications_of(db, alice)} == {"digested", "stale"}


def test_the_next_digest_is_the_next_day(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice", zone="Europe/Paris"), make_user(db, "Bruno")
    _prefer(db, alice, {"game_started": "digest"}, digest_hour=9)  # 09:00 Paris = 08:00 UTC in winter
    start_game(db, [alice, bruno])
    run_mail()
    own = db.get(MailSettings, alice.id)
    assert own is not None and own.next_digest_at == datetime(2026, 12, 1, 8, 0, tzinfo=UTC)


def test_off_sends_nothing(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    _prefer(db, alice, {"game_started": "off", "your_turn": "off"})
    start_game(db, [alice, bruno])
    run_mail()
    assert _kinds(sink, alice) == []
    assert sorted(_kinds(sink, bruno)) == ["game_started", "your_turn"]
    assert {row.outcome for row in notifications_of(db, alice)} == {"off"}


def test_board_posts_are_opt_in(db: Session, run_mail: RunMail, sink: Sink) -> None:
    from app.services.social import messages

    alice, bruno, chloe = make_user(db, "Alice"), make_user(db, "Bruno"), make_user(db, "Chloe")
    _prefer(db, chloe, {"board_post": "immediate"})
    game = start_game(db, [alice, bruno, chloe])
    messages.post(db, alice, game.id, "Hello all", now=NOW, per_minute=9)
    run_mail()
    assert "board_post" not in _kinds(sink, bruno) and "board_post" in _kinds(sink, chloe)
    assert "board_post" not in _kinds(sink, alice)  # never to the author


# --- quiet hours ----------------------------------------------------------------------------------------


def test_quiet_hours_hold_mail_until_they_end_in_the_users_zone(
    db: Session, run_mail: RunMail, sink: Sink
) -> None:
    late = datetime(2026, 11, 30, 22, 30, tzinfo=UTC)  # 23:30 in Paris
    bruno, alice = make_user(db, "Bruno", zone="Europe/Paris"), make_user(db, "Alice")
    _prefer(db, bruno, {}, quiet_start="22:00", quiet_end="07:00")
    start_game(db, [alice, bruno], now=late)
    run_mail(late)
    assert _kinds(sink, bruno) == [] and sorted(_kinds(sink, alice)) == ["game_started", "your_turn"]
    wake = datetime(2026, 12, 1, 6, 0, tzinfo=UTC)  # 07:00 in Paris
    assert {row.due_at for row in notifications_of(db, bruno)} == {wake}
    run_mail(wake - timedelta(minutes=1))
    assert _kinds(sink, bruno) == []
    run_mail(wake)
    assert sorted(_kinds(sink, bruno)) == ["game_started", "your_turn"]


def test_account_mails_ignore_quiet_hours(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice = make_user(db, "Alice")
    _prefer(db, alice, {}, quiet_start="00:00", quiet_end="23:59")
    account_mail.request_password_reset(db, alice.email)
    run_mail()
    assert _kinds(sink, alice) == ["password_reset"]


# --- your turn: coalescing and looking -----------------------------------------------------------------


def test_your_turn_mails_are_coalesced_per_game(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    game = start_game(db, [alice, bruno])
    run_mail()
    for user in (alice, bruno):
        play.submit(db, user, game.id, {"type": "pick", "value": 2}, game.version, NOW)
    chooser = alice if seat_of(game, alice) == 0 else bruno
    run_mail(NOW + timedelta(minutes=10))
    held = notifications_of(db, chooser, "your_turn")[-1]
    assert held.outcome is None and held.due_at == NOW + timedelta(hours=3)
    play.submit(
        db, chooser, game.id, {"type": "choose", "take": True}, game.version, NOW + timedelta(hours=1)
    )
    run_mail(NOW + timedelta(hours=1))
    run_mail(NOW + timedelta(hours=3))
    for user in (alice, bruno):
        assert _kinds(sink, user).count("your_turn") == 2  # the first turn, then one three hours later
    assert notifications_of(db, chooser, "your_turn")[1].outcome == "stale"  # the "choose" turn was over


def test_no_your_turn_mail_while_looking_at_the_game(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    game = start_game(db, [alice, bruno])
    notify.mark_looking(db, alice.id, game.id, NOW - timedelta(seconds=30))
    run_mail()
    assert "your_turn" not in _kinds(sink, alice) and "your_turn" in _kinds(sink, bruno)
    assert notifications_of(db, alice, "your_turn")[0].outcome == "looking"


def test_always_overrides_looking_and_coalescing(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    _prefer(db, alice, {}, always=True)
    game = start_game(db, [alice, bruno])
    notify.mark_looking(db, alice.id, game.id, NOW)
    run_mail()
    for user in (alice, bruno):
        play.submit(
            db, user, game.id, {"type": "pick", "value": 3 if user is alice else 1}, game.version, NOW
        )
    run_mail(NOW + timedelta(minutes=1))
    assert _kinds(sink, alice).count("your_turn") == 2  # Alice picked highest: she chooses next


def test_the_game_page_and_its_fragment_record_presence(
    db: Session, mail_client: TestClient, run_mail: RunMail, sink: Sink
) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    game = start_game(db, [alice, bruno])
    log_in(mail_client, alice)
    assert mail_client.get(f"/games/{game.id}").status_code == 200
    assert notify.is_looking(db, alice.id, game.id, datetime.now(UTC))
    assert not notify.is_looking(db, alice.id, game.id, datetime.now(UTC) + timedelta(minutes=2))


def test_a_live_stream_records_presence_on_the_apps_clock(
    db: Session, mail_client: TestClient, run_mail: RunMail, sink: Sink
) -> None:
    """Not on the machine's: a stream read while the app's clock says otherwise would mark the player as
    looking in that clock's future, and hold back every mail until then."""
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    game = start_game(db, [alice, bruno])
    log_in(mail_client, alice)
    stop_clock(mail_client, NOW)
    db.commit()
    heard = hear_live(mail_client, f"/games/{game.id}/live?since={game.version - 1}", str(game.version))
    assert heard.status == 200 and [event["data"] for event in heard.events] == [str(game.version)]
    seen = db.scalar(select(GamePresence.seen_at).where(GamePresence.user_id == alice.id))
    assert seen is not None and NOW <= seen.replace(tzinfo=UTC) < NOW + timedelta(seconds=10)


# --- one-click unsubscribe ----------------------------------------------------------------------------


def _unsubscribe_url(sink: Sink, user: User, kind: str) -> str:
    message = next(m for m in sink.to(user.email) if m["X-Ostraca-Kind"] == kind)
    header = str(message["List-Unsubscribe"])
    return header.strip("<>").removeprefix("https://games.example.com")


def test_one_click_unsubscribe_works_without_cookies_or_csrf(
    db: Session, mail_app: Any, run_mail: RunMail, sink: Sink
) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    start_game(db, [alice, bruno])
    run_mail()
    url = _unsubscribe_url(sink, alice, "your_turn")
    with TestClient(mail_app, base_url="https://games.example.com") as stranger:  # no session, no token
        page = stranger.get(url)
        assert page.status_code == 200 and 'method="post"' in page.text
        assert notify.mode_of(db, alice.id, "your_turn") == "immediate"  # a GET changes nothing
        db.rollback()  # SQLite: let the server write
        done = stranger.post(url, content=b"List-Unsubscribe=One-Click", headers=_form)
        assert done.status_code == 200 and not done.history  # no redirect to a confirmation step
        assert stranger.post(url, content=b"List-Unsubscribe=One-Click", headers=_form).status_code == 200
    db.expire_all()
    assert notify.mode_of(db, alice.id, "your_turn") == "off"
    assert notify.mode_of(db, alice.id, "game_started") == "immediate"


_form = {"Content-Type": "application/x-www-form-urlencoded"}


def test_unsubscribing_from_the_digest_and_from_everything(
    db: Session, mail_client: TestClient, mail_settings: Settings
) -> None:
    from app.services.accounts import tokens

    alice = make_user(db, "Alice")
    alice_id = alice.id
    _prefer(db, alice, {"game_started": "digest", "pause_removed": "digest"})
    digest = tokens.unsubscribe_token(mail_settings.secret_key, alice_id, "digest")
    everything = tokens.unsubscribe_token(mail_settings.secret_key, alice_id, "all")
    assert mail_client.post(f"/unsubscribe/{digest}", headers=_form).status_code == 200
    modes = notify.modes_of(db, alice_id)
    db.rollback()  # SQLite: let the server write
    assert modes["game_started"] == modes["pause_removed"] == modes["player_joined"] == "off"
    assert modes["your_turn"] == "immediate"
    assert mail_client.post(f"/unsubscribe/{everything}", headers=_form).status_code == 200
    assert set(notify.modes_of(db, alice_id).values()) == {"off"}


def test_a_forged_unsubscribe_token_is_refused(db: Session, mail_client: TestClient) -> None:
    response = mail_client.post("/unsubscribe/WzEsImFsbCJd.forged", headers=_form)
    assert response.status_code == 400
    assert mail_client.get("/unsubscribe/nonsense").status_code == 400


# --- bounces ----------------------------------------------------------------------------------------------


def test_a_bounce_stops_game_mail_and_the_user_sees_it(
    db: Session, mail_settings: Settings, run_mail: RunMail, sink: Sink
) -> None:
    from app.main import create_app

    settings = mail_settings.model_copy(update={"bounce_secret": "s3cret"})
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno")
    with TestClient(create_app(settings), base_url="https://games.example.com") as client:
        body = {"email": "ALICE@example.com", "reason": "550 mailbox unavailable"}
        assert client.post("/hooks/bounce", json=body).status_code == 403
        assert client.post("/hooks/bounce", json=body, headers={"X-Bounce-Secret": "nope"}).status_code == 403
        answer = client.post("/hooks/bounce", json=body, headers={"X-Bounce-Secret": "s3cret"})
        assert answer.status_code == 200
        unknown = client.post(
            "/hooks/bounce", json={"email": "x@example.com"}, headers={"X-Bounce-Secret": "s3cret"}
        )
        assert unknown.json() == answer.json()  # no account enumeration
        log_in(client, alice)
        page = client.get("/account/notifications")
        assert "550 mailbox unavailable" in page.text and "bounces" in page.text
    start_game(db, [alice, bruno])
    accounts.queue_address_check(db, alice)
    db.commit()
    run_mail(settings=settings)
    assert _kinds(sink, alice) == ["verify_email"]  # game mails stop; the confirmation mail goes
    assert {row.outcome for row in notifications_of(db, alice) if row.kind != "verify_email"} == {"failing"}
