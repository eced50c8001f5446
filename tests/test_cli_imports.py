"""Each command imports only what it uses: ``freecell deal`` in a shell loop does not pay
for the solver, the server, the census or Rich (``bench/startup.py`` prints the time)."""

from __future__ import annotations

import subprocess
import sys

import pytest

# What only some commands need: the solver, the server, the store, the census and its
# plots, Rich's progress bars, the static site's builder.
HEAVY = ("freecell.solver", "freecell.web", "freecell.store", "freecell.batch", "freecell.census", "freecell.report",
         "freecell.site", "fastapi", "uvicorn", "rich", "matplotlib", "dask")


def imported(*arguments: str) -> set[str]:
    """The modules that ``python -m freecell ARGUMENTS`` imports, as ``-X importtime`` lists them."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "freecell", *arguments], capture_output=True, text=True,
        timeout=120, check=True,
    )
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def heavy(modules: set[str]) -> set[str]:
    return {module for module in modules if any(module == name or module.startswith(f"{name}.") for name in HEAVY)}


@pytest.mark.parametrize("arguments", [["--version"], ["deal", "617"], ["rules"]], ids=" ".join)
def test_the_core_commands_import_nothing_heavy(arguments: list[str]) -> None:
    assert heavy(imported(*arguments)) == set()


def test_solve_imports_the_solver_and_nothing_else_heavy() -> None:
    modules = imported("solve", "617")
    assert "freecell.solver" in modules
    assert {module for module in heavy(modules) if not module.startswith("freecell.solver")} == set()


# What a solve needs only past its portfolio (the scheduler, the walks, the proof's hand-over),
# with a helper process, or with ``short`` (the beams, the shortening).
ON_DEMAND = ("freecell.solver.schedule", "freecell.solver.walks", "freecell.solver.handover",
             "freecell.solver.helping", "freecell.solver.helper", "freecell.solver.shorten", "multiprocessing")


def test_a_solve_decided_by_its_portfolio_imports_nothing_it_does_not_run() -> None:
    code = (
        "import sys\n"
        "from freecell import Deal, find_rules\n"
        "from freecell.solver import solve\n"
        "rules = find_rules('standard')\n"
        "assert solve(Deal(rules, 1).position(), rules).status.value == 'solved'\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    modules = set(done.stdout.split())
    assert "freecell.solver.solving" in modules
    assert modules.isdisjoint(ON_DEMAND)
