"""The relaxed walks lent to a helper process on the other core, both ends of it.

In play (``solve(..., helper=True)``) a tight game's walks run in a process forked once
the last search has expanded the walks' ``begin_at`` positions (see
:mod:`~freecell.solver.helper` for the fork and the pipe), rather than taking turns with
it here. The helper runs them one after another under a budget of its own (each walk
followed from its goal, the next begun at once, part of its positions given back), then
the game's own proof, and reports its dead ends as it finds them, then a proof, a win
or nothing. The limit holds for the two together: the helper is given its share of the
positions and memory left, held back here and given back when it ends sooner, and the
same deadline. Here the walks' dead ends are mirrored (a copy of each walk it runs,
holding the dead ends it reports) and passed by as this process's own would be.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Final

from freecell.solver.helper import Helper, Message, Reporter
from freecell.solver.helper import start as start_helper
from freecell.solver.losses import keep_lost
from freecell.solver.plan import HelperShare
from freecell.solver.result import SolveStatus, Verdict
from freecell.solver.search import Budget, SearchEnd, SearchLimit, SearchRun, resident_bytes
from freecell.solver.searches import Search, winning_steps
from freecell.solver.steps import State, Steps
from freecell.solver.walks import RelaxedWalks

HELPER_LEAST_SECONDS: Final = 0.05  # with less time left, no helper is worth its fork
HELPER_WAIT: Final = 0.25  # seconds: how long to wait at a time for the helper's word
HELPER_GRACE: Final = 5.0  # seconds past the limit after which a silent helper is ended


class HelperWalks:
    """The walks of ``walks`` lent to a helper under ``share``, spending ``budget``'s
    positions and memory; ``lost`` holds the keys kept for later solves, by kind."""

    def __init__(
        self, share: HelperShare, walks: RelaxedWalks, budget: Budget, lost: dict[int, set[bytes]], scale: int
    ) -> None:
        self.share = share
        self.walks = walks
        self.budget = budget
        self.lost = lost
        self.scale = scale
        self.helper: Helper | None = None
        self.mirror: Search | None = None  # the walk it runs: the copy here holds its dead ends
        self.held = 0  # the positions held for it (counted as spent here)
        self.helped = 0  # how many of them it has spent
        self.memory_held = 0  # the bytes of the memory limit set aside for it
        self.ends_at = 0.0  # when (time.monotonic) to stop waiting for it
        self.proof_left = share.last_proof  # the game's own proof, not begun yet

    @property
    def running(self) -> bool:
        return self.helper is not None

    def begin_walk(self) -> Search | None:
        """The helper's next walk: the next relaxed one, if any is left, else (once) the
        game's own proof, passing by the dead ends (the plan's ``last_proof``)."""
        walk = self.walks.begin_next()
        if walk is None and self.proof_left:
            self.proof_left = False
            walk = self.walks.begin_proof()
        return walk

    def start(self, walk: Search) -> bool:
        """Fork the helper to run ``walk`` and the walks after it, holding for it its
        share of the positions and memory left; whether it started."""
        budget = self.budget
        self.mirror = walk
        seconds = budget.seconds_left()
        positions = budget.positions_left()
        self.held = 0 if positions is None else int(positions * self.share.positions)
        if (seconds is not None and seconds < HELPER_LEAST_SECONDS) or (positions is not None and not self.held):
            return False
        memory_mb = None
        if budget.memory is not None:
            self.memory_held = int((budget.memory_left() or 0) * self.share.memory)
            # Its resident size starts with this process's pages, shared until written.
            memory_mb = max((resident_bytes() or 0) + self.memory_held, 1_000_000) // 1_000_000
        limit = SearchLimit(seconds=seconds, positions=self.held or None, memory_mb=memory_mb)
        self.helper = start_helper(self.walk_apart, limit)
        if self.helper is None:
            self.held = self.memory_held = 0
            return False
        budget.expanded += self.held
        if budget.memory is not None:
            budget.memory -= self.memory_held
        self.ends_at = math.inf if seconds is None else time.monotonic() + seconds + HELPER_GRACE
        return True

    def end(self) -> None:
        """End the helper, if it runs: what it left of its share is given back."""
        if self.helper is None:
            return
        self.helper.stop()
        self.helper = None
        if self.budget.memory is not None:
            self.budget.memory += self.memory_held
        self.budget.give_back(max(self.held - self.helped, 0))
        self.held = self.memory_held = 0

    def poll(self) -> Verdict | None:
        """What the helper has said since the last look, without waiting: its verdict, if any."""
        return self.hear(self.helper.messages()) if self.helper is not None else None

    def wait(self) -> Verdict | None:
        """This process's positions spent, wait a while for the helper's verdict; one
        that should have stopped by now is ended."""
        assert self.helper is not None
        heard = self.hear(self.helper.wait(HELPER_WAIT))
        if heard is None and self.helper is not None and time.monotonic() > self.ends_at:
            self.end()
        return heard

    def hear(self, messages: list[Message]) -> Verdict | None:
        """Take the helper's messages in: its dead ends, which walk it began, the
        positions it gave back, and its verdict (returned, if any)."""
        for message in messages:
            kind = message[0]
            if kind == "dead" and self.mirror is not None:
                if not self._mirror_dead_ends(message):
                    break
            elif kind == "release":
                released: int = message[1]  # type: ignore[assignment]
                self.held -= released
                self.budget.give_back(released)
            elif kind == "walk":
                self.mirror = self.begin_walk()
                if self.mirror is None or self.mirror.problem.twins != message[1]:
                    self.end()  # no copy of its walk here to hold its dead ends: a bug
                    break
            elif kind == "lost":
                _, twins, keys, self.helped = message  # type: ignore[assignment]
                self.end()
                keep_lost(self.lost[twins], keys)  # type: ignore[index, arg-type]
                return None, SolveStatus.UNSOLVABLE
            elif kind == "won":
                _, steps, self.helped = message  # type: ignore[assignment]
                self.end()
                return steps, SolveStatus.SOLVED  # type: ignore[return-value]
            else:  # "end", or it failed or died: this search goes on alone
                if kind == "end":
                    self.helped = message[1]  # type: ignore[assignment]
                self.end()
                break
        return None

    def _mirror_dead_ends(self, message: Message) -> bool:
        """Add the dead ends a "dead" message reports to the copy of its walk here;
        False (and the helper ended) where the message is not of that walk (a bug)."""
        _, twins, keys, spent, truncated = message
        mirror = self.mirror
        if mirror is None or not mirror.depth_first or twins != mirror.problem.twins:
            self.end()  # this search goes on alone
            return False
        mirror.walk.dead.update(keys)  # type: ignore[arg-type]
        if truncated:
            mirror.problem.truncated = True
        self.helped = spent  # type: ignore[assignment]
        return True

    def walk_apart(self, own: Budget, reporter: Reporter) -> None:
        """In the helper: the walks, each begun where the one before met a goal and
        followed from its goal, then the game's own proof, telling the dead ends as it
        finds them and, at its end, a proof, a win or nothing."""
        walk = self.mirror
        while walk is not None:
            proof = self._walk_reporting(walk, own, reporter)
            twins = walk.problem.twins
            void = proof.outcome is SearchEnd.EXHAUSTED and walk.problem.truncated
            if proof.outcome is SearchEnd.EXHAUSTED and not void:
                reporter.send(("lost", twins, list(walk.walk.seen), own.expanded))
                return
            if proof.outcome is SearchEnd.FOUND and not twins:  # the game's own goal: a win
                reporter.send(("won", winning_steps(walk, proof, own), own.expanded))
                return
            if proof.outcome is SearchEnd.FOUND and not own.for_memory:
                win = self.walks.follow_goal(walk, proof.path, own)
                if win is not None:
                    reporter.send(("won", winning_steps(*win, own), own.expanded))
                    return
            if proof.outcome is SearchEnd.LIMIT or own.for_memory or not self.share.next_walk:
                break
            self._give_back_after_goal(own, reporter)
            walk.release(own)
            walk = self.begin_walk()
            if walk is not None:
                reporter.send(("walk", walk.problem.twins))
        reporter.send(("end", own.expanded))

    def _walk_reporting(self, walk: Search, own: Budget, reporter: Reporter) -> SearchRun[State, Steps]:
        """In the helper: run ``walk`` to its end or the budget's, telling the dead ends
        it finds every plan's ``turn`` classes; how its last run ended."""
        search = walk.walk
        found: list[bytes] = []
        search.dead_log = found
        self.walks.take_known_lost(walk)
        while True:
            proof = search.run(own, self.share.turn * self.scale)
            reporter.send(("dead", walk.problem.twins, found.copy(), own.expanded, walk.problem.truncated))
            found.clear()
            if proof.outcome is not SearchEnd.LIMIT or own.exhausted(0):
                return proof

    def _give_back_after_goal(self, own: Budget, reporter: Reporter) -> None:
        """In the helper, a walk's goal met: part of the positions left goes back to the
        last search, as it had them all when the walks took turns with it (nothing
        before the game's own proof: it needs all there is)."""
        positions = own.limit.positions
        if positions is not None and self.share.after_goal < 1 and (self.walks.left or not self.proof_left):
            released = int(max(positions - own.expanded, 0) * (1 - self.share.after_goal))
            if released:
                own.limit = replace(own.limit, positions=positions - released)
                reporter.send(("release", released))
