"""Every game with a bot (`bot_order`): its bot answers every wait, ends the game as the rules end it,
decides only from what its seat may know, and the contract's checks hold over games where bots, random
players and the site's defaults sit at one table (the states random play alone rarely reaches)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import pytest

from app.games import registry
from app.games.amunre import view as amunre_view
from app.games.amunre.cards import GOLD_COUNTS, MINUS_THREE_CARDS
from app.games.amunre.model import BLOCKS, DOUBLES, FARMERS, PYRAMIDS
from app.games.amunre.model import State as AmunReState
from app.games.contract import GameRules, RuleError, bot_order_of, created_options
from app.games.dragonstones import view as dragonstones_view
from app.games.dragonstones.model import COIN_SUPPLY, STONE_SUPPLY, Bid, Coins, TieBid
from app.games.dragonstones.model import State as DragonstonesState
from app.games.kit.model import evolve
from app.games.tigris import view as tigris_view
from app.games.tigris.board import HAND_SIZE
from app.games.tigris.model import State as TigrisState
from tests.games.amunre.helpers import blur_others
from tests.games.tigris.helpers import blur

BOTS = [rules for rules in registry.all_games() if bot_order_of(rules) is not None]
MAX_ORDERS = 200_000  # a bot game longer than this is a runaway
STEPS = 400  # orders per mixed game in the contract checks (most of a short game)
# All-bot games to the end, per game: (players, seeds) pairs; two seeds at the fewest and at the most
# players unless given. Long runs: bench/. Advanced Civilization's games are long: one seeded 3-player game
# here (its 3-, 5- and 8-player games are in tests/games/advciv/test_bot.py).
ENDINGS: dict[str, tuple[tuple[int, tuple[int, ...]], ...]] = {"advciv": ((3, (0,)),)}

Policy = Callable[[GameRules[Any], Any, int, random.Random], Mapping[str, Any]]


def bot(rules: GameRules[Any], state: Any, seat: int, rng: random.Random) -> Mapping[str, Any]:
    play = bot_order_of(rules)
    assert play is not None
    return play(state, seat, rng)


def randomly(rules: GameRules[Any], state: Any, seat: int, rng: random.Random) -> Mapping[str, Any]:
    return rules.sample_order(state, seat, rng)


def by_default(rules: GameRules[Any], state: Any, seat: int, rng: random.Random) -> Mapping[str, Any]:
    return rules.default_order(state, seat)


MIXED: tuple[Policy, ...] = (bot, randomly, by_default)  # seat s plays MIXED[s % 3]


def games(rules: GameRules[Any], players: int, seed: int, policies: tuple[Policy, ...]) -> Iterator[Any]:
    """The states of one game, from the first, each seat playing `policies[seat % len(policies)]` (the
    seat acting is the first awaited one, or a random one when several are)."""
    rng = random.Random(seed)
    state = rules.new_game(created_options(rules), players, seed)
    yield state
    for _ in range(MAX_ORDERS):
        waits = rules.waits(state)
        if not waits:
            return
        seat = rng.choice(waits).seat if len(waits) > 1 else waits[0].seat
        order = policies[seat % len(policies)](rules, state, seat, rng)
        state = rules.apply(state, seat, order).state
        yield state
    raise AssertionError(f"{rules.id}: seed {seed} did not end in {MAX_ORDERS} orders")


def logged_game(
    rules: GameRules[Any], players: int, seed: int, policies: tuple[Policy, ...], steps: int
) -> Iterator[tuple[Any, int, Mapping[str, Any], Any]]:
    """(state, seat, order, next state) for each of the first `steps` orders of a game."""
    rng = random.Random(seed)
    state = rules.new_game(created_options(rules), players, seed)
    for _ in range(steps):
        waits = rules.waits(state)
        if not waits:
            return
        seat = rng.choice(waits).seat
        order = policies[seat % len(policies)](rules, state, seat, rng)
        following = rules.apply(state, seat, order).state
        yield state, seat, order, following
        state = following


# --- what a seat cannot see, changed ---------------------------------------------------------------------


def _dragonstones_scramble(state: DragonstonesState, seat: int) -> DragonstonesState:
    """Other screens and sealed bids, the pile's and the deck's order, the generator."""
    auction = state.auction
    bids, tiebids = list(auction.bids), list(auction.tiebids)
    for other in range(len(state.players)):
        if other == seat:
            continue
        state = state.with_player(other, replace(state.players[other], screen=Coins(7, 7, 7, 7, 7)))
        if not auction.revealed and bids[other] is not None:
            bids[other] = Bid(fairy=9, gold=9, cursed=True, amulet=True)
        if auction.tied and not auction.outcome and other < len(tiebids) and tiebids[other] is not None:
            tiebids[other] = TieBid(silver=9, amulet=True)
    return evolve(
        state,
        auction=replace(auction, bids=tuple(bids), tiebids=tuple(tiebids)),
        pile=tuple(reversed(state.pile)),
        deck=tuple(reversed(state.deck)),
        rng=state.rng ^ 0x5EED,
    )


def _amunre_scramble(state: AmunReState, seat: int) -> AmunReState:
    """Other hands and sealed offerings, the face-down cards, the decks' order, the generator."""
    blurred = blur_others(state, seat)
    return evolve(blurred, province_deck=tuple(reversed(state.province_deck)), rng=state.rng ^ 0x5EED)


def _tigris_scramble(state: TigrisState, seat: int) -> TigrisState:
    """Other hands, points and treasures (unless open), the bag's contents, the generator."""
    return blur(state, seat)


SCRAMBLERS: dict[str, Callable[[Any, int], Any]] = {
    "dragonstones": _dragonstones_scramble,
    "amunre": _amunre_scramble,
    "tigris": _tigris_scramble,
}


# --- each game's invariants ----------------------------------------------------------------------------


def _dragonstones_holds(state: DragonstonesState) -> None:
    assert state.coin_total() == COIN_SUPPLY and state.stone_total() == STONE_SUPPLY
    for player in state.players:
        assert min(player.screen.as_dict().values()) >= 0 and min(player.stones.as_dict().values()) >= 0
        assert player.front_fairy >= 0


def _tigris_holds(state: TigrisState) -> None:
    assert state.tile_total() == 153
    assert all(min(player.hand) >= 0 and sum(player.hand) <= HAND_SIZE for player in state.players)
    assert min(state.bag) >= 0


def _amunre_holds(state: AmunReState) -> None:
    assert state.gold_total() == GOLD_COUNTS
    assert state.minus_three_total() == MINUS_THREE_CARDS
    assert state.power_total() == 39
    assert state.piece_totals() == (BLOCKS, PYRAMIDS, DOUBLES, FARMERS)
    assert min(state.bank) >= 0 and min(min(p.gold) for p in state.players) >= 0


INVARIANTS: dict[str, Callable[[Any], None]] = {
    "dragonstones": _dragonstones_holds,
    "tigris": _tigris_holds,
    "amunre": _amunre_holds,
}


# --- the questions each game asks: its prompts but those that ask nothing ---------------------------------

NOT_QUESTIONS = frozenset({"wait", "game_over", "spectator", "rebid", "bid_sent", "offered", "sell"})
QUESTIONS: dict[str, frozenset[str]] = {
    "dragonstones": frozenset(dragonstones_view.PROMPTS) - NOT_QUESTIONS,
    "tigris": frozenset(tigris_view.PROMPTS) - NOT_QUESTIONS,
    "amunre": frozenset(amunre_view.PROMPTS) - NOT_QUESTIONS,
}
GAMES_FOR_QUESTIONS = 100  # mixed games at most, until the bot has met every question


# --- the tests -----------------------------------------------------------------------------------------


@pytest.fixture(params=BOTS, ids=lambda rules: rules.id)
def rules(request: pytest.FixtureRequest) -> GameRules[Any]:
    game: GameRules[Any] = request.param
    return game


def test_the_three_short_games_have_bots() -> None:
    assert {"dragonstones", "tigris", "amunre"} <= {rules.id for rules in BOTS}


def test_bot_order_of_finds_the_optional_method() -> None:
    assert bot_order_of(object()) is None
    for rules in BOTS:
        assert bot_order_of(rules) == rules.bot_order  # type: ignore[attr-defined]


def _endings() -> list[Any]:
    cases = []
    for rules in BOTS:
        both = ((rules.min_players, (0, 1)), (rules.max_players, (0, 1)))
        for players, seeds in ENDINGS.get(rules.id, both):
            cases.append(pytest.param(rules, players, seeds, id=f"{rules.id}-{players}"))
    return cases


@pytest.mark.parametrize(("game", "players", "seeds"), _endings())
def test_bot_games_end_as_the_rules_end_them(
    game: GameRules[Any], players: int, seeds: tuple[int, ...]
) -> None:
    for seed in seeds:
        *_, last = games(game, players, seed, (bot,))
        assert not game.waits(last)
        standings = game.standings(last)
        assert standings is not None and sorted(s.seat for s in standings) == list(range(players))


def test_a_bot_answers_every_question_of_its_game(rules: GameRules[Any]) -> None:
    """Along tables where bots sit with random players (whose odd choices lead to the rare questions, such
    as an Amun-Re bid beyond one's gold): at every wait, whoever's seat it is, the bot's answer is legal."""
    questions = QUESTIONS.get(rules.id)
    if questions is None:
        pytest.skip(f"no list of questions for {rules.id}")
    legal_for = getattr(rules, "legal_for")  # noqa: B009 - the kit's method, not the contract's
    answered: set[str] = set()
    asked = random.Random(0)
    for seed in range(GAMES_FOR_QUESTIONS):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        previous = None
        for state in games(rules, players, seed, (bot, randomly)):
            for wait in rules.waits(state):
                prompt = legal_for(state, wait.seat).prompt
                if prompt in questions and prompt not in answered:
                    rules.apply(state, wait.seat, bot(rules, state, wait.seat, asked))  # legal, or RuleError
                    answered.add(prompt)
            previous = state
        assert previous is not None
        if answered >= questions:
            break
    assert questions - answered == set()


def test_a_bot_decides_from_what_its_seat_may_see(rules: GameRules[Any]) -> None:
    scramble = SCRAMBLERS.get(rules.id)
    if scramble is None:
        pytest.skip(f"no scrambler for {rules.id}: its own tests cover its hidden information")
    play = bot_order_of(rules)
    assert play is not None
    changed = 0
    for seed, players in enumerate((rules.min_players, rules.max_players)):
        for step, state in enumerate(games(rules, players, seed, MIXED)):
            if step >= 2 * STEPS:
                break
            for wait in rules.waits(state):
                other = scramble(state, wait.seat)
                changed += other != state
                assert rules.view(other, wait.seat) == rules.view(state, wait.seat)
                order = play(state, wait.seat, random.Random(step))
                assert play(other, wait.seat, random.Random(step)) == order
    assert changed  # the scrambler did hide something


@pytest.mark.parametrize("players", ["min", "max"])
def test_the_contract_holds_over_mixed_tables(rules: GameRules[Any], players: str) -> None:
    """Purity, nonsense refused, every awaited seat's default legal, views JSON, the invariants, and in the
    end a replay equal to the stored state and a JSON round trip."""
    count = rules.min_players if players == "min" else rules.max_players
    seed = 17 + count
    holds = INVARIANTS.get(rules.id, lambda state: None)
    log: list[tuple[int, Mapping[str, Any]]] = []
    state = rules.new_game(created_options(rules), count, seed)
    for step, (before, seat, order, state) in enumerate(logged_game(rules, count, seed, MIXED, STEPS)):
        dumped = rules.dump(before)
        rules.apply(before, seat, order)
        assert rules.dump(before) == dumped
        with pytest.raises(RuleError):
            rules.apply(before, seat, {"type": "no such order"})
        for wait in rules.waits(before):
            rules.apply(before, wait.seat, rules.default_order(before, wait.seat))
        if step % 10 == 0:
            for viewer in [*range(count), None]:
                json.dumps(rules.view(before, viewer))
        holds(state)
        log.append((seat, order))
    replayed = rules.new_game(created_options(rules), count, seed)
    for seat, order in log:
        replayed = rules.apply(replayed, seat, order).state
    assert rules.dump(replayed) == rules.dump(state)
    assert rules.load(json.loads(json.dumps(rules.dump(state)))) == state
