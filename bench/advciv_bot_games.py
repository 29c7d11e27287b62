"""Advanced Civilization games of bots (`bot_order` at every seat, default options, no last turn) to their
natural end: games/s, turns/s, orders/s, turns per game, and what the games contained, summed.

    python bench/advciv_bot_games.py --players 3 5 8 --games 10 --seed 0

The contents come from the events `apply` returns (`advciv_contents`): cities built, trade cards drawn,
trades made, each calamity resolved, each advance bought, games that reached the finish. A game that has
not ended after `MAX_ORDERS` orders is stopped and counted as unfinished.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Iterable

from app.games.advciv import RULES
from app.games.advciv.calamities import ORDER as CALAMITIES
from app.games.advciv.cards import CIV_CARDS
from app.games.advciv.scoring import FINISHED
from app.games.contract import Event

MAX_ORDERS = 30_000


def advciv_contents(events: Iterable[Event]) -> Counter[str]:
    """What happened in a game, from its events: `cities`, `cards_drawn`, `trades`, `finished`, and per
    calamity `calamity:<key>`, per advance `advance:<key>`."""
    found: Counter[str] = Counter()
    for event in events:
        data = event.data
        if event.kind == "cities_built":
            found["cities"] += len(data["areas"])
        elif event.kind == "trade_cards_drawn":
            found["cards_drawn"] += sum(data["cards"])
        elif event.kind == "trade_announced":
            found["trades"] += 1
        elif event.kind == "calamity_resolved":
            found[f"calamity:{data['card']}"] += 1
        elif event.kind == "advances_bought":
            found.update(f"advance:{card}" for card in data["cards"])
        elif event.kind == "game_over" and data["reason"] == FINISHED:
            found["finished"] += 1
    return found


def play(players: int, seed: int) -> tuple[int, int, Counter[str]]:
    """One bot game; returns (turns, orders, contents)."""
    rng = random.Random(seed)
    state = RULES.new_game(RULES.Options(), players, seed)
    contents: Counter[str] = Counter()
    orders = 0
    while orders < MAX_ORDERS:
        waits = RULES.waits(state)
        if not waits:
            break
        seat = rng.choice(waits).seat
        outcome = RULES.apply(state, seat, RULES.bot_order(state, seat, rng))
        contents += advciv_contents(outcome.events)
        state = outcome.state
        orders += 1
    return state.turn, orders, contents


def report(players: int, games: int, seed: int) -> Counter[str]:
    turns = orders = 0
    contents: Counter[str] = Counter()
    start = time.perf_counter()
    for game in range(games):
        played, count, found = play(players, seed + game)
        turns, orders = turns + played, orders + count
        contents += found
    elapsed = time.perf_counter() - start
    print(
        f"advciv bots {players} players: {games / elapsed:6.3f} games/s  {turns / elapsed:7.1f} turns/s  "
        f"{orders / elapsed:8.0f} orders/s  {turns / games:6.1f} turns/game  "
        f"finished {contents['finished']}/{games}"
    )
    print(
        f"  cities built {contents['cities']}, trade cards drawn {contents['cards_drawn']}, "
        f"trades {contents['trades']}"
    )
    print("  calamities: " + ", ".join(f"{key} {contents[f'calamity:{key}']}" for key in CALAMITIES))
    print("  advances: " + ", ".join(f"{key} {contents[f'advance:{key}']}" for key in CIV_CARDS))
    return contents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 5, 8])
    parser.add_argument("--games", type=int, default=5, help="games per player count")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    args = parser.parse_args()
    total: Counter[str] = Counter()
    for players in args.players:
        total += report(players, args.games, args.seed)
    missing = [key for key in CALAMITIES if not total[f"calamity:{key}"]]
    missing += [key for key in CIV_CARDS if not total[f"advance:{key}"]]
    print("never met: " + (", ".join(missing) if missing else "none"))


if __name__ == "__main__":
    main()
