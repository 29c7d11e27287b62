"""docs/time.md names the tests that pin its decisions: every one of them must exist."""

import ast
import re
from pathlib import Path

import pytest

HERE = Path(__file__).parent
DOC = HERE.parent.parent / "docs" / "time.md"
CITED = sorted(set(re.findall(r"(test_\w+\.py)::(test_\w+)", DOC.read_text())))


def test_the_doc_cites_tests() -> None:
    assert len(CITED) >= 40


@pytest.mark.parametrize(("module", "name"), CITED, ids=[f"{m}::{n}" for m, n in CITED])
def test_each_cited_test_exists(module: str, name: str) -> None:
    tree = ast.parse((HERE / module).read_text())
    assert name in {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
