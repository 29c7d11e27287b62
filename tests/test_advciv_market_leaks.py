"""Advanced Civilization's trade market (phase 10) leaks nothing: a game of four played through random
market orders (offers with lies, Don't Care and Unspecified slots, answers, counters, withdrawals, Done),
with hands holding tradable and non-tradable calamities. At intervals one visitor's page, live fragment,
API view and log are read twice, the second time with every card it may not know blurred: the other
seats' hands, the real cards behind the offers and trades it is not in, and behind the cards said to it.
They must be the same. The log's events, the mail and the live news say what was said, never the cards
really given: no third seat can tell a lie from a true card."""

from __future__ import annotations

import html
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from email import message_from_string, policy
from email.message import EmailMessage
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.games.advciv import market as mk
from app.games.advciv import trade_cards as tc
from app.games.advciv.model import State
from app.games.contract import clock_order_of
from app.games.kit.model import evolve
from app.models import Game, GameEvent, OutgoingMail, Seat, User
from app.services.mail import dispatch, notify
from app.services.play import live, play
from app.settings import Settings
from app.web.emails import EmailRenderer
from tests.conftest import NOW
from tests.games.advciv.helpers import begin, deal, units
from tests.test_advciv_web import RULES, put_state, start_game
from tests.web_views import responses

PLAYERS = 4
STEPS = 60
TRADABLE = sorted(card for card in tc.FULL_DECK if not tc.is_calamity(card) or tc.CALAMITIES[card].tradable)
NAMEABLE = sorted({*TRADABLE})  # what a side may say a card is, "unspecified" aside


def is_fixed(card: str) -> bool:
    """A non-tradable calamity: it never leaves its drawer, and its depth in a stack is public."""
    return tc.is_calamity(card) and not tc.CALAMITIES[card].tradable


# --- the position ----------------------------------------------------------------------------------------


def market_position(state: State, rng: random.Random) -> State:
    """Phase 10 for four seats, each with a city and 5 to 8 cards: commodities of every stack, two
    tradable calamities and a non-tradable one among them."""
    sites = ["carthago", "knossos", "athens", "memphis"]
    for seat in range(PLAYERS):
        state = units(state, seat, {}, cities=[sites[seat]])
    calamities = ["treachery", "piracy", "famine"]  # tradable, tradable, not
    for seat, card in zip(rng.sample(range(PLAYERS), len(calamities)), calamities, strict=True):
        state = deal(state, seat, [card])
    for seat in range(PLAYERS):
        deck = sorted(card for stack in state.deck for card in stack if not tc.is_calamity(card))
        state = deal(state, seat, rng.sample(deck, rng.randint(5, 8) - len(state.hands[seat])))
    return begin(state, "trade")


# --- random market orders --------------------------------------------------------------------------------


def said_for(cards: list[str], rng: random.Random) -> list[str]:
    """What a side says: the truth for at least two cards, lies (a commodity, a tradable calamity or
    "unspecified") for up to the rest."""
    said = list(cards)
    for index in rng.sample(range(len(cards)), rng.randint(0, len(cards) - mk.TRUE_CARDS)):
        said[index] = rng.choice([*NAMEABLE, mk.UNSPECIFIED])
    return said


def expects_for(state: State, partner: int, rng: random.Random) -> list[str]:
    """Two named slots (mostly cards the partner can give: the test may look), then Don't Care or
    Unspecified."""
    theirs = free_cards(state, partner) or NAMEABLE
    named = [rng.choice(theirs if rng.random() < 0.8 else NAMEABLE) for _ in range(2)]
    return named + [rng.choice((mk.DONT_CARE, mk.UNSPECIFIED)) for _ in range(rng.randint(1, 2))]


def free_cards(state: State, seat: int) -> list[str]:
    assert state.market is not None
    return sorted(card for card in mk.available(state.market, state.hands, seat) if card in TRADABLE)


def a_side(state: State, seat: int, rng: random.Random) -> dict[str, list[str]] | None:
    free = free_cards(state, seat)
    if len(free) < mk.MIN_CARDS:
        return None
    cards = rng.sample(free, rng.randint(mk.MIN_CARDS, min(len(free), mk.MIN_CARDS + 1)))
    return {"cards": cards, "said": said_for(cards, rng)}


def an_answer(state: State, seat: int, found: mk.Offer, rng: random.Random) -> dict[str, list[str]] | None:
    """Cards filling the offer's slots: a named slot by that card where the hand has it, else by a lie."""
    left = Counter(free_cards(state, seat))
    if left.total() < len(found.expects):
        return None
    cards, said = [], []
    for slot in sorted(found.expects, key=lambda slot: slot in (mk.DONT_CARE, mk.UNSPECIFIED)):
        card = slot if left[slot] else rng.choice(sorted(left.elements()))
        left = +(left - Counter([card]))
        cards.append(card)
        said.append(rng.choice(NAMEABLE) if slot == mk.DONT_CARE and rng.random() < 0.3 else slot)
        if slot == mk.DONT_CARE and said[-1] == mk.DONT_CARE:
            said[-1] = card
    if sum(real != told for real, told in zip(cards, said, strict=True)) > len(cards) - mk.TRUE_CARDS:
        return None
    return {"cards": cards, "said": said}


def market_order(state: State, seat: int, rng: random.Random, done_share: float) -> dict[str, Any]:
    market = state.market
    assert market is not None
    incoming = [found for found in market.offers if found.to == seat]
    own = [found for found in market.offers if found.side.seat == seat]
    roll = rng.random()
    if roll < done_share:
        return {"type": "done"}
    if incoming and roll < 0.55:
        found = rng.choice(incoming)
        answer = an_answer(state, seat, found, rng)
        if answer is not None and roll < 0.4:
            return {"type": "accept", "offer": found.id, **answer}
        side = a_side(state, seat, rng)
        if side is not None and roll < 0.45:
            expects = expects_for(state, found.side.seat, rng)
            return {"type": "counter", "offer": found.id, **side, "expects": expects}
        return {"type": "decline", "offer": found.id}
    if own and roll < 0.62:
        return {"type": "withdraw", "offer": rng.choice(own).id}
    partners = [
        other
        for other in range(PLAYERS)
        if other not in (seat, *market.done) and len(state.hands[other]) >= mk.MIN_CARDS
    ]
    side = a_side(state, seat, rng)
    if side is not None and partners:
        partner = rng.choice(partners)
        return {"type": "offer", "to": partner, **side, "expects": expects_for(state, partner, rng)}
    if own:  # every card promised: one offer taken back frees them
        return {"type": "withdraw", "offer": rng.choice(own).id}
    if incoming:
        return {"type": "decline", "offer": rng.choice(incoming).id}
    return {"type": "done"}


# --- the blur --------------------------------------------------------------------------------------------


@dataclass
class Pool:
    """The cards the viewer cannot place: the other seats' hands and the stacks (but for the non-tradable
    calamities in them, whose depth is public)."""

    cards: Counter[str] = field(default_factory=Counter)

    def take(self, rng: random.Random, wanted: str | None = None, tradable: bool = True) -> str:
        if wanted is not None and self.cards[wanted]:
            card = wanted
        else:
            choices = [c for c in sorted(self.cards.elements()) if not tradable or c in TRADABLE]
            card = rng.choice(choices)
        self.cards -= Counter([card])
        return card


def blurred_side(side: mk.Side, pool: Pool, rng: random.Random, said_to_viewer: bool) -> mk.Side:
    """Other real cards behind the side. Said to the viewer: what was said is kept, with at least two
    cards true, but which ones may change; else what was said changes too."""
    if not said_to_viewer:
        cards = tuple(pool.take(rng) for _ in side.cards)
        return replace(side, cards=cards, said=tuple(said_for(list(cards), rng)))
    positions = [i for i, said in enumerate(side.said) if said != mk.UNSPECIFIED]
    true = set(rng.sample(positions, rng.randint(mk.TRUE_CARDS, len(positions))))
    cards = tuple(pool.take(rng, said if i in true else None) for i, said in enumerate(side.said))
    if sum(real == said for real, said in zip(cards, side.said, strict=True)) < mk.TRUE_CARDS:
        raise LookupError  # the pool could not back the truth: the caller keeps the real cards
    return replace(side, cards=cards)


def blurred(state: State, viewer: int | None, rng: random.Random) -> State:
    """`state` with everything `viewer` may not know of the cards drawn again from what it cannot see."""
    market = state.market
    assert market is not None
    for _ in range(20):
        try:
            return _blurred_once(state, market, viewer, rng)
        except (LookupError, IndexError):
            continue
    raise AssertionError("no blur found")


def _blurred_once(state: State, market: mk.Market, viewer: int | None, rng: random.Random) -> State:
    others = [seat for seat in range(PLAYERS) if seat != viewer]
    pool = Pool(Counter(card for seat in others for card in state.hands[seat]))
    pool.cards += Counter(card for stack in state.deck for card in stack if not is_fixed(card))
    reserved: dict[int, list[str]] = {seat: [] for seat in others}

    def side_of(side: mk.Side, said_to_viewer: bool) -> mk.Side:
        if side.seat == viewer:
            return side
        new = blurred_side(side, pool, rng, said_to_viewer)
        reserved[side.seat] += new.cards
        return new

    offers = tuple(replace(o, side=side_of(o.side, o.to == viewer)) for o in market.offers)
    agreed = tuple(
        replace(
            t,
            first=side_of(t.first, t.second.seat == viewer),
            second=side_of(t.second, t.first.seat == viewer),
        )
        for t in market.agreed
    )
    hands = list(state.hands)
    fixed = [card for seat in others for card in state.hands[seat] if is_fixed(card)]
    pool.cards -= Counter(fixed)
    held: dict[int, list[str]] = {seat: [] for seat in others}
    for card in fixed:
        room = [seat for seat in others if len(reserved[seat]) + len(held[seat]) < len(state.hands[seat])]
        held[rng.choice(room)].append(card)
    for seat in others:
        size = len(state.hands[seat]) - len(reserved[seat]) - len(held[seat])
        hand = [*reserved[seat], *held[seat], *(pool.take(rng, tradable=False) for _ in range(size))]
        rng.shuffle(hand)
        hands[seat] = tuple(hand)
    rest = sorted(pool.cards.elements())
    rng.shuffle(rest)
    deck = []
    for stack in state.deck:
        deck.append(tuple(card if is_fixed(card) else rest.pop() for card in stack))
    assert not rest
    return evolve(
        state,
        hands=tuple(hands),
        deck=tuple(deck),
        market=replace(market, offers=offers, agreed=agreed),
    )


# --- the game --------------------------------------------------------------------------------------------


def card_name(key: str) -> str:
    if key == mk.UNSPECIFIED:
        return "Unspecified"
    found = tc.COMMODITIES.get(key) or tc.CALAMITIES[key]
    return found.name


WORDS = sorted({*map(card_name, tc.FULL_DECK), *tc.FULL_DECK}, key=len, reverse=True)
CARD_WORDS = re.compile(r"\b(" + "|".join(map(re.escape, WORDS)) + r")\b")


@dataclass(frozen=True)
class Mail:
    kind: str
    address: str
    text: str
    html: str


@dataclass
class Table:
    db: Session
    game_id: int
    holders: dict[int, User]
    rng: random.Random
    last_event: int = 0
    trades: list[mk.Trade] = field(default_factory=list)  # carried out, as really given and said

    def state(self) -> State:
        game = self.db.get(Game, self.game_id)
        assert game is not None and game.state is not None
        self.db.refresh(game)
        state = RULES.load(game.state)
        self.db.rollback()  # end the read: on SQLite an open transaction holds the write lock
        return state

    def step(self, done_share: float) -> bool:
        state = self.state()
        if state.phase != "trade":
            return False
        market = state.market
        assert market is not None
        if market.embargo and self.rng.random() < 0.05:
            self.lift_embargo()
            self.check_events(state, None)
            return True
        seat = self.rng.choice([wait.seat for wait in RULES.waits(state)])
        order = market_order(state, seat, self.rng, done_share)
        game = self.db.get(Game, self.game_id)
        assert game is not None
        play.submit(self.db, self.holders[seat], self.game_id, order, game.version, NOW)
        self.check_events(state, (seat, order))
        return True

    def lift_embargo(self) -> None:
        game = play.locked_game(self.db, self.game_id)
        seat = RULES.waits(RULES.load(game.state or {}))[0].seat
        play.apply_order(
            self.db, game, seat, dict(clock_order_of(RULES) or {}), origin="clock", user_id=None, now=NOW
        )
        self.db.commit()

    def check_events(self, before: State, sent: tuple[int, dict[str, Any]] | None) -> None:
        """The order's events: an offer to its two seats only, without its cards; a trade announced to
        all as said; the cards really received to their taker alone."""
        market = before.market
        assert market is not None
        rows = list(
            self.db.scalars(
                select(GameEvent)
                .where(GameEvent.game_id == self.game_id, GameEvent.seq > self.last_event)
                .order_by(GameEvent.seq)
            )
        )
        self.db.rollback()
        possible = list(market.agreed)
        if sent is not None and sent[1]["type"] == "accept":
            seat, order = sent
            found = next(o for o in market.offers if o.id == order["offer"])
            said = order["said"]
            possible.append(mk.Trade(found.id, found.side, mk.Side(seat, tuple(order["cards"]), tuple(said))))
        for row in rows:
            self.last_event = row.seq
            if row.kind == "offer_made":
                assert sorted(row.visible_to or []) == sorted([row.data["seat"], row.data["partner"]])
                assert "cards" not in row.data
            if row.kind == "cards_received":
                assert row.visible_to == [row.data["seat"]]
            if row.kind == "trade_announced":
                assert row.visible_to is None
                trade = next(t for t in possible if [t.first.seat, t.second.seat] == row.data["seats"])
                possible.remove(trade)
                self.trades.append(trade)
                assert row.data["said"] == [sorted(trade.first.said), sorted(trade.second.said)]


def viewer_seats(state: State, viewer: int | None) -> str:
    return "spectator" if viewer is None else f"seat {viewer}"


def test_no_third_seat_can_tell_a_lie_from_a_true_card(
    make_client: Any,
    db: Session,
    sessions: sessionmaker[Session],
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    news: list[tuple[str, Any]] = []
    payload, publish = live.notify_payload, live.BUS.publish

    def heard_payload(*args: Any) -> str:
        news.append(("notify", payload(*args)))
        return payload(*args)

    def heard_publish(*args: Any) -> None:
        news.append(("publish", args))
        publish(*args)

    monkeypatch.setattr(live, "notify_payload", heard_payload)
    monkeypatch.setattr(live.BUS, "publish", heard_publish)
    game_id, by_seat, spectator = start_game(make_client, PLAYERS)
    holders = seat_holders(db, game_id)
    for user in holders.values():
        notify.save_preferences(
            db, user, notify.Preferences(dict.fromkeys(notify.CHOOSABLE, "immediate"), "", "", 8, True)
        )
    rng = random.Random(2026)
    table = Table(db, game_id, holders, rng)
    position = market_position(table.state(), rng)
    assert position.trade_mail and position.market is not None
    put_state(db, game_id, position)
    table.last_event = max(db.scalars(select(GameEvent.seq).where(GameEvent.game_id == game_id)), default=0)
    db.rollback()
    viewers: list[tuple[int | None, TestClient]] = [*sorted(by_seat.items()), (None, spectator)]
    compared = lies_unseen = lies_said_to_viewer = 0
    for step in range(STEPS):
        if not table.step(0.0 if step < STEPS * 3 // 4 else 0.2):
            break
        if step % 5:
            continue
        viewer, client = rng.choice(viewers)
        game = db.get(Game, game_id)
        assert game is not None and game.state is not None
        original = game.state
        state = RULES.load(original)
        db.rollback()
        before = responses(client, game_id)
        game = db.get(Game, game_id)
        assert game is not None
        game.state = RULES.dump(blurred(state, viewer, rng))
        db.commit()
        after = responses(client, game_id)
        game = db.get(Game, game_id)
        assert game is not None
        game.state = original
        db.commit()
        assert after == before, f"the {viewer_seats(state, viewer)} tells the cards apart at step {step}"
        compared += 1
        assert state.market is not None
        lies_unseen += sum(o.side.seat != viewer and o.side.lies > 0 for o in state.market.offers)
        lies_said_to_viewer += sum(o.to == viewer and o.side.lies > 0 for o in state.market.offers)
    assert compared >= 10 and lies_unseen >= 5 and lies_said_to_viewer >= 1
    lies = [side for t in table.trades for side in (t.first, t.second) if side.lies]
    assert len(table.trades) >= 3 and lies, "the random market carried out trades with lies"
    mails = outgoing(db, sessions, settings, game_id)
    assert sum(m.kind == "game_news" for m in mails) >= PLAYERS
    game = db.get(Game, game_id)
    assert game is not None
    check_mail(mails, table.trades, game.name)
    versions = [json.loads(text) for kind, text in news if kind == "notify"]
    published = [args for kind, args in news if kind == "publish"]
    assert versions or published
    for said in versions:
        assert set(said) == {"game", "version"}  # the live news: which version, nothing of the cards
    for game_news, version, *audience in published:
        assert game_news == game_id and isinstance(version, int) and audience in ([], [None])


def seat_holders(db: Session, game_id: int) -> dict[int, User]:
    rows = db.execute(
        select(Seat.number, User).join(User, User.id == Seat.user_id).where(Seat.game_id == game_id)
    ).all()
    db.rollback()
    return {number: user for number, user in rows if number is not None}


def outgoing(db: Session, sessions: sessionmaker[Session], settings: Settings, game_id: int) -> list[Mail]:
    """The game's mail waiting in the outbox once the notifications are dispatched."""
    db.rollback()  # end the read: on SQLite an open transaction holds the write lock
    dispatch.dispatch_notifications(sessions, settings, EmailRenderer(), NOW)
    rows = list(
        db.scalars(select(OutgoingMail).where(OutgoingMail.game_id == game_id).order_by(OutgoingMail.id))
    )
    db.rollback()
    mails = []
    for row in rows:
        message = message_from_string(row.raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        parts = [message.get_body(preferencelist=(kind,)) for kind in ("plain", "html")]
        text, html = (str(part.get_content()) if part is not None else "" for part in parts)
        mails.append(Mail(row.kind, row.to_address, text, html))
    return mails


def said_forms(trade: mk.Trade) -> list[str]:
    """How a mail writes a trade's announcement: the game's sentence, with what was said."""
    first, second = sorted(trade.first.said), sorted(trade.second.said)
    return [
        f"says they gave {', '.join(map(card_name, first))} to ",
        f"who says they gave {', '.join(map(card_name, second))} in return.",
    ]


def check_mail(mails: list[Mail], trades: list[mk.Trade], game_name: str) -> None:
    """Each trade is mailed as said; no card is named in any news mail otherwise (the game's generated name
    aside: it may hold a commodity's word)."""
    announced = 0
    for found in (mail for mail in mails if mail.kind == "game_news"):
        for text in (found.text.replace(game_name, ""), html.unescape(found.html).replace(game_name, "")):
            for trade in trades:
                for form in said_forms(trade):
                    announced += form in text
                    text = text.replace(form, "")
            named = CARD_WORDS.search(text)
            assert named is None, f"a mail to {found.address} ({found.kind}) names {named.group(0)}"
    assert announced >= len(trades)
