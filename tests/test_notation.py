"""Standard notation: parse and format round-trip exactly over every legal move, in
every preset, with our extensions (counted runs, take-backs, eight cells, ten columns)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.deals import Deal
from freecell.notation import (
    InvalidMoveError,
    MoveText,
    cell_letter,
    column_char,
    format_move,
    format_move_text,
    parse_move,
    parse_move_text,
    split_moves,
)
from freecell.position import IllegalMoveError, Move, Place, Position
from freecell.rules import PRESETS, Rules, find_rules


def _board(text: str, rules: Rules) -> Position:
    return Position.from_text(text, rules, partial=True)


def _assert_round_trips(position: Position, rules: Rules) -> None:
    for move in position.legal_moves(rules):
        text = format_move(move, position)
        assert parse_move(text, position, rules) == move, text
        assert position.parse_move(text, rules) == move
        assert format_move(parse_move(text.upper(), position, rules), position) == text


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(list(PRESETS.values())), st.integers(1, 32000), st.data())
def test_every_legal_move_round_trips_along_a_random_game(rules: Rules, number: int, data: st.DataObject) -> None:
    position = Deal(rules, number).position()
    for _ in range(data.draw(st.integers(0, 80), label="length")):
        _assert_round_trips(position, rules)
        moves = position.legal_moves(rules)
        if not moves:
            break
        position = position.apply(data.draw(st.sampled_from(moves)), rules)
    _assert_round_trips(position, rules)


def test_a_run_into_an_empty_column_carries_its_count_in_hex() -> None:
    rules = find_rules("standard")
    run = "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D"
    position = _board(f": 2S\n: 3S\n: 4S\n: 5H\n: {run}\n:\n:\n:\n", rules)
    assert parse_move("57", position, rules) == Move(Place.column(4), Place.column(6), 1)
    assert parse_move("57v8", position, rules) == Move(Place.column(4), Place.column(6), 8)
    assert parse_move("57vA", position, rules).count == 10
    assert format_move(Move(Place.column(4), Place.column(6), 10), position) == "57va"
    assert format_move(Move(Place.column(4), Place.column(6), 1), position) == "57"
    assert "57va" in {position.notation(m) for m in position.legal_moves(rules)}
    assert position.max_movable(4, 6, rules) == 12  # the whole run: the capacity is (4 + 1) × 2^2
    with pytest.raises(InvalidMoveError, match="a count must be at least 1"):
        parse_move_text("57v0")


def test_onto_an_occupied_column_the_count_is_implied() -> None:
    rules = find_rules("standard")
    position = _board(": 9H 8S 7H 6S\n: TS\n: 8C\n", rules)
    assert parse_move("12", position, rules).count == 4
    assert parse_move("13", position, rules).count == 2
    assert format_move(Move(Place.column(0), Place.column(1), 4), position) == "12"


def test_take_back_notation_names_the_suit() -> None:
    rules = find_rules("cardems")
    position = _board("Foundations: H-0 C-0 D-3 S-5\n: 6H\n", rules)
    assert parse_move_text("hs1") == MoveText("h", "1", None, 3)
    assert parse_move("hs1", position, rules) == Move(Place.foundation(3), Place.column(0))
    assert parse_move("hda", position, rules) == Move(Place.foundation(1), Place.cell(0))
    assert format_move(Move(Place.foundation(3), Place.column(0)), position) == "hs1"
    assert format_move_text(parse_move_text("HDA")) == "hda"
    assert format_move_text(parse_move_text("57v8")) == "57v8"
    with pytest.raises(IllegalMoveError, match="the source is empty"):
        parse_move("hc1", position, rules)
    with pytest.raises(InvalidMoveError, match="one card at a time leaves a foundation"):
        parse_move_text("hs1v2")


def test_h_always_means_the_foundation_of_the_moving_card() -> None:
    rules = find_rules("standard")
    position = _board("Foundations: S-1\nFreecells: - 2S\n: AH\n", rules)
    assert parse_move("1h", position, rules) == Move(Place.column(0), Place.foundation(2))
    assert parse_move("bh", position, rules) == Move(Place.cell(1), Place.foundation(3))
    with pytest.raises(InvalidMoveError):
        parse_move_text("h1")


def test_eight_off_cells_skip_h_i_and_j_as_fc_solve_does() -> None:
    assert [cell_letter(i) for i in range(8)] == list("abcdefgk")
    rules = find_rules("eight-off")
    position = _board("Freecells: - - - - - - - 5C\n: 6C\n: KS\n", rules)
    assert parse_move("k1", position, rules) == Move(Place.cell(7), Place.column(0))
    assert parse_move("2k", position, rules) == Move(Place.column(1), Place.cell(7))
    assert format_move(Move(Place.column(1), Place.cell(6)), position) == "2g"
    assert "k1" in {position.notation(m) for m in position.legal_moves(rules)}
    with pytest.raises(InvalidMoveError):
        parse_move("i1", position, rules)


def test_double_column_ten_is_0() -> None:
    rules = find_rules("double")
    assert column_char(9) == "0"
    position = _board(": 5H\n:\n:\n:\n:\n:\n:\n:\n:\n: 6S\n", rules)
    assert parse_move("10", position, rules) == Move(Place.column(0), Place.column(9))
    assert parse_move("0f", position, rules) == Move(Place.column(9), Place.cell(5))
    assert format_move(Move(Place.column(0), Place.column(9)), position) == "10"


def test_fc_solve_spelling_of_column_ten_is_read_too() -> None:
    rules = find_rules("double")
    position = _board(": 5H\n:\n:\n: 7C\n:\n:\n:\n:\n:\n: 6S\n", rules)
    assert parse_move("101", position, rules) == Move(Place.column(9), Place.column(0))
    assert parse_move("410", position, rules) == Move(Place.column(3), Place.column(9))
    assert parse_move("10c", position, rules) == Move(Place.column(9), Place.cell(2))
    assert parse_move("10", position, rules) == Move(Place.column(0), Place.column(9))  # ours: 1 to 10
    assert format_move(Move(Place.column(9), Place.column(0)), position) == "01"
    standard = find_rules("standard")
    with pytest.raises(IllegalMoveError, match="there is no column 10"):
        parse_move("101", _board(": 5H\n", standard), standard)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not a move: ''"),
        ("3", "not a move: '3'"),
        ("3x", "not a move: '3x'"),
        ("3a4", "not a move: '3a4'"),
        ("57v", "not a move: '57v'"),
        ("5-7", "not a move: '5-7'"),
        ("hx1", "not a move: 'hx1'"),
    ],
)
def test_bad_syntax_is_an_invalid_move_error(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        parse_move_text(text)
    assert str(error.value).startswith(message)


def test_places_that_do_not_exist_are_named() -> None:
    rules = find_rules("app", cells=2)
    position = _board(": 5H\n", rules)
    with pytest.raises(IllegalMoveError, match="there is no cell c \\(this table has 2\\)"):
        parse_move("1c", position, rules)
    with pytest.raises(IllegalMoveError, match="there is no column 9"):
        parse_move("19", position, rules)
    with pytest.raises(IllegalMoveError, match="there is no column 10"):
        parse_move("10", position, rules)
    with pytest.raises(IllegalMoveError, match="the source is empty"):
        parse_move("21", position, rules)


def test_split_moves_reads_fc_solve_output_as_it_is() -> None:
    text = (
        "-=-=-=-=-=-=-=-=-=-=-=-\n\n7a 7b 7c b7 1b\n71 7h, 83\n\nThis game is solveable.\n"
        "Total number of states checked is 4308.\nThis scan generated 4152 states.\n"
    )
    assert split_moves(text) == ["7a", "7b", "7c", "b7", "1b", "71", "7h", "83"]
