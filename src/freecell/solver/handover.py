"""The hand-over from the last search to the depth-first proof, and the late searches.

The last best-first search gives way to a depth-first proof over the same problem (a
key per position, no heuristic: about half the cost a position, and near the memory
limit its keys go to disk) past half the memory limit, or in a tight game after a
count of positions (:class:`~freecell.solver.plan.HandOver`), but only where the budget
left could hold such a proof from the start (:func:`proof_fits`). Then the late
searches take turns with the proof (:class:`LateSearches`): capped searches for the
rare wins the last search wanders past, and under take-back rules the last search
itself first, with room of its own.
"""

from __future__ import annotations

from freecell.solver.plan import HandOver
from freecell.solver.search import BYTES_PER_POSITION, Budget, SearchEnd
from freecell.solver.searches import Search, Searches
from freecell.solver.walks import RelaxedWalks, Win


def proof_fits(budget: Budget, expanded: int, time_share: float) -> bool:
    """Whether what is left of ``budget`` could hold a depth-first proof from the start
    of what a best-first search that has expanded ``expanded`` positions has walked: as
    many positions again, each at ``time_share`` of the time spent so far a position.
    Where it could not, the best-first search goes on instead of giving way: the proof
    would begin again from nothing and be cut off, where the search itself may still end."""
    positions = budget.positions_left()
    seconds = budget.seconds_left()
    return (positions is None or positions >= expanded) and (
        seconds is None or seconds >= time_share * budget.elapsed()
    )


def proof_reserve(budget: Budget) -> int:
    """The memory that best first leaves for the depth-first proof it would give way
    to: half the memory limit, or less where fewer positions are left than that holds
    (at :data:`~freecell.solver.search.BYTES_PER_POSITION` each, an eighth of the limit
    at least: with a helper, the positions left here are a third of the limit's or
    fewer, and best first makes several positions for each it expands)."""
    memory = budget.memory or 0
    left = budget.positions_left()
    return memory // 2 if left is None else min(memory // 2, max(left * BYTES_PER_POSITION, memory // 8))


def memory_wanted(budget: Budget) -> bool:
    """Whether the memory left is short of a quarter of the limit: the proof needs it
    more than a search beside it does."""
    return budget.memory_short(0, reserve=(budget.memory or 0) // 4)


class LateSearches:
    """The searches that take turns with the proof, one after another (``hand_over``'s
    late searches, or first the last search kept), each until its cap: :meth:`turn`
    runs the one under way for a turn of ``hand_over.turn`` positions at most."""

    def __init__(
        self, hand_over: HandOver, searches: Searches, walks: RelaxedWalks, budget: Budget, scale: int
    ) -> None:
        self.hand_over = hand_over
        self.searches = searches
        self.walks = walks
        self.budget = budget
        self.scale = scale
        self.waiting = list(hand_over.late)  # not begun yet
        self.current: Search | None = None  # the one taking turns with the proof
        self.cap = 0  # its cap on positions

    @property
    def turn_size(self) -> int:
        """The positions of the current search's turn (the proof's and a walk's are told by it)."""
        return min(self.hand_over.turn * self.scale, self.cap)

    def keep(self, final: Search) -> None:
        """Let the last search go on first, with room for the plan's positions more."""
        assert self.hand_over.kept_room is not None
        self.current, self.cap = final, final.expanded + self.hand_over.kept_room * self.scale

    def begin_next(self) -> None:
        """The next late search, if any is left and the memory left holds it (what it
        frees may stay with the process, and the proof would find its own memory short
        ever after)."""
        self.current, self.cap = None, 0
        if not self.waiting:
            return
        strategy = self.waiting.pop(0)
        cap = (strategy.cap or 0) * self.scale
        budget = self.budget
        if budget.memory_short(0, reserve=max((budget.memory or 0) // 4, cap * BYTES_PER_POSITION)):
            self.waiting.clear()  # the proof has the memory left
            return
        self.current, self.cap = self.walks.pass_dead_ends_by(self.searches.begin(strategy)), cap

    def turn(self) -> Win | None:
        """The current search's turn, and its win if it found one. Spent (its cap, or its
        end, which proves nothing: eager, or whole runs), it gives way to the next; where
        the memory runs short, the proof gets it back."""
        late = self.current
        assert late is not None
        budget = self.budget
        run = late.run(budget, min(self.hand_over.turn * self.scale, self.cap - late.expanded))
        if run.outcome is SearchEnd.FOUND:
            return late, run
        if budget.for_memory:
            self.current = None  # the proof gets its memory back, and goes on (it may spill)
            budget.relieve()
        elif memory_wanted(budget):
            self.current = None
        elif run.outcome is SearchEnd.EXHAUSTED or late.expanded >= self.cap:
            del late, run
            self.begin_next()
        return None
