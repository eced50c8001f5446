"""Invariants under random legal play, in every preset: the cards are conserved, the
table stays sane, undo restores the exact position and score, redo plays it again, and
the legal moves are exactly the moves that the rules allow."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.board_format import check_cards
from freecell.cards import KING, full_deck
from freecell.deals import Deal
from freecell.game import Game
from freecell.position import Move, Place, PlaceKind, Position
from freecell.rules import PRESETS, Rules, SequenceMoves

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


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(PRESET_LIST), st.integers(1, 32000), st.data())
def test_legal_moves_are_exactly_the_moves_the_rules_allow(rules: Rules, number: int, data: st.DataObject) -> None:
    position = Deal(rules, number).position()
    for _ in range(data.draw(st.integers(0, 50), label="moves")):
        listed = position.legal_moves(rules)
        assert len(listed) == len(set(listed))
        allowed = {m for m in _every_candidate(position) if position.is_legal(m, rules)}
        if rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS:
            allowed = {m for m in allowed if m.count == 1}
        assert set(listed) == allowed
        assert position.has_legal_move(rules) == bool(listed)
        if not listed:
            break
        position = position.apply(data.draw(st.sampled_from(listed)), rules)


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
        listed = position.legal_moves(rules)
        if not listed:
            break
        position = position.apply(data.draw(st.sampled_from(listed)), rules)
