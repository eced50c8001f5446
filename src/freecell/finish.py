"""The trivially won finish: when foundation moves alone take every card home.

A position is **trivially won** when it is not won yet and sending home, again and again,
any card that may go home (the exposed card of a column, or a card in a cell) ends with
every card home. For example, every column in descending order (each card lower than the
one it lies on) is trivially won. The order of the moves does not matter: a foundation
move never blocks another, it only exposes a card or empties a cell. So one greedy pass
decides it exactly.

>>> from freecell.position import Position
>>> from freecell.rules import STANDARD
>>> position = Position.from_text("Foundations: H-Q C-K D-K S-J\\nFreecells: KH\\n: KS QS\\n", STANDARD)
>>> [position.notation(move) for move in finishing_moves(position)]
['1h', '1h', 'ah']
"""

from __future__ import annotations

from freecell.position import Move, Position


def finishing_moves(position: Position) -> list[Move] | None:
    """The foundation moves that take every card home from ``position``, in an order that
    plays legally; None if the position is not trivially won (or is won already)."""
    if position.is_won():
        return None
    moves: list[Move] = []
    while not position.is_won():
        move = next(position.home_moves(), None)
        if move is None:
            return None
        moves.append(move)
        position = position.apply_unchecked(move)
    return moves


def is_trivially_won(position: Position) -> bool:
    """Whether foundation moves alone finish the game (see the module's docstring)."""
    return finishing_moves(position) is not None
