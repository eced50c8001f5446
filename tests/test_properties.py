"""Invariants under random legal play, in every preset: the cards are conserved, the
table stays sane, undo restores the exact position and score, redo plays it again, the
legal moves are exactly the moves that the rules allow, and a line of texts played at once
(``WorkingTable.play_line``) does what parsing, checking and playing each in turn do."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.board_format import check_cards
from freecell.cards import KING, full_deck
from freecell.deals import Deal
from freecell.errors import InvalidInputError
from freecell.game import Game
from freecell.notation import CELL_CHARS, COLUMN_CHARS, SUIT_CHARS
from freecell.position import Move, Place, PlaceKind, Position, WorkingTable
from freecell.replay import ReplayError, replay
from freecell.rules import PRESETS, Building, EmptyColumns, FoundationReturn, Rules, SequenceMoves

PRESET_LIST = list(PRESETS.values())
EVERY_VARIANT = [rules.with_cells(cells) for rules in PRESET_LIST for cells in rules.cell_options]


def _assert_sane(position: Position, rules: Rules) -> None:
    """Every card is where it may be, and all of them are there exactly as often as the decks hold them."""
    check_cards(position, rules)
    assert len(position.columns) == rules.columns
    assert len(position.cells) == rules.cells
    assert len(position.foundations) == rules.foundation_count
    assert all(0 <= height <= KING for height in position.foundations)
    everything = Counter(position.cards())
    for pile, height in enumerate(position.foundations):
        everything.update(rank * 4 - 4 + pile % 4 for rank in range(1, height + 1))
    assert everything == Counter(full_deck(rules.decks))


def _every_candidate(position: Position) -> list[Move]:
    """Every move that names places on this table, each count a column could give."""
    sources = [Place.column(i) for i in range(len(position.columns))]
    sources += [Place.cell(i) for i in range(len(position.cells))]
    sources += [Place.foundation(suit) for suit in range(4)]
    targets = sources
    moves = []
    for source in sources:
        counts = range(1, len(position.columns[source.index]) + 1) if source.kind is PlaceKind.COLUMN else [1]
        for target in targets:
            moves.extend(Move(source, target, n) for n in counts)
    return moves


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(EVERY_VARIANT), st.integers(1, 32000), st.data())
def test_random_play_keeps_the_table_sane_and_undo_redo_exact(rules: Rules, number: int, data: st.DataObject) -> None:
    game = Game.new(Deal(rules, number))
    states = [(game.position, game.score)]  # after each action
    for _ in range(data.draw(st.integers(1, 60), label="moves")):
        moves = game.legal_moves()
        if not moves:
            break
        actions = game.play(data.draw(st.sampled_from(moves)))
        states += [(a.before, a.score_before) for a in actions[1:]] + [(game.position, game.score)]
        _assert_sane(game.position, rules)
        assert game.score >= 0
        if data.draw(st.booleans(), label="undo and redo"):
            game.undo()
            assert (game.position, game.score) == states[-2]
            game.redo()
            assert (game.position, game.score) == states[-1]
    actions_played = len(states) - 1
    undone = 0
    while game.can_undo:
        game.undo()
        undone += 1
    assert undone == min(actions_played, rules.undo_limit or actions_played)
    assert (game.position, game.score) == states[actions_played - undone]
    assert game.moves_made == actions_played - undone


def _reference_legal(position: Position, move: Move, rules: Rules) -> bool:
    """The rules of the seed documents written again, plainly, as an oracle for the engine."""
    columns, cells, piles = position.columns, position.cells, position.foundations
    source, target, count = move.source, move.target, move.count
    column, cell, home = PlaceKind.COLUMN, PlaceKind.CELL, PlaceKind.FOUNDATION

    def top_of_suit(suit: int) -> int:
        return max(piles[suit::4])

    if source == target or count < 1:
        return False
    if source.kind is column:
        held = list(columns[source.index])
    elif source.kind is cell:
        held = [] if cells[source.index] is None else [cells[source.index]]
    else:
        if rules.foundation_return is FoundationReturn.NEVER or top_of_suit(source.index) == 0:
            return False
        held = [(top_of_suit(source.index) - 1) * 4 + source.index]
    if len(held) < count:
        return False
    moving = held[-count:]
    alternate = rules.building is Building.ALTERNATE_COLOURS
    for lower, upper in zip(moving[1:], moving[:-1], strict=True):
        same_suit = lower % 4 == upper % 4
        red_lower, red_upper = lower % 4 in (1, 2), upper % 4 in (1, 2)
        fits = (red_lower != red_upper) if alternate else same_suit
        if lower // 4 + 1 != upper // 4 or not fits:
            return False
    base = moving[0]
    if target.kind is home:
        return count == 1 and base % 4 == target.index and any(h == base // 4 for h in piles[target.index :: 4])
    if target.kind is cell:
        allowed_source = source.kind is column or (
            source.kind is home and rules.foundation_return is FoundationReturn.TO_TABLEAU_OR_CELL
        )
        return count == 1 and allowed_source and cells[target.index] is None
    onto = columns[target.index]
    if onto:
        red_base, red_onto = base % 4 in (1, 2), onto[-1] % 4 in (1, 2)
        fits = (red_base != red_onto) if alternate else base % 4 == onto[-1] % 4
        if base // 4 + 1 != onto[-1] // 4 or not fits:
            return False
    elif rules.empty_columns is EmptyColumns.KINGS_ONLY and base // 4 != 12:
        return False
    if count == 1 or rules.sequence_moves is SequenceMoves.UNLIMITED:
        return True
    free = sum(c is None for c in cells)
    empty = sum(not c for c in columns) - (0 if onto else 1)
    if rules.empty_columns is EmptyColumns.KINGS_ONLY:
        empty = 0
    return count <= (free + 1) * 2**empty


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESET_LIST), st.integers(1, 32000), st.data())
def test_legal_moves_are_exactly_the_moves_the_rules_allow(rules: Rules, number: int, data: st.DataObject) -> None:
    position = Deal(rules, number).position()
    for _ in range(data.draw(st.integers(0, 50), label="moves")):
        listed = position.legal_moves(rules)
        assert len(listed) == len(set(listed))
        candidates = _every_candidate(position)
        allowed = {m for m in candidates if position.is_legal(m, rules)}
        assert allowed == {m for m in candidates if _reference_legal(position, m, rules)}
        if rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS:
            allowed = {m for m in allowed if m.count == 1}
        assert set(listed) == allowed
        assert position.has_legal_move(rules) == bool(listed)
        if not listed:
            break
        position = position.apply(data.draw(st.sampled_from(listed)), rules)


def _stacks(card: int, onto: int, rules: Rules) -> bool:
    if rules.building is Building.ALTERNATE_COLOURS:
        return card // 4 + 1 == onto // 4 and (card % 4 in (1, 2)) != (onto % 4 in (1, 2))
    return card // 4 + 1 == onto // 4 and card % 4 == onto % 4


def _crafted_position(rules: Rules, rng: random.Random) -> Position:
    """A partial position rich in what the rules must judge: runs, empty columns, free and
    full cells, and cards on the foundations to take back."""
    piles = tuple(rng.choice([0, 0, 1, 2, 3, 5]) for _ in range(rules.foundation_count))
    pool = Counter(full_deck(rules.decks))
    for pile, height in enumerate(piles):
        pool.subtract(rank * 4 - 4 + pile % 4 for rank in range(1, height + 1))
    pool = +pool

    def take(card: int) -> int:
        pool[card] -= 1
        if not pool[card]:
            del pool[card]
        return card

    columns = []
    for _ in range(rules.columns):
        column: list[int] = []
        if pool and rng.random() > 0.3:
            column = [take(rng.choice(sorted(pool))) for _ in range(rng.randint(0, 2)) if pool]
            if pool:
                column.append(take(rng.choice(sorted(pool))))
                for _ in range(rng.randint(0, 9)):
                    under = [c for c in sorted(pool) if _stacks(c, column[-1], rules)]
                    if not under:
                        break
                    column.append(take(rng.choice(under)))
        columns.append(tuple(column))
    cells = tuple(take(rng.choice(sorted(pool))) if pool and rng.random() < 0.4 else None for _ in range(rules.cells))
    return Position(tuple(columns), cells, piles)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(EVERY_VARIANT), st.randoms(use_true_random=False))
def test_the_engine_agrees_with_a_plain_reading_of_the_rules(rules: Rules, rng: random.Random) -> None:
    position = _crafted_position(rules, rng)
    candidates = _every_candidate(position)
    allowed = {m for m in candidates if _reference_legal(position, m, rules)}
    assert {m for m in candidates if position.is_legal(m, rules)} == allowed
    # the reasons a player reads tell the same moves apart (is_legal asks for none)
    assert {m for m in candidates if position.why_illegal(m, rules) is None} == allowed
    if rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS:
        allowed = {m for m in allowed if m.count == 1}
    assert set(position.legal_moves(rules)) == allowed


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["strict", "standard", "bakers-game"]), st.integers(1, 32000), st.data())
def test_single_card_steps_end_where_the_run_moved_as_one(name: str, number: int, data: st.DataObject) -> None:
    rules = PRESETS[name]
    runs_as_one = PRESETS["standard"] if name == "strict" else rules  # lists the runs strict plays as steps
    position = Deal(rules, number).position()
    for _ in range(data.draw(st.integers(0, 60), label="moves")):
        for move in position.legal_moves(runs_as_one):
            if move.count > 1 and position.is_legal(move, rules):
                steps = position.single_card_steps(move, rules)
                assert all(step.count == 1 for step in steps)
                walked = position
                for step in steps:
                    walked = walked.apply(step, rules)
                assert walked == position.apply(move, rules)
                assert replay(position, rules, [position.notation(move)]) == walked
        listed = position.legal_moves(rules)
        if not listed:
            break
        position = position.apply(data.draw(st.sampled_from(listed)), rules)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(EVERY_VARIANT), st.randoms(use_true_random=False))
def test_a_working_table_judges_and_plays_every_move_as_a_position_does(rules: Rules, rng: random.Random) -> None:
    position = _crafted_position(rules, rng)
    for move in _every_candidate(position):
        table = WorkingTable(position)
        reason = position.why_illegal(move, rules)
        assert table.why_illegal(move, rules) == reason
        if reason is None:
            table.play(move)
            assert table.position() == position.apply_unchecked(move)


def _texts(position: Position) -> list[str]:
    """Move texts of every form on this table, legal or not: each source (a column, a cell,
    a foundation's suit, and places the table lacks) to each target, with no count, each
    count its columns could give, a count of 0; a few misspelt."""
    sources = [*COLUMN_CHARS, "10", *CELL_CHARS, *(f"h{suit}" for suit in SUIT_CHARS), "h"]
    targets = [*COLUMN_CHARS, "10", *CELL_CHARS, "h"]
    counts = ["", "v0", "v1", "v2", "v3", "vd"]
    texts = [source + target + count for source in sources for target in targets for count in counts]
    return [*texts, "3H", " 3h ", "38 ", "3x", "", "hsh3"]


def _played(position: Position, rules: Rules, texts: list[str], *, as_a_line: bool) -> tuple[object, ...]:
    """The first of ``texts`` that is not played (its number, the text and the reason) or
    None, and the table after: played as a line, or each parsed, checked and played."""
    table = WorkingTable(position)
    if as_a_line:
        try:
            table.play_line(texts, rules)
        except ReplayError as error:
            return (error.number, error.text, error.reason), table.position()
        return None, table.position()
    for number, text in enumerate(texts, start=1):
        try:
            table.play(table.parse_move(text, rules))
        except InvalidInputError as error:
            return (number, text, str(error)), table.position()
    return None, table.position()


# Each example plays every one of _texts (some 4,400 on a table) three times: 50 tables,
# new ones each run, give each preset several.
@settings(max_examples=50, deadline=None)
@given(st.sampled_from(PRESET_LIST), st.randoms(use_true_random=False))
def test_a_text_played_in_a_line_is_parsed_judged_and_played_as_alone(rules: Rules, rng: random.Random) -> None:
    rules = rules.with_cells(rng.choice(rules.cell_options))
    position = _crafted_position(rules, rng)
    for text in _texts(position):
        expected = _played(position, rules, [text], as_a_line=False)
        assert _played(position, rules, [text], as_a_line=True) == expected, text
        assert _played(position, rules, [text], as_a_line=True) == expected, text  # its form now known


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PRESET_LIST), st.randoms(use_true_random=False))
def test_a_line_stops_at_its_first_bad_move_as_move_by_move_play_does(rules: Rules, rng: random.Random) -> None:
    rules = rules.with_cells(rng.choice(rules.cell_options))
    runs_as_one = PRESETS["standard"] if rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS else rules
    position = _crafted_position(rules, rng)
    texts: list[str] = []
    walked = position
    for _ in range(rng.randint(1, 40)):  # legal moves of every kind, runs too, and now and then any text
        legal = [move for move in walked.legal_moves(runs_as_one) if walked.is_legal(move, rules)]
        if not legal or rng.random() < 0.05:
            texts.append(rng.choice(_texts(walked)))
            break
        move = rng.choice(legal)
        texts.append(walked.notation(move))
        walked = walked.apply(move, rules)
    expected = _played(position, rules, texts, as_a_line=False)
    assert _played(position, rules, texts, as_a_line=True) == expected
    assert _played(position, rules, texts, as_a_line=True) == expected  # the texts' forms now known
