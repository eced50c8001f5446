"""Imports point down only: the core imports nothing above it, and the solver reaches
no higher than the core (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "freecell"
CORE = {"errors", "cards", "rules", "position", "notation", "board_format", "deals", "codes", "replay"}
ABOVE_THE_SOLVER = {"game", "store", "batch", "census", "report", "advisor", "lessons", "finish", "web", "cli"}


def freecell_imports(path: Path) -> set[str]:
    """The first component below ``freecell`` of every module that ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "freecell" and len(parts) > 1:
                found.add(parts[1])
    return found


@pytest.mark.parametrize("module", sorted(CORE))
def test_the_core_imports_only_the_core(module: str) -> None:
    assert freecell_imports(PACKAGE / f"{module}.py") <= CORE


@pytest.mark.parametrize("path", sorted((PACKAGE / "solver").glob("*.py")), ids=lambda path: path.name)
def test_the_solver_reaches_no_higher_than_the_core(path: Path) -> None:
    assert not freecell_imports(path) & ABOVE_THE_SOLVER
