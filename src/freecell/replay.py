"""Replaying moves written in standard notation over a position, with nothing automatic.

This is part of the core: the solver replays every line it finds through it before the
line is trusted, and game sessions, the command line and the batch runner use it too.
"""

from __future__ import annotations

from collections.abc import Iterable

from freecell.position import Position, ReplayError, WorkingTable
from freecell.rules import Rules

__all__ = ["ReplayError", "replay"]  # ReplayError lives with WorkingTable.play_line, which raises it


def replay(start: Position, rules: Rules, moves: Iterable[str]) -> Position:
    """Play ``moves`` (standard notation) from ``start`` with nothing automatic.

    Under single-card rules a run stands for the one-card moves that carry it through the
    free cells and columns (:meth:`~freecell.position.Table.single_card_steps`): it is
    legal when they are, within the capacity, and leaves the table as they would.
    Raises :class:`ReplayError` naming the first illegal move, its number and the reason.
    """
    table = WorkingTable(start)  # the moves are played in place: no position per move
    table.play_line(moves, rules)
    return table.position()
