"""Steps of the search written out as public moves, and checked by the rules engine."""

from __future__ import annotations

from collections.abc import Iterable

from freecell.game import replay
from freecell.notation import format_move
from freecell.position import Move, Place, Position
from freecell.rules import Rules, SequenceMoves
from freecell.solver.board import CELL, HOME, Step


class SolverError(RuntimeError):
    """The solver produced a solution that the rules engine refuses: a bug, never a verdict."""


def write_moves(start: Position, rules: Rules, steps: Iterable[Step]) -> list[str]:
    """The moves in standard notation that ``steps`` stand for, played from ``start``.

    Under single-card rules a run becomes the single-card moves it stands for. The moves
    are not checked here: :func:`verify` replays them. Raises :class:`SolverError` if a
    step cannot even be written (a bug)."""
    position = start
    single = rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS
    texts: list[str] = []
    for step in steps:
        move = _public_move(position, step)
        try:
            parts = position.single_card_steps(move, rules) if single and move.count > 1 else [move]
            for part in parts:
                texts.append(format_move(part, position))
                position = position.apply_unchecked(part)
        except (ValueError, IndexError) as error:
            raise SolverError(f"step {step} of the search cannot be played: {error}") from error
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
