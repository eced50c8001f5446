"""The take-backs a win may need, under take-back rules (the complete problem).

With one deck the problem takes a card back only for what a win may need it for at once
(:func:`lazy_take_backs`), or, fused, only together with the card or run then placed on
it (:func:`fused_take_backs`); never a settled card (see
:meth:`~freecell.solver.board.FreeCellProblem.settled_heights`). ``docs/solver.md``
("Lazy take-backs", "Fused take-backs") argues why no win is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from freecell.solver.steps import BYTES, CELL, HOME, Columns, Step, Steps, bump, fused, with_card
from freecell.solver.tables import FEATURES_KEPT

if TYPE_CHECKING:
    from freecell.solver.board import FreeCellProblem

# The most ways of bringing cards back that one position's fused steps are made from: a
# proof seldom meets ten. A problem that leaves ways out says so (``truncated``): a
# search over it that runs out of positions proves nothing.
FUSED_WAYS_MOST: Final = 256
# A table while a fused step is made: its columns, cells, foundations (one int, a byte a
# pile: taking a card back is a subtraction) and the moves so far.
Fusing = tuple[list[bytes], bytes, int, Steps]


def lazy_take_backs(
    problem: FreeCellProblem,
    columns: Columns,
    cells: bytes,
    foundations: bytes,
    at_slot: list[tuple[int, ...]],
    first_empty: int,
    free: int,
    steps: list[Step],
) -> None:
    """Add the take-backs of the top card of each pile that a win may need now, one card
    at a time: not a settled card, and (lazily, one deck) only where a card that could
    lie on it is within reach or the card under it may have to come back after it."""
    settled = problem.settled_heights(foundations)
    within = -1  # the cards a step could place at once (see within_reach()), once wanted
    under_unsettled = -1  # the cards under_unsettled() names, one bit each, once wanted
    for suit in range(4):
        pile = problem.top_pile(suit, foundations)
        if foundations[pile] <= settled[pile]:
            continue  # empty, or no win needs its top card back (see docs/solver.md)
        card = (foundations[pile] - 1) * 4 + suit
        to_column = to_cell = True
        if problem.lazy_take_backs:
            # Only for what a win may take it back for now (see docs/solver.md).
            if under_unsettled < 0:  # (known for the foundations: see takeable_cards())
                known = problem.takeable_known.get(foundations) or takeable_cards(problem, foundations, settled)
                under_unsettled = known[2]
            to_cell = under_unsettled >> card & 1 == 1
            if not to_cell:
                if within < 0:
                    within = within_reach(problem, columns, cells)
                to_column = placeable_on(problem, card, foundations, within)
                if not to_column:
                    continue
        source = HOME + suit
        for j in at_slot[problem.slots[1][card]]:
            steps.append((source, j, 1))
        if first_empty >= 0 and not (problem.kings_only and card >> 2 != 12):
            steps.append((source, first_empty, 1))
        if free and problem.back_to_cell and to_cell:
            steps.append((source, CELL, 1))


def fused_take_backs(
    problem: FreeCellProblem, columns: Columns, cells: bytes, foundations: bytes, steps: list[Step]
) -> None:
    """The fused steps (see docs/solver.md): each takes back the cards that a
    card or run in play is then placed on, with those that hold them and those
    above them on their piles, and places it."""
    settled = problem.settled_heights(foundations)
    known = problem.takeable_known.get(foundations) or takeable_cards(problem, foundations, settled)
    takeable, placeable, to_cell = known
    if not takeable:
        return
    problem.ways_left = FUSED_WAYS_MOST
    follows = problem.follows
    # The foundations as one int, a byte a pile (lowest first): taking a card back
    # is then a subtraction, not a new bytes. (One deck: four piles. Read byte by
    # byte, not by int.from_bytes: a call.)
    heights = foundations[0] | foundations[1] << 8 | foundations[2] << 16 | foundations[3] << 24
    start: Fusing = (list(columns), cells, heights, ())
    # What may be placed: (source, count, its lowest card, its column or -1).
    units: list[tuple[int, int, int, int]] = [
        (CELL + card, 1, card, -1) for card in set(cells) if placeable >> card & 1
    ]
    for i, column in enumerate(columns):
        height = len(column)
        if height:
            if placeable >> column[-1] & 1:
                units.append((i, 1, column[-1], i))
            if problem.moves_runs:
                run = 1
                while run < height and follows[column[-run - 1] * 52 + column[-run]]:
                    run += 1
                    if placeable >> column[-run] & 1:
                        units.append((i, run, column[-run], i))
    for source, count, lowest, own in units:
        for card in problem.parents[lowest]:
            if not takeable >> card & 1:
                continue  # in play, or no win needs it back
            for listed, held, _, taken, at in brought_back(problem, card, start, settled, own, False):
                if count > 1:
                    empties = 0 if problem.kings_only else sum([1 for column in listed if len(column) == 0])
                    if count > (problem.cell_count - len(held) + 1) << empties:
                        continue
                steps.append(fused((*taken, (source, at, count))))
    if to_cell and not problem.back_to_cell and len(cells) < problem.cell_count:
        # Cards come back only to columns: one may come back into a cell by way of a
        # column, where the card under it may come back after it.
        for card in range(52):
            if to_cell >> card & 1:
                # Where the card lay on the way matters no more once it is off.
                made: set[tuple[bytes, ...]] = set()
                for listed, held, _, taken, at in brought_back(problem, card, start, settled, -1, False):
                    listed[at] = listed[at][:-1]
                    table = (*listed, held)
                    if table not in made:
                        made.add(table)
                        steps.append(fused((*taken, (at, CELL, 1))))


def takeable_cards(problem: FreeCellProblem, foundations: bytes, settled: tuple[int, ...]) -> tuple[int, int, int]:
    """The cards home that a win may need back, the cards that could lie on them,
    and those of the first with a card under them that a win may need back after
    them, one bit each."""
    takeable = placeable = to_cell = 0
    for suit in range(4):
        for rank in range(settled[suit], foundations[suit]):
            card = rank * 4 + suit
            takeable = takeable | 1 << card
            for child in problem.children[card]:
                placeable = placeable | 1 << child
            if under_unsettled(problem, card, foundations):
                to_cell = to_cell | 1 << card
    if len(problem.takeable_known) >= FEATURES_KEPT:
        problem.takeable_known.clear()
    known = problem.takeable_known[foundations] = (takeable, placeable, to_cell)
    return known


def brought_back(
    problem: FreeCellProblem, card: int, fusing: Fusing, settled: tuple[int, ...], spared: int, to_cell: bool
) -> list[tuple[list[bytes], bytes, int, Steps, int]]:
    """Every way to take ``card`` back from its pile, after the cards above it there:
    onto a column whose top it may lie on (one taken back first, too), into an empty
    column, or (``to_cell``) into a cell; never onto the column ``spared``. Each
    with where it went (a column, or CELL)."""
    if problem.ways_left <= 0:
        problem.truncated = True
        return []
    suit = card & 3
    ways = [fusing]
    for rank in range((fusing[2] >> 8 * suit & 255) - 1, card >> 2, -1):
        above = rank * 4 + suit
        ways = [way[:4] for before in ways for way in brought_back(problem, above, before, settled, spared, True)]
    follows = problem.follows
    source = HOME + suit
    found: list[tuple[list[bytes], bytes, int, Steps, int]] = []
    for listed, held, foundations, taken in ways:
        lowered = foundations - (1 << 8 * suit)
        empty = -1
        for j, column in enumerate(listed):
            if len(column) == 0:
                if empty < 0:
                    empty = j
            elif j != spared and follows[column[-1] * 52 + card]:
                placed = listed.copy()
                placed[j] = column + BYTES[card]
                found.append((placed, held, lowered, (*taken, (source, j, 1)), j))
        if empty >= 0 and not (problem.kings_only and card >> 2 != 12):
            placed = listed.copy()
            placed[empty] = BYTES[card]
            found.append((placed, held, lowered, (*taken, (source, empty, 1)), empty))
        if to_cell and problem.back_to_cell and len(held) < problem.cell_count:
            into = with_card(held, card)
            found.append((listed, into, lowered, (*taken, (source, CELL, 1)), CELL))
        for parent in problem.parents[card]:
            pile = parent & 3
            if (foundations >> 8 * pile & 255) > parent >> 2 and settled[pile] <= parent >> 2:
                for below, kept, heights, before, j in brought_back(
                    problem, parent, (listed, held, foundations, taken), settled, spared, False
                ):
                    placed = below.copy()
                    placed[j] = below[j] + BYTES[card]
                    found.append((placed, kept, heights - (1 << 8 * suit), (*before, (source, j, 1)), j))
    problem.ways_left -= len(found)
    return found


def within_reach(problem: FreeCellProblem, columns: Columns, cells: bytes) -> int:
    """The cards in a cell or in the ordered run on top of a column, one bit each."""
    follows = problem.follows
    reach = 0
    for card in cells:
        reach = reach | 1 << card
    for column in columns:
        height = len(column)
        if height:
            reach = reach | 1 << column[-1]
            run = 1
            while run < height and follows[column[-run - 1] * 52 + column[-run]]:
                run += 1
                reach = reach | 1 << column[-run]
    return reach


def placeable_on(problem: FreeCellProblem, card: int, foundations: bytes, within: int) -> bool:
    """Whether a card that could lie on ``card`` is ``within`` reach, or on top of its
    pile and not settled (free to come back)."""
    settled = problem.settled_heights(foundations)
    for child in problem.children[card]:
        if within >> child & 1:
            return True
        suit = child & 3
        if foundations[suit] == (child >> 2) + 1 and settled[suit] <= child >> 2:
            return True
    return False


def under_unsettled(problem: FreeCellProblem, card: int, foundations: bytes) -> bool:
    """Whether ``card``, on its pile (one deck), has a card under it that is not
    settled once ``card`` is off (and those above it): one a win may take back after
    it."""
    suit = card & 3
    below = bump(foundations, suit, (card >> 2) - foundations[suit])
    return below[suit] > problem.settled_heights(below)[suit]
