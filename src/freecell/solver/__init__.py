"""The solver: ``solve(position, rules, *, limit, short) -> SolveResult``.

>>> from freecell import Deal, find_rules
>>> result = solve_deal(Deal(find_rules("standard"), 1))
>>> result.status
<SolveStatus.SOLVED: 'solved'>
>>> from freecell.replay import replay
>>> replay(Deal(find_rules("standard"), 1).position(), find_rules("standard"), result.moves).is_won()
True

The moves, the heuristic and the depth-first proof may run compiled (see
:mod:`freecell.solver.native`): when a current build is there, its folder comes first
on this package's path.
"""

from freecell.solver.native import search_path

__path__ = [*search_path(), *__path__]

# Imported once the path is set.
from freecell.solver.result import SolveResult, SolveStatus
from freecell.solver.search import SearchLimit
from freecell.solver.solving import DEFAULT_LIMIT, solve, solve_deal
from freecell.solver.transcript import SolverError

__all__ = ["DEFAULT_LIMIT", "SearchLimit", "SolveResult", "SolveStatus", "SolverError", "solve", "solve_deal"]
