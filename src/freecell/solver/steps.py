"""How the search writes a table and a move, and the small helpers over them.

A state is ``(columns, cells, foundations)``: each column is ``bytes`` of cards, deepest
first (a card is an int, ``(rank - 1) * 4 + suit``); the cells are the ``bytes`` of the
cards they hold, sorted (cells are interchangeable); the foundations are the ``bytes`` of
the pile heights.

A step is ``(source, target, count)``: a column is its index, a cell is :data:`CELL` +
the card it holds (as a source) or just :data:`CELL` (any empty cell, as a target), and a
foundation is :data:`HOME` + the suit (as a source) or :data:`HOME` (as a target). A
relaxed problem's *twin steps* take a card from :data:`TWIN` + a column or
:data:`TWIN_CELL` + a card, and a *fused step* (:func:`fused`) stands for several moves.
:mod:`freecell.solver.transcript` turns steps back into public moves.
"""

from __future__ import annotations

import functools
from typing import Final

CELL: Final = 64
HOME: Final = 128
# Added to a column's index as a step's source (relaxed problem only): the card on top
# of that column first changes places with its twin.
TWIN: Final = 32
# A step's source (relaxed problem only): the card in a cell, TWIN_CELL + card, first
# changes places with its twin.
TWIN_CELL: Final = 256
# A fused step's source: its target packs the moves it stands for, its count says how
# many there are (see fused_moves()).
FUSED: Final = 1024
# In a key (one deck: see lying_on), what a card in a cell lies on. (Not the twins'
# IN_CELL, a way a twin may be loose.)
KEY_IN_CELL: Final = 254
UNLIMITED: Final = 10_000  # a run that moves whole, whatever its length

Columns = tuple[bytes, ...]
State = tuple[Columns, bytes, bytes]
Step = tuple[int, ...]
Steps = tuple[Step, ...]
# A step with its child's heuristic, its cost (step_cost), and the child with the steps
# taken when rating it meant making it (None otherwise: the search makes it if it ever
# takes it).
Rated = tuple[int, Step, int, "tuple[State, Steps] | None"]

# Each byte value as a bytes of its own, made once.
BYTES: Final = tuple(bytes((value,)) for value in range(256))


class CommonSteps:
    """The commonest steps of a table of ``column_count`` columns, made once: a single
    card from a column home, to a cell or onto a column (``onto[i][j]``), a run onto a
    column (``runs[i][j][count]``), and a card in a cell home or onto a column
    (``from_cell_home[card]``, ``from_cell[card][j]``).

    Listing moves takes them from here rather than building a tuple for each step:
    compiled, a tuple built boxes each of its ints. Steps are compared by value, so
    sharing them changes nothing. Read only (shared by every problem of that many
    columns: see :func:`common_steps`); tuples, which compiled code indexes without a
    call (a list through one)."""

    def __init__(self, column_count: int) -> None:
        columns = range(column_count)
        self.home: tuple[Step, ...] = tuple([(i, HOME, 1) for i in columns])
        self.to_cell: tuple[Step, ...] = tuple([(i, CELL, 1) for i in columns])
        self.onto: tuple[tuple[Step, ...], ...] = tuple([tuple([(i, j, 1) for j in columns]) for i in columns])
        # A run of ``count`` cards (at most 13: each card a rank below the one it lies on).
        self.runs: tuple[tuple[tuple[Step, ...], ...], ...] = tuple(
            [tuple([tuple([(i, j, count) for count in range(14)]) for j in columns]) for i in columns]
        )
        self.from_cell_home: tuple[Step, ...] = tuple([(CELL + card, HOME, 1) for card in range(52)])
        self.from_cell: tuple[tuple[Step, ...], ...] = tuple(
            [tuple([(CELL + card, j, 1) for j in columns]) for card in range(52)]
        )


@functools.cache
def common_steps(column_count: int) -> CommonSteps:
    return CommonSteps(column_count)


def is_twin_step(step: Step) -> bool:
    """Whether ``step`` moves a twin in its pair's place (relaxed problem only)."""
    source = step[0]
    return TWIN <= source < CELL or TWIN_CELL <= source < FUSED


def fused(moves: Steps) -> Step:
    """The fused step that stands for ``moves`` (one deck, none home), played in order."""
    packed = 0
    for shift, (source, target, count) in enumerate(moves):
        packed = packed | (source | target << 8 | count << 16) << 20 * shift
    return (FUSED, packed, len(moves))


def fused_moves(step: Step) -> Steps:
    """The moves a fused step stands for, in order."""
    packed = step[1]
    shifts = range(0, 20 * step[2], 20)
    return tuple([(packed >> shift & 255, packed >> shift + 8 & 255, packed >> shift + 16 & 15) for shift in shifts])


def step_cost(step: Step) -> int:
    """What a step adds to the length of a solution: 1, or 0 for a card sent home, or
    the moves a fused step stands for."""
    if step[0] == FUSED:
        return step[2]
    return 1 if step[1] != HOME else 0


def cards_in_cells(state: State) -> int:
    """How many cards the cells hold (a search may rank by it: see
    :class:`~freecell.solver.search.Alternating`)."""
    return len(state[1])


# Called as a module's name: compiled, bytes.maketrans(...) looks the method up on the
# type at every call.
_MAKETRANS: Final = bytes.maketrans


def lying_on(columns: Columns, cells: bytes) -> bytes:
    """For each card (one deck), the card it lies on in its column: 255 for a card at the
    bottom, :data:`KEY_IN_CELL` for one of ``cells``, the card itself for one elsewhere (home).

    The cells are marked in the table rather than written after it: a step to or from a
    cell then changes one byte of the table, as a step between columns does."""
    joined = b"\xff".join(columns)
    if len(cells) == 0:
        return _MAKETRANS(joined, b"\xff" + joined[:-1])[:52]
    return _MAKETRANS(joined + cells, b"\xff" + joined[:-1] + BYTES[KEY_IN_CELL] * len(cells))[:52]


def may_go_home(card: int, foundations: bytes) -> bool:
    """Whether ``card`` may go home (one deck)."""
    return foundations[card & 3] == card >> 2


def in_order(cards: bytes) -> bytes:
    """``cards`` sorted (as the cells are kept): with one or two, without a list."""
    if len(cards) <= 1:
        return cards
    if len(cards) == 2:
        return cards if cards[0] <= cards[1] else cards[::-1]
    return bytes(sorted(cards))


def with_card(cells: bytes, card: int) -> bytes:
    """``cells`` (sorted, as the cells are kept) with ``card`` put among them in order:
    cheaper than sorting them again."""
    for at in range(len(cells)):
        if cells[at] > card:
            return b"%b%b%b" % (cells[:at], BYTES[card], cells[at:])
    return cells + BYTES[card]


def bump(foundations: bytes, pile: int, by: int) -> bytes:
    """The foundations with ``pile`` ``by`` higher (lower where negative)."""
    return b"%b%b%b" % (foundations[:pile], BYTES[foundations[pile] + by], foundations[pile + 1 :])
