"""The move calculator (003): the whole table of 001 and the worked examples of 002/003."""

from __future__ import annotations

import dataclasses

import pytest

from freecell.cards import Card, is_red, parse_card
from freecell.position import Move, Place, Position
from freecell.rules import Rules, SequenceMoves, find_rules

STANDARD = find_rules("standard")

# A 13-card run in alternating colours, king at the bottom, ace exposed.
RUN = tuple(map(parse_card, ("KS", "QH", "JC", "TD", "9S", "8H", "7C", "6D", "5S", "4H", "3C", "2D", "AS")))


def _fits_exactly(n: int) -> Card:
    """A card that the n-th card from the exposed end of RUN fits on, and nothing shorter."""
    base = RUN[-n]
    return next(c for c in range(52) if c >> 2 == n and is_red(c) != is_red(base) and c not in RUN)


def _table(empty_cells: int, empty_columns: int, *, target: Card | None, rules: Rules = STANDARD) -> Position:
    """Column 1 holds RUN; column 2 is the target (``None`` for an empty one); then
    ``empty_columns`` other empty columns; the other columns and the used cells hold
    cards that take no part."""
    used = set(RUN) | ({target} if target is not None else set())
    fillers = iter(c for c in range(52) if c not in used and c >> 2 >= 8)  # nines and up
    columns: list[tuple[Card, ...]] = [RUN, () if target is None else (target,)]
    columns += [()] * empty_columns
    while len(columns) < rules.columns:
        columns.append((next(fillers),))
    cells = [None] * empty_cells + [next(fillers) for _ in range(rules.cells - empty_cells)]
    return Position(tuple(columns), tuple(cells), (0,) * rules.foundation_count)


# 001's table: rows are free cells 0..4; columns are (to an occupied column with 0, 1, 2
# empty columns) and (to an empty column with 1, 2 empty in total).
TABLE_001 = {
    0: (1, 2, 4, 1, 2),
    1: (2, 4, 8, 2, 4),
    2: (3, 6, 12, 3, 6),
    3: (4, 8, 16, 4, 8),
    4: (5, 10, 20, 5, 10),
}


@pytest.mark.parametrize("free_cells", sorted(TABLE_001))
def test_the_whole_table_of_001(free_cells: int) -> None:
    row = TABLE_001[free_cells]
    occupied = [_table(free_cells, empty, target=_fits_exactly(1)) for empty in (0, 1, 2)]
    to_empty = [_table(free_cells, total - 1, target=None) for total in (1, 2)]
    got = tuple(p.capacity(STANDARD, to_empty_column=False) for p in occupied) + tuple(
        p.capacity(STANDARD, to_empty_column=True) for p in to_empty
    )
    assert got == row
    # the calculator agrees: the whole 13-card run is cut down to the capacity
    assert [p.max_movable(0, 1, STANDARD) for p in to_empty] == [min(13, n) for n in row[3:]]


@pytest.mark.parametrize(("free_cells", "empty_columns"), [(f, e) for f in range(5) for e in range(3)])
def test_a_run_that_fits_moves_up_to_the_capacity_and_no_further(free_cells: int, empty_columns: int) -> None:
    capacity = TABLE_001[free_cells][empty_columns]
    # no card takes the king, so the longest run that can fit has 12 cards
    longest = _table(free_cells, empty_columns, target=_fits_exactly(min(capacity, 12)))
    assert longest.max_movable(0, 1, STANDARD) == min(capacity, 12)
    if capacity < 12:
        too_long = _table(free_cells, empty_columns, target=_fits_exactly(capacity + 1))
        assert too_long.max_movable(0, 1, STANDARD) == 0
        reason = too_long.why_illegal(Move(Place.column(0), Place.column(1), capacity + 1), STANDARD)
        assert reason is not None and f"the capacity is {capacity}" in reason


def test_002_four_empty_cells_and_no_empty_column_move_five() -> None:
    position = _table(4, 0, target=_fits_exactly(5))
    assert position.max_movable(0, 1, STANDARD) == 5
    assert position.is_legal(Move(Place.column(0), Place.column(1), 5), STANDARD)


def test_002_one_empty_cell_and_one_usable_empty_column_move_four() -> None:
    position = _table(1, 1, target=_fits_exactly(4))
    assert position.max_movable(0, 1, STANDARD) == 4
    assert position.capacity(STANDARD, to_empty_column=False) == 4


def test_003_two_cells_and_one_other_empty_column_six_to_occupied_three_to_empty() -> None:
    occupied = _table(2, 1, target=_fits_exactly(6))
    assert occupied.max_movable(0, 1, STANDARD) == 6
    # onto an empty destination, that same column is the landing place, not a relay
    to_empty = _table(2, 0, target=None)
    assert to_empty.empty_columns == 1
    assert to_empty.capacity(STANDARD, to_empty_column=True) == 3
    assert to_empty.max_movable(0, 1, STANDARD) == 3
    assert to_empty.why_illegal(Move(Place.column(0), Place.column(1), 4), STANDARD) == (
        "4 cards cannot move to an empty column: the capacity is 3 (2 empty cells + 1)"
    )


def test_the_source_column_does_not_count_though_the_run_empties_it() -> None:
    # the whole of column 1 is a run of 3; one free cell and no other empty column
    run = tuple(parse_card(n) for n in ("9S", "8H", "7C"))
    target = parse_card("TD")
    columns = [run, (target,)] + [(parse_card(n),) for n in ("2C", "2D", "2H", "2S", "3C", "3D")]
    position = Position(tuple(columns), (None, parse_card("4C"), parse_card("4D"), parse_card("4H")), (0, 0, 0, 0))
    assert position.capacity(STANDARD, to_empty_column=False) == 2
    assert position.max_movable(0, 1, STANDARD) == 0
    reason = position.why_illegal(Move(Place.column(0), Place.column(1), 3), STANDARD)
    assert reason == "3 cards cannot move to another column: the capacity is 2 (1 empty cell + 1)"


@pytest.mark.parametrize(("cells", "capacity"), [(4, 5), (2, 3), (1, 2)])
def test_removed_cells_count_for_nothing_in_the_app(cells: int, capacity: int) -> None:
    rules = find_rules("app", cells=cells)
    position = _table(cells, 0, target=_fits_exactly(1), rules=rules)
    assert len(position.cells) == cells
    assert position.capacity(rules, to_empty_column=False) == capacity
    assert position.max_movable(0, 1, rules) == 1


def test_kings_only_empty_columns_are_no_relay_and_take_only_a_king_headed_run() -> None:
    rules = find_rules("eight-off")
    # eight-off builds by suit: a run of hearts K..9 in column 1, with columns 2 and 3 empty
    run = tuple(parse_card(n) for n in ("KH", "QH", "JH", "TH", "9H"))
    columns = [run, (), ()] + [(parse_card(n),) for n in ("2C", "2D", "2S", "3C", "3D")]
    cells = (None, None) + tuple(parse_card(n) for n in ("4C", "4D", "4S", "5C", "5D", "5S"))
    position = Position(tuple(columns), cells, (0, 0, 0, 0))
    assert position.capacity(rules, to_empty_column=True) == 3
    assert position.capacity(rules, to_empty_column=False) == 3
    # the longest run that fits is 3 cards, but it would start with the jack: only the
    # whole run headed by the king may go, and that is over capacity
    assert position.max_movable(0, 1, rules) == 0
    three = Position(((run[2:]),) + position.columns[1:], cells, (0, 0, 0, 0))
    assert three.max_movable(0, 1, rules) == 0
    kings = Position(((parse_card("8H"),) + run[:3],) + position.columns[1:], cells, (0, 0, 0, 0))
    assert kings.max_movable(0, 1, rules) == 3
    assert kings.why_illegal(Move(Place.column(0), Place.column(1), 2), rules) == (
        "only a king may fill an empty column under these rules"
    )


def test_unlimited_sequence_moves_have_no_capacity_limit() -> None:
    rules = dataclasses.replace(STANDARD, sequence_moves=SequenceMoves.UNLIMITED)
    position = _table(0, 0, target=None)
    assert position.max_movable(0, 1, rules) == 13
