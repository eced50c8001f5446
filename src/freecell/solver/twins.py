"""The relaxed problem: twins that change places, the classes they make, and dead ends.

Where a relaxed problem applies (one deck, alternate colours, no run moved as one: see
:func:`can_relax`), the two cards of a rank and colour (*twins*) change places whenever
both are *loose*, where the problem's ``twins`` flags say (:data:`ON_CARD`,
:data:`IN_CELL`, :data:`IN_TOP_RUN`, :data:`IN_BUILT_RUN`). A position is then known by
its *class*, its key with each pair of loose twins written as its rank and colour
(:func:`class_key`), and a loose twin that moves where it is loose no more may be either
of the pair (:func:`twin_steps`). A walk that runs out of classes proves the deal lost;
``docs/solver.md`` ("The relaxed problem") argues why. :class:`DeadEnds` holds the
classes known to reach no goal, which the game's searches pass by.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

from freecell.rules import Building, Rules, SequenceMoves
from freecell.solver.steps import CELL, HOME, TWIN, TWIN_CELL, Columns, State, Step, in_order

if TYPE_CHECKING:
    from freecell.solver.board import FreeCellProblem

# Where a card of a pair of twins may lie to be loose. A relaxed problem names some of
# them; a pair of loose twins is written in its key as one rank and colour.
ON_CARD: Final = 1  # on a card it may lie on
IN_CELL: Final = 2  # in a cell
IN_TOP_RUN: Final = 4  # in the ordered run on top of its column (a top card always is)
# In that run too, but on a card it may lie on, or at the foot of its column: not the card at
# the foot of a run that lies where it was dealt, on a card it may not lie on.
IN_BUILT_RUN: Final = 8
_PAIR_TABLES_KEPT: Final = 4_096  # 256 bytes a table; a long walk meets a few hundred sets


def can_relax(rules: Rules) -> bool:
    """Whether a proof under ``rules`` may walk a relaxed problem: one deck, alternate
    colours, no run moved as one."""
    return (
        rules.foundation_count == 4
        and rules.building is Building.ALTERNATE_COLOURS
        and rules.sequence_moves is not SequenceMoves.UNLIMITED
    )


def class_key(problem: FreeCellProblem, columns: Columns, cells: bytes) -> bytes:
    """The relaxed problem's key: the columns sorted, each card of a pair of twins that
    are both loose written as its rank and colour, then the cells (sorted again)."""
    pairs = loose_pairs(problem, columns, cells)
    if pairs:
        table = problem.pair_tables.get(pairs)
        if table is None:
            table = pair_table(pairs)
            if len(problem.pair_tables) >= _PAIR_TABLES_KEPT:
                problem.pair_tables.clear()
            problem.pair_tables[pairs] = table
        ordered = [column.translate(table) for column in columns]
        if len(cells) > 0:
            cells = in_order(cells.translate(table))
    else:
        ordered = list(columns)
    ordered.sort()
    return b"\xff".join(ordered) + b"\xfe" + cells


def loose_pairs(problem: FreeCellProblem, columns: Columns, cells: bytes) -> int:
    """The cards whose twin and themselves are both loose in the ways ``problem.twins``
    names, one bit each (card 0 the lowest). The problem keeps the last answer: a walk
    asks about a child for its key, then again for its twin steps when it goes there."""
    if columns is problem.pairs_columns and cells is problem.pairs_cells:
        return problem.pairs
    flags = problem.twins
    loose = 0
    if flags & (ON_CARD | IN_TOP_RUN):
        # Walked here, down each column as far as the flags need: cheaper than a
        # table of columns (a dict lookup costs more than a short walk).
        follows = problem.follows
        on_card = flags & ON_CARD
        top_run = flags & IN_TOP_RUN
        for column in columns:
            k = len(column) - 1
            if k < 0:
                continue
            card = column[k]
            if top_run:
                loose = loose | 1 << card
            in_run = True
            while k:
                under = column[k - 1]
                if follows[under * 52 + card]:
                    if on_card:
                        loose = loose | 1 << card
                    if top_run and in_run:
                        loose = loose | 1 << under
                elif on_card:
                    in_run = False
                else:
                    break
                k -= 1
                card = under
    if flags & IN_BUILT_RUN:
        follows = problem.follows
        for column in columns:
            k = len(column) - 1
            while k > 0 and follows[column[k - 1] * 52 + column[k]]:
                loose = loose | 1 << column[k]
                k -= 1
            if k == 0 and len(column) > 0:
                loose = loose | 1 << column[0]  # the whole column is one built run
    if flags & IN_CELL:
        for card in cells:
            loose = loose | 1 << card
    pairs = loose & twins_of(loose)
    problem.pairs_columns, problem.pairs_cells, problem.pairs = columns, cells, pairs
    return pairs


def twin_steps(
    problem: FreeCellProblem,
    columns: Columns,
    cells: bytes,
    foundations: bytes,
    first_empty: int,
    free: int,
    steps: list[Step],
) -> None:
    """Add the relaxed problem's steps of a loose twin made in its pair's place, where
    that leads elsewhere: home, and (where the twin moved there is loose no more) to a
    cell or an empty column. Onto a card, either of the pair leads to the same class."""
    pairs = loose_pairs(problem, columns, cells)
    # (source, card): a loose twin on top of a column, or in a cell, whose pair is
    # loose too (and not in a cell: there, its own steps are listed already).
    places = [(TWIN + i, column[-1]) for i, column in enumerate(columns) if len(column) > 0]
    places += [(TWIN_CELL + card, card) for card in cells if card ^ 3 not in cells]
    for source, card in places:
        if not pairs >> card & 1:
            continue
        twin = card ^ 3
        if foundations[twin & 3] == twin >> 2:
            steps.append((source, HOME, 1))
        if (
            not problem.twins & (IN_TOP_RUN | IN_BUILT_RUN)
            and first_empty >= 0
            and not (problem.kings_only and card >> 2 != 12)
        ):
            steps.append((source, first_empty, 1))
        if not problem.twins & IN_CELL and free and source < CELL:
            steps.append((source, CELL, 1))


def swapped_with_twin(columns: Columns, cells: bytes, card: int) -> tuple[Columns, bytes]:
    """The columns and cells with ``card`` and its twin changed places."""
    pair = bytes((card, card ^ 3))
    swap = bytes.maketrans(pair, pair[::-1])
    return tuple([column.translate(swap) for column in columns]), in_order(cells.translate(swap))


@functools.cache
def pair_tables() -> dict[int, bytes]:
    """The relaxed key's translation for each set of loose pairs met (see
    :func:`pair_table`), shared by every relaxed problem; it forgets everything past
    :data:`_PAIR_TABLES_KEPT` sets."""
    return {}


# The relaxed key's translation: every card as itself, and each card of one deck as
# its rank and colour (52 and up: no card, nor the key's separators).
_TWINLESS: Final = bytes(range(256))
_TWIN_MARKS: Final = bytes(
    [52 + (card >> 2) * 2 + (1 if card & 3 in (1, 2) else 0) for card in range(52)] + list(range(52, 256))
)


# The cards of each suit, one bit each (card = rank * 4 + suit): a card's twin is card ^ 3.
_SUIT_BITS: Final = tuple(sum(1 << (rank * 4 + suit) for rank in range(13)) for suit in range(4))


def twins_of(cards: int) -> int:
    """The twins of ``cards`` (one bit each), as a set of the same kind."""
    return (
        (cards & _SUIT_BITS[0]) << 3
        | (cards & _SUIT_BITS[3]) >> 3
        | (cards & _SUIT_BITS[1]) << 1
        | (cards & _SUIT_BITS[2]) >> 1
    )


def pair_table(pairs: int) -> bytes:
    """The translation that writes each card of ``pairs`` (one bit each) as its rank
    and colour, and every other byte as itself."""
    table = bytearray(_TWINLESS)
    for card in range(52):
        if pairs >> card & 1:
            table[card] = _TWIN_MARKS[card]
    return bytes(table)


class DeadEnds:
    """The classes of relaxed problems known to reach no goal: those a depth-first walk
    found so (``DepthFirst`` with ``dead_ends``: no position of such a class can be won,
    see ``docs/solver.md``), and those a solve before this one left
    (:mod:`~freecell.solver.losses`). The game's searches pass such positions by
    (:meth:`holds`) as they would a position already seen. The sets are kept by the kind
    of key they hold, so a position's key of each kind is made once."""

    def __init__(self) -> None:
        # Each set, with the problem it came from and a problem that makes its kind of
        # key (the first added of that kind): the sets of a kind lie side by side.
        self.sets: list[tuple[FreeCellProblem, FreeCellProblem, set[bytes]]] = []

    def add(self, relaxed: FreeCellProblem, dead: set[bytes]) -> None:
        """Pass by the positions whose key in ``relaxed`` is in ``dead`` (a set that may
        grow as its walk goes on). ``relaxed`` may be the game's own problem (no
        twins): its keys are positions, not classes."""
        for index, (maker, _, _) in enumerate(self.sets):
            if maker.twins == relaxed.twins and maker.classes == relaxed.classes:
                self.sets.insert(index, (maker, relaxed, dead))
                return
        self.sets.append((relaxed, relaxed, dead))

    def holds(self, state: State) -> bool:
        """Whether ``state`` lies in a class known to reach no goal."""
        keyed: FreeCellProblem | None = None  # the maker of ``key``
        key = b""
        for maker, relaxed, dead in self.sets:
            # A relaxed problem that left some steps out proves nothing.
            if dead and not relaxed.truncated:
                if maker is not keyed:
                    key = maker.key(state)
                    keyed = maker
                if key in dead:
                    return True
        return False
