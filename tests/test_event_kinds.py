"""Every event kind a game can emit renders, in the log and in a mail, in English and in French.

The kinds are read from the rules' source (each `emit("kind", ...)` and `Event("kind", ...)` call), so a new
kind is covered without anyone listing it. The events rendered are real ones, collected from bot games and
random games of every game; a kind those games never produce fails the test, unless `RARE` says why it
cannot be met in short games. "Renders" means: no template error, no raw template syntax, no fallback to
the bare kind name, no 'None' or 'Undefined' shown, and a French line that is not the English one.
"""

from __future__ import annotations

import ast
import html
import json
import random
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from jinja2 import Environment
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.games import registry
from app.games.contract import Event, GameRules, RuleError, bot_order_of, clock_order_of
from app.games.dragonstones.auction import rebid_legal
from app.main import make_templates
from app.models import Game, GameEvent, User, WaitRow
from app.services.deadlines import outage
from app.services.jobs import admin_clock, sweeper
from app.services.mail.dispatch import Item, Letter
from app.services.moderation import interventions
from app.services.play import absence, draft, play, seats
from app.services.social import lobby
from app.web.emails import EmailRenderer
from app.web.i18n import Translator
from app.web.pages.play import BOARD_DRAWINGS
from tests.moderation.helpers import fast_passwords, make_user, make_users

GAMES_ROOT = Path(__file__).resolve().parent.parent / "app" / "games"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
LANGUAGES = ("en", "fr")
GAMES_PER_RULES = 100  # games played at most, until every kind has been met
LONG_GAMES = {"advciv": 8}  # games played at most for a game whose games are long
MAX_ORDERS = 4000  # orders per game at most (a random Advanced Civilization game runs far longer)
EXAMPLES = 4  # events kept per kind: the first of each shape of its data, up to this many

# Kinds that short bot and random games cannot be counted on to meet, and why. Keep this tiny.
RARE: dict[tuple[str, str], str] = {
    ("amunre", "bank_rounded"): "the bank must be unable to make change, every small card being in hands",
    ("amunre", "reward_lost"): "a reward nothing can be taken for: no province with room and no card",
    # A seat's second thoughts, which neither the bot nor random play has: the web tests take them
    # (tests/test_advciv_web.py, tests/test_advciv_market_web.py).
    ("advciv", "move_undone"): "a move entered, then taken back",
    ("advciv", "moves_reopened"): "moves finalised, then opened again before the others finish",
    ("advciv", "market_reentered"): "a seat that left the market coming back while it is open",
}
TIMEOUT_KINDS = frozenset({"platform:timeout", "platform:timeout_default"})
LEAKED_SYNTAX = re.compile(r"\{\{|\}\}|\{%|%\}|\{#")
BLANK_VALUE = re.compile(r"\b(None|Undefined|undefined)\b")


def real_games() -> list[GameRules[Any]]:
    """The games the site serves (the tests' own fake games aside)."""
    return [rules for rules in registry.all_games() if type(rules).__module__.startswith("app.games.")]


def emitted_kinds(game: str) -> set[str]:
    """Every kind named by an `emit("kind", ...)` or `Event("kind", ...)` call in the game's package."""
    found: set[str] = set()
    for path in sorted((GAMES_ROOT / game).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name not in ("emit", "Event"):
                continue
            kind = node.args[0]
            assert isinstance(kind, ast.Constant) and isinstance(kind.value, str), (
                f"{path.name}:{node.lineno}: an event kind must be a string literal, for this test to list it"
            )
            found.add(kind.value)
    return found


def expected_kinds(game: str) -> set[str]:
    """The game's own kinds, and the platform's that carry the game's words (the default played)."""
    return emitted_kinds(game) | TIMEOUT_KINDS


def allowed_missing(rules: GameRules[Any]) -> set[str]:
    return {kind for game, kind in RARE if game == rules.id}


# --- real events -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """One event as the log stores it, and the state just after the order that produced it."""

    kind: str
    data: dict[str, Any]
    visible_to: list[int] | None
    state: Any


Policy = Callable[[GameRules[Any], Any, int, random.Random], Mapping[str, Any]]


def by_bot(rules: GameRules[Any], state: Any, seat: int, rng: random.Random) -> Mapping[str, Any]:
    play = bot_order_of(rules)
    assert play is not None
    return play(state, seat, rng)


def at_random(rules: GameRules[Any], state: Any, seat: int, rng: random.Random) -> Mapping[str, Any]:
    return rules.sample_order(state, seat, rng)


def by_default(rules: GameRules[Any], state: Any, seat: int, rng: random.Random) -> Mapping[str, Any]:
    return rules.default_order(state, seat)


POLICIES: tuple[Policy, ...] = (by_bot, at_random, by_default)
# Three games in four a table with no bot: random players' second thoughts (a move taken back, a market left
# and entered again) and odd fights (a city attacked for a card) are what bots seldom do.
NO_BOT: tuple[Policy, ...] = (at_random, at_random, by_default)


SeatOrder = tuple[int, Mapping[str, Any]]


def _dragonstones_rebid(state: Any, rng: random.Random) -> SeatOrder | None:
    """A seat changing its sealed bid (an order the game does not wait for), to the same bid."""
    seats = [seat for seat in range(len(state.players)) if rebid_legal(state, seat) is not None]
    if not seats:
        return None
    seat = rng.choice(seats)
    legal = rebid_legal(state, seat)
    assert legal is not None
    return seat, legal.default.model_dump()


# Orders a seat may send while the game does not wait on it, which neither bots nor `sample_order` send.
UNAWAITED: dict[str, Callable[[Any, random.Random], SeatOrder | None]] = {
    "dragonstones": _dragonstones_rebid,
}
UNAWAITED_CHANCE = 0.05
CLOCK_CHANCE = 0.05


def events_of_one_game(rules: GameRules[Any], seed: int) -> Iterator[Seen]:
    """A game where seat s plays `POLICIES[(s + seed) % 3]` (bot, random, the site's default; three games
    in four `NO_BOT`), with now and then an order the game does not wait for, or the clock's order in a trade
    market (its embargo ends)."""
    policies = POLICIES if seed % 4 == 0 else NO_BOT
    rng = random.Random(seed)
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    state = rules.new_game(rules.Options(), players, seed)
    for _ in range(MAX_ORDERS):
        waits = rules.waits(state)
        if not waits:
            return
        found = extra_order(rules, state, rng)
        if found is not None:
            seat, order = found
        else:
            seat = rng.choice(waits).seat
            order = policies[(seat + seed) % len(policies)](rules, state, seat, rng)
        outcome = rules.apply(state, seat, order)
        state = outcome.state
        timed_out = [] if found is not None or (seat + seed) % len(POLICIES) != 2 else timeout(seat, order)
        for event in [*outcome.events, *timed_out]:
            yield stored(event, state)


def extra_order(
    rules: GameRules[Any], state: Any, rng: random.Random
) -> tuple[int, Mapping[str, Any]] | None:
    """Now and then, an order the game does not wait for (`UNAWAITED`), or the clock's order in a market,
    from its lowest seat, as the platform sends it when the embargo ends; None: an awaited seat plays."""
    unawaited = UNAWAITED.get(rules.id)
    if unawaited is not None and rng.random() < UNAWAITED_CHANCE:
        return unawaited(state, rng)
    clock = clock_order_of(rules)
    in_market = sorted(wait.seat for wait in rules.waits(state) if wait.market)
    if clock is None or not in_market or rng.random() >= CLOCK_CHANCE:
        return None
    try:
        rules.apply(state, in_market[0], clock)
    except RuleError:  # no embargo to end now
        return None
    return in_market[0], clock


def timeout(seat: int, order: Mapping[str, Any]) -> list[Event]:
    """What the platform logs when it plays the default at the time limit (as the seats playing the default
    here do): its own events, made by its own function."""
    held = SimpleNamespace(seats=[SimpleNamespace(number=seat, missed_turns=1)])
    return play.timeout_events(held, seat, order)  # type: ignore[arg-type]


def stored(event: Event, state: Any) -> Seen:
    """The event as the database gives it back: its data through JSON."""
    visible_to = sorted(event.to) if event.to is not None else None
    return Seen(event.kind, json.loads(json.dumps(event.data)), visible_to, state)


def shape(data: Mapping[str, Any]) -> tuple[tuple[str, str, bool], ...]:
    """What a template's branches depend on: which fields, of which types, set or empty."""
    return tuple(sorted((key, type(value).__name__, bool(value)) for key, value in data.items()))


@cache
def examples(game: str) -> dict[str, list[Seen]]:
    """Up to `EXAMPLES` events of each kind, of different shapes, from as many games as needed."""
    rules = registry.get(game)
    wanted = expected_kinds(game) - allowed_missing(rules)
    found: dict[str, list[Seen]] = {}
    for seed in range(LONG_GAMES.get(game, GAMES_PER_RULES)):
        for seen in events_of_one_game(rules, seed):
            kept = found.setdefault(seen.kind, [])
            if len(kept) < EXAMPLES and shape(seen.data) not in {shape(other.data) for other in kept}:
                kept.append(seen)
        if wanted <= found.keys():
            break
    return found


# --- rendering -------------------------------------------------------------------------------------------


@cache
def page_templates() -> Environment:
    return make_templates().env


@cache
def mail_renderer() -> EmailRenderer:
    return EmailRenderer()


def names(players: int) -> list[str]:
    return [f"Scribe{seat}" for seat in range(players)]


def log_line(rules: GameRules[Any], seen: Seen, language: str) -> str:
    """The event as a log page shows it to a viewer who may see it (its first seat, or a spectator)."""
    viewer = seen.visible_to[0] if seen.visible_to else None
    board = rules.view(seen.state, viewer)
    players = len(rules.view(seen.state, None).get("players", ())) or rules.max_players
    view = SimpleNamespace(
        players=names(players), rolled_back=frozenset(), board=board, seat=viewer, log=[], waits=[]
    )
    event = SimpleNamespace(
        kind=seen.kind, data=seen.data, visible_to=seen.visible_to, order_seq=1, created_at=NOW
    )
    context: dict[str, Any] = {
        **Translator(language).template_globals(),
        "event": event,
        "game": SimpleNamespace(id=0, game_type=rules.id),
        "view": view,
        "board": board,
        "template_dir": f"games/{rules.id}",
        "now": NOW,
    }
    drawing = BOARD_DRAWINGS.get(rules.id)
    if drawing is not None:
        context[rules.id] = drawing(board, viewer, None, NOW)
    return page_templates().get_template("partials/log_entry.html").render(context)


def mail_lines(rules: GameRules[Any], seen: Seen, language: str) -> tuple[str, str]:
    """The event in a "news from the game" mail: its line of the text part and of the HTML part."""
    public = rules.view(seen.state, None)
    players = names(len(public.get("players", ())) or rules.max_players)
    url = "https://games.example.com/games/1"
    game = {"id": 1, "name": "Crawl", "type": rules.id, "title": rules.title, "url": url, "players": players}
    context = {
        "game": game,
        "footer": {"game_type": rules.id, "view": public},
        "events": [{"seq": 1, "kind": seen.kind, "data": seen.data}],
        "url": url,
    }
    letter = Letter(language, "UTC", [Item("game_news", context)], digest=False)
    mail = mail_renderer().render(letter)
    text = [line[2:] for line in mail.text.splitlines() if line.startswith("- ")]
    html = re.findall(r"<li>(.*?)</li>", mail.html, re.DOTALL)
    assert len(text) == 1 and len(html) == 1, (mail.text, mail.html)
    return text[0], html[0]


def problems(line: str, kind: str) -> list[str]:
    """What is wrong with one rendered line of the event `kind`."""
    found = []
    text = re.sub(r"<[^>]+>", "", line).strip()
    if not text:
        found.append("empty")
    if LEAKED_SYNTAX.search(line):
        found.append("raw template syntax")
    if 'class="event-kind"' in line or text == kind or text.startswith(f"{kind} —"):
        found.append("the bare kind (no template for it)")
    if BLANK_VALUE.search(text):
        found.append("None or Undefined shown")
    return found


# --- the tests -------------------------------------------------------------------------------------------


def test_the_kinds_are_found_in_the_rules() -> None:
    assert {"round_started", "bids_revealed", "auction_won"} <= emitted_kinds("dragonstones")
    assert "city_revolted" in emitted_kinds("advciv")
    for rules in real_games():
        assert not {kind for game, kind in RARE if game == rules.id} - emitted_kinds(rules.id)


@pytest.mark.parametrize("game", [rules.id for rules in real_games()])
def test_every_kind_is_met_in_bot_and_random_games(game: str) -> None:
    rules = registry.get(game)
    met = examples(game).keys()
    declared = expected_kinds(game)
    assert met <= declared, f"{game} emits kinds its source does not name: {sorted(met - declared)}"
    assert declared - allowed_missing(rules) - met == set(), f"{game}: never met in the games played"
    met_anyway = allowed_missing(rules) & met
    assert not met_anyway, f"{game}: {sorted(met_anyway)} are met: take them off the allowed kinds"


def rendered(rules: GameRules[Any], seen: Seen) -> dict[tuple[str, str], str]:
    """The event's line in each place and language: (place, language) -> line."""
    lines: dict[tuple[str, str], str] = {}
    for language in LANGUAGES:
        lines["log", language] = log_line(rules, seen, language)
        lines["text mail", language], lines["html mail", language] = mail_lines(rules, seen, language)
    return lines


def render_failures(rules: GameRules[Any], seen: Seen, same_in_mail: bool = False) -> list[str]:
    """What is wrong with the event's lines (every failure listed, not the first one only). `same_in_mail`:
    the mail's line reads as the log's (one template writes both, as the platform's do)."""
    kind = seen.kind
    try:
        lines = rendered(rules, seen)
    except Exception as error:
        return [f"{kind}: {type(error).__name__}: {error} from {seen.data}"]
    failures = [
        f"{kind} ({place}, {language}): {problem}: {line!r}"
        for (place, language), line in lines.items()
        for problem in problems(line, kind)
    ]
    for place in ("log", "text mail"):
        if lines[place, "en"] == lines[place, "fr"]:
            failures.append(f"{kind} ({place}): the French line is the English one: {lines[place, 'en']!r}")
    for language in LANGUAGES if same_in_mail else ():
        log, mail = (plain(lines[place, language]) for place in ("log", "html mail"))
        if log != mail:
            failures.append(f"{kind} ({language}): the mail says {mail!r}, the log {log!r}")
    return failures


def plain(line: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", line)).split())


@pytest.mark.parametrize("game", [rules.id for rules in real_games()])
def test_every_kind_renders_in_the_log_and_in_mails_in_both_languages(game: str) -> None:
    rules = registry.get(game)
    failures: list[str] = []
    for _kind, seen_events in sorted(examples(game).items()):
        for seen in seen_events:
            failures += render_failures(rules, seen)
    assert not failures, "\n".join(failures)


# --- the platform's own kinds ------------------------------------------------------------------------------

APP_ROOT = GAMES_ROOT.parent
TEMPLATES = APP_ROOT.parent / "templates"
PLATFORM_TEMPLATES = ("partials/platform_event.html", "moderation/_event.html")


def platform_kinds() -> tuple[set[str], set[str]]:
    """The platform's kinds named in the application's source: whole ones, and the prefixes of those made
    by an f-string (`f"platform:moderation_{kind}"`)."""
    whole: set[str] = set()
    prefixes: set[str] = set()
    for path in sorted(APP_ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if re.fullmatch(r"platform:[a-z_]*[a-z]", node.value):
                    whole.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values:
                first = node.values[0]
                if isinstance(first, ast.Constant) and str(first.value).startswith("platform:"):
                    prefixes.add(str(first.value))
    return whole, prefixes


def test_every_platform_kind_has_its_own_words() -> None:
    """Each kind the platform writes in a log has its branch in the platform's templates (the timeouts,
    which carry each game's words, are rendered from real events above)."""
    whole, prefixes = platform_kinds()
    assert TIMEOUT_KINDS | {"platform:game_started", "platform:seat_taken"} <= whole
    assert prefixes == {"platform:moderation_"}
    words = "".join((TEMPLATES / name).read_text(encoding="utf-8") for name in PLATFORM_TEMPLATES)
    assert not {kind for kind in whole if f'event.kind == "{kind}"' not in words}
    assert not {prefix for prefix in prefixes if f'event.kind.startswith("{prefix}")' not in words}


# --- the platform's kinds from real events -----------------------------------------------------------------

REASON = "The players asked for it."
# Platform kinds the services below cannot produce in one game, and why. Keep this tiny.
PLATFORM_RARE: dict[str, str] = {}


def platform_kinds_expected() -> set[str]:
    """Every kind the platform writes: the whole ones, and those its f-string makes (a hold's kind)."""
    whole, prefixes = platform_kinds()
    assert prefixes == {"platform:moderation_"}
    return whole | {f"platform:moderation_{kind}" for kind in interventions.HOLD_KINDS}


def _game(db: Session, game_id: int) -> Game:
    db.expire_all()
    game = db.get(Game, game_id)
    assert game is not None
    return game


def _draft_with_a_conflict(db: Session, game_id: int, users: Mapping[int, User], at: datetime) -> None:
    """The seat draft: the second and third seats in pick order pre-select the same choice, the first
    chooses another; the third, beaten to it, is told so and chooses again."""
    picks = [pick.seat for pick in draft.picks_of(db, game_id)]
    free = list(draft.choices_of(_game(db, game_id)) or [])
    draft.choose(db, users[picks[2]], game_id, free[1], at)
    draft.choose(db, users[picks[1]], game_id, free[1], at)
    draft.choose(db, users[picks[0]], game_id, free[0], at)
    for seat in picks[2:]:
        taken = {pick.choice for pick in draft.picks_of(db, game_id)}
        db.commit()
        draft.choose(db, users[seat], game_id, next(c for c in free if c not in taken), at)


def _bot_orders(db: Session, game_id: int, users: Mapping[int, User], count: int, at: datetime) -> None:
    rules = registry.get("advciv")
    bot = bot_order_of(rules)
    assert bot is not None
    rng = random.Random(26)
    for _ in range(count):
        game = _game(db, game_id)
        state, version = rules.load(game.state or {}), game.version
        db.commit()
        seat = rng.choice(rules.waits(state)).seat
        play.submit(db, users[seat], game_id, bot(state, seat, rng), version, at)


def platform_events(db: Session) -> tuple[GameRules[Any], list[Seen]]:
    """An Advanced Civilization game through the services, with every platform event it can have: its seat
    draft (a pre-selection beaten to it), a quit and a replacement, an eviction, the clock quarantined and
    released, an outage made up for, a pause and a lock with their ends, a deadline extended, a rollback, a
    player removed, and the game aborted. Its platform events, as stored."""
    at = NOW
    with fast_passwords():
        moderator = make_user(db, "Warden", "admin")
        players = make_users(db, "Ann", "Ben", "Cat", "Dan")
        newcomer = make_user(db, "Eve")
    game = lobby.create_game(db, players[0], game_type="advciv", players=4, time_limit_hours=24, now=at)
    game_id = game.id
    for user in players[1:]:
        lobby.join_game(db, user, game_id, at)
    users = {
        seat.number: next(u for u in players if u.id == seat.user_id)
        for seat in _game(db, game_id).seats
        if seat.number is not None
    }
    db.commit()
    _draft_with_a_conflict(db, game_id, users, at)
    _bot_orders(db, game_id, users, 3, at)
    seats.quit_game(db, users[1], game_id, None, at)
    seats.take_seat(db, newcomer, game_id, 1, at)
    users[1] = newcomer
    game = _game(db, game_id)
    absence.evict(db, game, next(seat for seat in game.seats if seat.number == 2), at)
    db.commit()
    sweeper.quarantine(db, _game(db, game_id), "seat 0: a test", at)
    db.commit()
    admin_clock.release(db, moderator, game_id, at)
    outage.compensate(db, at, at + timedelta(days=2), timedelta(hours=1))
    db.commit()
    for kind in interventions.HOLD_KINDS:
        interventions.hold(db, moderator, game_id, kind, REASON, at)
        interventions.resume(db, moderator, game_id, REASON, at + timedelta(minutes=30))
    awaited = next(row.seat for row in db.scalars(select(WaitRow).where(WaitRow.game_id == game_id)))
    db.commit()
    interventions.extend_deadline(db, moderator, game_id, awaited, 2, REASON, at)
    interventions.rollback(db, moderator, game_id, 2, REASON, at)
    interventions.remove_player(db, moderator, game_id, 3, REASON, at)
    interventions.abort(db, moderator, game_id, REASON, at)
    rules = registry.get("advciv")
    state = rules.load(_game(db, game_id).state or {})
    query = select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.kind.startswith("platform:"))
    events = [
        Seen(row.kind, row.data, sorted(row.visible_to) if row.visible_to is not None else None, state)
        for row in db.scalars(query.order_by(GameEvent.seq))
    ]
    db.commit()
    return rules, events


def test_every_platform_kind_renders_from_real_events_in_the_log_and_in_mails(db: Session) -> None:
    rules, events = platform_events(db)
    met = {seen.kind for seen in events}
    expected = platform_kinds_expected()
    assert met <= expected, f"platform kinds the source does not name: {sorted(met - expected)}"
    assert expected - set(PLATFORM_RARE) - TIMEOUT_KINDS - met == set(), "never met in the game played"
    failures: list[str] = []
    for seen in events:
        failures += render_failures(rules, seen, same_in_mail=True)
    assert not failures, "\n".join(failures)
