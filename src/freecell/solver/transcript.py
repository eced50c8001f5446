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
    MoveText,
    format_move_text,
    place_char,
)
from freecell.position import Move, Place, PlaceKind, Position
from freecell.replay import replay
from freecell.rules import Rules, SequenceMoves
from freecell.solver.steps import CELL, FUSED, HOME, Step, fused_moves

_COLUMN: Final = PlaceKind.COLUMN  # an enum member is slow to look up


class SolverError(RuntimeError):
    """The solver produced a solution that the rules engine refuses: a bug, never a verdict."""


def write_moves(start: Position, rules: Rules, steps: Iterable[Step]) -> list[str]:
    """The moves in standard notation that ``steps`` stand for, played from ``start``.

    Under single-card rules a run becomes the single-card moves it stands for. The moves
    are not checked here: :func:`verify` replays them. Raises :class:`SolverError` if a
    step cannot even be written (a bug)."""
    table = _Table(start)
    single = rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS
    texts: list[str] = []
    for fusing in steps:
        for step in fused_moves(fusing) if fusing[0] == FUSED else (fusing,):
            try:
                if single and step[2] > 1:
                    texts.extend(table.write_run(step, rules))
                else:
                    texts.append(table.write(step))
            except (ValueError, IndexError) as error:
                raise SolverError(f"step {step} of the search cannot be played: {error}") from error
    return texts


class _Table:
    """A mutable copy of the table, only as much as spelling the steps needs. Writing
    one step as text here costs a small part of making a :class:`Position` for it."""

    def __init__(self, position: Position) -> None:
        self.columns = [list(column) for column in position.columns]
        self.cells = list(position.cells)
        self.foundations = list(position.foundations)

    def write(self, step: Step) -> str:
        """``step`` in standard notation, played on this table."""
        source, target, count = step
        if source < CELL:
            column = self.columns[source]
            if not 0 < count <= len(column):
                raise ValueError(f"column {source + 1} does not hold {count} cards")
            written = COLUMN_CHARS[source]
            moving = column[-count:]
            del column[-count:]
        elif source < HOME:
            index = self.cells.index(source - CELL)
            written = CELL_CHARS[index]
            moving = [source - CELL]
            self.cells[index] = None
        else:
            suit = source - HOME
            heights = self.foundations[suit::4]
            pile = suit + 4 * heights.index(max(heights))
            if not self.foundations[pile]:
                raise ValueError(f"the {SUIT_CHARS[suit]} foundation is empty")
            written = FOUNDATION_CHAR + SUIT_CHARS[suit]  # a take-back names the suit
            self.foundations[pile] -= 1
            moving = [self.foundations[pile] * 4 + suit]
        if count > 1 and target >= CELL:
            raise ValueError("only a column takes more than one card")
        if target < CELL:
            column = self.columns[target]
            if count > 1 and not column:  # the only move whose count is written
                column.extend(moving)
                return format_move_text(MoveText(written, COLUMN_CHARS[target], count))
            column.extend(moving)
            return written + COLUMN_CHARS[target]
        if target == CELL:
            index = self.cells.index(None)
            self.cells[index] = moving[0]
            return written + CELL_CHARS[index]
        self.foundations[self._home_pile(moving[0])] += 1
        return written + FOUNDATION_CHAR

    def _home_pile(self, card: int) -> int:
        foundations = self.foundations
        for pile in range(card & 3, len(foundations), 4):
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
    """Replay ``moves`` from ``start`` with nothing automatic; raise :class:`SolverError`
    unless they are legal and leave no card in play."""
    try:
        end = replay(start, rules, moves)
    except ValueError as error:
        raise SolverError(f"the solution does not replay: {error}") from error
    if any(end.columns) or any(card is not None for card in end.cells):
        raise SolverError(f"the solution replays but leaves cards in play:\n{end}")
