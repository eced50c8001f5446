"""Steps of the search written out as public moves, and checked by the rules engine.

:func:`write_moves` trusts nothing it writes: it only spells the steps in standard
notation, on a light copy of the table. :func:`verify` is the check: it replays those
exact texts through the rules engine (each parsed and found legal in turn, under the
given rules) and requires every card home at the end.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from freecell.notation import (
    CELL_CHARS,
    COLUMN_CHARS,
    FOUNDATION_CHAR,
    SUIT_CHARS,
    count_suffix,
    place_char,
)
from freecell.position import Move, Place, PlaceKind, Position, WorkingTable
from freecell.rules import Rules, SequenceMoves
from freecell.solver.result import SolverError as SolverError  # raised here, and named here by callers
from freecell.solver.steps import CELL, FUSED, HOME, Step, fused_moves

_COLUMN: Final = PlaceKind.COLUMN  # an enum member is slow to look up

# Every text of one card from a column or a cell to a column, a cell or home, made once:
# ``_ONE_CARD[source * _TARGETS + target]``, the source a column's index or the cells'
# count plus a cell's, the target the same or _HOME_TARGET.
_PLACE_CHARS: Final = COLUMN_CHARS + CELL_CHARS
_TARGETS: Final = len(_PLACE_CHARS) + 1
_HOME_TARGET: Final = len(_PLACE_CHARS)
_ONE_CARD: Final = [source + target for source in _PLACE_CHARS for target in _PLACE_CHARS + FOUNDATION_CHAR]
_CELLS_FROM: Final = len(COLUMN_CHARS)
# A run's written count as text, by the count (a run is 13 cards at most), made once: spelt
# by the notation's own count_suffix, a Python call compiled code pays some 3k
# instructions for.
_COUNT_SUFFIXES: Final = [count_suffix(count) for count in range(14)]


def write_moves(start: Position, rules: Rules, steps: Iterable[Step]) -> list[str]:
    """The moves in standard notation that ``steps`` stand for, played from ``start``.

    Under single-card rules a run becomes the single-card moves it stands for. The moves
    are not checked here: :func:`verify` replays them. Raises :class:`SolverError` if a
    step cannot even be written (a bug)."""
    return _Table(start).write(steps, rules)


class _Table:
    """A mutable copy of the table, only as much as spelling the steps needs. Writing
    one step as text here costs a small part of making a :class:`Position` for it."""

    def __init__(self, position: Position) -> None:
        self.columns = [list(column) for column in position.columns]
        self.cells = list(position.cells)
        self.foundations = list(position.foundations)

    def write(self, steps: Iterable[Step], rules: Rules) -> list[str]:
        """``steps`` in standard notation, played on this table (see :func:`write_moves`)."""
        columns, cells, foundations = self.columns, self.cells, self.foundations
        texts: list[str] = []
        one_card, targets, cells_from, home = _ONE_CARD, _TARGETS, _CELLS_FROM, _HOME_TARGET
        runs_as_one = rules.sequence_moves is not SequenceMoves.SINGLE_CARD_STEPS
        for step in steps:
            source, target, count = step
            try:
                if count != 1 or source >= HOME:
                    if source < CELL and target < CELL and runs_as_one:  # a run: most of the rest
                        texts.append(self._write_cards(source, target, count))
                    else:  # a take-back, fused steps, or a run as single cards
                        texts.extend(self._write_other(step, rules))
                    continue
                # one card from a column or a cell: nearly every step, so written here
                if source < CELL:
                    column = columns[source]
                    if not column:
                        raise ValueError(f"column {source + 1} is empty")
                    card = column.pop()
                    row = source * targets
                else:
                    card = source - CELL
                    index = cells.index(card)
                    cells[index] = None
                    row = (cells_from + index) * targets
                if target < CELL:
                    columns[target].append(card)
                    texts.append(one_card[row + target])
                elif target == CELL:
                    index = cells.index(None)
                    cells[index] = card
                    texts.append(one_card[row + cells_from + index])
                else:
                    foundations[self._home_pile(card)] += 1
                    texts.append(one_card[row + home])
            except (ValueError, IndexError) as error:
                raise SolverError(f"step {step} of the search cannot be played: {error}") from error
        return texts

    def _write_other(self, step: Step, rules: Rules) -> list[str]:
        """The texts of a step other than one card from a column or a cell."""
        if step[0] == FUSED:
            return self.write(fused_moves(step), rules)
        if step[2] > 1 and rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS:
            return self.write_run(step, rules)
        source, target, count = step
        if source >= HOME:
            card = self._take_back(source - HOME)
            written = FOUNDATION_CHAR + SUIT_CHARS[card & 3]  # a take-back names the suit
            if target < CELL:
                self.columns[target].append(card)
                return [written + COLUMN_CHARS[target]]
            if target == CELL:
                index = self.cells.index(None)
                self.cells[index] = card
                return [written + CELL_CHARS[index]]
            raise ValueError("a card taken back goes to a column or a cell")
        return [self._write_cards(source, target, count)]

    def _write_cards(self, source: int, target: int, count: int) -> str:
        """A step of ``count`` cards (other than one), which only a column to a column takes."""
        if source >= CELL or target >= CELL:
            raise ValueError("only a column takes more than one card")
        column = self.columns[source]
        if not 0 < count <= len(column):
            raise ValueError(f"column {source + 1} does not hold {count} cards")
        into = self.columns[target]
        written = _ONE_CARD[source * _TARGETS + target]  # the same two places' text
        if not into:  # the only move whose count is written
            written += _COUNT_SUFFIXES[count] if count < len(_COUNT_SUFFIXES) else count_suffix(count)
        into += column[-count:]
        del column[-count:]
        return written

    def _take_back(self, suit: int) -> int:
        """The top card of ``suit``'s highest pile, taken off it."""
        heights = self.foundations[suit::4]
        pile = suit + 4 * heights.index(max(heights))
        if not self.foundations[pile]:
            raise ValueError(f"the {SUIT_CHARS[suit]} foundation is empty")
        self.foundations[pile] -= 1
        return self.foundations[pile] * 4 + suit

    def _home_pile(self, card: int) -> int:
        foundations = self.foundations
        if foundations[card & 3] == card >> 2:  # the suit's first pile, its only one in one deck
            return card & 3
        for pile in range(4 + (card & 3), len(foundations), 4):
            if foundations[pile] == card >> 2:
                return pile
        raise ValueError(f"card {card} cannot go home")

    def write_run(self, step: Step, rules: Rules) -> list[str]:
        """A run of ``step`` as the single-card moves it stands for, routed by the engine:
        each goes from a column or cell to a column or cell."""
        position = Position(tuple(map(tuple, self.columns)), tuple(self.cells), tuple(self.foundations))
        texts: list[str] = []
        for part in position.single_card_steps(_public_move(position, step), rules):
            source, target = part.source.index, part.target.index
            card: int | None
            if part.source.kind is _COLUMN:
                card = self.columns[source].pop()
            else:
                card = self.cells[source]
                self.cells[source] = None
            if part.target.kind is _COLUMN:
                self.columns[target].append(card)  # type: ignore[arg-type]
            else:
                self.cells[target] = card
            texts.append(place_char(part.source) + place_char(part.target))
        return texts


def _public_move(position: Position, step: Step) -> Move:
    source, target, count = step
    if source < CELL:
        origin = Place.column(source)
        card = position.columns[source][-count]
    elif source < HOME:
        card = source - CELL
        origin = Place.cell(position.cells.index(card))
    else:
        origin = Place.foundation(source - HOME)
        card = position.card_at(origin)  # type: ignore[assignment]
    if target < CELL:
        destination = Place.column(target)
    elif target == CELL:
        destination = Place.cell(position.cells.index(None))
    else:
        destination = Place.foundation(card & 3)
    return Move(origin, destination, count)


def verify(start: Position, rules: Rules, moves: Iterable[str]) -> None:
    """Replay ``moves`` from ``start`` through the rules engine, with nothing automatic
    (what :func:`~freecell.replay.replay` does); raise :class:`SolverError` unless they
    are legal and leave no card in play."""
    table = WorkingTable(start)  # read where it ends: no Position made of it on a win
    try:
        table.play_line(moves, rules)
    except ValueError as error:
        raise SolverError(f"the solution does not replay: {error}") from error
    if any(table.columns) or table.cells.count(None) != len(table.cells):
        raise SolverError(f"the solution replays but leaves cards in play:\n{table.position()}")


def count_non_foundation(moves: list[str] | tuple[str, ...]) -> int:
    """How many moves do not send a card home (``3h``, ``ah``)."""
    count = 0
    for move in moves:
        if not (len(move) == 2 and move[1] == "h"):
            count += 1
    return count
