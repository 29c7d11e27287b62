"""Make the replay corpus: a few stored games per game type, each its options, seed, order log and final
state as JSON, under tests/fixtures/replays/<game type>/. `tests/replays/test_corpus.py` checks that they
still replay to their final state under the current rules.

    .venv/bin/python bench/make_replay_corpus.py [--game advciv] [--games 3] [--first-seed 1000]

Games are bot games through the rules (`kit.playout.play_out`: an awaited seat drawn at random sends the
game's `bot_order`), created with the options a game created now stores (`contract.created_options`: every
field written, a rules version included), from fixed seeds, at player counts spread from the game's least
to its most. A game that does not end by itself stops after `MAX_ORDERS[game]` orders. Add files only when
the rules may change what an old log gives, with a rules version for the game type that keeps old games on
the old behaviour (as Tigris & Euphrates's `rng_version`), and then beside the old ones (`--first-seed`: new
seeds, new files); a corpus made of stored games takes the same shape (`source` says where a game came
from).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.games import registry  # noqa: E402
from app.games.contract import GameRules, bot_order_of  # noqa: E402
from app.games.kit.playout import play_out  # noqa: E402

CORPUS = ROOT / "tests" / "fixtures" / "replays"
GAME_TYPES = ("advciv", "amunre", "dragonstones", "tigris")
MAX_ORDERS = {"advciv": 300, "amunre": 1500, "dragonstones": 1500, "tigris": 1500}
FIRST_SEED = 1000


def player_counts(rules: GameRules[Any], games: int) -> list[int]:
    """`games` player counts spread from the least to the most the game takes."""
    least, most = rules.min_players, rules.max_players
    if games == 1:
        return [least]
    return [least + (most - least) * index // (games - 1) for index in range(games)]


def corpus_game(game_type: str, players: int, seed: int) -> dict[str, Any]:
    rules = registry.get(game_type)
    bot = bot_order_of(rules)
    assert bot is not None, f"{game_type} has no bot"
    played = play_out(rules, bot, players, seed, MAX_ORDERS[game_type])
    return {
        "game_type": game_type,
        "source": "bot",
        "players": players,
        "seed": seed,
        "options": played.options,
        "orders": [{"seat": order.seat, "order": dict(order.payload)} for order in played.orders],
        "state": json.loads(json.dumps(rules.dump(played.state))),
        "over": not rules.waits(played.state),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=GAME_TYPES, help="only this game type (default: every one)")
    parser.add_argument("--games", type=int, default=3, help="games per game type")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED, help="the first game's seed")
    arguments = parser.parse_args()
    for game_type in [arguments.game] if arguments.game else GAME_TYPES:
        folder = CORPUS / game_type
        folder.mkdir(parents=True, exist_ok=True)
        counts = player_counts(registry.get(game_type), arguments.games)
        for index, players in enumerate(counts):
            seed = arguments.first_seed + index
            game = corpus_game(game_type, players, seed)
            path = folder / f"bot-{players}p-{seed}.json"
            path.write_text(json.dumps(game, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
            ending = "to its end" if game["over"] else "cut short"
            print(f"{path.relative_to(ROOT)}: {len(game['orders'])} orders, {ending}")


if __name__ == "__main__":
    main()
