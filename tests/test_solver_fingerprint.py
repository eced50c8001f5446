"""The solver searches as it did when its fingerprint was recorded (``bench/fingerprint.py``).

The cheapest recorded deals, solved here in one process as the script's ``--one-process``
does: the same verdict, positions expanded and generated, and moves. The whole record
(every preset and every part of the plan, compiled and pure) is the script's to check.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from freecell.solver.search import Budget, SearchLimit

_BENCH = Path(__file__).resolve().parent.parent / "bench"
# Deals of the record this cheap (positions expanded) are solved here: a dozen or so,
# from every family of rules but the tight games' long searches, in a few seconds.
_CHEAP: int = 12_000


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fingerprint", _BENCH / "fingerprint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (a dataclass looks its module up there)
    spec.loader.exec_module(module)
    return module


_FINGERPRINT = _script()
_RECORD = json.loads((_BENCH / "fingerprint.json").read_text(encoding="utf-8"))["deals"]
_CASES = [case for case in _FINGERPRINT.DEALS if _RECORD[case.name]["expanded"] <= _CHEAP]


def test_every_deal_of_the_script_is_recorded_and_the_cheap_ones_span_the_kinds_of_rules() -> None:
    assert {case.name for case in _FINGERPRINT.DEALS} == set(_RECORD)
    assert {"standard", "app", "double", "bakers-game", "eight-off"} <= {case.rules for case in _CASES}
    assert {2, 4} <= {case.cells for case in _CASES}
    assert any(case.short for case in _CASES)


@pytest.mark.parametrize("case", _CASES, ids=lambda case: case.name)
def test_a_recorded_deal_is_searched_as_recorded(case: object) -> None:
    found = _FINGERPRINT.solve_here(case)
    recorded = _RECORD[case.name]  # type: ignore[attr-defined]
    assert {field: found[field] for field in _FINGERPRINT.FIELDS} == {
        field: recorded[field] for field in _FINGERPRINT.FIELDS
    }


def test_a_limit_of_positions_alone_reads_neither_the_clock_nor_the_memory() -> None:
    """What makes a fingerprint the same on every run: under a positions-only limit the
    budget has no deadline and no memory limit, measures nothing, and is spent by its
    count alone."""
    budget = Budget(SearchLimit(positions=100))
    assert budget.deadline is None and budget.memory is None and not budget.measured
    assert budget.seconds_left() is None and budget.memory_left() is None
    assert not budget.memory_short(10**9, reserve=10**12)
    assert not budget.exhausted(10**9)
    budget.expanded = 100
    assert budget.exhausted(0) and not budget.for_memory
