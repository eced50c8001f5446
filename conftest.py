"""Settings for the whole test suite (here at the root, beside pyproject.toml)."""

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from freecell.solver import losses
from freecell.solver.native import COMPILED

# tests/ on the import path, so that the browser tests (in tests/browser/) can import the
# shared ``serving`` module too. A conftest.py in tests/ itself would clash with the one in
# tests/browser/ when --doctest-modules collects both as modules named ``conftest``.
sys.path.insert(0, str(Path(__file__).parent / "tests"))

# The machine is small and shared: a property test is judged on what it finds, not on how
# fast each example runs.
settings.register_profile("freecell", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("freecell")

# The modules the solver may run compiled are loaded from the build, so --doctest-modules
# would refuse their sources; they hold no doctests (tests/test_native.py checks).
collect_ignore = [f"src/freecell/solver/{name}.py" for name in COMPILED]


@pytest.fixture(autouse=True)
def _no_loss_remembered_from_another_test() -> Iterator[None]:
    """Each test begins with no loss that the solver remembers (``losses.LOST``): what
    one test's solves found lost would else decide another's sooner."""
    losses.LOST.clear()
    yield
