"""A replay step rebuilt from a kept state is the step rebuilt from the seed, for every game type; a
process keeps a bounded number of states."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from app.games import registry
from app.games.kit.playout import play_random
from app.services.play.play import as_json
from app.services.play.replays import KeptStates

ORDERS = 90
EVERY = 7


@dataclass(frozen=True)
class StoredGame:
    game_type: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    id: int = 1


@dataclass(frozen=True)
class StoredOrder:
    seq: int
    seat: int
    payload: dict[str, Any]


class StoredLog:
    """A game's order log, as `KeptStates.rebuild` reads it: the seqs, then the orders between two seqs."""

    def __init__(self, orders: list[StoredOrder]) -> None:
        self.orders = orders
        self.seqs = [order.seq for order in orders]
        self.read_seqs: list[int] = []

    def read(self, first: int, last: int) -> list[StoredOrder]:
        found = [order for order in self.orders if first <= order.seq <= last]
        self.read_seqs += [order.seq for order in found]
        return found


def random_game(game_type: str) -> tuple[StoredGame, StoredLog, Any]:
    rules = registry.get(game_type)
    players = min(max(rules.min_players, 3), rules.max_players)
    played = play_random(rules, players, seed=11, max_orders=ORDERS)
    game = StoredGame(game_type, players, 11, played.options)
    orders = [StoredOrder(seq, o.seat, dict(o.payload)) for seq, o in enumerate(played.orders, start=1)]
    return game, StoredLog(orders), played.state


@pytest.mark.parametrize("game_type", [rules.id for rules in registry.all_games()])
def test_a_step_rebuilt_from_a_kept_state_is_the_step_rebuilt_from_the_seed(game_type: str) -> None:
    rules = registry.get(game_type)
    game, log, final = random_game(game_type)
    kept = KeptStates(every=EVERY)
    last = kept.rebuild(game, log.seqs, len(log.seqs), log.read)  # from the seed, keeping every 7th state
    assert last.failure is None and as_json(rules.dump(last.state)) == as_json(rules.dump(final))
    for step in range(len(log.seqs) + 1):
        from_kept = kept.rebuild(game, log.seqs, step, log.read)
        from_seed = KeptStates().rebuild(game, log.seqs, step, log.read)  # nothing kept: from the seed
        assert from_kept.step == from_seed.step == step
        assert as_json(rules.dump(from_kept.state)) == as_json(rules.dump(from_seed.state)), step


def test_a_step_reads_and_applies_only_the_orders_after_the_nearest_kept_state() -> None:
    game, log, _ = random_game("advciv")
    kept = KeptStates(every=EVERY)
    kept.rebuild(game, log.seqs, 30, log.read)
    assert log.read_seqs == log.seqs[:30]
    log.read_seqs.clear()
    kept.rebuild(game, log.seqs, 30, log.read)  # the step itself was kept
    assert log.read_seqs == []
    kept.rebuild(game, log.seqs, 40, log.read)  # from step 28, the last multiple of 7 kept on the way
    assert log.read_seqs == log.seqs[28:40]


def test_a_process_keeps_a_bounded_number_of_states() -> None:
    game, log, _ = random_game("tigris")
    kept = KeptStates(size=5, every=2)
    kept.rebuild(game, log.seqs, len(log.seqs), log.read)
    assert kept.kept() == 5
