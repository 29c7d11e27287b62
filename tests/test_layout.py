"""The layers hold: games/ and clock/ import nothing of the app, nothing below the web imports it, and the
service packages import each other in one direction only (docs/architecture.md)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
SERVICES = APP / "services"
PURE_PACKAGES = ("games", "clock")
ALLOWED_IN_PURE = {"pydantic", "pydantic_core", "annotated_types", "typing_extensions", "zoneinfo"}
SHARED_SERVICE_MODULES = {"__init__", "errors", "paging"}  # beside the packages, importing none of them
SERVICES_MAY_IMPORT = (
    "app.services",
    "app.models",
    "app.clock",
    "app.games",
    "app.db",
    "app.migrate",  # readiness compares the database with the migrations' head
    "app.settings",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> set[str]:
    """Every module a file imports, relative imports resolved; `from a import b` counts as a and a.b."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def sources(folder: Path) -> list[Path]:
    found = sorted(folder.rglob("*.py"))
    assert found, f"no Python files under {folder}"
    return found


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_pure_packages_import_only_themselves_the_standard_library_and_pydantic(package: str) -> None:
    offenders = []
    for path in sources(APP / package):
        for name in imported_names(path):
            top = name.split(".")[0]
            if name == "app":  # `from app import x`: judged by its app.x
                continue
            own = name == f"app.{package}" or name.startswith(f"app.{package}.")
            foreign = top not in sys.stdlib_module_names and top not in ALLOWED_IN_PURE
            if (top == "app" and not own) or (top != "app" and foreign):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_nothing_imports_the_web_layer_but_the_web_layer_and_main() -> None:
    offenders = []
    for path in sources(APP):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("app/web/") or relative in {"app/main.py", "app/cli.py"}:
            continue
        offenders += [f"{relative} imports {n}" for n in imported_names(path) if n.startswith("app.web")]
    assert offenders == []


def test_services_import_only_services_models_clock_games_db_migrations_and_settings() -> None:
    offenders = []
    for path in sources(SERVICES):
        for name in imported_names(path):
            if name.split(".")[0] == "app" and name != "app" and not name.startswith(SERVICES_MAY_IMPORT):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_services_are_packages_beside_errors_and_paging() -> None:
    loose = {path.stem for path in SERVICES.glob("*.py")} - SHARED_SERVICE_MODULES
    assert loose == set(), "each service module belongs to a package of app/services/"
    assert len(service_packages()) >= 6


def service_packages() -> list[str]:
    return sorted(path.parent.name for path in SERVICES.glob("*/__init__.py"))


def package_imports() -> dict[str, set[str]]:
    """Service package (or shared module) -> the other service packages it imports."""
    packages = set(service_packages())
    graph: dict[str, set[str]] = {}
    for path in sources(SERVICES):
        parts = path.relative_to(SERVICES).with_suffix("").parts
        owner = parts[0]
        graph.setdefault(owner, set())
        for name in imported_names(path):
            pieces = name.split(".")
            if pieces[:2] == ["app", "services"] and len(pieces) > 2 and pieces[2] in packages - {owner}:
                graph[owner].add(pieces[2])
    return graph


def find_cycle(graph: Mapping[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a path that comes back to its start, or None."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> Iterator[list[str]]:
        if node in path:
            yield [*path[path.index(node) :], node]
            return
        if node in done:
            return
        for target in sorted(graph.get(node, set())):
            yield from visit(target, [*path, node])
        done.add(node)

    for start in sorted(graph):
        for cycle in visit(start, []):
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle() -> None:
    assert find_cycle({"play": {"deadlines"}, "deadlines": {"accounts"}, "accounts": {"play"}}) == [
        "accounts",
        "play",
        "deadlines",
        "accounts",
    ]
    assert (
        find_cycle({"play": {"deadlines", "players"}, "players": {"deadlines"}, "deadlines": set()}) is None
    )


def test_service_packages_import_each_other_in_one_direction() -> None:
    graph = package_imports()
    assert find_cycle(graph) is None
    assert {module for module in SHARED_SERVICE_MODULES if graph.get(module)} == set()
    assert sum(len(targets) for targets in graph.values()) > 0  # the graph was read
