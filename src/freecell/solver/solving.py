"""``solve()``: the plan of the rules' family, run to a verdict, and the win replayed.

The plan (:mod:`~freecell.solver.plan`, chosen by :func:`~freecell.solver.plan.plan_for`)
says which searches run and when: first its portfolio of quick capped searches, then
its last search, which runs to its end taking turns with restarts, a depth-first proof
and relaxed walks as the scheduler (:mod:`~freecell.solver.schedule`) gives them
turns. Most searches are best first over :class:`~freecell.solver.board.FreeCellProblem`,
ranking positions by the heuristic plus a weight times the moves made; a search over
a problem whose reductions are all sound (never eager, never whole runs only) proves a
loss when it runs out of positions.

The losses a proof finds, and the dead ends the walks find, are kept for the solves
after this one in the same process (:mod:`~freecell.solver.losses`): a solve that starts
from one ends at once. A win is cut short when long; with ``short``, beam searches and
:func:`~freecell.solver.shorten.shorten` look for a shorter one. Every solution is
written out as public moves and replayed by the rules engine before it is returned.
"""

from __future__ import annotations

import gc
from dataclasses import replace

from freecell.deals import Deal
from freecell.errors import InvalidInputError
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver.board import FreeCellProblem
from freecell.solver.losses import exhaustive_problem, keep_lost, key_maker, known_lost, lost_sets
from freecell.solver.plan import RELAXATIONS, SHORT_PLAN, Plan, plan_for
from freecell.solver.result import SolveResult, SolveStatus, Verdict
from freecell.solver.search import Budget, SearchEnd, SearchLimit
from freecell.solver.searches import Searches, steps_of, winning_steps
from freecell.solver.steps import Step, step_cost
from freecell.solver.transcript import count_non_foundation, verify, write_moves
from freecell.solver.twins import DeadEnds

DEFAULT_LIMIT = SearchLimit(seconds=60.0, memory_mb=1000)


def solve(
    position: Position,
    rules: Rules,
    *,
    limit: SearchLimit | None = None,
    short: bool = False,
    helper: bool = False,
    plan: Plan | None = None,
    remember: bool = True,
) -> SolveResult:
    """Solve ``position`` under ``rules`` within ``limit`` (default :data:`DEFAULT_LIMIT`),
    following ``plan`` (by default the plan of the rules' family: see
    :func:`~freecell.solver.plan.plan_for`).

    SOLVED comes with moves checked by replay; UNSOLVABLE only after an exhaustive search
    with sound reductions; LIMIT_REACHED when the budget ran out first. With ``helper``,
    a tight game's relaxed walks may run in a forked process on another core, within
    the same limit (see :mod:`~freecell.solver.helping`): only where forking is safe, in
    a process with no other thread that could hold a lock when it forks. Raises
    With ``remember`` off, the solve neither uses nor keeps the losses that other solves
    in the process found (:mod:`~freecell.solver.losses`): under a limit of positions only,
    its course then depends on the position and the limit alone, whatever the process
    solved before (the daily deal's choice relies on it). Raises
    :class:`~freecell.errors.InvalidInputError` when the table does not have the layout of ``rules``, and
    :class:`~freecell.solver.transcript.SolverError` if a solution fails its replay (a bug).
    """
    _check_table(position, rules)
    # The cyclic garbage collector is paused: a search makes tuples by the million, none
    # of them in a cycle, and the collector would walk them again and again. (Written
    # out, not as a context manager: a generator's one costs about 10k instructions a
    # solve, some 0.2% of a median deal.)
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _solve(position, rules, limit or DEFAULT_LIMIT, short, helper, plan or plan_for(rules), remember)
    finally:
        if was_enabled:
            gc.enable()


def _solve(
    position: Position, rules: Rules, limit: SearchLimit, short: bool, helper: bool, plan: Plan, remember: bool
) -> SolveResult:
    budget = Budget(limit)
    searches = Searches(position, rules)
    relaxations = dict.fromkeys((*RELAXATIONS, *(plan.walks.relaxations if plan.walks is not None else ())))
    lost = lost_sets(position, rules, relaxations) if remember else {twins: set() for twins in (0, *relaxations)}
    if known_lost(position, rules, lost):
        return SolveResult(SolveStatus.UNSOLVABLE, (), 0, 0, budget.elapsed(), 0)
    steps, status = _portfolio(plan, searches, budget, lost[0])
    helped = 0
    if steps is None and status is not SolveStatus.UNSOLVABLE:
        (steps, status), helped = _decide(plan, searches, budget, exhaustive_problem(rules), lost, helper)
    moves: list[str] = []
    if steps is not None:
        status = SolveStatus.SOLVED
        moves = _shorter(position, rules, steps, budget, searches) if short else write_moves(position, rules, steps)
        verify(position, rules, moves)
    return SolveResult(
        status=status,
        moves=tuple(moves),
        expanded=searches.expanded + helped,
        generated=searches.generated,
        seconds=budget.elapsed(),
        non_foundation_moves=count_non_foundation(moves),
    )


def _portfolio(plan: Plan, searches: Searches, budget: Budget, lost: set[bytes]) -> Verdict:
    """The plan's portfolio, each search to its cap: the first win, or a loss proven by
    one over a problem whose reductions are all sound (kept in ``lost``)."""
    scale = searches.rules.decks**2
    for strategy in plan.portfolio:
        if budget.exhausted(0):
            break
        quick = searches.begin(strategy)
        run = quick.run(budget, None if strategy.cap is None else strategy.cap * scale)
        if run.outcome is SearchEnd.FOUND:
            return winning_steps(quick, run, budget), SolveStatus.SOLVED
        proves = not (quick.problem.eager or quick.problem.whole_runs or searches.rules.takes_back)
        if run.outcome is SearchEnd.EXHAUSTED and proves:
            keep_lost(lost, quick.seen())
            return None, SolveStatus.UNSOLVABLE
    return None, SolveStatus.LIMIT_REACHED


def _decide(
    plan: Plan,
    searches: Searches,
    budget: Budget,
    exhaustive: FreeCellProblem,
    lost: dict[int, set[bytes]],
    helper: bool,
) -> tuple[Verdict, int]:
    """After the portfolio: the scheduler's verdict over the rest of the plan, and the
    positions a helper expanded. The walks pass by what the solves before this one
    found lost, and what they find is kept for the solves after it."""
    # Imported here: most solves end in the portfolio, and never need the scheduler.
    from freecell.solver.schedule import Scheduler
    from freecell.solver.walks import RelaxedWalks

    rules = searches.rules
    scale = rules.decks**2
    dead_ends = DeadEnds()
    if plan.walks is not None and plan.walks.dead_ends:
        for twins, keys in lost.items():
            if keys:
                dead_ends.add(key_maker(rules, twins) if twins else exhaustive, keys)
    walked: list[tuple[int, set[bytes]]] = []
    walks = RelaxedWalks(
        searches,
        plan.walks,
        replace(plan.final, whole_runs=False),
        complete=rules.takes_back,
        lost=lost,
        dead_ends=dead_ends,
        walked=walked,
        scale=scale,
    )
    lent = None
    if helper and plan.walks is not None and plan.helper is not None:
        from freecell.solver.helping import HelperWalks  # (only a solve with a helper needs it)

        lent = HelperWalks(plan.helper, walks, budget, lost, scale)
    scheduler = Scheduler(plan, searches, budget, walks, lent, complete=rules.takes_back, scale=scale)
    verdict = scheduler.run()
    for twins, dead in walked:
        keep_lost(lost[twins], dead)
    return verdict, scheduler.helped


def _shorter(position: Position, rules: Rules, steps: list[Step], budget: Budget, searches: Searches) -> list[str]:
    """A solution no longer than ``steps``: the beams of the short plan, each bounded
    by the best length so far, then :func:`~freecell.solver.shorten.shorten` on the
    shortest (counted in public moves, so that under single-card rules a run counts as
    the moves it stands for)."""
    # Imported here: only a solve with ``short`` needs them.
    from freecell.solver.beam import beam_search
    from freecell.solver.shorten import shorten

    best = write_moves(position, rules, steps)
    bound = sum(map(step_cost, steps))
    for beam in SHORT_PLAN:
        if budget.exhausted(0):
            break
        problem = FreeCellProblem(rules, complete=False, weights=beam.weights, eager=True)
        start, first = problem.initial(position)
        run = beam_search(searches.count(problem), start, budget, width=beam.width, cost=step_cost, bound=bound)
        if run.outcome is SearchEnd.FOUND:
            moves = write_moves(position, rules, steps_of(problem, first, run.path, run.goal))
            bound = min(bound, sum(step_cost(via[0]) for via in run.path))
            if count_non_foundation(moves) < count_non_foundation(best):
                best = moves
    return shorten(position, rules, best)


def _check_table(position: Position, rules: Rules) -> None:
    if (len(position.columns), len(position.cells), len(position.foundations)) != (
        rules.columns,
        rules.cells,
        rules.foundation_count,
    ):
        raise InvalidInputError(
            f"the position has {len(position.columns)} columns, {len(position.cells)} cells and "
            f"{len(position.foundations)} foundations, but {rules.name} with {rules.cells} cells has "
            f"{rules.columns}, {rules.cells} and {rules.foundation_count}"
        )


def solve_deal(deal: Deal, *, limit: SearchLimit | None = None, short: bool = False) -> SolveResult:
    """:func:`solve` from the layout of ``deal`` under its own rules."""
    return solve(deal.position(), deal.rules, limit=limit, short=short)
