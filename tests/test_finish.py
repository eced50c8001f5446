"""The trivially won finish."""

from __future__ import annotations

from freecell.deals import Deal
from freecell.finish import finishing_moves, is_trivially_won
from freecell.position import Position
from freecell.rules import STANDARD, find_rules

# Every column in descending order: the finish of a won game.
DESCENDING = """
Foundations: H-5 C-5 D-5 S-5
Freecells: 6H - - 6S
: KC QC JC TC 9C 8C 7C 6C
: KD QD JD TD 9D 8D 7D 6D
: KH QH JH TH 9H 8H 7H
: KS QS JS TS 9S 8S 7S
"""


def test_descending_columns_finish_by_foundation_moves_alone() -> None:
    position = Position.from_text(DESCENDING, STANDARD)
    moves = finishing_moves(position)
    assert moves is not None and len(moves) == 32
    for move in moves:
        assert move.target.kind.name == "FOUNDATION"
        position = position.apply(move, STANDARD)
    assert position.is_won()


def test_a_card_covering_a_lower_card_of_its_suit_is_not_trivially_won() -> None:
    blocked = DESCENDING.replace(": KC QC JC TC 9C 8C 7C 6C", ": KC QC JC TC 9C 8C 6C 7C")
    assert finishing_moves(Position.from_text(blocked, STANDARD)) is None
    assert not is_trivially_won(Deal(find_rules("standard"), 617).position())


def test_a_won_position_has_nothing_to_finish() -> None:
    won = Position.from_text("Foundations: H-K C-K D-K S-K\n", STANDARD)
    assert won.is_won() and finishing_moves(won) is None
