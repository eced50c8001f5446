"""Cutting a long win short: from each position, the move that leads farthest along it.

A depth-first proof that comes upon a win has wandered to it: its path can run to
tens of thousands of moves (standard rules, 2 cells, deal 5060: 122,982), and passes
close to itself again and again. :func:`shortcut` keeps the key of every position on
the path and walks it again from the start: from each position it looks a few moves
ahead and makes the moves to the position seen that lies farthest down the path (or is
won already). Positions with one key are one position up to the order of columns and
cells, so the rest of the path wins from there too, and its next move is there.

Every move taken is one the problem lists from the position it is played in, so the
result is a win. It is never longer than the path: the path's own next moves are
among those looked at, so the position gone to lies at least as many positions down
the path as moves were made to reach it. (How far ahead it looks, and what that cuts:
see docs/solver.md, "Cutting a win short".)
"""

from __future__ import annotations

from collections.abc import Sequence

from freecell.solver.board import FreeCellProblem
from freecell.solver.steps import State, Steps
from freecell.solver.transcript import SolverError


def shortcut(
    problem: FreeCellProblem, start: State, path: Sequence[Steps], *, depth: int = 3, window: int | None = None
) -> tuple[list[Steps], State]:
    """A win from ``start`` no longer than ``path`` (a win over ``problem``: each item
    the steps that :meth:`~FreeCellProblem.play` took, its move first), and the goal it
    ends at.

    At each position it looks ``depth`` moves ahead and goes to the position seen that
    lies farthest down the path (the nearest, of those as far). ``problem`` must send
    cards home as the path's own problem did (the same rules, ``complete`` and
    ``eager``): the keys of its positions are looked up among the path's. It may list
    more moves (runs as one step, say): those only shorten more.

    With ``window``, only that many of the path's positions are keyed at a time: the
    path is cut short a stretch at a time, each from where the last one ended to the
    position that ends it (or to a win, if one is seen on the way), so that a path of
    millions of moves is cut short within the memory of one stretch's keys.
    """
    key, moves, play, is_goal = problem.key, problem.moves, problem.play, problem.is_goal
    end = len(path)
    stretch = end if window is None else max(window, 1)
    won: list[Steps] = []
    state, reached = start, 0
    on_path = start  # the path's own position at ``reached``, where its steps are played
    while reached < end:
        last = min(reached + stretch, end)
        along: dict[bytes, int] = {key(on_path): reached}
        for index in range(reached + 1, last + 1):
            on_path, _ = play(on_path, path[index - 1][0])
            along[key(on_path)] = index
        while reached < last:
            layer: list[tuple[State, tuple[Steps, ...]]] = [(state, ())]
            seen = {key(state)}
            farthest, best = reached, None
            for level in range(depth):
                deeper = []
                for node, taken in layer:
                    for move in moves(node):
                        child, via = play(node, move)
                        child_key = key(child)
                        if child_key in seen:
                            continue
                        seen.add(child_key)
                        index = end if is_goal(child) else along.get(child_key, -1)
                        if index > farthest:
                            farthest, best = index, (child, (*taken, via))
                        if level + 1 < depth:
                            deeper.append((child, (*taken, via)))
                if farthest >= last:
                    break
                layer = deeper
            if best is None:
                # The path's next position is a move away: only a path that is no win
                # over this problem (a bug) gets here.
                raise SolverError("a path to cut short is not a win over its problem")
            state, taken = best
            won.extend(taken)
            reached = farthest
        del along
    return won, state
