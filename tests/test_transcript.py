"""Writing the search's steps as public moves, and the check that every solution passes.

``write_moves`` is checked against the rules engine, step by step: each text it writes
must parse, in the position reached so far, as a legal move that does what the step
says. ``verify`` must refuse every kind of bad solution.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from freecell import Deal, find_rules, parse_card
from freecell.position import Place, PlaceKind, Position
from freecell.rules import Rules
from freecell.solver import solving
from freecell.solver.steps import CELL, HOME, Step, fused
from freecell.solver.transcript import SolverError, verify, write_moves

STANDARD = find_rules("standard")


def board(text: str, rules: Rules = STANDARD) -> Position:
    return Position.from_text(text, rules, partial=True)


def in_play(position: Position) -> int:
    return sum(len(column) for column in position.columns) + sum(card is not None for card in position.cells)


def solution_steps(monkeypatch: pytest.MonkeyPatch, start: Position, rules: Rules) -> list[Step]:
    """The steps of the win that ``solve()`` finds, caught on their way to ``write_moves``."""
    caught: list[list[Step]] = []

    def catching(position: Position, rules: Rules, steps: Iterable[Step]) -> list[str]:
        caught.append(list(steps))
        return write_moves(position, rules, caught[-1])

    monkeypatch.setattr(solving, "write_moves", catching)
    assert solving.solve(start, rules).solved
    return caught[-1]


def assert_spells(start: Position, rules: Rules, steps: list[Step], texts: list[str]) -> None:
    """Each text is the step it stands for, by the engine's reading, and the last wins."""
    assert len(texts) == len(steps)
    position = start
    for (source, target, count), text in zip(steps, texts, strict=True):
        move = position.parse_move(text, rules)  # parsed, and checked to be legal
        assert move.count == count, text
        if source < CELL:
            assert move.source == Place.column(source), text
        elif source < HOME:
            assert move.source.kind is PlaceKind.CELL and position.card_at(move.source) == source - CELL, text
        else:
            assert move.source == Place.foundation(source - HOME), text
        if target < CELL:
            assert move.target == Place.column(target), text
        else:
            assert move.target.kind is (PlaceKind.CELL if target == CELL else PlaceKind.FOUNDATION), text
        position = position.apply_unchecked(move)
    assert in_play(position) == 0


# --- write_moves --------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "number"), [("standard", 1), ("standard", 2), ("double", 6), ("app", 3)])
def test_each_step_is_written_as_the_move_it_stands_for(
    monkeypatch: pytest.MonkeyPatch, name: str, number: int
) -> None:
    rules = find_rules(name)
    start = Deal(rules, number).position()
    steps = solution_steps(monkeypatch, start, rules)
    assert any(count > 1 for _, _, count in steps)  # runs moved as one are written too
    texts = write_moves(start, rules, steps)
    assert_spells(start, rules, steps, texts)
    verify(start, rules, texts)


def test_under_single_card_rules_a_run_is_written_card_by_card(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = find_rules("strict")
    start = Deal(rules, 2).position()
    steps = solution_steps(monkeypatch, start, rules)
    assert any(count > 1 for _, _, count in steps)
    texts = write_moves(start, rules, steps)
    assert len(texts) > len(steps)
    position = start
    for text in texts:
        move = position.parse_move(text, rules)
        assert move.count == 1, text
        position = position.apply_unchecked(move)
    assert in_play(position) == 0
    verify(start, rules, texts)


def test_a_run_into_an_empty_column_is_written_with_its_count() -> None:
    start = board("Foundations: H-0 C-0 D-0 S-0\n: 9S 8H 7C\n:\n")
    assert write_moves(start, STANDARD, [(0, 1, 2)]) == ["12v2"]
    assert write_moves(start, STANDARD, [(0, 1, 1)]) == ["12"]


# Under app rules: 2H comes back onto 3S, goes to a cell and home again; 4D leaves its
# cell for an empty column and 3S goes on it. AH and 2H are home, 4D and 3S in play.
TAKE_BACK = "Foundations: H-2 C-0 D-0 S-0\nFreecells: - 4D\n: 3S\n"
TAKE_BACK_MOVES = ["hh1", "1a", "ah", "b2", "12"]


def test_cells_and_take_backs_are_written_by_their_places() -> None:
    rules = find_rules("app")
    two_of_hearts, four_of_diamonds = parse_card("2H"), parse_card("4D")
    steps = [
        (HOME + 2, 0, 1),
        (0, CELL, 1),
        (CELL + two_of_hearts, HOME, 1),
        (CELL + four_of_diamonds, 1, 1),
        (0, 1, 1),
    ]
    assert write_moves(board(TAKE_BACK, rules), rules, steps) == TAKE_BACK_MOVES


def test_a_fused_step_is_written_as_the_moves_it_stands_for() -> None:
    rules = find_rules("app")
    two_of_hearts, four_of_diamonds = parse_card("2H"), parse_card("4D")
    taken_back = fused(((HOME + 2, 0, 1), (0, CELL, 1)))  # as take_backs.py fuses them
    steps = [taken_back, (CELL + two_of_hearts, HOME, 1), fused(((CELL + four_of_diamonds, 1, 1), (0, 1, 1)))]
    assert write_moves(board(TAKE_BACK, rules), rules, steps) == TAKE_BACK_MOVES


def test_a_step_that_cannot_be_played_is_a_solver_error() -> None:
    start = board("Foundations: H-J C-K D-K S-K\n: QH KH\n")
    with pytest.raises(SolverError, match="cannot be played"):
        write_moves(start, STANDARD, [(1, HOME, 1)])  # an empty column
    with pytest.raises(SolverError, match="cannot be played"):
        write_moves(start, STANDARD, [(0, HOME, 1)])  # the king before the queen


# --- verify -------------------------------------------------------------------------------------

# Hearts to the jack and clubs to the queen are home; QH, KH and KC are in play.
TWO_KINGS = "Foundations: H-J C-Q D-K S-K\n: KC\n: QH\n: KH\n"


def test_a_winning_solution_passes() -> None:
    verify(board(TWO_KINGS), STANDARD, ["2h", "3h", "1h"])


def test_an_illegal_move_is_refused() -> None:
    with pytest.raises(SolverError, match=r"move 1 \('3h'\) is illegal: K♥ cannot go home yet"):
        verify(board(TWO_KINGS), STANDARD, ["3h", "2h", "1h"])


@pytest.mark.parametrize("text", ["2x", "h", "", "2hv0", "zz"])
def test_a_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(SolverError, match=r"move 2 .* is illegal: not a move"):
        verify(board(TWO_KINGS), STANDARD, ["2h", text, "3h", "1h"])


def test_a_place_the_table_lacks_is_refused() -> None:
    with pytest.raises(SolverError, match="there is no column 9"):
        verify(board(TWO_KINGS), STANDARD, ["2h", "9h"])


def test_a_solution_that_leaves_cards_in_play_is_refused() -> None:
    with pytest.raises(SolverError, match="leaves cards in play"):
        verify(board(TWO_KINGS), STANDARD, ["2h", "3h"])
    with pytest.raises(SolverError, match="leaves cards in play"):
        verify(board("Foundations: H-Q C-K D-K S-K\nFreecells: KH\n"), STANDARD, [])


def test_a_move_legal_only_under_other_rules_is_refused() -> None:
    moves = ["21", "1h", "3h", "1h"]  # QH on KC: alternate colours, not the same suit
    verify(board(TWO_KINGS), STANDARD, moves)
    bakers = find_rules("bakers-game")
    with pytest.raises(SolverError, match=r"move 1 \('21'\) is illegal: Q♥ cannot go on K♣"):
        verify(board(TWO_KINGS, bakers), bakers, moves)


def test_a_take_back_is_refused_where_foundation_cards_stay_home() -> None:
    app = find_rules("app")
    with pytest.raises(SolverError, match="leaves cards in play"):
        verify(board(TAKE_BACK, app), app, TAKE_BACK_MOVES)  # every move legal; 4D and 3S still out
    with pytest.raises(SolverError, match=r"move 1 \('hh1'\) is illegal: cards on the foundations stay there"):
        verify(board(TAKE_BACK), STANDARD, TAKE_BACK_MOVES)
