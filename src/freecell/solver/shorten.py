"""Making a solution shorter after the fact, each change checked by replaying the rest.

A search's path often takes a card somewhere and later takes it on, or parks it and
brings it back. Going from the last move to the first, :func:`shorten` tries for each
move that does not go home: dropping it; dropping it with the next move of the same
card; sending the card straight to where that next move takes it, now or then. A change
is kept only if the moves from there on still replay to a win, so the result is always
a solution no longer than the one given.
"""

from __future__ import annotations

from collections.abc import Iterator

from freecell.errors import InvalidInputError
from freecell.notation import MoveText, format_move_text, parse_move_text
from freecell.position import Move, PlaceKind, Position
from freecell.rules import Rules, SequenceMoves


def shorten(start: Position, rules: Rules, moves: list[str]) -> list[str]:
    """A solution from ``start`` with no more moves than ``moves`` (itself a solution)."""
    positions = [start]
    cards = []
    for text in moves:
        position = positions[-1]
        move = position.parse_move(text, rules)
        cards.append(_moving_card(position, move))
        positions.append(_play(position, move, rules))
    # Moves at or after ``index`` change; the positions before it stay true.
    for index in range(len(moves) - 1, -1, -1):
        if index >= len(moves) or _goes_home(moves[index]):
            continue
        for suffix in _edits(moves, cards, index):
            if _wins(positions[index], rules, suffix):
                moves = moves[:index] + suffix
                cards = cards[:index] + _cards_of(positions[index], rules, suffix)
                break
    return moves


def _edits(moves: list[str], cards: list[int], index: int) -> Iterator[list[str]]:
    rest = moves[index + 1 :]
    yield rest
    card = cards[index]
    later = next((j for j in range(index + 1, len(moves)) if cards[j] == card), None)
    if later is None:
        return
    between = moves[index + 1 : later]
    after = moves[later + 1 :]
    yield between + after
    first, then = parse_move_text(moves[index]), parse_move_text(moves[later])
    if first.suit is None and then.suit is None:  # neither takes a card back from home
        # The card goes straight to where its next move took it, with that move's count
        # (kept only for an empty column), now or then.
        straight = format_move_text(MoveText(first.source, then.target, then.count))
        yield [straight, *between, *after]
        yield [*between, straight, *after]


def _goes_home(text: str) -> bool:
    written = parse_move_text(text)
    return written.to_foundation and written.suit is None


def _moving_card(position: Position, move: Move) -> int:
    if move.source.kind is PlaceKind.COLUMN:
        return position.columns[move.source.index][-move.count]
    card = position.card_at(move.source)
    assert card is not None
    return card


def _play(position: Position, move: Move, rules: Rules) -> Position:
    if rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS:
        for step in position.single_card_steps(move, rules):
            position = position.apply_unchecked(step)
        return position
    return position.apply_unchecked(move)


def _wins(position: Position, rules: Rules, moves: list[str]) -> bool:
    try:
        for text in moves:
            position = _play(position, position.parse_move(text, rules), rules)
    except InvalidInputError:
        return False
    return not any(position.columns) and all(card is None for card in position.cells)


def _cards_of(position: Position, rules: Rules, moves: list[str]) -> list[int]:
    cards = []
    for text in moves:
        move = position.parse_move(text, rules)
        cards.append(_moving_card(position, move))
        position = _play(position, move, rules)
    return cards
