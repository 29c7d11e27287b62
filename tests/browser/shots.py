"""Screenshots of the pages as a player sees them, kept in test-artifacts/ for review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ux"


def keep_screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def size_name(phone: bool, language: str) -> str:
    return f"{'phone' if phone else 'desktop'}-{language}"
