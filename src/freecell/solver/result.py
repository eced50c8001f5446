"""What a solve answers: a status, and the moves of a win with the search's statistics."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from freecell.solver.steps import Step


class SolverError(RuntimeError):
    """The solver produced a solution that the rules engine refuses: a bug, never a verdict.
    (Kept here, not in the compiled :mod:`~freecell.solver.transcript` that raises it:
    mypyc compiles no subclass of a built-in exception.)"""


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


# The searches' answer: the steps of a win (None for none) and the status.
Verdict = tuple[list[Step] | None, SolveStatus]
