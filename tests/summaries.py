"""Lines a test wants in the run's closing summary (the crawl's figures per game), shown by the
`pytest_terminal_summary` hook of conftest.py whether or not the output is captured."""

from __future__ import annotations

LINES: list[str] = []


def add(line: str) -> None:
    LINES.append(line)
