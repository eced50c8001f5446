"""Beam search: a search for short solutions, one move deeper at each round.

Weighted A* finds a win wherever its heuristic leads and the path is as long as it
happens to be. A beam keeps every round's ``width`` best positions (by the heuristic
alone) and expands them all before going one move deeper, so the first win it meets
is as short as its beam allows. It cannot prove anything: a position left out of the
beam is never looked at again. (What two beams of width 100 found on Microsoft deals
1-100: see docs/solver.md, "Short solutions".)
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass

from freecell.solver.search import CHECK_EVERY, Budget, M, Problem, S, SearchEnd, SearchRun, T, path_to
from freecell.solver.tables import Weights


@dataclass(frozen=True, slots=True)
class Beam:
    """One beam search: the heuristic's weights and how many positions each round keeps."""

    weights: Weights
    width: int


def beam_search(
    problem: Problem[S, M, T],
    start: S,
    budget: Budget,
    *,
    width: int,
    cost: Callable[[M], int],
    bound: int | None = None,
) -> SearchRun[S, T]:
    """Expand, round after round, the ``width`` positions of lowest heuristic among the
    children of the previous round, each canonical key once.

    ``cost`` (0 or 1) is what a move adds to the path: a child that costs 0 joins the
    round being expanded, the others the next round. No round reaches ``bound`` (to look
    for paths cheaper than one already known). FOUND comes with the path to the goal;
    EXHAUSTED means the beam emptied or reached the bound (never a proof); LIMIT that
    ``budget`` ran out.
    """
    start_key = problem.key(start)
    if problem.is_goal(start):
        return SearchRun(SearchEnd.FOUND, (), start)
    came_from: dict[bytes, tuple[bytes, T] | None] = {start_key: None}
    is_goal = problem.is_goal
    key_of = problem.key
    play = problem.play
    rated_moves = problem.rated_moves
    round_: list[tuple[bytes, S]] = [(start_key, start)]
    depth = 0
    expanded = 0
    stop_at = budget.positions_left()
    while round_ and (bound is None or depth + 1 < bound):
        following: list[tuple[int, int, bytes, S]] = []
        for key, state in round_:  # grows while it runs with the children that cost 0
            if expanded == stop_at or (expanded % CHECK_EVERY == 0 and budget.exhausted(len(came_from))):
                return SearchRun(SearchEnd.LIMIT)
            expanded += 1
            budget.expanded += 1
            for h, move, _, made in rated_moves(state):
                child, via = play(state, move) if made is None else made
                child_key = key_of(child)
                if child_key in came_from:
                    continue
                came_from[child_key] = (key, via)
                if is_goal(child):
                    return SearchRun(SearchEnd.FOUND, path_to(came_from, child_key), child)
                if cost(move):
                    following.append((h, len(following), child_key, child))
                else:
                    round_.append((child_key, child))
        round_ = [(key, state) for _, _, key, state in heapq.nsmallest(width, following)]
        depth += 1
    return SearchRun(SearchEnd.EXHAUSTED)
