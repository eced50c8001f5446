"""The trivially won finish: when foundation moves alone take every card home.

A position is **trivially won** when it is not won yet and sending home, again and again,
any card that may go home (the exposed card of a column, or a card in a cell) ends with
every card home. For example, every column in descending order (each card lower than the
one it lies on) is trivially won. With one deck the order of the moves does not matter:
a foundation move never blocks another, it only exposes a card or empties a cell. So one
greedy pass decides it exactly. With two decks, a card whose suit has a pile below its
rank - 1 takes the one pile ready for its rank, which the other copy may need first (the
one lying on the cards that the lagging pile waits for): where only such cards can go,
each is tried first in turn.

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
    return _finish(position, set())


def _finish(position: Position, stuck: set[Position]) -> list[Move] | None:
    """The moves that take every card home from ``position``, or None; ``stuck`` holds the
    positions already found not to finish."""
    moves: list[Move] = []
    while not position.is_won():
        home = list(position.home_moves())
        move = next((move for move in home if not _takes_a_pile_needed(position, move)), None)
        if move is None:
            for move in home:  # two decks: which copy goes first may matter
                following = position.apply_unchecked(move)
                if following not in stuck:
                    rest = _finish(following, stuck)
                    if rest is not None:
                        return [*moves, move, *rest]
                    stuck.add(following)
            return None
        moves.append(move)
        position = position.apply_unchecked(move)
    return moves


def _takes_a_pile_needed(position: Position, move: Move) -> bool:
    """Whether the card ``move`` sends home may take the one pile ready for its rank while
    the other copy is still in play: a pile of its suit is lower than its rank - 1."""
    card = position.card_at(move.source)
    assert card is not None
    foundations = position.foundations
    return any(foundations[pile] < card >> 2 for pile in range(card & 3, len(foundations), 4))


def is_trivially_won(position: Position) -> bool:
    """Whether foundation moves alone finish the game (see the module's docstring)."""
    return finishing_moves(position) is not None
