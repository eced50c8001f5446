"""Words for the hints: a legal move worth trying where the solver could not decide in
time, and the sentences that name a move as players read it.

A hint that follows a winning line comes from the solver (:mod:`freecell.web.assistance`);
:func:`move_worth_trying` is what is left when the search reached its limit.
"""

from __future__ import annotations

from freecell.cards import card_label
from freecell.notation import cell_letter
from freecell.position import Move, Place, PlaceKind, Position, can_stack
from freecell.rules import Rules


def move_worth_trying(position: Position, rules: Rules, *, undone: Position | None) -> Move | None:
    """A legal move in ``position``, or None when none is left; ``undone`` is the position
    before the last action (None at the start).

    Preferred, in order: a card home; a card from a cell onto a column; a run onto
    another card that uncovers something new; a run into an empty column that leaves cards
    behind; a card into a cell; a take-back. A move that undoes the last action, or that
    only carries a whole column to an empty one, comes last.
    """
    moves = position.legal_moves(rules)
    if not moves:
        return None
    return min(moves, key=lambda move: _rank(move, position, rules, undone))


def _rank(move: Move, position: Position, rules: Rules, undone: Position | None) -> tuple[int, int]:
    if undone is not None and position.apply_unchecked(move) == undone:
        return (9, 0)
    source, target = move.source, move.target
    if source.kind is PlaceKind.FOUNDATION:
        return (7, 0)
    if target.kind is PlaceKind.FOUNDATION:
        return (0, 0)
    if target.kind is PlaceKind.CELL:
        return (6, 0)
    target_empty = not position.columns[target.index]
    if source.kind is PlaceKind.CELL:
        return (4 if target_empty else 1, 0)
    column = position.columns[source.index]
    whole_column = move.count == len(column)
    if target_empty:
        return (8 if whole_column else 5, -move.count)
    base = len(column) - move.count
    # a run that already lies on a fitting card only changes parents
    shuffles = base > 0 and can_stack(column[base], column[base - 1], rules.building)
    return (3 if shuffles else 2, -move.count)


def describe(move: Move, position: Position) -> str:
    """The hint as a sentence, cards named as players read them:
    ``Move 9♣ from column 3 onto 10♦ in column 8``."""
    return f"Move {_what(move, position)} from {_where(move.source)} {_to(move.target, position)}"


def describe_briefly(move: Move, position: Position) -> str:
    """The move as a phrase, e.g. ``the move of 5♠ to a free cell``."""
    target = move.target
    if target.kind is PlaceKind.CELL:
        where = "to a free cell"
    elif target.kind is PlaceKind.FOUNDATION:
        where = "home"
    else:
        where = _to(target, position)
    return f"the move of {_what(move, position)} {where}"


def _what(move: Move, position: Position) -> str:
    source = move.source
    card = position.columns[source.index][-move.count] if source.kind is PlaceKind.COLUMN else position.card_at(source)
    assert card is not None
    return card_label(card) if move.count == 1 else f"the {move.count} cards from {card_label(card)}"


def _where(place: Place) -> str:
    if place.kind is PlaceKind.COLUMN:
        return f"column {place.index + 1}"
    if place.kind is PlaceKind.CELL:
        return f"cell {cell_letter(place.index)}"
    return "its foundation"


def _to(target: Place, position: Position) -> str:
    if target.kind is PlaceKind.FOUNDATION:
        return "to its foundation"
    if target.kind is PlaceKind.CELL:
        return f"to {_where(target)}"
    column = position.columns[target.index]
    if not column:
        return f"to the empty column {target.index + 1}"
    return f"onto {card_label(column[-1])} in column {target.index + 1}"
