"""An exhaustive depth-first search: the cheap way to prove a deal lost.

A proof must visit every position reachable from the start (up to the problem's sound
reductions), in whatever order, so the order that costs least wins: depth first. It
remembers only the canonical key of each position seen (bytes, no parent links, no
frontier of waiting children) and the path it is on, which is also the win when it
finds one. Per position it asks for the moves, plays them one at a time as it goes
down, and checks each child's key; no heuristic is worked out.

Like :class:`~freecell.solver.search.BestFirst`, :meth:`DepthFirst.run` may stop at a
cap and go on later, so it can take turns with other searches.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Generic, Protocol, TypeVar

from freecell.solver.search import CHECK_EVERY, Budget, Outcome, SearchRun

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Walkable(Protocol[S, M, T_co]):
    """What a depth-first search needs of a problem (a part of
    :class:`~freecell.solver.search.Problem`)."""

    def key(self, state: S) -> bytes: ...

    def is_goal(self, state: S) -> bool: ...

    def moves(self, state: S) -> Sequence[M]: ...

    def play(self, state: S, move: M) -> tuple[S, T_co]: ...


class DepthFirst(Generic[S, M, T]):
    """Visit every state reachable from ``start``, each canonical key once, depth first,
    taking each state's moves in the order the problem lists them.

    A search that ends EXHAUSTED has visited every state reachable from the start: with
    a problem whose reductions are sound, no goal is reachable at all.
    """

    def __init__(self, problem: Walkable[S, M, T], start: S) -> None:
        self.problem = problem
        self.start = start
        self.seen: set[bytes] = {problem.key(start)}
        # The path: each state on it, the moves from it not yet tried, and what led to it.
        self.states: list[S] = [start]
        self.untried: list[Iterator[M]] = [iter(problem.moves(start))]
        self.vias: list[T | None] = [None]
        self.expanded = 1
        self.ended: SearchRun[S, T] | None = None

    def run(self, budget: Budget, cap: int | None = None) -> SearchRun[S, T]:
        """Go on until a goal (FOUND, with the path to it), every reachable state is
        visited (EXHAUSTED), or ``cap`` more states or ``budget`` are spent (LIMIT; it
        may go on later)."""
        if self.ended is not None:
            return self.ended
        if self.problem.is_goal(self.start):
            self.ended = SearchRun(Outcome.FOUND, (), self.start)
            return self.ended
        problem = self.problem
        key_of, is_goal, moves, play = problem.key, problem.is_goal, problem.moves, problem.play
        seen, states, untried, vias = self.seen, self.states, self.untried, self.vias
        seen_add = seen.add
        expanded = backed = 0
        stop_at = budget.positions_left()
        if cap is not None:
            stop_at = cap if stop_at is None else min(stop_at, cap)
        while untried:
            child = None
            for move in untried[-1]:
                child, via = play(states[-1], move)
                key = key_of(child)
                if key not in seen:
                    break
                child = None
            if child is None:  # every move from here tried: back up
                untried.pop()
                states.pop()
                vias.pop()
                # Long stretches back up past positions whose children were all seen:
                # the clock is read there too.
                backed += 1
                if backed % CHECK_EVERY == 0 and budget.exhausted(len(seen)):
                    self.expanded += expanded
                    return SearchRun(Outcome.LIMIT)
                continue
            seen_add(key)
            if is_goal(child):
                path = tuple(v for v in vias[1:] if v is not None) + (via,)
                self.ended = SearchRun(Outcome.FOUND, path, child)
                break
            states.append(child)
            vias.append(via)
            untried.append(iter(moves(child)))
            expanded += 1
            budget.expanded += 1
            if expanded == stop_at or (expanded % CHECK_EVERY == 0 and budget.exhausted(len(seen))):
                self.expanded += expanded
                return SearchRun(Outcome.LIMIT)
        self.expanded += expanded
        if self.ended is None:
            self.ended = SearchRun(Outcome.EXHAUSTED)
        return self.ended
