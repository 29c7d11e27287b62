"""Production as a host runs it, on one machine: nginx, two web processes, two workers, Postgres, Redis and
a real SMTP server. Dragonstones and Tigris & Euphrates games are played to the end over HTTP while
deadlines run out, and one worker is killed (SIGKILL) and restarted midway. Then: every game finished, no
deadline was acted on twice, no mail was lost (the one a killed worker may have had in flight may arrive
twice, with the same Message-ID), every spectator heard every version, and the login limit held across
both web processes. `bench/topology.py` runs a bigger version and prints its figures.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from tests.conftest import POSTGRES_URL
from tests.ops import topology

NGINX = topology.find_nginx()
REDIS_URL = "redis://127.0.0.1:6379/13"

pytestmark = [
    pytest.mark.skipif(not POSTGRES_URL, reason="needs Postgres: set TEST_DATABASE_URL"),
    pytest.mark.skipif(NGINX is None, reason="needs nginx (Debian's nginx-light): .ci/run installs it"),
    pytest.mark.skipif(not topology.redis_answers(REDIS_URL), reason="needs Redis at 127.0.0.1:6379"),
]


@pytest.mark.timeout(1800)  # a bound for a busy machine: on two idle cores it takes about a minute
def test_games_finish_across_processes_with_a_worker_killed_midway() -> None:
    assert NGINX is not None
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()  # this test's own Redis database: no counts left over
    workdir = Path(tempfile.mkdtemp(prefix="ostraca-topology-"))  # the processes' logs, kept on a failure
    running = topology.Topology(f"{POSTGRES_URL}_topology", REDIS_URL, NGINX, workdir)
    try:
        running.start()
        tables, seconds = topology.run(running, topology.Size(dragonstones_points=2), kill_after_orders=120)
        running.wait_for_outbox()
        statuses, upstreams = topology.rate_limit_answers(running, attempts=3 * topology.LOGIN_LIMIT)
        figures = running.figures(tables, seconds)
    finally:
        running.stop()
    print(f"logs in {workdir}", *figures.lines(), sep="\n")
    assert figures.finished == figures.games == len(tables), [t.refused for t in tables]
    assert figures.timeouts > 0 and sum(t.slept for t in tables) > 0
    assert figures.deadlines_twice == 0
    assert figures.mails_sent > 0
    assert figures.mails_lost == 0 and figures.mails_dead == 0
    assert figures.mails_twice <= 1  # at most the one in flight when the worker was killed
    assert figures.versions_missed == 0, figures.missed_by_game
    assert all(t.refused[422] == 0 and t.refused[500] == 0 for t in tables), [t.refused for t in tables]
    limit = topology.LOGIN_LIMIT
    assert statuses == [401] * limit + [429] * (len(statuses) - limit)
    assert len(upstreams - {""}) == 2  # both web processes answered, and counted together
    shutil.rmtree(workdir, ignore_errors=True)
