"""``solve()``: a portfolio of quick greedy searches, then one that runs to the end.

Each search is greedy best-first over :class:`~freecell.solver.board.FreeCellProblem`.
The first ones are capped (a few thousand positions each) and rank positions by
different :class:`~freecell.solver.board.Weights`: when one heuristic leads into a dead
end, another often walks straight to a win. The last search has no cap of its own and
runs until it wins, proves the loss or spends the budget:

* Where foundation cards never come back, the fast problem is already exhaustive: it
  lists every legal single-card move besides the runs, and its reductions (canonical
  keys, safe cards sent home) are sound. So the last search is a fast one too, and
  when it runs out of positions the deal is proven unsolvable.
* Under take-back rules, the last search is over the complete problem: single-card
  moves and take-backs, nothing sent home automatically.

With ``short``, weighted A* (the heuristic plus the moves made) also runs, capped, after
the first win, and the shorter solution is kept. Every solution is written out as
public moves and replayed by the rules engine before it is returned.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from freecell.deals import Deal
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver.board import HOME, FreeCellProblem, State, Step, Steps, Weights
from freecell.solver.search import (
    Budget,
    InstrumentedProblem,
    Outcome,
    SearchLimit,
    best_first,
    greedy,
    weighted,
)
from freecell.solver.shorten import shorten
from freecell.solver.transcript import verify, write_moves

DEFAULT_LIMIT: Final = SearchLimit(seconds=60.0, memory_mb=1000)
# The capped searches, tried in turn: their weights and their caps (positions expanded).
PORTFOLIO: Final = (
    (Weights(), 1_000),
    (Weights(in_play=4, disorder=12, off_run=4, depth=2, cell=28, empty_column=40, next=6), 3_000),
)
FINAL_WEIGHTS: Final = Weights()
# The searches for a shorter solution: weights, the weight of the path's cost, the cap.
SHORT_PLAN: Final = (
    (Weights(), 10, 3_000),
    (Weights(), 20, 5_000),
    (Weights(), 40, 5_000),
)


class SolveStatus(Enum):
    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"
    LIMIT_REACHED = "limit-reached"


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What a solve found. ``moves`` (standard notation, foundation moves included)
    replays from the position to a win under the rules with nothing automatic; it is
    empty unless the status is SOLVED."""

    status: SolveStatus
    moves: tuple[str, ...]
    expanded: int
    generated: int
    seconds: float
    non_foundation_moves: int

    @property
    def solved(self) -> bool:
        return self.status is SolveStatus.SOLVED


def _cost(via: Steps) -> int:
    return 1 if via[0][1] != HOME else 0


def solve(
    position: Position, rules: Rules, *, limit: SearchLimit | None = None, short: bool = False
) -> SolveResult:
    """Solve ``position`` under ``rules`` within ``limit`` (default :data:`DEFAULT_LIMIT`).

    SOLVED comes with moves checked by replay; UNSOLVABLE only after an exhaustive search
    with sound reductions; LIMIT_REACHED when the budget ran out first. Raises
    :class:`~freecell.solver.transcript.SolverError` if a solution fails its replay (a bug).
    """
    budget = Budget(limit or DEFAULT_LIMIT)
    searches: list[InstrumentedProblem[State, Steps]] = []
    steps: list[Step] | None = None
    status = SolveStatus.LIMIT_REACHED
    final = FreeCellProblem(rules, complete=rules.takes_back, weights=FINAL_WEIGHTS)
    plan: list[tuple[FreeCellProblem, int | None]] = [
        (FreeCellProblem(rules, complete=False, weights=weights), cap) for weights, cap in PORTFOLIO
    ]
    plan.append((final, None))
    for problem, cap in plan:
        start, first = problem.initial(position)
        counted = InstrumentedProblem(problem)
        searches.append(counted)
        run = best_first(counted, start, budget, priority=greedy, cost=_cost, cap=cap)
        if run.outcome is Outcome.FOUND:
            steps = first + [step for via in run.path for step in via]
            break
        if run.outcome is Outcome.EXHAUSTED and (problem is final or not rules.takes_back):
            status = SolveStatus.UNSOLVABLE
            break
        if budget.exhausted(0):
            break

    moves: list[str] = []
    if steps is not None:
        status = SolveStatus.SOLVED
        moves = _shorter(position, rules, steps, budget, searches) if short else write_moves(position, rules, steps)
        verify(position, rules, moves)
    return SolveResult(
        status=status,
        moves=tuple(moves),
        expanded=sum(s.expanded for s in searches),
        generated=sum(s.generated for s in searches),
        seconds=budget.elapsed(),
        non_foundation_moves=count_non_foundation(moves),
    )


def _shorter(
    position: Position,
    rules: Rules,
    steps: list[Step],
    budget: Budget,
    searches: list[InstrumentedProblem[State, Steps]],
) -> list[str]:
    """A solution no longer than ``steps``: weighted A* searches, each bounded by the
    best length so far, then :func:`~freecell.solver.shorten.shorten` on the best."""
    best = steps
    best_cost = sum(1 for step in steps if step[1] != HOME)
    for weights, weight, cap in SHORT_PLAN:
        if budget.exhausted(0):
            break
        problem = FreeCellProblem(rules, complete=False, weights=weights)
        start, first = problem.initial(position)
        counted = InstrumentedProblem(problem)
        searches.append(counted)
        run = best_first(counted, start, budget, priority=weighted(weight), cost=_cost, cap=cap, bound=best_cost)
        if run.outcome is Outcome.FOUND:
            best = first + [step for via in run.path for step in via]
            best_cost = sum(_cost(via) for via in run.path)
    return shorten(position, rules, write_moves(position, rules, best))


def count_non_foundation(moves: list[str] | tuple[str, ...]) -> int:
    """How many moves do not send a card home (``3h``, ``ah``)."""
    return sum(1 for move in moves if not (len(move) == 2 and move[1] == "h"))


def solve_deal(deal: Deal, *, limit: SearchLimit | None = None, short: bool = False) -> SolveResult:
    """:func:`solve` from the layout of ``deal`` under its own rules."""
    return solve(deal.position(), deal.rules, limit=limit, short=short)
