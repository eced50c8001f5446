"""Each preset's rules pinned with small prepared positions: what is legal, what is
refused, and the reason given."""

from __future__ import annotations

import dataclasses

import pytest

from freecell.cards import Card, parse_card
from freecell.position import IllegalMoveError, Move, Place, Position
from freecell.rules import FoundationReturn, Rules, find_rules


def _board(text: str, rules: Rules) -> Position:
    return Position.from_text(text, rules, partial=True)


def _cards(names: str) -> tuple[Card, ...]:
    return tuple(parse_card(name) for name in names.split())


def _why(position: Position, text: str, rules: Rules) -> str | None:
    """The reason a move written in notation is refused (None when it is legal)."""
    from freecell.notation import parse_move

    return position.why_illegal(parse_move(text, position, rules), rules)


def _moves(position: Position, rules: Rules) -> set[str]:
    return {position.notation(move) for move in position.legal_moves(rules)}


STANDARD = find_rules("standard")

# Column 1 ends in a red 5, column 2 in a black 6, column 3 in a red 6, column 4 in a
# black 7; cell a holds the ace of hearts; column 5 is empty.
BASIC = """
Foundations: H-0 C-0 D-0 S-0
Freecells: AH - - -
: 9C 5H
: 6S
: 6D
: 7C
:
"""


@pytest.mark.parametrize("name", ["standard", "supermove", "strict", "app", "cardems"])
def test_alternate_colour_building(name: str) -> None:
    rules = find_rules(name)
    position = _board(BASIC, rules)
    assert _why(position, "12", rules) is None  # 5H on 6S
    assert _why(position, "13", rules) == "5♥ cannot go on 6♦: a card goes on one rank higher in the other colour"
    assert _why(position, "14", rules) == "5♥ cannot go on 7♣: a card goes on one rank higher in the other colour"
    assert _why(position, "15", rules) is None  # any card fills an empty column
    assert _why(position, "a5", rules) is None
    assert _why(position, "ah", rules) is None
    assert _why(position, "1a", rules) == "cell a already holds A♥"
    assert _why(position, "1b", rules) is None


def test_foundations_take_a_suit_from_its_ace_up() -> None:
    position = _board("Foundations: H-1 C-0 D-0 S-0\n: 2H 3H\n: 2C\n: AS\n", STANDARD)
    assert _why(position, "1h", STANDARD) == "3♥ cannot go home yet: it needs the cards below it there first"
    assert _why(position, "2h", STANDARD) == "2♣ cannot go home yet: it needs the cards below it there first"
    assert _why(position, "3h", STANDARD) is None
    wrong_pile = Move(Place.column(2), Place.foundation(2))
    assert position.why_illegal(wrong_pile, STANDARD) == "A♠ does not belong on the hearts foundation"
    after = position.apply(Move(Place.column(2), Place.foundation(3)), STANDARD)
    assert after.foundations == (0, 0, 1, 1)  # piles in suit order C D H S


def test_refusals_that_every_preset_shares() -> None:
    position = _board(BASIC, STANDARD)
    assert position.why_illegal(Move(Place.column(0), Place.column(0)), STANDARD) == "a card must move to another place"
    assert position.why_illegal(Move(Place.column(4), Place.cell(1)), STANDARD) == "column 5 is empty"
    assert position.why_illegal(Move(Place.cell(1), Place.column(0)), STANDARD) == "cell b is empty"
    nowhere = "there is no such place on this table"
    assert position.why_illegal(Move(Place.column(8), Place.cell(1)), STANDARD) == nowhere
    assert position.why_illegal(Move(Place.column(0), Place.cell(4)), STANDARD) == nowhere
    assert position.why_illegal(Move(Place.column(0), Place.column(1), 0), STANDARD) == (
        "a move carries at least one card"
    )
    assert position.why_illegal(Move(Place.column(0), Place.column(4), 2), STANDARD) == (
        "the 2 cards at the bottom of column 1 are not an ordered run"
    )
    assert position.why_illegal(Move(Place.column(0), Place.cell(1), 2), STANDARD) == (
        "only one card at a time goes to a cell or a foundation"
    )
    with pytest.raises(IllegalMoveError, match="cell a already holds A♥"):
        position.apply(Move(Place.column(0), Place.cell(0)), STANDARD)


def test_foundation_cards_stay_under_the_one_way_presets() -> None:
    for name in ("standard", "strict", "supermove", "bakers-game", "eight-off", "double"):
        rules = find_rules(name)
        position = _board("Foundations: H-1 C-0 D-0 S-0\n: 2S\n", rules)
        assert _why(position, "hh1", rules) == "cards on the foundations stay there under these rules"
        assert not any(move.is_take_back for move in position.legal_moves(rules))


# --- standard and supermove: runs up to the capacity ---------------------------------

# Column 1 holds the run 9H 8S 7H 6S; column 2 ends in the black ten.
RUN_BOARD = """
Foundations: H-0 C-0 D-0 S-0
Freecells: KC KD - -
: 9H 8S 7H 6S
: TS
: 2D
: 2C
: 3D
: 3C
: 4D
: 4C
"""


@pytest.mark.parametrize("name", ["standard", "supermove"])
def test_a_run_over_capacity_is_refused_with_the_capacity(name: str) -> None:
    rules = find_rules(name)
    position = _board(RUN_BOARD, rules)
    assert position.capacity(rules, to_empty_column=False) == 3
    assert _why(position, "12", rules) == (
        "4 cards cannot move to another column: the capacity is 3 (2 empty cells + 1)"
    )
    assert position.max_movable(0, 1, rules) == 0
    freed = _board(RUN_BOARD.replace("KC KD - -", "KC - - -"), rules)
    assert _why(freed, "12", rules) is None
    assert Move(Place.column(0), Place.column(1), 4) in freed.legal_moves(rules)
    after = freed.apply(freed.parse_move("12", rules), rules)
    assert after.columns[:2] == ((), _cards("TS 9H 8S 7H 6S"))


def test_supermove_states_its_capacity_and_standard_does_not() -> None:
    assert find_rules("supermove").show_capacity
    assert not find_rules("standard").show_capacity


def test_an_ordered_run_moves_as_one_and_a_broken_one_does_not() -> None:
    position = _board(": 9H 8S 7S 6D\n: TC\n: 8H\n", STANDARD)
    # 7S 6D is a run; 7S on 8S is not
    assert position.run_length(0, STANDARD.building) == 2
    assert _why(position, "12", STANDARD) == "6♦ cannot go on 10♣: a card goes on one rank higher in the other colour"
    assert position.why_illegal(Move(Place.column(0), Place.column(1), 4), STANDARD) == (
        "the 4 cards at the bottom of column 1 are not an ordered run"
    )
    assert _why(position, "13", STANDARD) is None
    assert position.parse_move("13", STANDARD).count == 2


def test_a_whole_column_may_move_into_an_empty_column() -> None:
    position = _board(": 9H 8S 7H\n:\n: KC\n: KD\n: KH\n: KS\n: QC\n: QD\n", STANDARD)
    moves = [m for m in position.moves_from(Place.column(0), STANDARD) if m.target == Place.column(1)]
    assert [m.count for m in moves] == [1, 2, 3]
    assert position.apply(moves[-1], STANDARD).columns[:2] == ((), position.columns[0])


# --- strict: one card at a time ----------------------------------------------------------


def test_strict_lists_one_card_moves_and_expands_a_run_into_legal_steps() -> None:
    rules = find_rules("strict")
    position = _board(RUN_BOARD.replace("KC KD - -", "KC - - -"), rules)
    assert all(move.count == 1 for move in position.legal_moves(rules))
    move = position.parse_move("12", rules)
    assert move.count == 4
    steps = position.single_card_steps(move, rules)
    assert [position.notation(s) for s in steps] == ["1b", "1c", "1d", "12", "d2", "c2", "b2"]
    for step in steps:
        position = position.apply(step, rules)
    assert position.columns[1] == _cards("TS 9H 8S 7H 6S")


def test_strict_steps_use_empty_columns_as_the_formula_does() -> None:
    rules = find_rules("strict")
    # no free cell, two empty columns: capacity 4 to an occupied column
    board = "Freecells: KC KD KH KS\n: 9H 8S 7H 6S\n: TS\n:\n:\n: 2D\n: 2C\n: 3D\n: 3C\n"
    position = _board(board, rules)
    move = position.parse_move("12", rules)
    steps = position.single_card_steps(move, rules)
    assert [position.notation(s) for s in steps] == ["14", "13", "43", "14", "12", "42", "34", "32", "42"]
    for step in steps:
        position = position.apply(step, rules)
    assert position.columns[1] == _cards("TS 9H 8S 7H 6S")
    assert position.empty_columns == 3


def test_strict_steps_use_only_the_relays_they_need() -> None:
    rules = find_rules("strict")
    board = "Freecells: KC KD - -\n: 9H 8S 7H 6S 5H 4S\n: TS\n:\n:\n:\n:\n:\n:\n"
    position = _board(board, rules)
    steps = position.single_card_steps(position.parse_move("12", rules), rules)
    # 3 parked in column 3 through the cells, 3 moved through the cells, 3 brought back
    assert len(steps) == 15
    assert {s.target for s in steps} <= {Place.cell(2), Place.cell(3), Place.column(1), Place.column(2)}


def test_strict_steps_into_an_empty_column_do_not_use_it_as_a_relay() -> None:
    rules = find_rules("strict")
    # one free cell, columns 2 and 3 empty: 4 cards may go to column 2, relaying through column 3
    board = "Freecells: KC KD KH -\n: 9H 8S 7H 6S\n:\n:\n: 2D\n: 2C\n: 3D\n: 3C\n: 4D\n"
    position = _board(board, rules)
    assert position.capacity(rules, to_empty_column=True) == 4
    move = position.parse_move("12v4", rules)
    steps = position.single_card_steps(move, rules)
    assert [position.notation(s) for s in steps[:3]] == ["1d", "13", "d3"]
    for step in steps:
        position = position.apply(step, rules)
    assert position.columns[:3] == ((), _cards("9H 8S 7H 6S"), ())
    with pytest.raises(IllegalMoveError, match="the capacity is 4"):
        _board(board.replace("9H", "TS 9H"), rules).single_card_steps(Move(Place.column(0), Place.column(1), 5), rules)


def test_strict_refuses_a_run_over_capacity() -> None:
    rules = find_rules("strict")
    position = _board(RUN_BOARD, rules)
    with pytest.raises(IllegalMoveError, match="the capacity is 3"):
        position.single_card_steps(Move(Place.column(0), Place.column(1), 4), rules)


# --- building by suit ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["bakers-game", "eight-off"])
def test_building_by_suit(name: str) -> None:
    rules = find_rules(name)
    position = _board(": 5H\n: 6S\n: 6H\n", rules)
    assert _why(position, "13", rules) is None
    assert _why(position, "12", rules) == "5♥ cannot go on 6♠: a card goes on one rank higher of the same suit"
    runs = _board(": 8D 7H 6H\n: 8H\n: KC\n", rules)
    assert runs.run_length(0, rules.building) == 2
    assert runs.parse_move("12", rules).count == 2
    assert _why(runs, "12", rules) is None


# --- eight off ------------------------------------------------------------------------


def test_eight_off_kings_only_fill_an_empty_column_and_it_has_eight_cells() -> None:
    rules = find_rules("eight-off")
    position = _board("Freecells: - - - - - - - 5C\n: 5H\n: KH QH\n:\n", rules)
    assert len(position.cells) == 8
    assert _why(position, "13", rules) == "only a king may fill an empty column under these rules"
    assert _why(position, "k3", rules) == "only a king may fill an empty column under these rules"
    assert _why(position, "23", rules) == "only a king may fill an empty column under these rules"
    assert position.why_illegal(Move(Place.column(1), Place.column(2), 2), rules) is None
    assert _why(position, "1g", rules) is None
    assert "3" not in {text[-1] for text in _moves(position, rules) if text[0] == "1"}
    assert "23v2" in _moves(position, rules)


# --- double FreeCell -----------------------------------------------------------------


def test_double_has_two_piles_per_suit_and_a_tenth_column() -> None:
    rules = find_rules("double")
    position = _board(
        "Foundations: H-0 C-0 D-0 S-0 H-0 C-0 D-0 S-0\n: AH\n: AH\n: 2H\n:\n:\n:\n:\n:\n:\n: 3H\n", rules
    )
    assert (len(position.columns), len(position.cells), len(position.foundations)) == (10, 6, 8)
    position = position.apply(position.parse_move("1h", rules), rules)
    position = position.apply(position.parse_move("2h", rules), rules)
    assert position.foundations == (0, 0, 1, 0, 0, 0, 1, 0)
    position = position.apply(position.parse_move("3h", rules), rules)
    position = position.apply(position.parse_move("0h", rules), rules)
    assert sorted(position.foundations) == [0] * 6 + [1, 3]
    assert position.notation(Move(Place.column(9), Place.cell(5))) == "0f"


def test_double_takes_back_from_the_higher_pile_when_a_ruleset_allows_it() -> None:
    rules = dataclasses.replace(find_rules("double"), foundation_return=FoundationReturn.TO_TABLEAU)
    position = _board("Foundations: H-2 C-0 D-0 S-0 H-5 C-0 D-0 S-0\n: 6S\n", rules)
    assert position.card_at(Place.foundation(2)) == parse_card("5H")
    after = position.apply(position.parse_move("hh1", rules), rules)
    assert after.foundations == (0, 0, 2, 0, 0, 0, 4, 0)
    assert after.columns[0] == (parse_card("6S"), parse_card("5H"))


# --- take-backs: the app and Cardems ---------------------------------------------------


def test_the_app_takes_back_to_the_tableau_only() -> None:
    rules = find_rules("app")
    position = _board("Foundations: H-5 C-0 D-0 S-0\n: 6S\n: 6C\n:\n", rules)
    assert _why(position, "hh1", rules) is None
    assert _why(position, "hh3", rules) is None
    assert _why(position, "hha", rules) == "a foundation card may only come back to the tableau under these rules"
    assert _moves(position, rules) >= {"hh1", "hh2", "hh3"}
    assert not any(text.startswith("hh") and text[-1] in "abcd" for text in _moves(position, rules))
    after = position.apply(position.parse_move("hh1", rules), rules)
    assert after.foundations == (0, 0, 4, 0)


def test_cardems_takes_back_to_a_cell_or_the_tableau_where_accepted() -> None:
    rules = find_rules("cardems")
    position = _board("Foundations: H-5 C-0 D-0 S-0\nFreecells: KC - - -\n: 6S\n: 6H\n", rules)
    assert _why(position, "hhb", rules) is None
    assert _why(position, "hha", rules) == "cell a already holds K♣"
    assert _why(position, "hh2", rules) == "5♥ cannot go on 6♥: a card goes on one rank higher in the other colour"
    assert {"hh1", "hhb", "hhc", "hhd"} <= _moves(position, rules)


@pytest.mark.parametrize("cells", [4, 2, 1])
def test_the_app_is_played_with_4_2_or_1_cells(cells: int) -> None:
    rules = find_rules("app", cells=cells)
    assert len(_board(": 5H\n", rules).cells) == cells
    with pytest.raises(ValueError, match="app is played with 4, 2 or 1 cells, not 3"):
        find_rules("app", cells=3)


# --- keys and moves from a source ------------------------------------------------------


def test_the_key_merges_column_and_cell_orders() -> None:
    a = _board("Freecells: 5H - 6C -\n: KS\n: QD\n", STANDARD)
    b = _board("Freecells: - 6C - 5H\n: QD\n:\n: KS\n", STANDARD)
    assert a != b
    assert a.key() == b.key()
    assert a.key() != _board("Freecells: 5H\n: KS\n: QD 6C\n", STANDARD).key()


def test_moves_from_a_source_are_its_legal_moves() -> None:
    position = _board(BASIC, STANDARD)
    texts = sorted(position.notation(m) for m in position.moves_from(Place.cell(0), STANDARD))
    assert texts == ["a5", "a6", "a7", "a8", "ah"]  # a partial board has all 8 columns
    assert position.moves_from(Place.column(4), STANDARD) == []


def test_home_moves_are_the_cards_that_may_go_home_now() -> None:
    position = _board("Foundations: H-1\nFreecells: - 2H AS\n: 5C AC\n: 3H\n", STANDARD)
    assert [position.notation(m) for m in position.home_moves()] == ["1h", "bh", "ch"]
