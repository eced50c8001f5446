"""Freecell Solver's board format: read and written, mid-game positions included, and a
clear error for every malformed board."""

from __future__ import annotations

from pathlib import Path

import pytest

from freecell.board_format import LayoutMismatchError, check_cards, format_board, parse_board
from freecell.cards import card_name, parse_card
from freecell.deals import Deal
from freecell.game import Game
from freecell.position import InvalidPositionError, Position
from freecell.rules import PRESETS, Rules, find_rules

STANDARD = find_rules("standard")


@pytest.mark.parametrize("rules", list(PRESETS.values()), ids=lambda r: r.name)
def test_every_preset_deal_round_trips(rules: Rules) -> None:
    for number in (1, 617, 2**32 + 1):
        position = Deal(rules, number).position()
        assert parse_board(format_board(position), rules) == position
        assert Position.from_text(position.to_text(), rules) == position


def test_deal_617_is_written_as_fc_solve_writes_it() -> None:
    text = Deal(STANDARD, 617).position().to_text()
    assert text.splitlines()[:3] == ["Foundations: H-0 C-0 D-0 S-0", "Freecells: - - - -", ": 7D TD TH KD 4C 4S JD"]
    assert text.endswith(": AH KH TC JS 2S QH\n")


def test_a_mid_game_position_round_trips_with_foundations_and_cells() -> None:
    game = Game.new(Deal(STANDARD, 617))
    opening = "7a 7b 7c b7 1b 71 7h 83 8h 4d 46 83 48 74 b7 2b 27 a2 82 8a 8h d8 48 4d 4h 1h"  # fc-solve's
    for move in opening.split():
        game.play(move)
    position = game.position
    text = position.to_text()
    assert text.splitlines()[0] == "Foundations: H-1 C-2 D-0 S-2"
    assert position.empty_cells == 0 and position.cards_home == 5
    assert parse_board(text) == position


def test_double_deck_foundations_and_tenth_column_round_trip() -> None:
    rules = find_rules("double")
    text = "Foundations: H-2 C-0 D-0 S-0 H-5 C-0 D-0 S-K\nFreecells: AD - - - - AD\n: 3H\n" + ":\n" * 8 + ": 6H\n"
    position = parse_board(text, rules, partial=True)
    assert position.foundations == (0, 0, 2, 0, 0, 0, 5, 13)
    assert position.columns[9] == (parse_card("6H"),)
    assert parse_board(format_board(position), rules, partial=True) == position


def test_the_reader_accepts_what_other_tools_write() -> None:
    text = "# a comment\nfoundations: h-a s-10 c-0 d-\nfree cells: 5C\nKS QH\n:\n: JC\n"
    position = parse_board(text, STANDARD, partial=True)
    assert position.foundations == (0, 0, 1, 10)
    assert position.cells == (parse_card("5C"), None, None, None)
    assert [[card_name(c) for c in column] for column in position.columns[:3]] == [["KS", "QH"], [], ["JC"]]


def test_full_boards_need_every_card_once() -> None:
    board = Deal(STANDARD, 1).position().to_text()
    missing = board.replace(" JD", "", 1)
    with pytest.raises(InvalidPositionError, match=r"^1 card missing: J♦$"):
        parse_board(missing)
    assert parse_board(missing, partial=True).cards_home == 0  # partial boards only when asked
    duplicated = board.replace("Freecells: - - - -", "Freecells: JD - - -")
    with pytest.raises(InvalidPositionError, match=r"^cards there more than once: J♦$"):
        parse_board(duplicated)
    with pytest.raises(InvalidPositionError, match="cards there more than once: J♦"):
        parse_board(duplicated, partial=True)
    home_twice = board.replace("H-0", "H-2")
    with pytest.raises(InvalidPositionError, match="cards there more than once: A♥, 2♥"):
        parse_board(home_twice)
    two_short = board.replace(" JD", "", 1).replace(" 2D", "", 1)
    with pytest.raises(InvalidPositionError, match="2 cards missing: 2♦, J♦"):
        parse_board(two_short)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (": 5H ZZ\n", "line 1: not a card: 'ZZ'"),
        ("Freecells: 5X\n", "line 1: not a card: '5X'"),
        ("Freecells: 5H 6H 7H 8H 9H\n", "5 cards in cells, but standard has only 4 cells"),
        ("\n".join([": 5H"] * 9), "laid out in 9 columns, but standard has only 8"),
        ("Foundations: H-0\nFoundations: C-0\n", "line 2: a second Foundations line"),
        ("Freecells: -\nFreecells: -\n", "line 2: a second Freecells line"),
        ("Foundations: X-3\n", "line 1: not a foundation: 'X-3'"),
        ("Foundations: H-14\n", "line 1: not a foundation: 'H-14' (write the suit and its top rank, like 'H-5')"),
        ("Foundations: H3\n", "line 1: not a foundation: 'H3'"),
        ("Foundations: H-²\n", "line 1: not a foundation: 'H-²'"),  # a digit, but not one of 0 to 9
        pytest.param("Foundations: H-" + "9" * 5000 + "\n", "line 1: not a foundation: 'H-999", id="5000-digits"),
        ("Foundations: H-3 H-4\n", "laid out with 2 decks, but standard is played with one deck: it looks like double"),
        ("Foundations: H-3 H-4 H-5\n", "line 1: too many H foundations"),
    ],
)
def test_malformed_boards_get_an_error_that_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError) as error:
        parse_board(text, STANDARD, partial=True)
    assert str(error.value).startswith(message)


@pytest.mark.parametrize(
    ("board", "chosen", "message", "looks_like"),
    [
        (("eight-off", None), ("standard", None), "laid out with 8 cells, but standard has at most 4",
         ("eight-off", 8)),
        (("double", None), ("standard", None), "laid out with 2 decks, but standard is played with one deck",
         ("double", 6)),
        (("standard", None), ("double", None), "laid out with one deck, but double is played with 2 decks",
         ("standard", 4)),
        (("eight-off", None), ("app", 2), "4 cards in cells, but app has only 2 cells", ("eight-off", 8)),
        (("617-after-46", None), ("app", 1), "2 cards in cells, but app has only 1 cell", ("app", 4)),
    ],
)
def test_a_board_laid_out_for_other_rules_is_refused_naming_them(
    board: tuple[str, int | None], chosen: tuple[str, int | None], message: str, looks_like: tuple[str, int]
) -> None:
    """``deal 617 --rules eight-off | solve -`` must not be solved under standard rules:
    a board never fits rules with fewer cells or columns or other decks, even where the
    cards it has would fit."""
    if board[0] in PRESETS:
        text = Deal(find_rules(board[0], cells=board[1]), 617).position().to_text()
    else:
        text = (Path(__file__).parent / "data" / "boards" / f"{board[0]}.txt").read_text()
    with pytest.raises(LayoutMismatchError) as error:
        parse_board(text, find_rules(chosen[0], cells=chosen[1]))
    assert str(error.value).startswith(message + ": it looks like ")
    assert (error.value.looks_like[0].name, error.value.looks_like[0].cells) == looks_like
    app = find_rules("app", cells=1)
    with pytest.raises(InvalidPositionError, match="2 cards in cells, but app has only 1 cell"):
        parse_board("Freecells: 5H 6H\n", app, partial=True)


def test_far_too_many_cards_are_named_not_taken_for_decks() -> None:
    with pytest.raises(InvalidPositionError) as error:
        parse_board(": " + "AS " * 1000 + "\n", STANDARD)
    assert not isinstance(error.value, LayoutMismatchError)
    assert str(error.value).startswith("cards there more than once: A♠")


def test_cells_beyond_the_rules_are_fine_while_they_are_empty() -> None:
    """Up to as many as the ruleset can be played with: a 4-cell board under app with 2."""
    position = parse_board("Freecells: - 5H - -\n: 6S\n", find_rules("app", cells=1), partial=True)
    assert position.cells == (parse_card("5H"),)


def test_a_board_of_fewer_cells_or_columns_than_the_rules_fits() -> None:
    position = parse_board("Freecells: 5H -\n: 6S\n", STANDARD, partial=True)
    assert position.cells == (parse_card("5H"), None, None, None)
    assert len(position.columns) == 8
    assert parse_board("Freecells: 5H 6H\n: 5S\n", find_rules("double"), partial=True).cells[:2] == (
        parse_card("5H"), parse_card("6H"))


def test_check_cards_counts_the_foundations_too() -> None:
    with pytest.raises(InvalidPositionError, match="more than once: 2♠"):
        parse_board("Foundations: S-2\n: 2S\n", STANDARD, partial=True)
    eight_off = Deal(find_rules("eight-off"), 617).position()
    check_cards(eight_off, find_rules("eight-off"))


# A board as fc-solve prints it (``fc-solve -s -i -p -t``): empty cells are blanks in a
# layout of four characters per cell, and lines may end in a space.
FC_SOLVE_PRINTED = "Foundations: H-2 C-0 D-0 S-0 \n" + """\
Freecells:          2S  KC
: AD 7S QC 5H QS TS KS QH JS
: 2D AS 3D 4D 2C JH TC 4H KH
: 3S AC 9D 3C 9H 5D 4S
: 5C QD 3H 9S 9C
: 5S 6D 6S 8S 7C JC
: 7D TD TH KD 4C
: 8C 8H 8D 7H 6H 6C
: JD
"""


def test_boards_as_fc_solve_prints_them_keep_each_cell_in_its_place() -> None:
    position = parse_board(FC_SOLVE_PRINTED)
    assert position.cells == (None, None, parse_card("2S"), parse_card("KC"))
    assert position.foundations == (0, 0, 2, 0)
    assert parse_board(format_board(position)) == position
    full = parse_board(FC_SOLVE_PRINTED.replace("Freecells:          2S  KC", "Freecells:  2S  4H  KC  KD")
                       .replace("TC 4H KH", "TC KH").replace("KD 4C", "4C"))
    assert [card_name(card) for card in full.cells if card is not None] == ["2S", "4H", "KC", "KD"]


def test_a_card_written_in_place_of_another_names_both() -> None:
    board = Deal(STANDARD, 1).position().to_text()
    assert " KD" in board
    swapped = board.replace(" KD", " JD", 1)
    with pytest.raises(InvalidPositionError, match=r"^cards there more than once: J♦; 1 card missing: K♦$"):
        parse_board(swapped)
