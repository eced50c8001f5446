"""The searches of one solve behind one small interface, made from a plan's entries.

A :class:`Search` is a search under way over a :class:`~freecell.solver.board.FreeCellProblem`:
best first (:class:`~freecell.solver.search.BestFirst`), two rankings taking turns
(:class:`~freecell.solver.search.Alternating`) or depth first
(:class:`~freecell.solver.depth_first.DepthFirst`). Each is run for a quota of positions
and may go on later (:meth:`Search.run`), tells how many positions it expanded and lets
go of its memory (:meth:`Search.release`). :class:`Searches` makes them for a solve's
position and rules and counts what each expands, and :func:`winning_steps` turns a win
into every step from the position, cut short when long.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Final

from freecell.position import Position
from freecell.rules import Rules
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst
from freecell.solver.plan import Strategy
from freecell.solver.search import Alternating, BestFirst, Budget, InstrumentedProblem, SearchRun
from freecell.solver.shortcut import shortcut
from freecell.solver.steps import State, Step, Steps, cards_in_cells, is_twin_step, step_cost
from freecell.solver.transcript import SolverError

AnySearch = BestFirst[State, Step, Steps] | Alternating[State, Step, Steps] | DepthFirst[State, Step, Steps]

# A win longer than this many steps (with one deck nearly always the depth-first
# proof's) is cut short; shorter ones are not worth the look ahead.
SHORTCUT_FROM: Final = 100
SHORTCUT_DEPTH: Final = 3  # moves looked ahead
SHORTCUT_DEPTH_TWO_DECKS: Final = 2  # two decks: nearly every win is cut short, so cheaper
SHORTCUT_BYTES_PER_STEP: Final = 200  # a key kept for each step looked at
SHORTCUT_WINDOW_LEAST: Final = 10_000  # steps a stretch at least (2 MB of keys)


@dataclass(frozen=True, slots=True)
class Search:
    """A search under way: its problem, the steps that sent cards home from the position
    before it began (``first``), its algorithm, and, when it goes on from a way another
    search took (``origin``), that way's start and path over the same problem."""

    problem: FreeCellProblem
    first: list[Step]
    algorithm: AnySearch
    origin: tuple[State, tuple[Steps, ...]] | None = None

    def run(self, budget: Budget, cap: int | None) -> SearchRun[State, Steps]:
        """Go on until a win, the end, ``cap`` more positions or the budget (see the
        algorithm's ``run``)."""
        return self.algorithm.run(budget, cap)

    @property
    def expanded(self) -> int:
        return self.algorithm.expanded

    @property
    def depth_first(self) -> bool:
        return isinstance(self.algorithm, DepthFirst)

    @property
    def walk(self) -> DepthFirst[State, Step, Steps]:
        """The depth-first algorithm of a walk or proof (a bug to ask of another)."""
        assert isinstance(self.algorithm, DepthFirst)
        return self.algorithm

    def release(self, budget: Budget) -> None:
        """Let go of the keys of a depth-first search, on disk and in memory (it cannot
        go on after); a best-first search's go when it is no longer held."""
        if isinstance(self.algorithm, DepthFirst):
            self.algorithm.release(budget)

    def seen(self) -> Collection[bytes]:
        """The keys of every position the search has seen (in memory)."""
        algorithm = self.algorithm
        return algorithm.seen if isinstance(algorithm, DepthFirst) else algorithm.came_from.keys()


class Searches:
    """The searches of one solve of ``position`` under ``rules``, each over a problem
    counted (:class:`~freecell.solver.search.InstrumentedProblem`), so that the solve's
    statistics are their sums."""

    def __init__(self, position: Position, rules: Rules) -> None:
        self.position = position
        self.rules = rules
        self.counted: list[InstrumentedProblem[State, Step, Steps]] = []

    @property
    def expanded(self) -> int:
        return sum(counted.expanded for counted in self.counted)

    @property
    def generated(self) -> int:
        return sum(counted.generated for counted in self.counted)

    def begin(
        self,
        strategy: Strategy,
        *,
        complete: bool = False,
        depth_first: bool = False,
        twins: int = 0,
        fused: bool = True,
        dead_ends: bool = False,
    ) -> Search:
        """A search from the position as ``strategy`` says, over the complete problem or
        the fast one, best first or ``depth_first`` (a proof: runs as single cards, its
        keys spilled to disk near the memory limit; a relaxed walk with ``twins``, fused
        take-backs or not, finding ``dead_ends`` or not)."""
        problem = FreeCellProblem(
            self.rules,
            complete=complete,
            weights=strategy.weights,
            eager=strategy.eager,
            whole_runs=strategy.whole_runs,
            runs=not depth_first,
            twins=twins,
            fused=fused,
        )
        start, first = problem.initial(self.position)
        counted = self.count(problem)
        if depth_first:
            return Search(problem, first, DepthFirst(counted, start, spill=True, dead_ends=dead_ends))
        if strategy.also is not None:
            cell_weight, path_weight = strategy.also
            rankings = ((strategy.path_weight, 0), (path_weight, cell_weight - strategy.weights.cell))
            alternating = Alternating(counted, start, rankings=rankings, measure=cards_in_cells, cost=step_cost)
            return Search(problem, first, alternating)
        search = BestFirst(
            counted,
            start,
            path_weight=strategy.path_weight,
            cost=step_cost,
            lazy=strategy.cap is not None,
            noise=strategy.noise,
            seed=strategy.seed,
        )
        return Search(problem, first, search)

    def follow(self, relaxed: Search, path: Sequence[Steps]) -> Search:
        """A depth-first search of the game from the last position on ``path`` (a relaxed
        walk's way to a goal) before its first twin step: every position up to there is
        one the game reaches. Its loose twins go home as the relaxed walk's did, so that
        the path leads there in its terms too."""
        problem = FreeCellProblem(
            self.rules,
            complete=self.rules.takes_back,
            runs=False,
            twins=relaxed.problem.twins,
            classes=False,
            fused=relaxed.problem.fuses,
        )
        state = relaxed.algorithm.start
        before: list[Steps] = []
        for via in path:
            if is_twin_step(via[0]):
                break
            state, _ = problem.play(state, via[0])
            before.append(via)
        counted = self.count(problem)
        return Search(problem, relaxed.first, DepthFirst(counted, state), (relaxed.algorithm.start, tuple(before)))

    def count(self, problem: FreeCellProblem) -> InstrumentedProblem[State, Step, Steps]:
        """``problem`` with its positions counted among the solve's."""
        counted = InstrumentedProblem(problem)
        self.counted.append(counted)
        return counted


def winning_steps(found: Search, run: SearchRun[State, Steps], budget: Budget) -> list[Step]:
    """Every step of a search's win: those before it began, its path (cut short when
    long, see :data:`SHORTCUT_FROM`), and the cards sent home from the goal it stopped
    at."""
    path: Sequence[Steps] = run.path
    goal = run.goal
    start = found.algorithm.start
    if found.origin is not None:
        start, before = found.origin
        path = [*before, *path]
    if len(path) > SHORTCUT_FROM:
        assert goal is not None
        problem = found.problem
        # Runs as one step only shorten more, where they leave the cards sent home as
        # they were (not in a game that keeps loose twins in play: see follow()).
        walker = (
            problem
            if problem.twins
            else FreeCellProblem(problem.rules, complete=problem.complete, eager=problem.eager, runs=True)
        )
        # A stretch at a time where the memory left holds the keys of part of it only.
        left = budget.memory_left()
        window = None if left is None else max(left // SHORTCUT_BYTES_PER_STEP, SHORTCUT_WINDOW_LEAST)
        depth = SHORTCUT_DEPTH if problem.pile_count == 4 else SHORTCUT_DEPTH_TWO_DECKS
        # The shortcut leans on tables with one key making children with one key; were
        # that ever broken, the win found still stands, only longer.
        with suppress(SolverError):
            path, goal = shortcut(walker, start, path, depth=depth, window=window)
    return steps_of(found.problem, found.first, path, goal)


def steps_of(problem: FreeCellProblem, first: list[Step], path: Sequence[Steps], goal: State | None) -> list[Step]:
    """The steps before a search began, those of its path, and the cards sent home from
    the goal it stopped at."""
    assert goal is not None
    steps = list(first)
    for via in path:  # each a tuple: extended in one call, for less than a chain's iterators
        steps.extend(via)
    steps.extend(problem.finish(goal))
    return steps
