"""app/clock imports only the standard library and pydantic, and never reads the clock itself."""

import ast
import sys
from pathlib import Path

import pytest

import app.clock

CLOCK = Path(app.clock.__file__).parent
MODULES = sorted(CLOCK.glob("*.py"))
ALLOWED = set(sys.stdlib_module_names) | {"pydantic", "app"}
CLOCK_READERS = {"now", "utcnow", "today", "time", "monotonic", "perf_counter", "time_ns"}


def test_there_are_modules_to_check() -> None:
    assert len(MODULES) >= 8


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_imports_are_standard_library_pydantic_or_the_clock_itself(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        for name in names:
            assert name.split(".")[0] in ALLOWED, f"{path.name} imports {name}"
            if name.startswith("app"):
                assert name == "app.clock" or name.startswith("app.clock."), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_nothing_reads_the_clock(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in CLOCK_READERS, f"{path.name}:{node.lineno} calls .{node.func.attr}()"
