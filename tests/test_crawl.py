"""The crawl: whole games of every game played through the HTTP API, and every screen read at every sampled
version by every kind of viewer.

Seats alternate between the game's bot (`bot_order`) and random orders (`sample_order`), all sent by the
seats' own clients; now and then a seat lets its time run out and the sweeper plays its default. At each
sampled version, each seat, a logged-in spectator and an anonymous visitor read the game page, its live
fragment, its live stream (which must tell that version, and nothing else), the log page, the replay page
at that step, the API game read and the API replay; the mails each step produced are collected. An episode
adds what such games do not reach: Advanced Civilization's market with lies, reached by the bots' own
orders so that its replay is read too. Checked: no server error (5xx or exception), every page parses with
its tags balanced, the public log is the same for every viewer, no mail carries an event its recipient may
not see, and (for one viewer in turn at each sampled version) no response changes when everything the
viewer may not know is changed in the stored state: other hands, sealed bids and offerings, the stacks'
order. One summary line per game goes to the end of the test run's output.
"""

from __future__ import annotations

import functools
import html
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_string, policy
from email.message import EmailMessage
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.games import registry
from app.games.contract import GameRules, bot_order_of
from app.models import Game, GameEvent, User, WaitRow
from app.services.jobs import sweeper
from app.services.mail import dispatch, mail, mail_jobs, notify
from app.services.play import play
from app.settings import Settings
from app.web import ratelimit
from app.web.emails import EmailRenderer
from tests import summaries
from tests import test_advciv_market_leaks as market_leaks
from tests.conftest import sign_up
from tests.games.advciv.test_setup_hidden import _hands_blurred
from tests.games.test_bots import SCRAMBLERS
from tests.test_event_kinds import real_games
from tests.web_views import CSRF, hear_live, stop_clock

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
STEP_TIME = timedelta(minutes=7)
# Orders played per game, and versions read in full among them (spread evenly): the crawl's budget.
ORDERS = {"advciv": 120}
DEFAULT_ORDERS = 250  # the short games end in about 150 to 220 orders
SAMPLES = 10
TIMEOUT_CHANCE = 0.04  # at each step, the awaited seats let their time run out instead
LEAK_SEED = 26
PUBLIC_LINE = re.compile(r'<li class="(?: rolled-back)?">(.*?)</li>', re.DOTALL)
OLDER_LOG = re.compile(r'href="(/games/\d+/log\?before=\d+)"')


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    """The suite's settings, with no limit on orders: the bots play faster than any person."""
    return Settings(
        database_url=database_url,
        data_dir=tmp_path / "var",
        run_jobs=False,
        orders_per_minute=1_000_000,
        base_url="https://games.example.com",
        _env_file=None,
    )


# --- the pages parse ---------------------------------------------------------------------------------------

HTML_VOID = (
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
)
SVG_SHAPES = (
    "path",
    "circle",
    "rect",
    "line",
    "polygon",
    "polyline",
    "ellipse",
    "use",
    "stop",
)  # often self-closed
VOID = frozenset(HTML_VOID + SVG_SHAPES)
OPTIONAL_END = frozenset(
    ("li", "p", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot", "dt", "dd")
)


class Balance(HTMLParser):
    """The tags of a page: every element closed in order (those whose end tag HTML lets one omit aside)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if tag not in self.open:
            self.errors.append(f"</{tag}> closes nothing (line {self.getpos()[0]})")
            return
        while (top := self.open.pop()) != tag:
            if top not in OPTIONAL_END:
                self.errors.append(f"<{top}> left open by </{tag}> (line {self.getpos()[0]})")

    def unclosed(self) -> list[str]:
        return [tag for tag in self.open if tag not in OPTIONAL_END]


def html_problems(text: str) -> list[str]:
    parser = Balance()
    parser.feed(text)
    parser.close()
    return parser.errors + [f"<{tag}> never closed" for tag in parser.unclosed()]


# --- mail --------------------------------------------------------------------------------------------------


class Recording(EmailRenderer):
    """The real renderer, keeping each letter it was given (what the services chose to say, and to whom)."""

    def __init__(self) -> None:
        super().__init__()
        self.letters: list[dispatch.Letter] = []

    def render(self, letter: dispatch.Letter) -> mail.RenderedMail:
        self.letters.append(letter)
        return super().render(letter)


@dataclass
class Outbox:
    """A transport that keeps every mail, parsed."""

    messages: list[EmailMessage] = field(default_factory=list)

    def send_batch(self, mails: Sequence[mail.Claimed], on_result: mail.OnResult) -> None:
        for claimed in mails:
            parsed = message_from_string(claimed.raw, policy=policy.default)
            assert isinstance(parsed, EmailMessage)
            self.messages.append(parsed)
            if not on_result(claimed, None):
                return


def mail_text(message: EmailMessage) -> str:
    parts = [message.get_body(preferencelist=(kind,)) for kind in ("plain", "html")]
    return "\n".join(str(part.get_content()) for part in parts if part is not None)


def card_words(page: str) -> set[str]:
    """The Advanced Civilization trade cards a page names."""
    return set(market_leaks.CARD_WORDS.findall(html.unescape(page)))


# --- what each viewer may not know, changed -----------------------------------------------------------------


def _advciv_scramble(state: Any, seat: int | None) -> Any:
    rng = random.Random(LEAK_SEED)
    if state.market is not None and len(state.players) == market_leaks.PLAYERS:
        return market_leaks.blurred(state, seat, rng)  # the true cards behind offers and trades too
    return _hands_blurred(state, seat, rng)


def scramble(rules: GameRules[Any], state: Any, viewer: int | None) -> Any:
    """The state with what `viewer` may not know changed (a spectator knows what seat None knows)."""
    scramblers: dict[str, Callable[[Any, Any], Any]] = {**SCRAMBLERS, "advciv": _advciv_scramble}
    found = scramblers.get(rules.id)
    assert found is not None, f"no scrambler for {rules.id}: add one for its hidden information"
    return found(state, viewer)


# --- the table ------------------------------------------------------------------------------------------


@dataclass
class Tally:
    games: int = 0
    versions: int = 0
    orders: int = 0
    timeouts: int = 0
    pages: int = 0
    fragments: int = 0
    streams: int = 0  # live streams heard
    mails: int = 0
    viewers: int = 0
    server_errors: int = 0
    leaks: int = 0
    blurred: int = 0  # leak checks where something hidden did change: the check is not vacuous
    carded: int = 0  # replay pages whose named cards were checked, and that named some
    problems: list[str] = field(default_factory=list)

    def line(self, game: str, database: str) -> str:
        return (
            f"crawl {game} ({database}): {self.games} game(s), "
            f"{self.orders} orders ({self.timeouts} timed out), "
            f"{self.versions} versions, {self.pages} pages, {self.fragments} fragments, "
            f"{self.streams} live streams, {self.mails} mails, "
            f"{self.viewers} viewers, 5xx {self.server_errors}, leaks {self.leaks}"
        )


Chooser = Callable[[Any, int], Mapping[str, Any]]  # (state, seat) -> the seat's order


@dataclass
class Crawl:
    rules: GameRules[Any]
    db: Session
    sessions: sessionmaker[Session]
    settings: Settings
    game_id: int
    seats: dict[int, TestClient]
    spectator: TestClient
    visitor: TestClient
    rng: random.Random = field(default_factory=random.Random)
    now: datetime = START
    renderer: Recording = field(default_factory=Recording)
    outbox: Outbox = field(default_factory=Outbox)
    tally: Tally = field(default_factory=Tally)
    replayable: bool = True  # the order log leads to the stored state

    # --- reading the game ---

    def game(self) -> Game:
        game = self.db.get(Game, self.game_id, populate_existing=True)
        assert game is not None
        return game

    def state_and_version(self) -> tuple[Any, int, str]:
        game = self.game()
        result = (self.rules.load(game.state or {}), game.version, game.status)
        self.db.rollback()  # end the read: on SQLite an open transaction holds the write lock
        return result

    def viewers(self) -> list[tuple[str, int | None, TestClient]]:
        named = [(f"seat {seat}", seat, client) for seat, client in sorted(self.seats.items())]
        return [*named, ("spectator", None, self.spectator), ("visitor", None, self.visitor)]

    # --- playing ---

    def mixed(self, state: Any, seat: int) -> Mapping[str, Any]:
        """Even seats play the bot, odd seats at random."""
        bot = bot_order_of(self.rules) if seat % 2 == 0 else None
        return bot(state, seat, self.rng) if bot else self.rules.sample_order(state, seat, self.rng)

    def step(
        self, choose: Callable[[Any, int], Mapping[str, Any]] | None = None, timeouts: bool = True
    ) -> bool:
        """One order (`choose`'s, else `mixed`'s), or a timeout; False once the game is over."""
        state, version, status = self.state_and_version()
        waits = self.rules.waits(state)
        if status != "active" or not waits:
            return False
        self.now += STEP_TIME
        if timeouts and self.rng.random() < TIMEOUT_CHANCE:
            self.time_out()
        else:
            seat = self.rng.choice(waits).seat
            order = (choose or self.mixed)(state, seat)
            stop_clock(self.visitor, self.now)
            body = {"order": dict(order), "expected_version": version}
            answer = self.fetch(self.seats[seat], "POST", f"/api/v1/games/{self.game_id}/orders", json=body)
            if answer is not None and answer.status_code != 200:
                self.tally.problems.append(f"order {order} of seat {seat} refused: {answer.text}")
        self.tally.orders += 1
        self.deliver_mail()
        return True

    def hand_over(self, seat: int, newcomer: TestClient) -> None:
        """The seat's player quits (every screen is read while the seat is open) and `newcomer` takes it."""
        quitting = self.seats[seat]
        answer = self.fetch(
            quitting, "POST", f"/api/v1/games/{self.game_id}/quit", json={"replacement": None}
        )
        if answer is None or answer.status_code != 200:
            self.tally.problems.append(f"seat {seat} could not quit: {answer.text if answer else ''}")
            return
        self.deliver_mail()
        self.read_all()
        answer = self.fetch(newcomer, "POST", f"/api/v1/games/{self.game_id}/seats/{seat}/take")
        if answer is None or answer.status_code != 200:
            self.tally.problems.append(f"seat {seat} could not be taken: {answer.text if answer else ''}")
            return
        self.seats[seat] = newcomer
        self.deliver_mail()
        self.tally.viewers += 1

    def time_out(self) -> None:
        """The earliest deadline passes: the sweeper plays the default for the seats it falls on."""
        query = select(WaitRow.deadline_at).where(WaitRow.game_id == self.game_id)
        deadlines = [moment for moment in self.db.scalars(query) if moment is not None]
        self.db.rollback()
        assert deadlines, "a game with a time limit has deadlines"
        self.now = max(self.now, min(deadlines).replace(tzinfo=UTC) + timedelta(minutes=1))
        stop_clock(self.visitor, self.now)
        moment = self.now
        report = sweeper.sweep(self.sessions, lambda: moment, sweeper.SweepSettings())
        assert report.timeouts, "the sweeper played no default"
        self.tally.timeouts += 1

    def deliver_mail(self) -> None:
        moment = self.now
        mail_jobs.run_mail_once(
            self.sessions, self.settings, self.renderer, self.outbox, clock=lambda: moment
        )
        self.check_mail()

    def check_mail(self) -> None:
        """Each letter's events are ones its recipient's seat may see; each mail reads cleanly."""
        holders = self.seat_by_name()
        for letter in self.renderer.letters:
            seat = holders.get(str(letter.common.get("user_name")))
            for item in letter.items:
                for event in item.context.get("events", []):
                    row = self.db.scalar(
                        select(GameEvent).where(
                            GameEvent.game_id == self.game_id, GameEvent.seq == event["seq"]
                        )
                    )
                    if row is not None and row.visible_to is not None and seat not in row.visible_to:
                        self.tally.leaks += 1
                        self.tally.problems.append(f"mail {item.kind} to seat {seat} carries {event}")
        self.db.rollback()
        for message in self.outbox.messages:
            subject = f"mail {message['Subject']!r}"
            text = mail_text(message)
            if re.search(r"\{\{|\{%|Traceback", text):
                self.tally.problems.append(f"{subject} shows template syntax: {text[:300]}")
            html = message.get_body(preferencelist=("html",))
            if html is not None:
                self.check_html(subject, str(html.get_content()))
        self.tally.mails += len(self.outbox.messages)
        self.renderer.letters.clear()
        self.outbox.messages.clear()

    def seat_by_name(self) -> dict[str, int]:
        game = self.game()
        ids = {seat.user_id: seat.number for seat in game.seats if seat.number is not None}
        users = self.db.scalars(select(User).where(User.id.in_(list(ids)))).all()
        found = {user.display_name: ids[user.id] for user in users if ids[user.id] is not None}
        self.db.rollback()
        return {name: number for name, number in found.items() if number is not None}

    # --- reading every screen ---

    def fetch(self, client: TestClient, method: str, url: str, **extra: Any) -> Any:
        try:
            response = client.request(method, url, **extra)
        except Exception as error:  # a template or server error: counted with the 5xx
            self.tally.server_errors += 1
            self.tally.problems.append(f"{method} {url}: {type(error).__name__}: {error}")
            return None
        if response.status_code >= 500:
            self.tally.server_errors += 1
            self.tally.problems.append(f"{method} {url}: {response.status_code} {response.text[:300]}")
        return response

    def read_all(self) -> None:
        """Every screen for every viewer at this version, and the leak check for one of them."""
        _, version, _ = self.state_and_version()
        base = f"/games/{self.game_id}"
        pages = [
            ("page", base),
            ("fragment", f"{base}/fragment"),
            ("page", f"{base}/log"),
            ("page", f"{base}/seats"),
        ]
        reads = [f"/api/v1{base}"]
        if self.replayable:
            steps = self.fetch(self.visitor, "GET", f"/api/v1{base}/replay")
            if steps is not None and steps.status_code == 200:
                orders = steps.json()["orders"]
                pages.append(("page", f"{base}/replay?step={orders}"))
                pages.append(("page", f"{base}/replay?step={self.rng.randint(0, orders)}"))  # an earlier one
                if not steps.json()["matches_stored_state"]:
                    self.tally.problems.append(
                        f"the replay of version {version} differs from the stored state"
                    )
            reads.append(f"/api/v1{base}/replay")
        public_logs: dict[str, list[Any]] = {}
        live: dict[str, list[dict[str, str]]] = {}  # by viewer: what its live stream told of this version
        public_lines: dict[str, dict[str, list[str]]] = {}  # by language, by viewer: the log page's lines
        for name, _seat, client in self.viewers():
            todo = list(pages)  # the log's older page joins it when there is one
            shown: dict[str, str] = {}  # by URL: the pages this viewer read
            for kind, url in todo:
                response = self.fetch(client, "GET", url)
                if response is None:
                    continue
                self.tally.pages += kind == "page"
                self.tally.fragments += kind == "fragment"
                if response.status_code != 200:
                    self.tally.problems.append(f"{name}: GET {url}: {response.status_code}")
                    continue
                self.check_html(f"{name}: GET {url} (version {version})", response.text)
                shown[url] = response.text
                if url.endswith("/log"):
                    language = response.headers.get("content-language", "")
                    public_lines.setdefault(language, {})[name] = PUBLIC_LINE.findall(response.text)
                older = OLDER_LOG.search(response.text) if url.endswith("/log") else None
                if older is not None:
                    todo.append(("page", html.unescape(older.group(1))))
            views = []
            for url in reads:
                response = self.fetch(client, "GET", url)
                if response is not None and response.status_code != 200:
                    self.tally.problems.append(
                        f"{name}: GET {url}: {response.status_code} {response.text[:200]}"
                    )
                elif response is not None:
                    views.append(response.json()["view"])
            if len(views) == 2 and views[0] != views[1]:  # the game read, and the replay's last step
                self.tally.problems.append(f"{name}: the API replay shows another view than the game's")
            self.check_replay_cards(name, shown)
            log = self.fetch(client, "GET", f"/api/v1/games/{self.game_id}/log")
            if log is not None and log.status_code == 200:
                public_logs[name] = [(e["seq"], e["kind"], e["data"]) for e in log.json() if not e["private"]]
            live[name] = self.hear(name, client, version)
        self.compare_public_logs(public_logs)
        if len({repr(events) for events in live.values()}) > 1:
            self.tally.problems.append(f"the viewers' live streams tell different news of version {version}")
        for lines in public_lines.values():
            self.compare_public_lines(lines)
        self.tally.versions += 1
        self.check_leaks()

    def check_replay_cards(self, name: str, shown: Mapping[str, str]) -> None:
        """Advanced Civilization: the replay page of the last step names no card that the game page and
        its log do not (they are checked for secrets by changing them): a replay, rebuilt from the orders,
        which hold the true cards of every offer and trade, shows no more of them."""
        base = f"/games/{self.game_id}"
        last = next((url for url in shown if url.startswith(f"{base}/replay")), None)
        if self.rules.id != "advciv" or last is None:
            return
        known = card_words(shown.get(base, "")) | card_words(shown.get(f"{base}/log", ""))
        named = card_words(shown[last])
        self.tally.carded += bool(named)
        extra = named - known
        if extra:
            self.tally.leaks += 1
            self.tally.problems.append(
                f"{name}: GET {last} names {sorted(extra)}, which its game page does not"
            )

    def hear(self, name: str, client: TestClient, version: int) -> list[dict[str, str]]:
        """The live stream a page drawn just before `version` opens: it tells that version, and the version
        alone (the page then fetches its fragment, read above)."""
        if version < 1:
            return []
        url = f"/games/{self.game_id}/live?since={version - 1}"
        try:
            heard = hear_live(client, url, str(version))
        except Exception as error:  # a server error, or a stream that never told the version
            self.tally.server_errors += 1
            self.tally.problems.append(f"{name}: GET {url}: {type(error).__name__}: {error}")
            return []
        self.tally.streams += 1
        if heard.status >= 500:
            self.tally.server_errors += 1
        told = {"event": "moved", "data": str(version), "id": str(version)}
        if heard.status != 200 or not heard.content_type.startswith("text/event-stream"):
            self.tally.problems.append(f"{name}: GET {url}: {heard.status} {heard.content_type}")
        elif heard.events != [told]:
            self.tally.problems.append(f"{name}: GET {url} tells {heard.events}, not {told}")
        return heard.events

    def check_html(self, where: str, text: str) -> None:
        problems = html_problems(text)
        if "Traceback" in text or "{{" in text:
            problems.append("template syntax or a traceback shown")
        if problems:
            self.tally.problems.append(f"{where}: {problems[:3]}")

    def compare_public_logs(self, logs: Mapping[str, list[Any]]) -> None:
        """The public entries every viewer reads (over the span all their pages of log cover) are the same."""
        if not logs:
            return
        oldest = max((entries[-1][0] for entries in logs.values() if entries), default=0)
        shown = {name: [e for e in entries if e[0] >= oldest] for name, entries in logs.items()}
        reference = shown["visitor"] if "visitor" in shown else next(iter(shown.values()))
        for name, entries in shown.items():
            if entries != reference:
                self.tally.problems.append(f"{name} reads other public log entries than the visitor")

    def compare_public_lines(self, lines: Mapping[str, list[str]]) -> None:
        """The log page's public lines, newest first, as viewers of one language read them: the same, but
        for how many fit on the page beside a seat's own private ones."""
        for name, mine in lines.items():
            for other, theirs in lines.items():
                shorter, longer = sorted((mine, theirs), key=len)
                if longer[: len(shorter)] != shorter:
                    self.tally.problems.append(f"{name} and {other} read different public lines in the log")
                    return

    def check_leaks(self) -> None:
        """One viewer in turn: its screens are the same when what it may not know is changed."""
        state, _, status = self.state_and_version()
        if status != "active" or not self.rules.waits(state):
            return  # over: the games then show what they hid (Tigris & Euphrates' scores)
        name, seat, client = self.viewers()[self.tally.versions % len(self.viewers())]
        before = self.screens(client)
        game = self.game()
        original = game.state
        assert original is not None
        game.state = self.rules.dump(scramble(self.rules, self.rules.load(original), seat))
        self.tally.blurred += game.state != original
        self.db.commit()
        try:
            after = self.screens(client)
        finally:
            game = self.game()
            game.state = original
            self.db.commit()
        if after != before:
            self.tally.leaks += 1
            differing = [
                kind
                for kind, a, b in zip(("page", "fragment", "api", "log"), before, after, strict=True)
                if a != b
            ]
            self.tally.problems.append(
                f"{name} sees another seat's secret at version {game.version}: {differing}"
            )

    def screens(self, client: TestClient) -> tuple[str, ...]:
        base = f"/games/{self.game_id}"
        urls = (base, f"{base}/fragment", f"/api/v1{base}", f"/api/v1{base}/log")
        return tuple(CSRF.sub(r"\1", client.get(url).text) for url in urls)


def test_the_tag_check_finds_an_element_left_open_or_closed_twice() -> None:
    assert html_problems("<ul><li>one<li>two</ul><p>text<br><img src=x></p>") == []
    assert html_problems("<section><div>text</section>") == ["<div> left open by </section> (line 1)"]
    assert html_problems("<div></div></div>") == ["</div> closes nothing (line 1)"]
    assert html_problems("<main><svg><path d='M0'/></svg>") == ["<main> never closed"]


def players_for(rules: GameRules[Any]) -> int:
    return PLAYERS.get(rules.id, min(rules.max_players, max(rules.min_players, 3)))


def open_table(
    rules: GameRules[Any],
    make_client: Any,
    db: Session,
    sessions: sessionmaker[Session],
    settings: Settings,
    tally: Tally,
    name: str = "Crawler",
    seed: int | None = None,
) -> Crawl:
    """A game of `rules` created and joined through the API (half the seats in French, every mail sent at
    once), a logged-in spectator and an anonymous visitor; begun from `seed` when one is given."""
    players = players_for(rules)
    clients = [make_client() for _ in range(players + 1)]
    stop_clock(clients[0], START)
    for index, client in enumerate(clients):
        sign_up(client, f"{name}{index}", language="fr" if index % 2 else "en")
    absence = {"eviction_preset": 12, "vote_after": 6}  # timeouts, but no seat evicted in a crawl
    body = {"game_type": rules.id, "players": players, "time_limit_hours": 24, "absence": absence}
    created = clients[0].post("/api/v1/games", json=body)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    for client in clients[1:players]:
        assert client.post(f"/api/v1/games/{game_id}/join").status_code == 200
    seats = {
        client.get(f"/api/v1/games/{game_id}").json()["your_seat"]: client for client in clients[:players]
    }
    if seed is not None:  # before the game begins: its first state is drawn from the seed
        game = db.get(Game, game_id)
        assert game is not None
        game.seed = seed
        db.commit()
    draft(db, game_id, seats)
    for user in db.scalars(select(User).where(User.display_name.startswith(name))):
        notify.save_preferences(
            db, user, notify.Preferences(dict.fromkeys(notify.CHOOSABLE, "immediate"), "", "", 8, True)
        )
    db.commit()
    crawl = Crawl(rules, db, sessions, settings, game_id, seats, clients[players], make_client(), tally=tally)
    crawl.rng = random.Random(game_id)
    tally.games += 1
    tally.viewers += len(crawl.viewers())
    crawl.deliver_mail()
    crawl.read_all()
    return crawl


def draft(db: Session, game_id: int, seats: Mapping[int, TestClient]) -> None:
    """A game that begins with a seat draft (Advanced Civilization's nations): each seat in pick order
    takes the first free choice."""
    game = db.get(Game, game_id)
    assert game is not None
    drafting = game.state is None
    db.rollback()
    if not drafting:
        return
    url = f"/api/v1/games/{game_id}/draft"
    for seat in sorted(seats):
        free = seats[seat].get(url).json()["free"]
        assert seats[seat].post(url, json={"choice": free[0]}).status_code == 200


def advciv_market(crawl: Crawl, budget: int) -> None:
    """Advanced Civilization's trade market, with lies: offers, answers, counters and trades whose cards are
    not all what they are said to be, through the API. The game reaches its market through real orders
    (`reach_market`), so that its order log replays and its replay pages are read too."""
    reach_market(crawl)
    sample_every = max(1, budget // SAMPLES)
    lies = 0
    for number in range(1, budget + 1):
        trade = functools.partial(market_order, crawl.rng, 0.0 if number < budget * 3 // 4 else 0.3)
        state = crawl.state_and_version()[0]
        if state.phase != "trade" or not crawl.step(trade, timeouts=False):
            break
        lies += sum(offer.side.lies > 0 for offer in state.market.offers)
        if number % sample_every == 0:
            crawl.read_all()
    crawl.read_all()
    if not lies:
        crawl.tally.problems.append("the market had no offer with a lie")
    trades = select(GameEvent.seq).where(
        GameEvent.game_id == crawl.game_id, GameEvent.kind == "trade_announced"
    )
    if crawl.db.scalars(trades).first() is None:
        crawl.tally.problems.append("the market made no trade")
    crawl.db.rollback()


def reach_market(crawl: Crawl) -> None:
    """The game's bot plays every seat from `EPISODE_SEED` until a trade phase where three seats have cards
    enough to make offers. Its orders go through the services as the API's do (a set-up: no screen is read
    meanwhile, the mails are read once at the end)."""
    holders = market_leaks.seat_holders(crawl.db, crawl.game_id)
    bot = bot_order_of(crawl.rules)
    assert bot is not None
    rng = random.Random(EPISODE_SEED)
    for _ in range(APPROACH_ORDERS):
        state, version, _ = crawl.state_and_version()
        if market_worth_crawling(state):
            crawl.deliver_mail()
            return
        seat = rng.choice(crawl.rules.waits(state)).seat
        crawl.now += STEP_TIME
        play.submit(crawl.db, holders[seat], crawl.game_id, bot(state, seat, rng), version, crawl.now)
        crawl.tally.orders += 1
    pytest.fail(f"the bots reached no market worth crawling in {APPROACH_ORDERS} orders")


def market_worth_crawling(state: Any) -> bool:
    if state.phase != "trade" or state.market is None:
        return False
    traders = [seat for seat in range(len(state.players)) if len(market_leaks.free_cards(state, seat)) >= 3]
    return len(traders) >= 3


def market_order(rng: random.Random, done_share: float, state: Any, seat: int) -> Mapping[str, Any]:
    return market_leaks.market_order(state, seat, rng, done_share)


# Play that bots and random orders do not reach in a crawl-sized game, before the mixed play.
EPISODES: dict[str, Callable[[Crawl, int], None]] = {"advciv": advciv_market}
EPISODE_ORDERS = 60
EPISODE_SEED = 26  # the episodes' games begin from it: the Trader's bots reach a market in about 150 orders
APPROACH_ORDERS = 400  # the most the bots may take to reach it
PLAYERS = {"advciv": market_leaks.PLAYERS}


@pytest.mark.timeout(900)  # a bound for a busy machine: on two idle cores the longest takes two minutes
@pytest.mark.parametrize("game", [rules.id for rules in real_games()])
def test_every_screen_of_a_game_for_every_viewer(
    game: str,
    make_client: Any,
    db: Session,
    sessions: sessionmaker[Session],
    settings: Settings,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(ratelimit, "REPLAYS_PER_MINUTE", 1_000_000)  # a crawl replays every sampled version
    rules = registry.get(game)
    tally = Tally()
    crawl = open_table(rules, make_client, db, sessions, settings, tally)
    budget = ORDERS.get(game, DEFAULT_ORDERS)
    sample_every = max(1, budget // SAMPLES)
    for number in range(1, budget + 1):
        if not crawl.step():
            break
        if number == budget // 3:  # a seat changes hands, by quitting and taking over
            newcomer = make_client()
            sign_up(newcomer, "Newcomer")
            crawl.hand_over(1, newcomer)
        if number % sample_every == 0:
            crawl.read_all()
    crawl.read_all()  # the last version (the game over, for the short games)
    episode = EPISODES.get(game)
    if episode is not None:
        episode(
            open_table(rules, make_client, db, sessions, settings, tally, "Trader", EPISODE_SEED),
            EPISODE_ORDERS,
        )
    database = "postgres" if database_url.startswith("postgres") else "sqlite"
    summaries.add(tally.line(game, database))
    print(tally.line(game, database))
    assert tally.server_errors == 0 and tally.leaks == 0 and not tally.problems, "\n".join(
        tally.problems[:20]
    )
    assert tally.mails and tally.timeouts and tally.blurred
    assert tally.carded or game != "advciv", "no replay page named a card: the check of its cards is blind"
