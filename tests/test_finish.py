"""The trivially won finish."""

from __future__ import annotations

import pytest

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


@pytest.mark.parametrize("order", [1, -1])
def test_with_two_decks_the_copy_over_the_cards_a_pile_waits_for_goes_home_first(order: int) -> None:
    """Double FreeCell, hearts piles at 4 and 2: the 5H over the 4H and 3H must take the
    pile at 4 so that the other pile can take them; the other 5H then goes on that one."""
    double = find_rules("double")
    hearts = [(rank - 1) * 4 + 2 for rank in range(14)]
    first = tuple(hearts[13:4:-1])  # KH down to 5H
    second = tuple(hearts[13:5:-1]) + (hearts[4], hearts[3], hearts[5])  # KH to 6H, 4H, 3H, 5H
    foundations = [13] * 8
    foundations[2], foundations[6] = 4, 2
    position = Position(((first, second)[::order]) + ((),) * 8, (None,) * 6, tuple(foundations))
    moves = finishing_moves(position)
    assert moves is not None and len(moves) == len(first) + len(second)
    for move in moves:
        position = position.apply(move, double)
    assert position.is_won()
