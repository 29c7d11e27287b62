"""Worker processes for the multi-process tests: each is started from the project's root, waits on its
stdin for the go (a barrier, no sleeps), and prints its report as JSON on its last line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def start_worker(module: str, *arguments: str) -> subprocess.Popen[str]:
    """`python -m module arguments...`, its stdin, stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", module, *arguments],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def worker_report(process: subprocess.Popen[str], timeout_seconds: float) -> dict[str, Any]:
    """The worker's report, once it has exited cleanly."""
    out, err = process.communicate(timeout=timeout_seconds)
    assert process.returncode == 0, err
    report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return report
