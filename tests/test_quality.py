"""The code stays lint-clean, typed, and layered: games/ and clock/ import nothing of the app."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ("games", "clock")
ALLOWED_IN_PURE = {"pydantic", "pydantic_core", "annotated_types", "typing_extensions", "zoneinfo"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_packages_import_only_the_standard_library_and_pydantic(package: str) -> None:
    offenders = []
    for path in (ROOT / "app" / package).rglob("*.py"):
        for name in _imports(path):
            top = name.split(".")[0]
            own = name.startswith(f"app.{package}")
            foreign = top not in sys.stdlib_module_names and top not in ALLOWED_IN_PURE
            if (top == "app" and not own) or (top != "app" and foreign):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_nothing_imports_the_web_layer_but_the_web_layer_and_main() -> None:
    offenders = []
    for path in (ROOT / "app").rglob("*.py"):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("app/web/") or relative in {"app/main.py", "app/cli.py"}:
            continue
        offenders += [f"{relative} imports {n}" for n in _imports(path) if n.startswith("app.web")]
    assert offenders == []


def test_services_do_not_import_the_web_layer() -> None:
    for path in (ROOT / "app" / "services").rglob("*.py"):
        assert not any(name.startswith("app.web") for name in _imports(path)), path


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff() -> None:
    result = _run(sys.executable, "-m", "ruff", "check", "app", "tests", "bench", "migrations")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    targets = [name for name in ("app", "tests", "bench") if (ROOT / name).is_dir()]
    result = _run(sys.executable, "-m", "mypy", *targets)
    assert result.returncode == 0, result.stdout + result.stderr
