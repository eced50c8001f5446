"""CPU time a position costs the tight game's two main searches, each alone, on fixed deals.

    python bench/position_cost.py [--runs 6] [--rules app --cells 1]

The searches are the last best-first search of a tight game (``TIGHT_FINAL``, over the
complete problem, its children made when found, as in a solve; with two cells a solve
alternates it with a second ranking, and this measures it alone) and the first relaxed
walk (depth first over classes, see ``board.py``), each run alone without a limit up
to a fixed number of positions, so that every run expands the very same positions. It prints this
interpreter, whether the solver is compiled, and for each search and deal the median of
``--runs`` runs (``time.process_time``, microseconds a position) with their spread.

To compare two interpreters, builds or versions of the code, run it from each
checkout's ``.venv`` in turn, several times, and compare the medians: a run of one
deal on this machine varies by up to half again from another.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time

from freecell import Deal, find_rules
from freecell.rules import Rules, cells_text
from freecell.solver import native
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst
from freecell.solver.plan import RELAXATIONS, TIGHT_FINAL
from freecell.solver.search import BestFirst, Budget, InstrumentedProblem, SearchLimit
from freecell.solver.steps import step_cost

# App, 1 cell: deals lost or won late, where both searches run long in play (each
# search's cap is far below its end on these deals, so every run stops at its cap).
DEALS = (6846, 3972, 17331, 25211)
FINAL_CAP = 60_000
WALK_CAP = 150_000


def final_cost(rules: Rules, deal: int) -> float:
    """Seconds a position of TIGHT_FINAL alone, over its first FINAL_CAP positions."""
    problem = FreeCellProblem(rules, complete=rules.takes_back, weights=TIGHT_FINAL.weights)
    start, _ = problem.initial(Deal(rules, deal).position())
    search = BestFirst(
        InstrumentedProblem(problem), start, path_weight=TIGHT_FINAL.path_weight, cost=step_cost, lazy=False
    )
    began = time.process_time()
    search.run(Budget(SearchLimit()), FINAL_CAP)
    return (time.process_time() - began) / search.expanded


def walk_cost(rules: Rules, deal: int) -> float:
    """Seconds a class of the first relaxed walk alone, over its first WALK_CAP classes."""
    problem = FreeCellProblem(
        rules,
        complete=rules.takes_back,
        weights=TIGHT_FINAL.weights,
        runs=False,
        twins=RELAXATIONS[0],
        fused=False,
    )
    start, _ = problem.initial(Deal(rules, deal).position())
    walk = DepthFirst(InstrumentedProblem(problem), start, dead_ends=True)
    began = time.process_time()
    walk.run(Budget(SearchLimit()), WALK_CAP)
    return (time.process_time() - began) / walk.expanded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--rules", default="app")
    parser.add_argument("--cells", type=int, default=1)
    arguments = parser.parse_args()
    rules = find_rules(arguments.rules, cells=arguments.cells)
    print(f"python {sys.version.split()[0]} at {sys.executable}; compiled: {native.in_use()}")
    gc.disable()  # as solve() does
    for name, cost in (("TIGHT_FINAL", final_cost), ("walk", walk_cost)):
        for deal in DEALS:
            runs = sorted(cost(rules, deal) * 1e6 for _ in range(arguments.runs))
            print(
                f"{name:<11} {rules.name} {cells_text(rules.cells)}, deal {deal:>5}: median"
                f" {statistics.median(runs):6.2f} us a position (runs {runs[0]:.2f} to {runs[-1]:.2f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
