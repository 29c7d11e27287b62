"""The code stays lint-clean and typed (the layers are checked by tests/test_layout.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", "app", "tests", "bench", "migrations")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    targets = [name for name in ("app", "tests", "bench") if (ROOT / name).is_dir()]
    result = _run(sys.executable, "-m", "mypy", *targets)
    assert result.returncode == 0, result.stdout + result.stderr
