"""The relaxed walks of a tight game, their dead ends, and the follow from their goals.

A walk is a depth-first proof over a relaxed problem (``twins``: see
:mod:`~freecell.solver.board`), whose classes are far fewer than the positions: one that
runs out of classes proves the deal lost. A goal it meets proves nothing, but its way
there, up to its first twin step, is the game's own, and a depth-first search of the
game from there (the *follow*) often wins. Until its first goal a walk also finds dead
ends (classes no goal can be reached from): the game's searches pass their positions
by, and they are kept for the solves after this one (:mod:`~freecell.solver.losses`).

:class:`RelaxedWalks` begins the walks of a plan one after another and holds the one
that runs in this process; the scheduler (or the helper process) gives it its turns.
"""

from __future__ import annotations

from collections.abc import Sequence

from freecell.solver.losses import keep_lost
from freecell.solver.plan import Strategy, Walks
from freecell.solver.search import Budget, SearchEnd, SearchRun
from freecell.solver.searches import Search, Searches
from freecell.solver.steps import State, Steps
from freecell.solver.twins import DeadEnds

Win = tuple[Search, SearchRun[State, Steps]]


class RelaxedWalks:
    """The relaxed walks of ``walks`` (none when None), begun as ``proving`` says (the last
    search's weights, every move) over the problem a proof walks (``complete`` under
    take-back rules), with what is known lost:
    ``lost`` (the keys kept, by kind), ``dead_ends`` (which the game's searches pass by)
    and ``walked`` (each walk's dead ends, with its twins, for the solves after this)."""

    def __init__(
        self,
        searches: Searches,
        walks: Walks | None,
        proving: Strategy,
        *,
        complete: bool,
        lost: dict[int, set[bytes]],
        dead_ends: DeadEnds,
        walked: list[tuple[int, set[bytes]]],
        scale: int,
    ) -> None:
        self.searches = searches
        self.plan = walks
        self.proving = proving
        self.complete = complete
        self.lost = lost
        self.dead_ends = dead_ends
        self.walked = walked
        self.scale = scale
        self.left = list(walks.relaxations) if walks is not None else []  # those not begun yet
        # The classes the walks found to reach no goal: the game's searches pass their
        # positions by.
        self.prune = dead_ends.holds if walks is not None and walks.dead_ends else None
        self.current: Search | None = None  # the walk that takes turns here

    def pass_dead_ends_by(self, search: Search) -> Search:
        """``search``, told to pass by the positions of the dead ends (where kept)."""
        search.algorithm.prune = self.prune
        return search

    def begin_next(self) -> Search | None:
        """The next relaxed walk, if any is left. Cards come back one at a time there, not
        fused: a fused walk meets its goals later, and the wins that follow them come
        too late."""
        if not self.left:
            return None
        walk = self.searches.begin(
            self.proving,
            complete=self.complete,
            depth_first=True,
            twins=self.left.pop(0),
            fused=False,
            dead_ends=self.prune is not None,
        )
        self.keep_dead_ends(walk)
        return walk

    def begin_proof(self) -> Search:
        """The game's own depth-first proof, passing by the dead ends and finding more."""
        proof = self.pass_dead_ends_by(
            self.searches.begin(
                self.proving, complete=self.complete, depth_first=True, dead_ends=self.prune is not None
            )
        )
        self.keep_dead_ends(proof)
        return proof

    def keep_dead_ends(self, walk: Search) -> None:
        """Where dead ends are kept, ``walk``'s (as it finds them) are passed by from now
        on, and kept for the solves after this one."""
        if self.prune is not None:
            self.dead_ends.add(walk.problem, walk.walk.dead)
            self.walked.append((walk.problem.twins, walk.walk.dead))

    def take_known_lost(self, walk: Search) -> None:
        """Before a walk's first turn (a walk counts its start as expanded from the
        outset; should a turn end before it expands another, this is done again, to the
        same effect): the classes known lost already are passed by as classes seen,
        whose components are closed (they reach no goal), so Tarjan's bookkeeping holds."""
        if self.prune is not None and walk.expanded == 1:
            walk.walk.seen.update(self.lost[walk.problem.twins])

    def follow_goal(self, walk: Search, path: Sequence[Steps], budget: Budget) -> Win | None:
        """The search from the game's last position on a relaxed goal's ``path`` (see
        :meth:`~freecell.solver.searches.Searches.follow`) and its win, if it found one
        within the plan's ``follow`` positions."""
        assert self.plan is not None
        following = self.pass_dead_ends_by(self.searches.follow(walk, path))
        followed = following.run(budget, self.plan.follow * self.scale)
        return (following, followed) if followed.outcome is SearchEnd.FOUND else None

    def turn(self, budget: Budget, cap: int | None, *, proof_begun: bool) -> Win | bool:
        """The current walk's turn of ``cap`` positions: True where it proved the loss,
        the follow's win where its goal led to one, else False. A walk that met a goal
        (or proved nothing, some fused steps left out) gives way to the next once the
        proof has begun (``proof_begun``); one the memory stopped ends the walks, and the
        others keep the memory left."""
        walk = self.current
        assert walk is not None and self.plan is not None
        self.take_known_lost(walk)
        proof = walk.run(budget, cap)
        void = proof.outcome is SearchEnd.EXHAUSTED and walk.problem.truncated  # proves nothing
        if proof.outcome is SearchEnd.EXHAUSTED and not void:
            keep_lost(self.lost[walk.problem.twins], walk.seen())
            return True
        if proof.outcome is SearchEnd.FOUND and not budget.for_memory:
            win = self.follow_goal(walk, proof.path, budget)
            if win is not None:
                return win
        if proof.outcome is SearchEnd.FOUND or void or budget.for_memory:
            # Where the walk could not spill (too few keys in memory to be worth it), the
            # others keep what memory is left (its dead ends too). Else its dead ends stay.
            if budget.for_memory:
                walk.walk.dead.clear()
            walk.release(budget)
            self.current = None
            if budget.for_memory:
                budget.relieve()
                self.left.clear()
            elif proof_begun:
                self.current = self.begin_next()
        return False
