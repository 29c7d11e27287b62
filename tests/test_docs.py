"""What a host reads is true: every setting is in the README, every command in the README exists."""

from __future__ import annotations

from pathlib import Path

from app.cli import main
from app.settings import Settings

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_every_setting_is_documented() -> None:
    missing = [name.upper() for name in Settings.model_fields if f"`{name.upper()}`" not in README]
    assert missing == []


def test_every_setting_has_a_description() -> None:
    assert [name for name, field in Settings.model_fields.items() if not field.description] == []


def test_the_readme_names_every_command() -> None:
    for command in ("serve", "worker", "migrate", "create-admin", "demo"):
        assert f"ostraca {command}" in README or f"`{command}`" in README
        try:
            main([command, "--help"])
        except SystemExit as exit_:
            assert exit_.code == 0
