"""The solver of an installed freecell (a wheel's, say), compiled and as its sources.

    python bench/installed.py --python /tmp/x/bin/python [--rounds 5]

Runs fixed searches (:data:`DEALS`, each stopped at the same count of positions, so both
builds expand the very same positions) in processes of ``--python``, started in ``/`` so
that nothing of a checkout is imported, in rounds that alternate the compiled build with
the sources (``FREECELL_PURE_PYTHON=1``). Prints which ``freecell`` each imported and
whether it ran compiled, then for each deal the median CPU time of the rounds
(``time.process_time``) in each build and their ratio, and the median of the ratios.
The machine may be shared: compare medians of several rounds, run nothing beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import NamedTuple

# (rules, cells, deal): standard rules with 4 and 2 cells, won and lost deals.
DEALS = (("standard", 4, 617), ("standard", 4, 11982), ("standard", 2, 8323), ("app", 2, 2002))
POSITIONS = 40_000

_SEARCH = r"""
import json, sys, time
import freecell
from freecell import Deal, find_rules
from freecell.solver import SearchLimit, native, solve

deals, positions = json.loads(sys.argv[1])
found = {"package": freecell.__file__, "compiled": native.in_use(), "deals": []}
for name, cells, number in deals:
    rules = find_rules(name, cells=cells)
    position = Deal(rules, number).position()
    began = time.process_time()
    result = solve(position, rules, limit=SearchLimit(positions=positions))
    found["deals"].append([time.process_time() - began, result.status.value, result.expanded])
json.dump(found, sys.stdout)
"""


class Round(NamedTuple):
    """What one process found: the package it imported, whether compiled, and for each
    deal the CPU seconds, the outcome and the positions expanded."""

    package: str
    compiled: bool
    deals: list[tuple[float, str, int]]


def run_round(python: str, *, pure: bool) -> Round:
    """One process of ``python`` solving every deal of :data:`DEALS` once."""
    environment = {key: value for key, value in os.environ.items() if key not in ("FREECELL_PURE_PYTHON", "PYTHONPATH")}
    if pure:
        environment["FREECELL_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [python, "-c", _SEARCH, json.dumps([DEALS, POSITIONS])],
        env=environment,
        cwd="/",
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    return Round(found["package"], found["compiled"], [(float(s), str(o), int(e)) for s, o, e in found["deals"]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the installation to measure")
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    rounds: dict[str, list[Round]] = {"compiled": [], "sources": []}
    for _ in range(arguments.rounds):
        for build in rounds:
            rounds[build].append(run_round(arguments.python, pure=build == "sources"))
    for build, found in rounds.items():
        print(f"{build:<8}: {found[0].package} (compiled: {found[0].compiled})")
    ratios = []
    for index, (name, cells, number) in enumerate(DEALS):
        seconds = {build: statistics.median(r.deals[index][0] for r in found) for build, found in rounds.items()}
        outcomes = {r.deals[index][1:] for found in rounds.values() for r in found}
        ratios.append(seconds["compiled"] / seconds["sources"])
        print(
            f"{name} {cells} cells, deal {number:>5}: median {seconds['compiled']:.2f} s compiled,"
            f" {seconds['sources']:.2f} s sources, ratio {ratios[-1]:.2f};"
            f" {' / '.join(f'{status}, {expanded:,} positions' for status, expanded in outcomes)}"
        )
    print(f"median ratio compiled/sources over {len(DEALS)} deals: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
