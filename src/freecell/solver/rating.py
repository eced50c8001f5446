"""Each step's child's heuristic, worked out from its parent's without making the child.

A step that sends no card home changes one or two columns and the cells, so its child's
heuristic is the parent's with those parts replaced (:func:`rate`); the other steps are
played to see where they lead. The searches take a child rated as a goal (:data:`WON`)
first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from freecell.solver.search import WON
from freecell.solver.steps import CELL, HOME, TWIN_CELL, UNLIMITED, Columns, Rated, State, Step, may_go_home
from freecell.solver.tables import ColumnInfo

if TYPE_CHECKING:
    from freecell.solver.board import FreeCellProblem


def rate(problem: FreeCellProblem, state: State, steps: list[Step]) -> list[Rated]:
    """Each step with its child's heuristic. A step that sends no card home changes
    one or two columns and the cells, so its child's heuristic is the parent's with
    those parts replaced, worked out from what is known of the parent's columns
    (:class:`~freecell.solver.tables.ColumnInfo`) without making the child or its
    columns. The other steps are played
    (:meth:`~freecell.solver.board.FreeCellProblem.play`) to see where they lead.

    A hot loop (every position a search expands or makes passes through it; see
    ``bench/position_cost.py``): kept whole, as calls would cost each position."""
    columns, cells, foundations = state
    known = problem.infos
    follows = problem.follows
    weights = problem.weights
    in_play, disordered, off_run, deep_weight = weights.in_play, weights.disorder, weights.off_run, weights.depth
    safe = (problem.homeward_known.get(foundations) or problem.homeward_cards(foundations))[1]
    infos = [known[column] for column in columns]
    values = problem.values
    values_of = [values[column] for column in columns]
    disorder_of = [info.disorder for info in infos]
    disorder = sum(disorder_of)
    # Where the cards wanted lie in each column (every copy, as heuristic()
    # counts them), and so how deep.
    one_deck = problem.pile_count == 4
    wanted = b"" if one_deck else problem.ready_known.get(foundations) or problem.ready_table(foundations)
    places: list[list[int]] = []
    depth = 0
    for column in columns:
        height = len(column)
        found: list[int] = []
        for where in range(height):
            card = column[where]
            if foundations[card & 3] == card >> 2 if one_deck else wanted[card]:
                depth += height - where - 1
                found.append(where)
        places.append(found)
    hits = [len(found) for found in places]
    cell_weight = problem.cell_weight
    next_weight = weights.next
    # The parent's heuristic, as FreeCellProblem.heuristic() works it out. When k cards
    # move from column i to column j, the cards wanted among them keep their depth, those
    # left in i ("stay") rise by k and those in j sink by k.
    base = sum(values_of) + cell_weight * len(cells) + next_weight * depth
    rated: list[Rated] = []
    home, cell, won = HOME, CELL, WON
    table = b""  # the columns joined, made once if a take-back needs it
    # With fused take-backs a card that may go home may go there by itself after a
    # move (see FreeCellProblem._close): such children are made.
    fuses = problem.fuses
    for step in steps:
        source, target, count = step
        if target < home and source < cell:
            column = columns[source]
            height = len(column) - count  # of what is left
            rest = infos[source].below
            if count > 1:
                for _ in range(1, count):
                    rest = rest.below
            if not (
                (height > 0 and rest.top in safe)
                or (
                    fuses
                    and (may_go_home(column[-1], foundations) or (height > 0 and may_go_home(rest.top, foundations)))
                )
            ):
                # What is left: column_value() of rest, written out.
                if height > 0:
                    h = (
                        base
                        - values_of[source]
                        + (
                            in_play * height
                            + disordered * rest.disorder
                            + off_run * (height - rest.run)
                            + deep_weight * rest.depth
                        )
                    )
                else:
                    h = base - values_of[source] - weights.empty_column
                stay = 0
                if hits[source]:
                    stay = sum([1 for where in places[source] if where < height])
                if target == cell:
                    h += cell_weight - next_weight * stay
                    if disorder == disorder_of[source] and not rest.disorder:
                        h = won
                else:
                    # The target with the run on it: column_info() of it, card by card.
                    onto = infos[target]
                    n = onto.height
                    top = onto.top
                    run = onto.run
                    mess = onto.disorder
                    lowest = onto.lowest
                    deep = onto.depth
                    for k in range(height, height + count):
                        card = column[k]
                        run = run + 1 if n > 0 and follows[top * 52 + card] else 1
                        if card >> 2 > lowest:
                            mess += 1
                            deep += 1
                        else:
                            lowest = card >> 2
                            deep = 0
                        n += 1
                        top = card
                    h += (
                        in_play * n
                        + disordered * mess
                        + off_run * (n - run)
                        + deep_weight * deep
                        - values_of[target]
                        + next_weight * count * (hits[target] - stay)
                    )
                    if disorder == disorder_of[source] + disorder_of[target] and not rest.disorder and not mess:
                        h = won
                rated.append((h, step, None))
                continue
        elif source < home and target < cell and not (fuses and may_go_home(source - cell, foundations)):
            card = source - cell
            onto = infos[target]
            h = base - cell_weight + onto_value(problem, onto, card) - values_of[target] + next_weight * hits[target]
            # (The card adds to the target's disorder where it lies on a lower card.)
            if disorder == disorder_of[target] and not onto.disorder and card >> 2 <= onto.lowest:
                h = won
            rated.append((h, step, None))
            continue
        elif home <= source < TWIN_CELL and one_deck:
            # A take-back (one deck): the card comes back on top of a column or into
            # a cell, where it lies at depth 0 and is the card its pile wants now,
            # instead of the one above it. It lies on a card one rank higher, or
            # alone: it adds no disorder, and no card becomes safe.
            suit = source - home
            height = foundations[suit]
            # Where the card wanted until now lies (take-backs are rare: looked up
            # here rather than for every position).
            if not table:
                table = b"\xff".join(columns) + b"\xff"
            at = table.find((height << 2) | suit) if height < 13 else -1
            deep, where = (table.find(255, at) - at - 1, table.count(255, 0, at)) if at >= 0 else (0, -1)
            if target == cell:
                h = base + cell_weight - next_weight * deep
            else:
                sinking = hits[target] - (where == target)
                h = base + onto_value(problem, infos[target], ((height - 1) << 2) | suit) - values_of[target]
                h += next_weight * (sinking - deep)
            rated.append((won if not disorder else h, step, None))
            continue
        made = problem.play(state, step)
        rated.append((won if problem.is_goal(made[0]) else problem.heuristic(made[0]), step, made))
    return rated


def onto_value(problem: FreeCellProblem, info: ColumnInfo, card: int) -> int:
    """The value (see :func:`~freecell.solver.tables.column_value`) of the column of
    ``info`` with ``card`` placed on it, worked out without making it."""
    n = info.height + 1
    run = info.run + 1 if n > 1 and problem.follows[info.top * 52 + card] else 1
    if card >> 2 > info.lowest:
        disorder, depth = info.disorder + 1, info.depth + 1
    else:
        disorder, depth = info.disorder, 0
    weights = problem.weights
    return weights.in_play * n + weights.disorder * disorder + weights.off_run * (n - run) + weights.depth * depth


def with_shortest(problem: FreeCellProblem, columns: Columns, rated: list[Rated]) -> list[Rated]:
    """``rated`` with the shortest column's share added to the children that
    :func:`rate` did not make (those it made were rated by :meth:`~freecell.solver.board.FreeCellProblem.heuristic`)."""
    lengths = [len(column) for column in columns] + [UNLIMITED]
    # The two shortest columns. When a step changes both, the column it takes cards
    # from is left shorter than any other, so the rest need not be looked at.
    a, b = sorted(range(len(lengths)), key=lengths.__getitem__)[:2]
    weight = problem.weights.shortest
    won = WON
    result: list[Rated] = []
    for h, step, made in rated:
        if made is None and h != won:
            source, target, count = step
            if a != source and a != target:
                low = lengths[a]
            else:
                low = lengths[b] if b != source and b != target else UNLIMITED
            if source < CELL:
                low = min(low, lengths[source] - count)
            if target < CELL:
                low = min(low, lengths[target] + count)
            h += weight * low
        result.append((h, step, made))
    return result
