"""The scheduler: runs any plan's searches after the portfolio, in turns, to a verdict.

The last search (the plan's ``final``) runs in slices. While restarts are left, each
slice is followed by one restart (capped, never claiming a loss); a relaxed walk, from
the plan's ``begin_at`` on, takes a turn after each slice. The last search gives way to
a depth-first proof over the same problem (:mod:`~freecell.solver.handover`), after
which the late searches and the walks take turns with the proof. In play the walks may
go to a helper process instead (:mod:`~freecell.solver.helping`). The first search to
win ends the schedule; so does a proof, a walk run out of classes, or the budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freecell.solver.handover import LateSearches, memory_wanted, proof_fits, proof_reserve
from freecell.solver.losses import keep_lost
from freecell.solver.plan import Plan
from freecell.solver.result import SolveStatus, Verdict
from freecell.solver.search import Budget, SearchEnd, SearchRun
from freecell.solver.searches import Search, Searches, winning_steps
from freecell.solver.steps import State, Steps
from freecell.solver.walks import RelaxedWalks

if TYPE_CHECKING:
    from freecell.solver.helping import HelperWalks


class Scheduler:
    """The turns of ``plan``'s searches after the portfolio, over ``searches`` within
    ``budget`` (positions counted per ``scale``). Under take-back rules (``complete``)
    the last search and the proofs walk the complete problem. The walks are ``walks``'s;
    with ``helper``, they may go to a helper process. :meth:`run` gives the verdict, and
    :attr:`helped` then counts the positions the helper expanded."""

    def __init__(
        self,
        plan: Plan,
        searches: Searches,
        budget: Budget,
        walks: RelaxedWalks,
        helper: HelperWalks | None,
        *,
        complete: bool,
        scale: int,
    ) -> None:
        self.plan = plan
        self.searches = searches
        self.budget = budget
        self.walks = walks
        self.helper = helper
        self.complete = complete
        self.scale = scale
        self.ending = walks.pass_dead_ends_by(searches.begin(plan.final, complete=complete))
        self.proving = walks.proving  # a proof walks every move
        walks.current = walks.begin_next()
        self.restarts = list(plan.restarts)  # not begun yet
        self.late = LateSearches(plan.hand_over, searches, walks, budget, scale)
        self.helped = 0

    def run(self) -> Verdict:
        """Turn after turn until a search decides, or the budget is spent."""
        try:
            while True:
                verdict = self._turn()
                if verdict is not None:
                    return verdict
        finally:
            if self.helper is not None:
                self.helper.end()
                self.helped = self.helper.helped

    def _turn(self) -> Verdict | None:
        """One round: the last search's slice, a walk's turn, then the hand-over, a late
        search's turn or a restart; a verdict, or None to go on."""
        if self.helper is not None and self.helper.running:
            heard = self._heard(self.helper.poll())
            if heard is not None:
                return heard
        if self.budget.exhausted(0):
            if self.helper is None or not self.helper.running:
                return None, SolveStatus.LIMIT_REACHED
            # Its own positions spent, this search waits for the helper's verdict or
            # end; the positions the helper leaves are given back.
            return self._heard(self.helper.wait())
        self._lend_walks()
        depth_first = self.ending.depth_first
        cap = self._final_cap(depth_first)
        run = self.ending.run(self.budget, cap)
        if run.outcome is SearchEnd.FOUND:
            return self._won(self.ending, run)
        if run.outcome is SearchEnd.EXHAUSTED:
            return self._final_exhausted()
        walks = self.walks
        if walks.current is not None and (depth_first or self.ending.expanded >= self._walks_from()):
            verdict = self._walk_turn(depth_first, cap)
            if verdict is not None:
                return verdict
        short = not depth_first and self.budget.memory_short(0, reserve=proof_reserve(self.budget))
        if not depth_first and self._gives_way(short):
            self._hand_over(short)
        elif self.late.current is not None:
            win = self.late.turn()
            if win is not None:
                return self._won(*win)
        elif self.restarts:
            return self._restart_turn()
        return None

    def _final_cap(self, depth_first: bool) -> int | None:
        """The last search's next slice. While restarts or a walk are left, a slice at a
        time (a loss proven in a few slices pays for as many restarts only); under a
        memory limit or a hand-over count, best first runs in slices to the end too, to
        give way in time; beside a late search, about the time of that one's turn."""
        if self.late.current is not None:
            return 2 * self.late.turn_size
        sliced = (
            self.restarts
            or self.walks.current is not None
            or (not depth_first and (self.budget.memory is not None or self.plan.hand_over.at is not None))
        )
        return self.plan.slice * self.scale if sliced else None

    def _walks_from(self) -> int:
        """The last search's positions from which the walks take turns with it."""
        assert self.plan.walks is not None
        return self.plan.walks.begin_at * self.scale

    def _lend_walks(self) -> None:
        """In play, once the last search has expanded the walks' first positions, the
        walk under way goes to a helper process instead of taking turns here."""
        helper, walk = self.helper, self.walks.current
        if helper is None or helper.running or walk is None or self.ending.depth_first:
            return
        if self.ending.expanded >= self._walks_from() and helper.start(walk):
            self.walks.current = None  # the helper walks it

    def _final_exhausted(self) -> Verdict | None:
        """The last search ran out of positions: a proof over an exhaustive problem;
        nothing over whole runs only (it begins again, over every move, and None goes
        on) or where some fused steps were left out."""
        ending = self.ending
        if ending.problem.whole_runs:
            self.ending = self.walks.pass_dead_ends_by(self.searches.begin(self.proving, complete=self.complete))
            return None
        if ending.problem.truncated:
            return None, SolveStatus.LIMIT_REACHED
        keep_lost(self.walks.lost[0], ending.seen())
        return None, SolveStatus.UNSOLVABLE

    def _walk_turn(self, depth_first: bool, cap: int | None) -> Verdict | None:
        """The walk's turn: the plan's ``turn`` after each of the last search's slices;
        once the proof runs, ``share`` times the proof's slice, or the late search's
        turn when there is one."""
        walks = self.plan.walks
        assert walks is not None
        if not depth_first:
            cap = walks.turn * self.scale
        elif self.late.current is not None:
            cap = walks.share * self.late.turn_size
        elif cap is not None:
            cap = walks.share * cap
        decided = self.walks.turn(self.budget, cap, proof_begun=depth_first)
        if decided is True:
            return None, SolveStatus.UNSOLVABLE
        if decided:
            return self._won(*decided)
        return None

    def _gives_way(self, short: bool) -> bool:
        """Whether the last search (best first) gives way to the proof now: the memory
        ``short`` of the proof's reserve, or its count reached, where the budget left
        holds the proof (else it goes on, and may yet end)."""
        at = self.plan.hand_over.at
        counted = at is not None and self.ending.expanded >= at * self.scale
        return (short or counted) and proof_fits(self.budget, self.ending.expanded, self.plan.hand_over.time_share)

    def _hand_over(self, short: bool) -> None:
        """The last search gives way to the proof. Given way for its count under
        take-back rules, it goes on behind the proof, first of the late searches; else
        its memory goes to the proof. A walk, where the one before met a goal, begins
        (not while a helper runs: the walks are its own)."""
        kept = self.ending if self.plan.hand_over.kept_room is not None and not short else None
        self.ending = self.walks.pass_dead_ends_by(
            self.searches.begin(self.proving, complete=self.complete, depth_first=True)
        )
        self.restarts.clear()
        if kept is not None:
            self.late.keep(kept)
        else:
            self.late.begin_next()
        del kept
        helping = self.helper is not None and self.helper.running
        if self.walks.current is None and not helping and not memory_wanted(self.budget):
            self.walks.current = self.walks.begin_next()

    def _restart_turn(self) -> Verdict | None:
        """The next restart, to its cap: its win, if it found one."""
        strategy = self.restarts.pop(0)
        restart = self.searches.begin(strategy)
        run = restart.run(self.budget, (strategy.cap or 0) * self.scale)
        return self._won(restart, run) if run.outcome is SearchEnd.FOUND else None

    def _won(self, found: Search, run: SearchRun[State, Steps]) -> Verdict:
        """The win ``found`` found, cut short once the other searches let go of their memory."""
        for other in (self.ending, self.walks.current, self.late.current):
            if other is not None and other is not found:
                other.release(self.budget)
        return winning_steps(found, run, self.budget), SolveStatus.SOLVED

    def _heard(self, verdict: Verdict | None) -> Verdict | None:
        """The helper's verdict, if any; a win lets the searches here go first."""
        if verdict is not None and verdict[1] is SolveStatus.SOLVED:
            for other in (self.ending, self.late.current):
                if other is not None:
                    other.release(self.budget)
        return verdict
