"""Events worth a mail (`Event.mail`): a "game_news" mail to every seat holder that may see the event but
the one whose order caused it; and Advanced Civilization's public points footer."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy.orm import Session
from starlette.testclient import TestClient

from app.models import Game, User
from app.services.mail import notify
from app.services.mail.dispatch import Item, Letter
from app.services.play import play
from app.services.social import lobby
from app.web.emails import EmailRenderer
from tests import marketgame
from tests.conftest import NOW, sign_up
from tests.notify.conftest import RunMail, Sink, html_of, make_user, notifications_of, seat_of, text_of

BASE = "https://games.example.com"


@pytest.fixture(autouse=True)
def market_game(monkeypatch: pytest.MonkeyPatch) -> None:
    marketgame.register(monkeypatch)


def market(db: Session, users: list[User]) -> Game:
    for user in users:
        notify.save_preferences(db, user, notify.Preferences({}, "", "", 8, True))
    game = lobby.create_game(
        db, users[0], game_type="market", players=len(users), time_limit_hours=24, now=NOW
    )
    for user in users[1:]:
        lobby.join_game(db, user, game.id, NOW)
    return game


def offer(db: Session, game: Game, user: User, partner: User) -> None:
    order = {"type": "offer", "partner": seat_of(game, partner)}
    play.submit(db, user, game.id, order, game.version, NOW + timedelta(minutes=1))


def news(sink: Sink, user: User) -> list[str]:
    return [text_of(m) for m in sink.to(user.email) if m["X-Ostraca-Kind"] == "game_news"]


def test_a_public_event_is_mailed_to_the_others_and_a_private_one_to_its_seats(
    db: Session, run_mail: RunMail, sink: Sink
) -> None:
    alice, bruno, chloe = (make_user(db, name) for name in ("Alice", "Bruno", "Chloe"))
    game = market(db, [alice, bruno, chloe])
    offer(db, game, alice, bruno)
    assert notifications_of(db, alice, "game_news") == []  # her own order: she knows
    kinds: dict[str, list[str]] = {"Alice": []}
    for user in (bruno, chloe):
        kinds[user.display_name] = [row.data["kind"] for row in notifications_of(db, user, "game_news")]
    assert kinds == {"Alice": [], "Bruno": ["offer_announced", "offer_details"], "Chloe": ["offer_announced"]}

    run_mail(NOW + timedelta(minutes=2))
    alice_seat, bruno_seat = seat_of(game, alice), seat_of(game, bruno)
    assert news(sink, alice) == []
    assert sorted(len(text.split("offer_details")) for text in news(sink, bruno)) == [1, 2]
    (chloe_mail,) = news(sink, chloe)
    assert f"offer_announced — seat: {alice_seat}" in chloe_mail
    assert "offer_details" not in chloe_mail and f"partner: {bruno_seat}" not in chloe_mail

    message = next(m for m in sink.to(chloe.email) if m["X-Ostraca-Kind"] == "game_news")
    assert message["Subject"] == f"News from {game.name}"
    assert f"{BASE}/games/{game.id}" in text_of(message)
    assert f'href="{BASE}/games/{game.id}"' in html_of(message)
    assert "<li>offer_announced" in html_of(message)
    assert all(row.outcome == "mailed" for row in notifications_of(db, chloe, "game_news"))


def test_game_news_turned_off_sends_nothing(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno", "fr")
    game = market(db, [alice, bruno])
    notify.save_preferences(db, bruno, notify.Preferences({"game_news": "off"}, "", "", 8, True))
    offer(db, game, alice, bruno)
    run_mail(NOW + timedelta(minutes=2))
    assert news(sink, bruno) == []
    rows = notifications_of(db, bruno, "game_news")
    assert len(rows) == 2 and {row.outcome for row in rows} == {"off"}


def test_game_news_waits_for_the_digest_and_for_quiet_hours(
    db: Session, run_mail: RunMail, sink: Sink
) -> None:
    alice, bruno, chloe = (make_user(db, name) for name in ("Alice", "Bruno", "Chloe"))
    game = market(db, [alice, bruno, chloe])
    notify.save_preferences(db, bruno, notify.Preferences({"game_news": "digest"}, "", "", 13, True))
    notify.save_preferences(db, chloe, notify.Preferences({}, "11:00", "13:30", 8, True))  # UTC
    offer(db, game, alice, bruno)
    run_mail(NOW + timedelta(minutes=2))
    assert news(sink, bruno) == [] and news(sink, chloe) == []
    run_mail(NOW + timedelta(hours=1))  # 13:00: Bruno's digest
    (digest,) = [m for m in sink.to(bruno.email) if m["X-Ostraca-Kind"] == "digest"]
    text = text_of(digest)
    assert "Game news (trades announced)" in text
    assert "offer_announced" in text and "offer_details" in text
    assert news(sink, chloe) == []
    run_mail(NOW + timedelta(hours=1, minutes=30))  # 13:30: Chloe's quiet hours are over
    (mailed,) = news(sink, chloe)
    assert "offer_announced" in mailed


def test_a_news_mail_in_french(db: Session, run_mail: RunMail, sink: Sink) -> None:
    alice, bruno = make_user(db, "Alice"), make_user(db, "Bruno", "fr")
    game = market(db, [alice, bruno])
    offer(db, game, alice, bruno)
    run_mail(NOW + timedelta(minutes=2))
    french = [m for m in sink.to(bruno.email) if m["X-Ostraca-Kind"] == "game_news"]
    assert len(french) == 2
    said = game.name  # one name for everyone, whatever the language
    assert {m["Subject"] for m in french} == {f"Du nouveau dans {said}"}
    assert all(f"Dans {said} (Market)\u00a0:" in text_of(m) for m in french)
    assert all("Ouvrir la partie" in html_of(m) for m in french)


@pytest.mark.parametrize(
    ("language", "label"),
    [("en", "Game news (trades announced)"), ("fr", "Nouvelles des parties (échanges annoncés)")],
)
def test_the_game_news_kind_is_on_the_preferences_page(client: TestClient, language: str, label: str) -> None:
    assert notify.KINDS["game_news"].default == "immediate" and "game_news" in notify.CHOOSABLE
    sign_up(client, "Alice", language=language)
    page = client.get("/account/notifications")
    assert page.status_code == 200
    assert f'<label for="mode-game_news">{label}</label>' in page.text


POINTS = [
    {"seat": 2, "nation": "crete", "cities": 7, "ast": 9, "treasury": 12, "civ_cards": 8, "civ_points": 910,
     "public_points": 1375},
    {"seat": 0, "nation": "egypt", "cities": 5, "ast": 8, "treasury": 3, "civ_cards": 6, "civ_points": 540,
     "public_points": 1090},
]  # fmt: skip


def letter(language: str, view: dict[str, Any]) -> Letter:
    game = {"id": 7, "name": "Knossos", "type": "advciv", "title": "Advanced Civilization",
            "url": f"{BASE}/games/7", "players": ["Ann", None, "Cat"]}  # fmt: skip
    context = {"game": game, "url": f"{BASE}/games/7", "footer": {"game_type": "advciv", "view": view}}
    common = {
        "user_name": "Ann",
        "base_url": BASE,
        "preferences_url": f"{BASE}/account/notifications",
        "unsubscribe_url": f"{BASE}/unsubscribe/x",
        "mail_list": "game_started",
        "now": NOW,
    }
    return Letter(language, "UTC", [Item("game_started", context)], digest=False, common=common)


def test_the_advanced_civilization_footer_shows_the_public_points_table() -> None:
    rendered = EmailRenderer().render(letter("fr", {"points": POINTS}))
    text, html = rendered.text, rendered.html
    for header in ("Points d'avancement Civ", "Total de points publics", "Cités", "Trésor"):
        assert header in text and f">{header}</th>" in html
    assert "1. Crète\u00a0: Total de points publics 1375 — Cités 7, Case de la T.S.A. 9, Trésor 12" in text
    assert "2. Égypte\u00a0: Total de points publics 1090" in text
    assert text.index("Crète") < text.index("Égypte") and html.index("Crète") < html.index("Égypte")
    assert "<td style" in html and ">1375</td>" in html and ">910</td>" in html

    english = EmailRenderer().render(letter("en", {"points": POINTS}))
    assert "Civ advancement points 910" in english.text and "Total public points</th>" in english.html


def test_without_points_the_footer_is_empty() -> None:
    rendered = EmailRenderer().render(letter("en", {"phase": "trade"}))
    assert "public points" not in rendered.text.lower() and "<table" not in rendered.html


def test_news_mailed_to_some_seats_only_reach_them_under_their_own_kind(
    db: Session, run_mail: RunMail, sink: Sink
) -> None:
    """A calamity that strikes Bruno (`Event.mail_to`, news "calamity") reaches Bruno alone, as a
    "calamity_news" mail that he can turn off apart from the trade announcements."""
    from app.games.contract import Event

    alice, bruno, chloe = (make_user(db, name) for name in ("Alice", "Bruno", "Chloe"))
    game = market(db, [alice, bruno, chloe])
    struck = Event("offer_announced", {"seat": 0}, mail_to=frozenset({seat_of(game, bruno)}), news="calamity")
    game.version += 1  # as an order that made the event would
    play.append_events(db, game, [struck], NOW)
    play.notify_news(db, game, [struck], user_id=None)
    db.commit()
    assert [len(notifications_of(db, user, "calamity_news")) for user in (alice, bruno, chloe)] == [0, 1, 0]
    assert all(notifications_of(db, user, "game_news") == [] for user in (alice, bruno, chloe))
    run_mail(NOW + timedelta(minutes=2))
    (message,) = [m for m in sink.to(bruno.email) if m["X-Ostraca-Kind"] == "calamity_news"]
    assert message["Subject"] == f"A calamity strikes you in {game.name}"
    assert [m for m in sink.to(chloe.email) if m["X-Ostraca-Kind"] == "calamity_news"] == []


def test_a_calamity_is_mailed_to_the_seats_it_strikes() -> None:
    from app.games import registry
    from tests.games.advciv.helpers import blank, deal, units
    from tests.test_advciv_web import revealed

    rules = registry.get("advciv")
    state = units(blank(), 0, {}, cities=["carthago", "cyrene", "athens", "corinth", "argos"])
    state = units(state, 1, {"thebes": 2}, cities=["knossos"])
    state = revealed(deal(state, 0, ["superstition"]))
    outcome = rules.apply(state, 0, {"type": "pick", "picks": ["carthago", "cyrene", "athens"]})
    (resolved,) = [event for event in outcome.events if event.kind == "calamity_resolved"]
    assert (resolved.mail_to, resolved.news, resolved.to) == (frozenset({0}), "calamity", None)
