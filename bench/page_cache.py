"""Kept renders and conditional reads: the server's CPU time of a game page, its live fragment and the API's
game read, drawn (nothing kept), kept (the render reused), and answered 304 (If-None-Match), side by side.

    .venv/bin/python bench/page_cache.py [--reads 30] [--orders 400] [--database-url URL]

Plays a Dragonstones game (4 players) and an Advanced Civilization game (8 players) through the rules from a
fixed seed, stores them as the server would, then reads each path as a visitor in this process (the app
called directly, no HTTP server), `--reads` times each way: "drawn" empties the render cache before each
read, "kept" reads it again, "304" sends the ETag back. It prints the median CPU time of a read (this
process's: the machine may be shared), the bytes answered, and each way's ratio to drawing. The floor is
a read of /healthz in the same way: what the in-process client and the middleware cost whatever the page.
The fragment's bytes are what a live page reads at each move. Without --database-url it uses a new
SQLite file in a temporary folder.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from starlette.testclient import TestClient  # noqa: E402

from app.games import registry  # noqa: E402
from app.games.kit.playout import play_random  # noqa: E402
from app.main import create_app, prepare_database  # noqa: E402
from app.settings import Settings  # noqa: E402
from app.web.render_cache import RenderCache  # noqa: E402
from bench.replay_page import store  # noqa: E402

SEED = 2026
GAMES = (("dragonstones", 4), ("advciv", 8))


def cpu(client: TestClient, path: str, headers: dict[str, str], status: int) -> tuple[float, int]:
    gc.collect()  # a collection owed by earlier work is not this read's
    start = time.process_time()
    answer = client.get(path, headers=headers)
    elapsed = time.process_time() - start
    assert answer.status_code == status, (path, answer.status_code, answer.text[-300:])
    return elapsed, len(answer.content)


def measure(client: TestClient, cache: RenderCache, path: str, reads: int) -> dict[str, tuple[float, int]]:
    drawn, kept, unchanged = [], [], []
    etag = client.get(path).headers["etag"]
    for _ in range(reads):
        cache.clear()
        drawn.append(cpu(client, path, {}, 200))
        kept.append(cpu(client, path, {}, 200))
        unchanged.append(cpu(client, path, {"If-None-Match": etag}, 304))
    return {
        way: (statistics.median(t for t, _ in runs), runs[0][1])
        for way, runs in (("drawn", drawn), ("kept", kept), ("304", unchanged))
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reads", type=int, default=30)
    parser.add_argument("--orders", type=int, default=400)
    parser.add_argument("--database-url", default="")
    arguments = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="page-cache-bench-"))
    settings = Settings(
        database_url=arguments.database_url or f"sqlite:///{folder / 'bench.sqlite3'}",
        data_dir=folder / "var",
        run_jobs=False,
        _env_file=None,
    )
    prepare_database(settings)
    games = {}
    for game_type, players in GAMES:
        played = play_random(registry.get(game_type), players, SEED, arguments.orders)
        games[(game_type, players)] = store(settings, game_type, played)
    app = create_app(settings)
    cache: RenderCache = app.state.render_cache
    print(f"{arguments.reads} reads each way, as a visitor; median CPU time of one read")
    print(
        f"{'game':<16} {'read':<9} {'drawn':>9} {'kept':>9} {'304':>9} "
        f"{'kept/drawn':>11} {'304/drawn':>10} bytes"
    )
    with TestClient(app) as client:
        client.get("/healthz")
        floor = statistics.median(cpu(client, "/healthz", {}, 200)[0] for _ in range(arguments.reads))
        print(f"floor (/healthz through the same client and middleware): {floor * 1000:.2f} ms")
        for (game_type, players), game_id in games.items():
            paths = {
                "page": f"/games/{game_id}",
                "fragment": f"/games/{game_id}/fragment",
                "api": f"/api/v1/games/{game_id}",
            }
            for name, path in paths.items():
                client.get(path)  # templates compiled, statements prepared
                figures = measure(client, cache, path, arguments.reads)
                drawn, size = figures["drawn"]
                kept, _ = figures["kept"]
                unchanged, _ = figures["304"]
                print(
                    f"{game_type + ' ' + str(players):<16} {name:<9} "
                    f"{drawn * 1000:7.2f}ms {kept * 1000:7.2f}ms "
                    f"{unchanged * 1000:7.2f}ms {kept / drawn:10.2f}x {unchanged / drawn:9.2f}x {size}"
                )


if __name__ == "__main__":
    main()
