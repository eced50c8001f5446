"""Each step's child's heuristic, worked out from its parent's without making the child.

A step that sends no card home changes one or two columns and the cells, so its child's
heuristic is the parent's with those parts replaced (:func:`rate`); the other steps are
played to see where they lead. The searches take a child rated as a goal (:data:`WON`)
first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from freecell.solver.search import WON
from freecell.solver.steps import (
    BYTES,
    CELL,
    HOME,
    TWIN_CELL,
    UNLIMITED,
    Columns,
    Rated,
    State,
    Step,
    may_go_home,
    step_cost,
)
from freecell.solver.tables import DISORDER_MASK, EMPTY_LOWEST, LOWEST_SHIFT, SHARE_SHIFT

if TYPE_CHECKING:
    from mypy_extensions import i64  # (compiled, a machine int; just an int otherwise)

    from freecell.solver.board import FreeCellProblem


class LastTable:
    """What :func:`rate` found of the table it rated last, by column: each column's packed
    value (see :class:`~freecell.solver.tables.ColumnValues`), how many of the cards wanted
    lie in it and how deep, and their sums. A search's next table is most often a child or
    a sibling of the last, sharing most of its column objects: those are not looked up
    or scanned again. One a problem (a search runs in one thread).

    While :func:`rate` changes the lists, :attr:`columns` is empty, so that a call cut
    short leaves nothing that looks current."""

    def __init__(self) -> None:
        self.columns: Columns = ()
        self.foundations = b""
        self.ready = b""  # the cards wanted, as homeward_cards() gives them; and the safe ones
        self.safe = b""
        self.found_of: list[int | None] = []
        self.hits: list[int] = []
        self.depths: list[int] = []
        self.packed: i64 = 0
        self.depth: i64 = 0

    def start(self, n: int) -> tuple[None, ...]:
        """Lists for ``n`` columns, none known: what a table's columns are compared with."""
        self.found_of = [0] * n
        self.hits = [0] * n
        self.depths = [0] * n
        self.packed = 0
        self.depth = 0
        return (None,) * n


def rate(problem: FreeCellProblem, state: State, steps: list[Step]) -> list[Rated]:
    """Each step with its child's heuristic and its cost (:func:`~freecell.solver.steps.step_cost`,
    1 for every step not played here). A step that sends no card home changes
    one or two columns and the cells, so its child's heuristic is the parent's with
    those parts replaced, worked out without making the child. The other steps are
    played (:meth:`~freecell.solver.board.FreeCellProblem.play`) to see where they lead.

    A hot loop (every position a search expands or makes passes through it; see
    ``bench/position_cost.py``): kept whole, as calls would cost each position. Its
    figures are machine ints compiled (``i64``): no call for each sum, shift and product,
    no count of references kept for each."""
    columns, cells, foundations = state
    values = problem.values
    known, below = values.known, values.below  # (read directly: see ColumnValues)
    # What the table rated last holds, by column (see LastTable): a column that is the
    # very object it had there keeps its value, and its count and depth of the cards
    # wanted while the foundations are the same.
    last = problem.last_table
    if foundations is last.foundations:
        ready, safe = last.ready, last.safe
    else:
        ready, safe = problem.homeward_known.get(foundations) or problem.homeward_cards(foundations)
    rescan = ready is not last.ready
    seen: tuple[bytes | None, ...] = last.columns
    n: i64 = len(columns)
    if len(seen) != n:
        seen = last.start(n)
        rescan = True
    # Each column's share of the heuristic and its disorder, packed (see ColumnValues),
    # and how many cards wanted lie in it (every copy, as heuristic() counts them), and
    # how deep.
    # (Kept as found in the table, typed so: compiled, a value put in a list of ints
    # would be boxed anew.)
    found_of = last.found_of
    hits = last.hits
    depths = last.depths
    packed: i64 = last.packed
    depth: i64 = 0 if rescan else last.depth
    last.columns = ()  # (until the lists agree with columns again: see LastTable)
    j: i64
    where: i64
    height: i64
    for j in range(n):
        column = columns[j]
        changed = column is not seen[j]
        if changed:
            packed -= cast("i64", found_of[j])
            found = found_of[j] = known.get(column)
            if found is None:
                found = found_of[j] = values.worked_out(column)
            packed += found
        if changed or rescan:
            height = len(column)
            here: i64 = 0
            deep: i64 = 0
            for where in range(height):
                if ready[column[where]]:
                    deep += height - where - 1
                    here += 1
            if not rescan:
                depth -= depths[j]
            depth += deep
            hits[j] = here
            depths[j] = deep
    last.columns, last.foundations, last.ready, last.safe = columns, foundations, ready, safe
    last.packed, last.depth = packed, depth
    packed_of = cast("list[int]", found_of)
    shift: i64
    mask: i64
    lowest_at: i64
    shift, mask, lowest_at = SHARE_SHIFT, DISORDER_MASK, LOWEST_SHIFT
    disorder: i64 = packed & mask
    one_deck = problem.pile_count == 4
    cell_weight: i64 = problem.cell_weight
    next_weight: i64 = problem.weights.next
    # The parent's heuristic, as FreeCellProblem.heuristic() works it out. When k cards
    # move from column i to column j, the cards wanted among them keep their depth, those
    # left in i ("stay") rise by k and those in j sink by k.
    base: i64 = (packed >> shift) + cell_weight * len(cells) + next_weight * depth
    rated: list[Rated] = []
    # The cost of each child not made, 1, held as an object: compiled, the literal put
    # in a tuple is boxed at each append (a call), an object only counted.
    plain: Any = 1
    won: i64
    home, cell, won = HOME, CELL, WON
    table = b""  # the columns joined, made once if a take-back needs it
    # With fused take-backs a card that may go home may go there by itself after a
    # move (see FreeCellProblem._close): such children are made.
    fuses = problem.fuses
    one_above: i64
    one_alone: i64
    empty: i64
    one_above, one_alone, empty = values.one_above, values.one_alone, EMPTY_LOWEST
    one_disorder: i64 = values.one_disorder
    one_deep: i64 = values.one_deep
    # What the steps that take the same cards from the same column share (moves() lists
    # them one after another): whether the child must be made, and if not, what is left
    # in the column, packed, and how many cards wanted stay there.
    from_source: i64 = -1
    from_count: i64 = 0
    column = b""
    height = 0
    made_here = False
    left: i64 = 0
    stay: i64 = 0
    source: i64
    target: int  # (not a machine int: a fused step's target packs its moves, past 64 bits)
    count: i64
    h: i64
    onto: i64
    under_it: i64
    lowest: i64
    for step in steps:
        source, target, count = step
        if target < home and source < cell:
            if source != from_source or count != from_count:
                from_source, from_count = source, count
                column = columns[source]
                height = len(column)
                under: i64 = column[height - count - 1] if height > count else -1  # the card uncovered
                made_here = (under >= 0 and safe[under] > 0) or (
                    fuses
                    and (
                        may_go_home(column[height - 1], foundations) or (under >= 0 and may_go_home(under, foundations))
                    )
                )
                if not made_here:
                    if count == 1:
                        kept = below.get(column)
                        left = values.without_top(column) if kept is None else kept
                    else:
                        left = values.of(column[: height - count])
                    stay = hits[source]
                    if stay:
                        for where in range(height - count, height):
                            if ready[column[where]]:
                                stay -= 1
            if not made_here:
                h = base - (packed_of[source] >> shift) + (left >> shift)
                if target == cell:
                    h += cell_weight - next_weight * stay
                    if not left & mask and disorder == packed_of[source] & mask:
                        h = won
                else:
                    # The column it lands on, packed.
                    # Told from its value where the column is empty, or its lowest card
                    # is lower than every card put on it (the run's top card is its
                    # lowest; the usual cases: see ColumnValues.one_above), else
                    # looked up.
                    under_it = packed_of[target]
                    lowest = under_it >> lowest_at & 15
                    top: i64 = column[height - 1]
                    if lowest == empty:
                        onto = one_alone * count + (top >> 2 << lowest_at)
                    elif top >> 2 > lowest:
                        onto = under_it + one_above * count
                    else:
                        # The run's top card is the column's lowest now, at depth 0, and
                        # those of its cards above the column's lowest lie on a lower card.
                        onto_column = columns[target]
                        at_lowest: i64 = len(onto_column) - 1
                        while onto_column[at_lowest] >> 2 != lowest:
                            at_lowest -= 1
                        above: i64 = (top >> 2) + count - 1 - lowest
                        onto = (
                            under_it
                            + one_alone * count
                            + (one_disorder * above if above > 0 else 0)
                            - one_deep * (len(onto_column) - 1 - at_lowest)
                            + ((top >> 2) - lowest << lowest_at)
                        )
                    h += (onto >> shift) - (under_it >> shift) + next_weight * count * (hits[target] - stay)
                    # (Most columns keep some disorder: told first.)
                    if not (onto | left) & mask and disorder == (under_it & mask) + (packed_of[source] & mask):
                        h = won
                rated.append((h, step, plain, None))
                continue
        elif source < home and target < cell and not (fuses and may_go_home(source - cell, foundations)):
            under_it = packed_of[target]
            lowest = under_it >> lowest_at & 15  # (as above)
            if lowest == empty:
                onto = one_alone + ((source - cell) >> 2 << lowest_at)
            elif (source - cell) >> 2 > lowest:
                onto = under_it + one_above
            else:
                # (As above, the card the run's top.)
                onto_column = columns[target]
                at_lowest = len(onto_column) - 1
                while onto_column[at_lowest] >> 2 != lowest:
                    at_lowest -= 1
                onto = (
                    under_it
                    + one_alone
                    - one_deep * (len(onto_column) - 1 - at_lowest)
                    + (((source - cell) >> 2) - lowest << lowest_at)
                )
            h = base - cell_weight + (onto >> shift) - (under_it >> shift) + next_weight * hits[target]
            if not onto & mask and disorder == under_it & mask:
                h = won
            rated.append((h, step, plain, None))
            continue
        elif home <= source < TWIN_CELL and one_deck:
            # A take-back (one deck): the card comes back on top of a column or into
            # a cell, where it lies at depth 0 and is the card its pile wants now,
            # instead of the one above it. It lies on a card one rank higher, or
            # alone: it adds no disorder, and no card becomes safe.
            suit: i64 = source - home
            height = foundations[suit]
            # Where the card wanted until now lies (take-backs are rare: looked up
            # here rather than for every position).
            if not table:
                table = b"\xff".join(columns) + b"\xff"
            at: i64 = table.find((height << 2) | suit) if height < 13 else -1
            deep, where = (table.find(255, at) - at - 1, table.count(255, 0, at)) if at >= 0 else (0, -1)
            if target == cell:
                h = base + cell_weight - next_weight * deep
            else:
                onto = values.of(columns[target] + BYTES[((height - 1) << 2) | suit])
                sinking: i64 = hits[target] - (where == target)
                h = base + (onto >> shift) - (packed_of[target] >> shift) + next_weight * (sinking - deep)
            rated.append((won if not disorder else h, step, plain, None))
            continue
        made = problem.play(state, step)
        rated.append((problem.heuristic_after(made[0], columns, packed_of, packed), step, step_cost(step), made))
    return rated


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
    for h, step, cost, made in rated:
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
        result.append((h, step, cost, made))
    return result
