"""The replay page's server time on a long Advanced Civilization game, cold and warm.

    .venv/bin/python bench/replay_page.py [--orders 5000] [--players 5] [--database-url URL]

Plays a random game through the rules (`sample_order` of an awaited seat drawn at random, from a fixed
seed), stores it as the server would (the game, its seats, its order log and events, its state), then
reads `/games/{id}/replay?step=N` in this process (the app called directly, no HTTP server) for a few
steps spread over the game: each first as the first read of the step in a fresh process (cold: nothing
kept), then again (warm: the step itself kept), then a step next to it (near: rebuilt from the nearest
kept state). It prints the server time of each read (this process's CPU time: the machine may be
shared) and their medians. Without --database-url it uses a new SQLite file in a temporary folder; a
database given is migrated and a game added to it.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from starlette.testclient import TestClient  # noqa: E402

from app.db import make_engine, session_factory  # noqa: E402
from app.games import registry  # noqa: E402
from app.games.kit.playout import Playout, play_random  # noqa: E402
from app.main import create_app, prepare_database  # noqa: E402
from app.models import Game, GameEvent, GameOrder, Seat, User  # noqa: E402
from app.services.play import replays  # noqa: E402
from app.settings import Settings  # noqa: E402

SEED = 2026
STEPS_READ = 5


def store(settings: Settings, game_type: str, played: Playout) -> int:
    """The game as the server would have stored it, with its players; returns its id."""
    rules = registry.get(game_type)
    at = datetime.now(UTC)
    with session_factory(make_engine(settings.sqlalchemy_url))() as session:
        tag = int(at.timestamp() * 1000) % 10_000_000  # a database used before, a game stored the same second
        users = [
            User(email=f"bench{tag}.{seat}@example.com", display_name=f"Bench{seat} {tag}", password_hash="-")
            for seat in range(played.players)
        ]
        session.add_all(users)
        session.flush()
        game = Game(
            game_type=game_type,
            name=f"Replay bench {at:%H%M%S}",
            status="active",
            players=played.players,
            options=played.options,
            seed=played.seed,
            state=rules.dump(played.state),
            version=len(played.orders),
            creator_id=users[0].id,
            created_at=at,
            started_at=at,
        )
        session.add(game)
        session.flush()
        session.add_all(
            Seat(game_id=game.id, user_id=u.id, number=n, joined_at=at) for n, u in enumerate(users)
        )
        event_seq = 0
        for seq, order in enumerate(played.orders, start=1):
            session.add(
                GameOrder(
                    game_id=game.id, seq=seq, seat=order.seat, origin="player", payload=dict(order.payload)
                )
            )
            for event in order.events:
                event_seq += 1
                visible = sorted(event.to) if event.to is not None else None
                session.add(
                    GameEvent(
                        game_id=game.id,
                        seq=event_seq,
                        order_seq=seq,
                        kind=event.kind,
                        data=event.data,
                        visible_to=visible,
                    )
                )
        session.commit()
        return game.id


def timed(client: TestClient, path: str) -> float:
    """The CPU time of one read (the machine may be shared: wall time would count the others' work)."""
    gc.collect()  # a collection owed by earlier work is not this read's
    start = time.process_time()
    answer = client.get(path)
    elapsed = time.process_time() - start
    assert answer.status_code == 200, answer.text[-500:]
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--orders", type=int, default=5000)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--database-url", default="")
    arguments = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="replay-bench-"))
    settings = Settings(
        database_url=arguments.database_url or f"sqlite:///{folder / 'bench.sqlite3'}",
        data_dir=folder / "var",
        run_jobs=False,
        _env_file=None,
    )
    prepare_database(settings)
    start = time.perf_counter()
    played = play_random(registry.get("advciv"), arguments.players, SEED, arguments.orders)
    game_id = store(settings, "advciv", played)
    total = len(played.orders)
    took = time.perf_counter() - start
    print(f"advciv, {arguments.players} players, {total} orders played and stored in {took:.1f} s")
    steps = [total * (index + 1) // STEPS_READ for index in range(STEPS_READ)]
    cold, warm, near = [], [], []
    app = create_app(settings)
    app.state.limiter.hit = lambda *_: None  # the bench reads more than a visitor may
    with TestClient(app) as client:
        client.get(f"/games/{game_id}/replay?step=0")  # the app's first request: its templates compiled
        for step in steps:
            replays.KEPT = replays.KeptStates()  # a fresh process: nothing kept
            page = f"/games/{game_id}/replay?step="
            cold.append(timed(client, f"{page}{step}"))
            warm.append(timed(client, f"{page}{step}"))
            near.append(timed(client, f"{page}{step - 1}"))
            print(
                f"step {step:5}: cold {cold[-1] * 1000:7.1f} ms, warm {warm[-1] * 1000:6.1f} ms, "
                f"step before {near[-1] * 1000:6.1f} ms"
            )
    print(
        f"median over {len(steps)} steps: cold {statistics.median(cold) * 1000:.1f} ms, "
        f"warm {statistics.median(warm) * 1000:.1f} ms, step before (from a kept state) "
        f"{statistics.median(near) * 1000:.1f} ms; a state kept every {replays.KEEP_EVERY} orders"
    )


if __name__ == "__main__":
    main()
