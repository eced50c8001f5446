"""The compiled solver (freecell.solver.native): built from the sources as they are, in
use, and searching exactly as the sources do."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from freecell.solver import native

# Every preset, a proof, wins and searches stopped at a cap, the beams of a short
# solve, and a depth-first proof that spills its keys to disk: the same positions, the
# same counts and the same moves, compiled or not.
_SEARCHES = r"""
import hashlib, json, sys
from freecell import Deal, find_rules
from freecell.solver import SearchLimit, native, solve
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst
from freecell.solver.search import Budget

cases = [
    ("standard", 4, 1, 50_000, True), ("standard", 4, 617, 50_000, False),
    ("standard", 4, 11982, 100_000, False), ("standard", 2, 8323, 40_000, False),
    ("standard", 2, 20920, 30_000, False), ("strict", 4, 3, 20_000, False),
    ("supermove", 4, 4, 20_000, False), ("bakers-game", 4, 489, 15_000, False),
    ("eight-off", 8, 5, 20_000, False), ("double", 6, 617, 15_000, False),
    ("app", 2, 2002, 15_000, False), ("app", 1, 90, 15_000, False), ("cardems", 4, 6, 20_000, False),
]
found = {"compiled": native.in_use(), "solves": [], "proof": None}
for name, cells, number, positions, short in cases:
    rules = find_rules(name, cells=cells)
    result = solve(Deal(rules, number).position(), rules, limit=SearchLimit(positions=positions), short=short)
    moves = hashlib.sha256(" ".join(result.moves).encode()).hexdigest()
    found["solves"].append([name, cells, number, result.status.value, result.expanded, result.generated, moves])
rules = find_rules("standard", cells=2)
problem = FreeCellProblem(rules, complete=False, runs=False)
search = DepthFirst(problem, problem.initial(Deal(rules, 8323).position())[0], spill_at=5_000)
outcome = search.run(Budget(SearchLimit(positions=200_000))).outcome
found["proof"] = [outcome.value, search.expanded, len(search.seen), search.keys_spilled]
json.dump(found, sys.stdout)
"""


def _run_searches(*, pure: bool) -> dict[str, object]:
    environment = {key: value for key, value in os.environ.items() if key != native.PURE_PYTHON_VARIABLE}
    if pure:
        environment[native.PURE_PYTHON_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, "-c", _SEARCHES], env=environment, capture_output=True, text=True, timeout=300, check=True
    )
    found: dict[str, object] = json.loads(done.stdout)
    return found


def test_the_compiled_solver_is_built_from_the_sources_as_they_are_and_in_use() -> None:
    assert native.is_current(), "the compiled solver is missing or stale: run scripts/setup --dev"
    assert native.in_use()


def test_a_build_depends_on_the_modules_compiled_and_on_every_module_they_import() -> None:
    sources = native.sources_compiled_against()
    assert {"solver/board.py", "solver/depth_first.py", "solver/search.py", "rules.py", "position.py"} <= set(sources)
    assert "cards.py" in sources  # imported by rules.py, not by a compiled module
    assert not {"solver/solving.py", "game.py", "web/app.py"} & set(sources)


def test_the_compiled_modules_which_the_doctest_run_leaves_out_hold_no_doctests() -> None:
    for name in native.COMPILED:
        assert ">>>" not in Path(native.PACKAGE_DIR, f"{name}.py").read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_compiled_solver_searches_exactly_as_the_sources_do() -> None:
    compiled, pure = _run_searches(pure=False), _run_searches(pure=True)
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert compiled["solves"] == pure["solves"]
    assert compiled["proof"] == pure["proof"]
    # The cases cover what they are meant to: wins, a proof, a cap, keys spilled.
    statuses = {solve[3] for solve in pure["solves"]}  # type: ignore[attr-defined]
    assert {"solved", "unsolvable", "limit-reached"} <= statuses
    outcome, _, _, spilled = pure["proof"]  # type: ignore[misc]
    assert outcome == "exhausted" and spilled > 0


def test_a_build_of_other_sources_or_for_another_python_is_left_unused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = tmp_path / "_compiled"
    shutil.copytree(native.COMPILED_DIR, build)
    assert native.search_path(build) == [str(build)]
    monkeypatch.setenv(native.PURE_PYTHON_VARIABLE, "1")
    assert native.search_path(build) == []
    monkeypatch.delenv(native.PURE_PYTHON_VARIABLE)
    manifest = json.loads((build / native.MANIFEST).read_text(encoding="utf-8"))
    for changed in (
        {**manifest, "sources": {**manifest["sources"], "solver/board.py": "0" * 16}},
        {**manifest, "sources": {**manifest["sources"], "rules.py": "0" * 16}},
        {**manifest, "compiled": ["board"]},
        {**manifest, "extension_suffix": ".cpython-399-x86_64-linux-gnu.so"},
        {**manifest, "python": "3.11.0 (main, Jan  1 2023, 00:00:00) [GCC 12.2.0]"},
    ):
        (build / native.MANIFEST).write_text(json.dumps(changed), encoding="utf-8")
        assert native.search_path(build) == []
    (build / native.MANIFEST).write_text("not json", encoding="utf-8")
    assert native.search_path(build) == []
    (build / native.MANIFEST).unlink()
    assert native.search_path(build) == []


def test_a_wheels_build_is_used_by_any_build_of_this_python_but_only_for_its_sources(tmp_path: Path) -> None:
    # pip installs a wheel only where its tags say its extensions load: its manifest
    # leaves out the Python build that a build beside the sources is pinned to.
    build = tmp_path / "_compiled"
    shutil.copytree(native.COMPILED_DIR, build)
    wheels = json.loads(json.dumps(native.manifest(for_wheel=True)))
    pinned = json.loads(json.dumps(native.manifest()))
    assert "python" not in wheels and {key: value for key, value in pinned.items() if key != "python"} == wheels
    (build / native.MANIFEST).write_text(json.dumps(wheels), encoding="utf-8")
    assert native.search_path(build) == [str(build)]
    for changed in (
        {**wheels, "sources": {**wheels["sources"], "solver/board.py": "0" * 16}},
        {**wheels, "extension_suffix": ".cpython-399-x86_64-linux-gnu.so"},
    ):
        (build / native.MANIFEST).write_text(json.dumps(changed), encoding="utf-8")
        assert native.search_path(build) == []


def test_the_build_reads_no_mypy_configuration_so_a_wheels_build_environment_needs_no_plugin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The build runs in src/, below pyproject.toml, whose mypy settings name pydantic's
    # plugin: a wheel's build environment, which has only the native extra, lacks it.
    from mypy.main import process_options

    from freecell.solver.build_native import MYPY_OPTIONS

    monkeypatch.chdir(Path(native.PACKAGE_DIR).parent.parent)
    _, options = process_options([*MYPY_OPTIONS, "freecell/solver/board.py"])
    assert options.plugins == []
    assert options.disallow_untyped_defs and options.warn_return_any  # the project's --strict
