"""The solver: ``solve(position, rules, *, limit, short) -> SolveResult``.

>>> from freecell import Deal, find_rules
>>> result = solve_deal(Deal(find_rules("standard"), 1))
>>> result.status
<SolveStatus.SOLVED: 'solved'>
>>> from freecell.replay import replay
>>> replay(Deal(find_rules("standard"), 1).position(), find_rules("standard"), result.moves).is_won()
True
"""

from freecell.solver.search import SearchLimit
from freecell.solver.solving import DEFAULT_LIMIT, SolveResult, SolveStatus, solve, solve_deal
from freecell.solver.transcript import SolverError

__all__ = ["DEFAULT_LIMIT", "SearchLimit", "SolveResult", "SolveStatus", "SolverError", "solve", "solve_deal"]
