"""Hidden information: no mail or digest ever carries what its recipient may not see.

Random games are played with every mail turned on (immediately, "always", and one player on the daily
digest); seats change hands mid-game; private messages fly. Two checks on every mail:
- its text and HTML hold no other seat's secret: in "fake_secret" (the fake game whose secret picks carry
  a marker SECRET-s<seat>-v<value>) and no private message of a thread the recipient's seat is not in
  (their text carries PRIVATE-<seats>);
- what the services handed to the templates is the recipient's to see: each game event in it is public or
  visible to the recipient's seat; a footer gets the spectator's view. This check runs for Dragonstones too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

import pytest
from jinja2 import ChoiceLoader, DictLoader
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from app.games import registry
from app.games.contract import Event, Outcome
from app.models import Game, GameEvent, Seat, SeatTenure, User
from app.services.errors import ServiceError
from app.services.mail import dispatch, mail, mail_jobs, notify
from app.services.play import play
from app.services.social import lobby, messages
from app.settings import Settings
from app.web.emails import EmailRenderer, make_environment
from tests.conftest import NOW
from tests.fakegame import FakeRules, State
from tests.notify.conftest import Sink, html_of, make_user, text_of

SECRET = re.compile(r"SECRET-s(\d+)-v\d")
PRIVATE = re.compile(r"PRIVATE-([\d-]+)-")


class SecretFake(FakeRules):
    """The fake game, with a marker on each seat's secret pick (its private event and its own view)."""

    id = "fake_secret"
    title = "Fake with secrets"

    def apply(self, state: State, seat: int, order: Mapping[str, Any]) -> Outcome[State]:
        outcome = super().apply(state, seat, order)
        events = [
            Event(e.kind, {**e.data, "secret": f"SECRET-s{seat}-v{e.data['value']}"}, e.to)
            if e.kind == "my_pick"
            else e
            for e in outcome.events
        ]
        return Outcome(outcome.state, events)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        shown = super().view(state, seat)
        if seat is not None and state.picks[seat] is not None and state.chooser is None:
            shown["my_secret"] = f"SECRET-s{seat}-v{state.picks[seat]}"
        return shown


registry.register(SecretFake())


class Recording(EmailRenderer):
    """The real renderer, keeping each letter it was given (what the services chose to say)."""

    def __init__(self) -> None:
        env = make_environment()
        footers = {
            f"emails/footers/{game}.{ext}": "Public view: {{ footer.view|tojson }}"
            for game in ("fake_secret", "dragonstones", "amunre")
            for ext in ("txt", "html")
        }
        assert env.loader is not None
        env.loader = ChoiceLoader([DictLoader(footers), env.loader])
        super().__init__(env)
        self.letters: list[dispatch.Letter] = []

    def render(self, letter: dispatch.Letter) -> mail.RenderedMail:
        self.letters.append(letter)
        return super().render(letter)


class Table:
    """One random game and its mail, checked after every step."""

    def __init__(
        self,
        db: Session,
        sessions: sessionmaker[Session],
        settings: Settings,
        sink: Sink,
        game_type: str,
        seed: int,
    ) -> None:
        self.db, self.sessions, self.settings, self.sink = db, sessions, settings, sink
        self.rng = random.Random(seed)
        self.renderer = Recording()
        self.transport = mail.SmtpTransport(settings)
        self.now = NOW
        self.users = [make_user(db, f"P{seed}x{number}") for number in range(3)]
        self.spares = [make_user(db, f"S{seed}x{number}") for number in range(2)]
        self.everyone = [*self.users, *self.spares]
        for user in self.users[:2] + self.spares:
            modes = dict.fromkeys(notify.CHOOSABLE, "immediate")
            notify.save_preferences(db, user, notify.Preferences(modes, "", "", 8, True))
        digest = dict.fromkeys(notify.CHOOSABLE, "digest")
        notify.save_preferences(db, self.users[2], notify.Preferences(digest, "", "", 8, True))
        options = {"target": 50} if game_type == "fake_secret" else {}
        self.game = lobby.create_game(
            db, self.users[0], game_type=game_type, players=3, time_limit_hours=24, options=options, now=NOW
        )
        for user in self.users[1:]:
            lobby.join_game(db, user, self.game.id, NOW)
        self.checked = 0
        self.markers_seen = 0  # own secrets and own threads, rightly shown: the scan is not vacuous

    # --- playing ---

    def step(self) -> bool:
        self.now += timedelta(minutes=self.rng.randint(1, 200))
        if self.rng.random() < 0.3:
            self.chat()
        if self.rng.random() < 0.1 and self.spares:
            self.hand_over()  # after the chat: its notifications are still waiting
        if self.game.status != "active":
            return False
        rules = registry.get(self.game.game_type)
        state = rules.load(self.game.state or {})
        waits = rules.waits(state)
        wait = self.rng.choice(waits)
        order = rules.sample_order(state, wait.seat, self.rng)
        holder = self.holder(wait.seat)
        play.submit(self.db, holder, self.game.id, order, self.game.version, self.now)
        return True

    def holder(self, seat: int) -> User:
        row = self.db.scalar(select(Seat).where(Seat.game_id == self.game.id, Seat.number == seat))
        assert row is not None and row.user_id is not None
        user = self.db.get(User, row.user_id)
        assert user is not None
        return user

    def chat(self) -> None:
        author_seat = self.rng.randrange(3)
        others = [s for s in range(3) if s != author_seat]
        to = self.rng.sample(others, self.rng.randint(1, 2))
        key = "-".join(str(s) for s in sorted([author_seat, *to]))
        try:
            messages.post(
                self.db,
                self.holder(author_seat),
                self.game.id,
                f"PRIVATE-{key}- shall we ally?",
                to_seats=to,
                now=self.now,
                per_minute=1000,
            )
        except ServiceError:
            self.db.rollback()

    def hand_over(self) -> None:
        """A seat changes hands (what taking over an open seat does), with mail still pending."""
        seat_number = self.rng.randrange(3)
        row = self.db.scalar(select(Seat).where(Seat.game_id == self.game.id, Seat.number == seat_number))
        assert row is not None
        tenure = self.db.scalar(
            select(SeatTenure).where(SeatTenure.seat_id == row.id, SeatTenure.ended_at.is_(None))
        )
        if tenure is not None:
            tenure.ended_at = self.now
        newcomer = self.spares.pop()
        row.user_id = newcomer.id
        self.db.add(SeatTenure(seat_id=row.id, user_id=newcomer.id, started_at=self.now))
        self.db.commit()

    # --- mail and its checks ---

    def deliver(self, later: timedelta = timedelta(0)) -> None:
        self.db.commit()
        when = self.now + later
        mail_jobs.run_mail_once(
            self.sessions, self.settings, self.renderer, self.transport, clock=lambda: when
        )
        self.check()

    def seats_by_user(self) -> dict[str, int]:
        rows = self.db.execute(
            select(User.email, Seat.number)
            .join(Seat, Seat.user_id == User.id)
            .where(Seat.game_id == self.game.id)
        ).all()
        self.db.commit()
        return {email: number for email, number in rows if number is not None}

    def check(self) -> None:
        seats = self.seats_by_user()
        for message in self.sink.messages:
            address = str(message["To"]).split("<")[-1].rstrip(">")
            self.check_text(text_of(message) + html_of(message), seats.get(address), address)
        self.checked += len(self.sink.messages)
        self.sink.clear()
        names = {u.display_name: seats.get(u.email) for u in self.everyone}
        for letter in self.renderer.letters:
            self.check_letter(letter, names.get(letter.common["user_name"]))
        self.renderer.letters.clear()

    def check_text(self, text: str, seat: int | None, address: str) -> None:
        for found in SECRET.finditer(text):
            assert seat is not None and int(found.group(1)) == seat, f"{address} saw {found.group(0)}"
            self.markers_seen += 1
        for found in PRIVATE.finditer(text):
            thread = {int(s) for s in found.group(1).split("-")}
            assert seat in thread, f"{address} (seat {seat}) read {found.group(0)}"
            self.markers_seen += 1

    def check_letter(self, letter: dispatch.Letter, seat: int | None) -> None:
        for item in letter.items:
            for event in item.context.get("events", []):
                row = self.db.scalar(
                    select(GameEvent).where(GameEvent.game_id == self.game.id, GameEvent.seq == event["seq"])
                )
                assert row is not None
                assert row.visible_to is None or seat in row.visible_to, (item.kind, event, seat)
            if "default_order" in item.context:
                assert item.context["seat"] == seat
            footer = item.context.get("footer")
            if footer is not None:
                rules = registry.get(self.game.game_type)
                game = self.db.get(Game, self.game.id)
                assert game is not None
                assert footer["view"] == rules.view(rules.load(game.state or {}), None)
        self.db.commit()


def _play(table: Table, steps: int) -> None:
    table.deliver()
    for _ in range(steps):
        if not table.step():
            break
        table.deliver()
    table.deliver(timedelta(days=2))  # every digest and held mail goes too


@pytest.mark.parametrize("seed", range(4))
def test_no_mail_leaks_a_secret_in_random_games(
    seed: int, db: Session, sessions: sessionmaker[Session], mail_settings: Settings, sink: Sink
) -> None:
    table = Table(db, sessions, mail_settings, sink, "fake_secret", seed)
    _play(table, 60)
    assert table.checked > 20 and table.markers_seen > 5  # the check saw real traffic


def test_a_leak_would_be_caught() -> None:
    table = Table.__new__(Table)
    table.markers_seen = 0
    with pytest.raises(AssertionError):
        table.check_text("you saw SECRET-s1-v3", 0, "x@example.com")
    with pytest.raises(AssertionError):
        table.check_text("PRIVATE-0-2- hello", 1, "x@example.com")
    table.check_text("SECRET-s0-v3 PRIVATE-0-2- hello", 0, "x@example.com")


def test_no_mail_leaks_in_random_dragonstones_games(
    db: Session, sessions: sessionmaker[Session], mail_settings: Settings, sink: Sink
) -> None:
    dragonstones = pytest.importorskip("app.games.dragonstones")
    registry.register(dragonstones.RULES)
    for seed in range(2):
        table = Table(db, sessions, mail_settings, sink, "dragonstones", 100 + seed)
        _play(table, 80)
        assert table.checked > 10


def test_no_mail_leaks_in_random_amunre_games(
    db: Session, sessions: sessionmaker[Session], mail_settings: Settings, sink: Sink
) -> None:
    for seed in range(2):
        table = Table(db, sessions, mail_settings, sink, "amunre", 300 + seed)
        _play(table, 80)
        assert table.checked > 10


def test_no_mail_leaks_in_random_advciv_games_with_hands_and_calamities(
    db: Session, sessions: sessionmaker[Session], mail_settings: Settings, sink: Sink
) -> None:
    """Advanced Civilization begun with cities and calamities in hand, so that cards are drawn (each seat's
    draw is its own event) and calamities strike: every event a mail carries is its recipient's to see."""
    from app.services.play import draft
    from tests.games.advciv.helpers import begin
    from tests.games.advciv.test_properties import rich_start

    table = Table(db, sessions, mail_settings, sink, "advciv", 500)
    game = table.game
    while draft.in_draft(db, game):
        wait = draft.awaited_seat(db, game.id)
        assert wait is not None
        free = draft.draft_view(db, game.id, table.holder(wait.seat)).free
        draft.choose(db, table.holder(wait.seat), game.id, free[0], table.now)
        db.refresh(game)
    rules = registry.get("advciv")
    rich = begin(rich_start(rules.load(game.state or {}), random.Random(5), calamities=4), "tax")
    game.state = rules.dump(rich)
    play.sync_waits(db, game, rules.waits(rich), acting_seat=None, now=table.now)
    db.commit()
    _play(table, 120)
    kinds = set(db.scalars(select(GameEvent.kind).where(GameEvent.game_id == game.id)))
    assert table.checked > 10 and {"cards_drawn", "calamities_revealed"} <= kinds
