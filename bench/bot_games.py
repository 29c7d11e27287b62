"""Whole bot games per second for each registered game with a bot (`bot_order`), what they contained, and
how strong the bots are.

For each game and player count: plays `--games` all-bot games to their end from successive seeds and prints
games/s, turns/s, orders/s, turns per game, the games finished, and a summary of their contents (by
default the events of each kind, summed over the games; `CONTENTS` holds a game's richer summary). Then
the bots' strength: one bot among random players (`sample_order`), its win rate against theirs; and in
all-bot games, the win rate by seat. A win shared by k seats counts 1/k to each. Usage:

    python bench/bot_games.py [--game tigris] [--players 2 4] [--games 20] [--seed 0]

A turn is what the game calls one (`TURNS`), else the state's `turn`, else the rules' `progress(state)`,
else the orders per seat.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.games import registry
from app.games.contract import Event, GameRules, bot_order_of, created_options
from bench.advciv_bot_games import advciv_contents

MAX_ORDERS = 200_000

Contents = Callable[[list[Event]], Counter[str]]
TurnCount = Callable[[Any, list[Event]], int]


def event_kinds(events: list[Event]) -> Counter[str]:
    return Counter(event.kind for event in events)


# game id -> what its games contained (default: `event_kinds`)
CONTENTS: dict[str, Contents] = {"advciv": advciv_contents}
# game id -> the turns a finished game lasted, from its last state and its events
TURNS: dict[str, TurnCount] = {
    "amunre": lambda state, events: int(state.round),
    "dragonstones": lambda state, events: sum(1 for event in events if event.kind == "auction_opened"),
}


@dataclass
class Game:
    """One game played to its end (or cut at MAX_ORDERS)."""

    orders: int = 0
    turns: int = 0
    finished: bool = False
    winners: dict[int, float] = field(default_factory=dict)  # seat -> share of the win
    events: list[Event] = field(default_factory=list)


Player = Callable[[Any, int, random.Random], Any]


def play(rules: GameRules[Any], players: int, seed: int, seats: list[Player]) -> Game:
    rng = random.Random(seed)
    state = rules.new_game(created_options(rules), players, seed)
    game = Game()
    for _ in range(MAX_ORDERS):
        waits = rules.waits(state)
        if not waits:
            break
        seat = rng.choice(waits).seat if len(waits) > 1 else waits[0].seat
        outcome = rules.apply(state, seat, seats[seat](state, seat, rng))
        state = outcome.state
        game.events += outcome.events
        game.orders += 1
    standings = rules.standings(state)
    game.finished = standings is not None
    if standings:
        first = [standing.seat for standing in standings if standing.place == 1]
        game.winners = {seat: 1 / len(first) for seat in first}
    game.turns = turns_of(rules, state, game, players)
    return game


def turns_of(rules: GameRules[Any], state: Any, game: Game, players: int) -> int:
    if rules.id in TURNS:
        return TURNS[rules.id](state, game.events)
    if isinstance(getattr(state, "turn", None), int):
        return int(state.turn)
    progress = getattr(rules, "progress", None)
    if callable(progress):
        return int(progress(state)[0])
    return game.orders // players


def bench(rules: GameRules[Any], players: int, games: int, seed: int) -> None:
    bot = bot_order_of(rules)
    assert bot is not None
    played: list[Game] = []
    start = time.perf_counter()
    for index in range(games):
        played.append(play(rules, players, seed + index, [bot] * players))
    elapsed = time.perf_counter() - start
    orders = sum(game.orders for game in played)
    turns = sum(game.turns for game in played)
    finished = sum(game.finished for game in played)
    print(
        f"{rules.id} {players} players: {games / elapsed:.2f} games/s  {turns / elapsed:.1f} turns/s  "
        f"{orders / elapsed:.0f} orders/s  {turns / games:.1f} turns/game  {orders / games:.0f} orders/game  "
        f"finished {finished}/{games}"
    )
    contents = CONTENTS.get(rules.id, event_kinds)
    total: Counter[str] = Counter()
    for game in played:
        total.update(contents(game.events))
    print("  contents: " + ", ".join(f"{kind} {count}" for kind, count in sorted(total.items())))
    by_seat = [sum(game.winners.get(seat, 0.0) for game in played) / games for seat in range(players)]
    print(
        "  bot vs bot, win rate by seat: "
        + "  ".join(f"{seat}: {rate:.0%}" for seat, rate in enumerate(by_seat))
    )
    strength(rules, players, games, seed, bot)


def strength(rules: GameRules[Any], players: int, games: int, seed: int, bot: Player) -> None:
    """One bot seat (a different one each game) among random players."""

    def randomly(state: Any, seat: int, rng: random.Random) -> Any:
        return rules.sample_order(state, seat, rng)

    bot_wins = random_wins = 0.0
    for index in range(games):
        seat = index % players
        seats: list[Player] = [randomly] * players
        seats[seat] = bot
        game = play(rules, players, seed + index, seats)
        bot_wins += game.winners.get(seat, 0.0)
        random_wins += sum(share for other, share in game.winners.items() if other != seat)
    print(
        f"  bot vs random: the bot wins {bot_wins / games:.0%} of its games, a random seat "
        f"{random_wins / (games * (players - 1)):.0%} (an even share: {1 / players:.0%})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", help="a game id; every game with a bot if omitted")
    parser.add_argument(
        "--players", type=int, nargs="*", help="player counts; the least and the most if omitted"
    )
    parser.add_argument("--games", type=int, default=20, help="games per game and player count")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    chosen = [registry.get(args.game)] if args.game else registry.all_games()
    for rules in chosen:
        if bot_order_of(rules) is None:
            print(f"{rules.id}: no bot")
            continue
        counts = args.players or sorted({rules.min_players, rules.max_players})
        for players in counts:
            bench(rules, players, args.games, args.seed)


if __name__ == "__main__":
    main()
