"""Standard move notation, as Freecell Solver writes it, with our documented extensions.

A move is two characters, source then target:

* columns are digits counted from 1: ``1`` … ``9``, and ``0`` for the tenth column
  (Double FreeCell); ``10``, as ``fc-solve`` writes it, is read too (``410``, ``10c``);
* cells are letters from ``a``, skipping ``h``, ``i`` and ``j`` as Freecell Solver and
  FreeCell Pro do: ``a b c d e f g k`` for Eight Off's eight cells (``h`` always means the
  foundation);
* ``h`` is the foundation of the moving card's suit.

So ``3a`` puts the exposed card of column 3 in cell a, ``a3`` brings it back, ``3h`` and
``ah`` send a card home, and ``38`` moves onto column 8 the run of column 3 whose base
fits on column 8's exposed card: the count is implied. Into an empty column, ``57``
moves one card and ``57v8`` moves 8 (the count in hexadecimal, as ``fc-solve -snx``).

Taking a card back from a foundation (our extension) is ``h`` + the suit letter + the
target: ``hs3`` puts the top spade of the foundations on column 3, ``hda`` puts the top
diamond in cell a. With two piles of a suit, the pile with the higher card gives.

>>> parse_move_text("57v8")
MoveText(source='5', target='7', count=8, suit=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Final

from freecell.cards import parse_suit
from freecell.errors import InvalidInputError
from freecell.position import IllegalMoveError, Move, Place, PlaceKind, Position, Table
from freecell.rules import Rules

COLUMN_CHARS: Final = "1234567890"
CELL_CHARS: Final = "abcdefgklmnop"
FOUNDATION_CHAR: Final = "h"
SUIT_CHARS: Final = "cdhs"


class InvalidMoveError(InvalidInputError):
    """Text that is not a move in standard notation (the syntax is wrong)."""


class InvalidPlaceError(InvalidInputError):
    """Text that names no place of the table."""


@dataclass(frozen=True, slots=True)
class MoveText:
    """A move as written, before a position gives it meaning."""

    source: str
    target: str
    count: int | None = None
    suit: int | None = None

    @property
    def to_foundation(self) -> bool:
        """Whether the move sends a card home."""
        return self.target == FOUNDATION_CHAR


# "10" is fc-solve's spelling of the tenth column; no canonical move is read differently
# with it, because a move that names two single places is never longer than two characters
# before its count.
_MOVE_RE: Final = re.compile(
    r"^(?:(?P<takeback>h)(?P<suit>[cdhs])|(?P<source>10|[0-9a-gk-p]))"
    r"(?P<target>10|[0-9a-hk-p])(?:v(?P<count>[0-9a-f]+))?$"
)


def column_char(index: int) -> str:
    return COLUMN_CHARS[index]


def cell_letter(index: int) -> str:
    return CELL_CHARS[index]


def parse_move_text(text: str) -> MoveText:
    """Read the syntax of one move; raises :class:`InvalidMoveError` naming the text."""
    return MoveText(*_syntax(text))


def _syntax(text: str) -> tuple[str, str, int | None, int | None]:
    """:func:`parse_move_text`'s fields (source, target, count, suit), as a tuple."""
    match = _MOVE_RE.match(text.strip().lower())
    if match is None:
        raise InvalidMoveError(
            f"not a move: {text!r} (write source then target, like '38', '3a', 'a3', '3h' or '57v3')"
        )
    takeback, suit, source, target, digits = match.groups()
    count = int(digits, 16) if digits else None
    if count is not None and count < 1:
        raise InvalidMoveError(f"not a move: {text!r} (a count must be at least 1)")
    if takeback:
        if digits:
            raise InvalidMoveError(f"not a move: {text!r} (one card at a time leaves a foundation)")
        return "h", target, None, parse_suit(suit)
    return source, target, count, None


# The place each character names, for the common case of :func:`_place`.
_PLACES: Final = {
    **{char: Place.column(index) for index, char in enumerate(COLUMN_CHARS)},
    "10": Place.column(9),
    **{char: Place.cell(index) for index, char in enumerate(CELL_CHARS)},
    FOUNDATION_CHAR: Place.foundation(-1),
}


def _place(char: str, columns: int, cells: int, text: str) -> Place:
    """The place ``char`` names on a table of ``columns`` columns and ``cells`` cells."""
    place = _PLACES.get(char)
    if place is not None:
        kind = place.kind
        if kind is PlaceKind.COLUMN:
            if place.index < columns:
                return place
        elif kind is PlaceKind.FOUNDATION or place.index < cells:
            return place
    if char in COLUMN_CHARS or char == "10":
        index = 9 if char == "10" else COLUMN_CHARS.index(char)
        if index >= columns:
            raise IllegalMoveError(f"illegal move {text!r}: there is no column {index + 1}")
        return Place.column(index)
    if char == FOUNDATION_CHAR:
        return Place.foundation(-1)
    index = CELL_CHARS.index(char)
    if index >= cells:
        raise IllegalMoveError(f"illegal move {text!r}: there is no cell {char} (this table has {cells})")
    return Place.cell(index)


@dataclass(frozen=True, slots=True)
class MoveReading:
    """What a text means on a table of a given size, before its cards are seen: the
    source, and the move itself where the cards cannot change it (``home``: one per suit
    when the target is the foundation); else (``move`` and ``home`` both None) a column
    onto a column, the count not written, which the cards imply."""

    shown: str
    source: Place
    target: Place
    move: Move | None
    home: tuple[Move, ...] | None


def read_places(text: str, columns: int, cells: int) -> tuple[Place, Place, int | None]:
    """The places ``text`` names on a table of ``columns`` columns and ``cells`` cells, and
    the count it writes (None where it writes none): what :func:`read_move_text` reads
    before it makes the moves, raising as it does. (A line of play reads each text it
    has not met before so: see :meth:`~freecell.position.WorkingTable.play_line`.)"""
    source, target, count, suit = _syntax(text)
    source_place, target_place = _places(source, target, suit, columns, cells, text)
    return source_place, target_place, count


def _places(source: str, target: str, suit: int | None, columns: int, cells: int, shown: str) -> tuple[Place, Place]:
    """The places a move's source and target (as written, the source's suit for a
    take-back) name on a table of ``columns`` columns and ``cells`` cells."""
    if suit is not None:
        source_place = Place.foundation(suit)
    else:
        source_place = _place(source, columns, cells, shown)
        if source_place.kind is PlaceKind.FOUNDATION:
            raise InvalidMoveError(f"not a move: {shown!r} (a take-back names the suit: 'hs3')")
    return source_place, _place(target, columns, cells, shown)


def _read(written: MoveText, columns: int, cells: int, shown: str) -> MoveReading:
    source, target = _places(written.source, written.target, written.suit, columns, cells, shown)
    return _reading(shown, source, target, written.count)


def _reading(shown: str, source: Place, target: Place, count: int | None) -> MoveReading:
    if target.kind is PlaceKind.FOUNDATION:
        home = tuple(Move(source, Place.foundation(suit), 1 if count is None else count) for suit in range(4))
        return MoveReading(shown, source, target, None, home)
    if count is None and source.kind is PlaceKind.COLUMN and target.kind is PlaceKind.COLUMN:
        return MoveReading(shown, source, target, None, None)
    return MoveReading(shown, source, target, Move(source, target, 1 if count is None else count), None)


@lru_cache(maxsize=1024)
def read_move_text(text: str, columns: int, cells: int) -> MoveReading:
    """What ``text`` means on a table of ``columns`` columns and ``cells`` cells; raises
    :class:`InvalidMoveError` for bad syntax and :class:`IllegalMoveError` for a place
    that the table lacks."""
    # Solutions and games repeat a few dozen texts: each is read once per table size.
    # Errors are not kept, so bad text raises every time.
    source, target, count = read_places(text, columns, cells)
    return _reading(text, source, target, count)


def parse_move(text: str | MoveText, position: Table, rules: Rules) -> Move:
    """Give the notation its meaning in ``position``: the suit of a foundation and the
    implied count of a run. The move is not checked for legality (see
    :meth:`Position.parse_move`). Raises :class:`InvalidMoveError` for bad syntax and
    :class:`IllegalMoveError` for a place that does not exist or is empty."""
    columns, cells = len(position.columns), len(position.cells)
    if isinstance(text, str):
        reading = read_move_text(text, columns, cells)
    else:
        reading = _read(text, columns, cells, format_move_text(text))
    card = position.card_at(reading.source)
    if card is None:
        raise IllegalMoveError(f"illegal move {reading.shown!r}: the source is empty")
    if reading.home is not None:
        return reading.home[card & 3]
    if reading.move is not None:
        return reading.move
    # a column onto a column, the count not written: the cards say it
    source, target = reading.source.index, reading.target.index
    onto = position.columns[target]
    return _column_move(source, target, _implied_count(position, source, onto[-1], rules) if onto else 1)


@cache
def _column_move(source: int, target: int, count: int) -> Move:
    # Made once for each (a few hundred at most): making a Move costs as much as the parse.
    return Move(Place.column(source), Place.column(target), count)


def _implied_count(position: Table, column: int, onto: int, rules: Rules) -> int:
    run = position.run_length(column, rules.building)
    return position.fitting_count(column, onto, run, rules.building) or 1


def format_move(move: Move, position: Position) -> str:
    """Write ``move``, made from ``position``, in standard notation."""
    source = move.source
    target = move.target
    text = place_text(source) + place_char(target)
    if move.count > 1 and target.kind is PlaceKind.COLUMN and not position.columns[target.index]:
        text += count_suffix(move.count)
    return text


def format_move_text(move: MoveText) -> str:
    head = move.source if move.suit is None else FOUNDATION_CHAR + SUIT_CHARS[move.suit]
    tail = count_suffix(move.count) if move.count is not None else ""
    return head + move.target + tail


def count_suffix(count: int) -> str:
    """A count as written after a move's places, in hexadecimal: ``v8``, ``v1a``."""
    return f"v{count:x}"


def place_char(place: Place) -> str:
    """A place as the notation writes it: a column digit, a cell letter, or ``h``."""
    if place.kind is PlaceKind.COLUMN:
        return COLUMN_CHARS[place.index]
    if place.kind is PlaceKind.CELL:
        return CELL_CHARS[place.index]
    return FOUNDATION_CHAR


def place_text(place: Place) -> str:
    """A place as the API names it: :func:`place_char`, with the suit after ``h`` for a
    foundation pile (as a take-back's source is written: ``hs``)."""
    if place.kind is PlaceKind.FOUNDATION:
        return FOUNDATION_CHAR + SUIT_CHARS[place.index]
    return place_char(place)


def parse_place(text: str, position: Position) -> Place:
    """The place of ``position`` that ``text`` names, as :func:`place_text` writes it (``10``
    for a tenth column too); raises :class:`InvalidPlaceError` for a place not there.

    >>> from freecell import Deal, find_rules
    >>> parse_place("hs", Deal(find_rules("standard"), 1).position())
    Place.foundation(3)
    """
    cleaned = text.strip().lower()
    if len(cleaned) == 2 and cleaned[0] == FOUNDATION_CHAR and cleaned[1] in SUIT_CHARS:
        return Place.foundation(SUIT_CHARS.index(cleaned[1]))
    place = _PLACES.get(cleaned)
    if place is not None and place.kind is not PlaceKind.FOUNDATION:
        there = position.columns if place.kind is PlaceKind.COLUMN else position.cells
        if place.index < len(there):
            return place
    raise InvalidPlaceError(
        f"there is no place {cleaned!r} on this table (a column digit, a cell letter, or h and a suit)"
    )


# A pattern's text, which re compiles on first use and keeps: only a pasted solution is
# split, and compiling it with the module would cost every solve's start-up.
_CHATTER: Final = (
    r"^\s*(-=-=|This game is solveable|I could not solve|Total number of states|This scan generated"
    r"|Iterations count exceeded|Unsolved)"
)


def split_moves(text: str) -> list[str]:
    """The move tokens of a solution text: whitespace or commas between moves. The lines
    ``fc-solve`` prints around its moves are passed over, so its output reads as it is."""
    tokens: list[str] = []
    for line in text.splitlines():
        if re.match(_CHATTER, line):
            continue
        tokens.extend(token for token in re.split(r"[\s,]+", line) if token)
    return tokens
