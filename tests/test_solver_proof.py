"""Proofs: the cards a proof sends home by itself (under take-back rules, the cards that
never need to come back), checked against a brute force over the public rules engine
(``Position.legal_moves``, take-backs included), which shares no code with the solver's
problem."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.test_solver import _small_rules, assert_wins, board, deal_out, draw_small_table, winnable

from freecell import Deal, find_rules
from freecell.cards import parse_card
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveStatus, losses, solve
from freecell.solver import board as board_module
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst, SpilledKeys
from freecell.solver.handover import proof_fits, proof_reserve
from freecell.solver.plan import PROOF_TIME_SHARE, TIGHT_FINAL, TIGHT_HANDOVER, TWO_CELL_FINAL, plan_for
from freecell.solver.search import BYTES_PER_POSITION, Alternating, BestFirst, Budget, InstrumentedProblem, SearchEnd
from freecell.solver.steps import CELL, FUSED, HOME, State, Step, Steps, cards_in_cells, fused_moves, step_cost
from freecell.solver.take_backs import FUSED_WAYS_MOST
from freecell.solver.transcript import write_moves


def _proof(start: Position, rules: Rules) -> SearchEnd:
    """A depth-first search over the exhaustive problem, run to its end."""
    problem = FreeCellProblem(rules, complete=rules.takes_back)
    state, _ = problem.initial(start)
    run = DepthFirst(problem, state).run(Budget(SearchLimit()))
    assert run.outcome is not SearchEnd.LIMIT
    return run.outcome


@st.composite
def end_games(draw: st.DrawFn) -> tuple[Position, Rules]:
    """A small table late in a game, where cards home are many and take-backs count."""
    return draw_small_table(draw, ["app", "cardems"], lowest_home=3)


@settings(max_examples=250, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(end_games())
def test_the_exhaustive_problem_wins_exactly_where_brute_force_does(table: tuple[Position, Rules]) -> None:
    """Run to its end, a search over the exhaustive problem (settled cards sent home by
    themselves and never taken back) finds a win exactly when the brute force over every
    legal move, take-backs included, does: its reductions lose no win."""
    start, rules = table
    assert (_proof(start, rules) is SearchEnd.FOUND) == winnable(start, rules)


@st.composite
def take_back_end_games(draw: st.DrawFn) -> tuple[Position, Rules]:
    """A small table under take-back rules where the two suits of one colour are low,
    with their next cards in play, and the other two high: the cards in play may need
    cards of the other colour back from their piles to lie on."""
    name = draw(st.sampled_from(["app", "cardems"]))
    rules = _small_rules(name, columns=draw(st.integers(2, 3)), cells=draw(st.integers(0, 1)))
    low_suits = draw(st.sampled_from([(0, 3), (1, 2)]))  # clubs and spades, or diamonds and hearts
    base = draw(st.integers(0, 6))
    foundations = []
    cards = []
    for suit in range(4):
        if suit in low_suits:
            height = base + draw(st.integers(0, 1))
            top = min(13, height + draw(st.integers(2, 5)))
        else:
            height = draw(st.integers(base + 3, 13))
            top = min(13, height + draw(st.integers(0, 1)))
        foundations.append(height)
        cards += [(rank - 1) * 4 + suit for rank in range(height + 1, top + 1)]
    return deal_out(draw, rules, cards, foundations), rules


@settings(max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(take_back_end_games())
def test_fused_take_backs_win_exactly_where_brute_force_does(table: tuple[Position, Rules]) -> None:
    """Where cards must come back to hold others, the exhaustive problem (fused
    take-backs, cards that could come back sent home by themselves) finds a win exactly
    when the brute force over every legal move does."""
    start, rules = table
    assert (_proof(start, rules) is SearchEnd.FOUND) == winnable(start, rules)


@st.composite
def one_way_end_games(draw: st.DrawFn) -> tuple[Position, Rules]:
    """A small table where foundation cards never come back, building in alternate
    colours, the piles within a rank or two of each other and the next few cards of
    each pile in play: where a card may go home safely before every card that could lie
    on it has (see :mod:`freecell.solver.board`), and with two decks, where the two
    copies of a card may want the same pile."""
    name = draw(st.sampled_from(["standard", "strict", "supermove", "double"]))
    rules = _small_rules(name, columns=draw(st.integers(2, 4)), cells=draw(st.integers(0, 1)))
    base = draw(st.integers(0, 9))
    foundations = [base + draw(st.integers(0, 2)) for _ in range(rules.foundation_count)]
    cards = [
        rank * 4 + (pile & 3)
        for pile, height in enumerate(foundations)
        for rank in range(height, min(13, height + draw(st.integers(1, 5 - rules.decks))))
    ]
    return deal_out(draw, rules, cards, foundations), rules


# 500 examples: fewer let a rule that waits for the black r - 3s, not r - 2s, pass.
@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(one_way_end_games())
def test_cards_sent_home_once_those_that_could_lie_on_them_could_go_home_lose_no_win(
    table: tuple[Position, Rules],
) -> None:
    start, rules = table
    assert (_proof(start, rules) is SearchEnd.FOUND) == winnable(start, rules)


# Two decks, 3 cells, 2 columns (cards as numbers: rank - 1 times 4, plus the suit): only
# by breaking an ordered run is each won. Found by a random search over such tables.
_WON_BY_BREAKING_A_RUN = [
    (((20, 20, 21, 34, 28, 38, 25), (30, 29, 24, 23, 26, 31, 22)), (None, None, None), (5, 7, 5, 5, 5, 5, 7, 7)),
    (((22, 23, 29, 24, 29, 25), (26, 25, 20, 19, 20, 33, 33, 24, 27)), (31, None, None), (5, 6, 6, 5, 5, 6, 5, 4)),
]


@pytest.mark.parametrize(("columns", "cells", "foundations"), _WON_BY_BREAKING_A_RUN)
def test_with_two_decks_the_last_search_keeps_runs_whole_and_claims_no_loss_for_it(
    columns: tuple[tuple[int, ...], ...], cells: tuple[int | None, ...], foundations: tuple[int, ...]
) -> None:
    """With two decks the last search moves ordered runs whole only (see
    ``plan.TWO_DECK_FINAL``). Where it runs out of positions the deal may still be
    won by breaking a run: the solver goes on over every move, and wins. With three cells
    (fewer make a tight game, which keeps runs whole nowhere) and no quick search before
    it, as on a deal where none wins."""
    rules = _small_rules("double", columns=2, cells=3)
    start = Position(columns, cells, foundations)
    whole_runs = FreeCellProblem(rules, complete=False, whole_runs=True)
    state, _ = whole_runs.initial(start)
    assert DepthFirst(whole_runs, state).run(Budget(SearchLimit())).outcome is SearchEnd.EXHAUSTED
    assert winnable(start, rules)
    result = solve(start, rules, limit=SearchLimit(seconds=30), plan=dataclasses.replace(plan_for(rules), portfolio=()))
    assert result.status is SolveStatus.SOLVED
    assert_wins(start, rules, result.moves)


@pytest.mark.parametrize(
    ("foundations", "safe"),
    [
        # Piles C D H S. The 5H: both black piles hold 3 (each black 4 may go home when it
        # moves) and the diamonds 2 (the 3D may too).
        ((3, 2, 4, 3), True),
        ((4, 0, 4, 4), True),  # both black 4s home: nothing could lie on it
        ((3, 1, 4, 3), False),  # the 3D could not go home, and may need a black 4
        ((2, 2, 4, 3), False),  # nor could the 3C, which may need the 5H
    ],
)
def test_a_card_goes_home_safely_when_what_could_lie_on_it_could_go_home(
    foundations: tuple[int, ...], safe: bool
) -> None:
    five_of_hearts = 4 * 4 + 2
    for name in ("standard", "strict", "supermove"):
        ready, sent = FreeCellProblem(find_rules(name), complete=False).homeward_cards(bytes(foundations))
        assert ready[five_of_hearts] == 1
        assert sent[five_of_hearts] == safe


def test_under_take_back_rules_a_proof_keeps_to_the_settled_cards() -> None:
    five_of_hearts = 4 * 4 + 2
    app = FreeCellProblem(find_rules("app"), complete=True)
    assert not app.homeward_cards(bytes((3, 2, 4, 3)))[1][five_of_hearts]


def test_with_two_decks_a_card_waits_until_the_other_copy_has_a_pile_too() -> None:
    """Piles C D H S C D H S: with the second hearts pile at 2, the 5H going home would
    take the one pile the other 5H may need."""
    five_of_hearts = 4 * 4 + 2
    double = FreeCellProblem(find_rules("double"), complete=False)
    assert double.homeward_cards(bytes((3, 2, 4, 3) * 2))[1][five_of_hearts]
    assert double.homeward_cards(bytes((13, 13, 4, 13) * 2))[1][five_of_hearts]
    assert not double.homeward_cards(bytes((13, 13, 4, 13, 13, 13, 2, 13)))[1][five_of_hearts]
    assert not double.homeward_cards(bytes((3, 2, 4, 3, 3, 1, 4, 3)))[1][five_of_hearts]  # a 3D may need a 4


@pytest.mark.parametrize("order", [1, -1])
def test_with_two_decks_the_copy_that_frees_a_card_goes_home_first(order: int) -> None:
    """The 5H over the 3H must go home first, to the one hearts pile at 4; the other 5H
    waits for the 4H. Sending that one home first would leave the table stuck."""
    rules = _small_rules("double", columns=2, cells=0)
    hearts = [(rank - 1) * 4 + 2 for rank in range(14)]
    foundations = [13] * 8
    foundations[2], foundations[6] = 4, 2
    columns = ((hearts[4], hearts[5]), (hearts[3], hearts[5]))[::order]
    start = Position(columns, (), tuple(foundations))
    assert winnable(start, rules)
    result = solve(start, rules, limit=SearchLimit(seconds=10))
    assert result.status is SolveStatus.SOLVED
    assert_wins(start, rules, result.moves)


def test_the_settled_cards_of_a_pile_are_those_no_win_needs_back() -> None:
    app = FreeCellProblem(find_rules("app"), complete=True)
    # Piles in the order C D H S. 6S is out, so the red 7s and above may have to come
    # back to hold it; every red 5 is home and settled, so no black card must come back.
    assert app.settled_heights(bytes([6, 9, 8, 5])) == (6, 6, 6, 5)
    assert app.settled_heights(bytes([13, 13, 13, 13])) == (13, 13, 13, 13)
    assert app.settled_heights(bytes([0, 5, 5, 5])) == (0, 1, 1, 2)
    # Building by suit, nothing can be placed on a card home but its own suit's: every
    # card home is settled.
    bakers = FreeCellProblem(find_rules("bakers-game"), complete=True)
    assert bakers.settled_heights(bytes([0, 5, 9, 2])) == (0, 5, 9, 2)


@pytest.mark.parametrize(
    ("text", "columns", "cells"),
    [
        ("Foundations: H-8 C-6 D-9 S-5\nFreecells: TC\n: 7C 9H 7S 9C 8C\n: QH 6S TH TD\n: JH\n", 3, 1),
    ],
)
def test_a_take_back_needed_for_the_win_is_never_left_out(text: str, columns: int, cells: int) -> None:
    rules = _small_rules("app", columns=columns, cells=cells)
    start = board(text, rules)
    assert winnable(start, rules)
    assert _proof(start, rules) is SearchEnd.FOUND


@pytest.mark.parametrize(
    ("name", "text", "listed"),
    [
        # 8H home (red 7 settled under it); no black 7 in a cell or a top run: no win needs it now.
        ("cardems", "Foundations: C-6 D-5 H-8 S-6\n: 7S 7C KD\n: QC\n:\n", set()),
        # 7C on top of a column: 8H may come back to hold it, in a column only.
        ("cardems", "Foundations: C-6 D-5 H-8 S-6\n: 7S KD 7C\n: QC\n:\n", {2}),
        # 7C on top of its pile, free to come back onto it.
        ("cardems", "Foundations: C-7 D-5 H-8 S-6\n: 7S KD\n: QC\n:\n", {2}),
        # 6S out, so the 7H under the 8H may have to come back after it: anywhere.
        ("cardems", "Foundations: C-6 D-4 H-8 S-5\n: 7S 7C KD\n: 5D 6S QC\n:\n", {2, CELL}),
        ("app", "Foundations: C-6 D-4 H-8 S-5\n: 7S 7C KD\n: 5D 6S QC\n:\n", {2}),
    ],
)
def test_a_card_is_taken_back_only_for_what_a_win_may_need_it_for_now(
    name: str, text: str, listed: set[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Take-backs one at a time (not fused): the 8H comes back only when a black 7 could
    be placed on it at once or the 7H under it may come back too; the full problem
    lists it to the empty column and the cell."""
    monkeypatch.setattr(board_module, "FUSED_TAKE_BACKS", False)
    rules = _small_rules(name, columns=3, cells=1)
    hearts_home = HOME + 2

    def take_backs() -> set[int]:
        problem = FreeCellProblem(rules, complete=True)
        state, _ = problem.initial(board(text, rules))
        return {target for source, target, _ in problem.moves(state) if source == hearts_home}

    assert take_backs() == listed
    monkeypatch.setattr(board_module, "LAZY_TAKE_BACKS", False)
    assert take_backs() == ({2, CELL} if name == "cardems" else {2})


# 7C is on top of column 1, column 3 is empty; piles in the order C D H S. Fused steps
# as the moves they stand for: the 8H (HOME + 2) or the 9S (HOME + 3) back into column 3,
# then the 7C (from column 1) onto the 8H, or the card back into the cell.
_FUSING = ": 6C KD 7C\n: QC\n:\n"
_8H_7C = ((HOME + 2, 2, 1), (0, 2, 1))
_9S_8H_7C = ((HOME + 3, 2, 1), (HOME + 2, 2, 1), (0, 2, 1))
_8H_TO_CELL = ((HOME + 2, 2, 1), (2, CELL, 1))


@pytest.mark.parametrize(
    ("name", "text", "fused_steps"),
    [
        # The 8H back for the 7C. Under the app's rules cards come back only to columns,
        # so the 8H may also come back into the cell by way of column 3: the 7H under it
        # may have to come back after it (the 6C could lie on it).
        ("app", "Foundations: C-5 D-5 H-8 S-7\n" + _FUSING, {_8H_7C, _8H_TO_CELL}),
        ("cardems", "Foundations: C-5 D-5 H-8 S-7\n" + _FUSING, {_8H_7C}),
        # The 9H lies on the 8H. Under the app's rules it can come back only to a column,
        # and then the 8H has no place: the 9H comes back into the cell by way of column
        # 3 alone. In Cardems it goes straight to the cell, and the 8H comes for the 7C.
        ("app", "Foundations: C-5 D-5 H-9 S-7\n" + _FUSING, {_8H_TO_CELL}),
        ("cardems", "Foundations: C-5 D-5 H-9 S-7\n" + _FUSING, {((HOME + 2, CELL, 1), *_8H_7C)}),
        # The 8H into column 3, or onto the 9S brought back there first.
        ("cardems", "Foundations: C-5 D-5 H-8 S-9\n" + _FUSING, {_8H_7C, _9S_8H_7C}),
        (
            "app",
            "Foundations: C-5 D-5 H-8 S-9\n" + _FUSING,
            {_8H_7C, _9S_8H_7C, _8H_TO_CELL, (*_9S_8H_7C[:2], (2, CELL, 1)), ((HOME + 3, 2, 1), (2, CELL, 1))},
        ),
    ],
)
def test_a_card_comes_back_fused_with_the_card_placed_on_it(
    name: str, text: str, fused_steps: set[Steps]
) -> None:
    """A complete problem takes cards back only in fused steps: the cards a card in play
    is placed on, with those that hold them and those above them on their piles, and
    the card placed, as one step."""
    rules = _small_rules(name, columns=3, cells=1)
    problem = FreeCellProblem(rules, complete=True)
    state, _ = problem.initial(board(text, rules))
    steps = problem.moves(state)
    assert not [step for step in steps if HOME <= step[0] < HOME + 4]  # none taken back alone
    assert {fused_moves(step) for step in steps if step[0] == FUSED} == fused_steps
    for step in steps:
        if step[0] == FUSED:
            moves = write_moves(board(text, rules), rules, [step])
            assert len(moves) == step_cost(step) == len(fused_moves(step))


@pytest.mark.parametrize(("name", "sent"), [("app", ["6C", "8H"]), ("cardems", ["6C", "8H", "7C"])])
def test_a_card_that_could_come_back_where_it_lies_goes_home_by_itself(
    name: str, sent: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With fused take-backs, a card that may go home goes there by itself when it
    could come back to where it lies: on a card it may lie on or alone in its column,
    or in a cell where the rules take cards back to cells (Cardems). Without, only the
    settled ones do (the 6C)."""
    rules = _small_rules(name, columns=3, cells=1)
    text = "Foundations: C-5 D-5 H-7 S-7\nFreecells: 7C\n: 9C 8H\n: QC 8D\n: 6C\n"
    for fuses, expected in ((True, sent), (False, ["6C"])):
        monkeypatch.setattr(board_module, "FUSED_TAKE_BACKS", fuses)
        start = board(text, rules)
        problem = FreeCellProblem(rules, complete=True)
        _, first = problem.initial(start)
        assert write_moves(start, rules, first) == [f"{_column_or_cell(start, card)}h" for card in expected]


def _column_or_cell(position: Position, text: str) -> str:
    card = parse_card(text)
    for index, column in enumerate(position.columns):
        if column and column[-1] == card:
            return str(index + 1)
    return "abcd"[position.cells.index(card)]


def test_fused_take_backs_keep_the_verdict_in_far_fewer_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """App with 1 cell, deals 3, 4, 13 and 30412 (lost): the complete proof with fused
    take-backs reaches the verdict of the one that takes cards back one at a time, and
    on 30412 in under half the positions (81,862 against 209,162)."""
    rules = find_rules("app", cells=1)
    for number in (3, 4, 13, 30412):
        expanded = []
        for fuses in (True, False):
            monkeypatch.setattr(board_module, "FUSED_TAKE_BACKS", fuses)
            problem = FreeCellProblem(rules, complete=True)
            search = DepthFirst(problem, problem.initial(Deal(rules, number).position())[0])
            assert search.run(Budget(SearchLimit())).outcome is SearchEnd.EXHAUSTED
            assert not problem.truncated  # no fused step left out: a proof
            expanded.append(search.expanded)
        assert expanded[0] <= expanded[1]
        if number == 30412:
            assert expanded == [81_862, 209_162]


def test_a_position_brought_back_in_too_many_ways_lists_some_and_says_so() -> None:
    """Eight columns, seven of them empty, nearly every card home: the 2C wants a red 3
    from under ten cards of its pile, each of which may go to any of the empty columns,
    or onto a card brought back for it. The problem stops making
    fused steps after FUSED_WAYS_MOST ways, and notes that it left some out: a search
    over it that runs out of positions proves nothing."""
    rules = _small_rules("app", columns=8, cells=1)
    problem = FreeCellProblem(rules, complete=True)
    state, _ = problem.initial(board("Foundations: C-A D-K H-K S-Q\n: KC 2C\n", rules))
    assert not problem.truncated
    fused_steps = [step for step in problem.moves(state) if step[0] == FUSED]
    assert problem.truncated
    assert len(fused_steps) <= FUSED_WAYS_MOST


def test_lazy_take_backs_keep_the_verdict_in_fewer_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """App with 1 cell, deals 2 (won) and 3, 4, 13 (lost), take-backs one at a time:
    the complete proof with take-backs listed only when a win may need them reaches the
    verdict of the one with every take-back, and a proof walks a part of the positions
    the full one walks."""
    monkeypatch.setattr(board_module, "FUSED_TAKE_BACKS", False)
    rules = find_rules("app", cells=1)
    expanded: dict[bool, list[int]] = {True: [], False: []}
    for number in (2, 3, 4, 13):
        start = Deal(rules, number).position()
        outcomes = []
        for lazy in (True, False):
            monkeypatch.setattr(board_module, "LAZY_TAKE_BACKS", lazy)
            problem = FreeCellProblem(rules, complete=True)
            state, _ = problem.initial(start)
            search = DepthFirst(problem, state)
            outcomes.append(search.run(Budget(SearchLimit())).outcome)
            if number != 2:
                expanded[lazy].append(search.expanded)
        assert outcomes == [SearchEnd.FOUND if number == 2 else SearchEnd.EXHAUSTED] * 2
    assert all(lazy <= full for lazy, full in zip(expanded[True], expanded[False], strict=True))
    assert sum(expanded[True]) < sum(expanded[False])


def test_a_position_reached_from_a_lost_deal_is_known_lost_at_once() -> None:
    """After a proof, every position it saw is known lost (the next positions of the
    game, in play); a proof from scratch agrees."""
    rules = find_rules("app", cells=2)
    start = Deal(rules, 24297).position()
    assert solve(start, rules).status is SolveStatus.UNSOLVABLE
    following = [start.apply_unchecked(move) for move in start.legal_moves(rules)[:4]]
    for position in following:
        known = solve(position, rules)
        assert (known.status, known.expanded) == (SolveStatus.UNSOLVABLE, 0)
    for position in following:
        losses.LOST.clear()
        proven = solve(position, rules)
        assert proven.status is SolveStatus.UNSOLVABLE
        assert proven.expanded > 0
    # The keys are kept apart by ruleset: under other rules the same deal is solved anew.
    assert solve(Deal(find_rules("app"), 24297).position(), find_rules("app")).status is SolveStatus.SOLVED


@pytest.mark.parametrize("name", ["standard", "double"])
def test_losses_are_kept_apart_by_the_cards_a_position_leaves_out(name: str) -> None:
    """A whole deal, at its start or in play (cards home, in cells), is keyed by no card
    missing; a prepared position that leaves cards out, by those cards; a card there
    twice hides no missing one."""
    rules = find_rules(name)
    start = Deal(rules, 5).position()
    played = start
    for _ in range(12):
        played = played.apply_unchecked(played.legal_moves(rules)[0])
    home = [card for pile, height in enumerate(played.foundations) for card in range(pile & 3, 4 * height, 4)]
    assert home or any(card is not None for card in played.cells)
    king = parse_card("KS")
    columns = [[card for card in column if card != king] for column in start.columns]
    left_out = dataclasses.replace(start, columns=tuple(map(tuple, columns)))
    first, *others = left_out.columns
    twice = dataclasses.replace(left_out, columns=(first + first[-1:], *others))
    keys: list[tuple[Rules, bytes]] = []
    for position in (start, played, left_out, twice):
        losses.LOST.clear()
        losses.lost_sets(position, rules, ())
        keys.extend(losses.LOST)
    losses.LOST.clear()
    kings = bytes([king] * rules.decks)
    assert keys == [(rules, b""), (rules, b""), (rules, kings), (rules, kings)]


@pytest.mark.parametrize("number", [2, 3, 4, 13])
def test_a_proof_with_its_keys_spilled_to_disk_walks_as_the_one_in_memory(number: int) -> None:
    """App with 1 cell: deal 2 is won after 266,541 positions, 3, 4 and 13 are lost. With
    its keys moved to SQLite every 50 or so, the complete proof visits the same positions
    in the same order, to the same verdict and the same win."""
    rules = find_rules("app", cells=1)
    problem = FreeCellProblem(rules, complete=True)
    state, _ = problem.initial(Deal(rules, number).position())
    in_memory = DepthFirst(problem, state)
    spilling = DepthFirst(problem, state, spill_at=50)
    kept, spilled = in_memory.run(Budget(SearchLimit())), spilling.run(Budget(SearchLimit()))
    assert spilling.keys_spilled > 0 and spilling.spilled is None  # closed at its end
    assert (spilled.outcome, spilled.path, spilling.expanded) == (kept.outcome, kept.path, in_memory.expanded)
    assert kept.outcome is (SearchEnd.FOUND if number == 2 else SearchEnd.EXHAUSTED)
    # A win lets go of the keys before its path is made (the path may be millions of
    # moves long); a proof keeps them, for the solves after it to know its positions lost.
    assert (len(in_memory.seen) == 0) is (len(spilling.seen) == 0) is (number == 2)


def test_the_page_cache_of_spilled_keys_is_a_share_of_the_memory_limit() -> None:
    """SQLite's page cache is what the caller gives it, from 1 MB to 8 MB: two proofs
    may spill at once under a tight limit."""
    for given_bytes, kib in ((None, 7_812), (100_000_000, 7_812), (4_000_000, 3_906), (100_000, 976)):
        spilled = SpilledKeys() if given_bytes is None else SpilledKeys(cache_bytes=given_bytes)
        try:
            assert spilled.db.execute("PRAGMA cache_size").fetchone()[0] == -kib
        finally:
            spilled.close()


def test_spilled_keys_answer_exactly_through_their_filter() -> None:
    """A key stored is always found and a key never stored never is, however the filter
    in front of the file answers, while it grows from one spill to the next."""
    draw = random.Random(7)
    stored: set[bytes] = set()
    spilled = SpilledKeys()
    try:
        for size in (50, 400, 3_000):  # each spill more than doubles the keys: the filter is remade
            keys = {draw.randbytes(draw.randrange(8, 40)) for _ in range(size)} - stored
            spilled.add_all(keys)
            stored |= keys
            assert all(key in spilled for key in stored)
            strangers = {draw.randbytes(draw.randrange(8, 40)) for _ in range(5_000)} - stored
            assert not any(key in spilled for key in strangers)
        assert spilled.count == len(stored) and spilled.bits >= 16 * len(stored)
    finally:
        spilled.close()


def test_a_filter_kept_small_stays_its_size_and_the_keys_still_answer_exactly() -> None:
    """With room for 8 KiB (65,536 bits: at most 4 bits a key here), the filter stops
    growing there, and lets more keys through to the file: a key stored is still
    always found and a key never stored never is."""
    draw = random.Random(11)
    stored: set[bytes] = set()
    spilled = SpilledKeys(filter_bytes=8_192)
    try:
        for size in (2_000, 6_000, 9_000):
            keys = {draw.randbytes(draw.randrange(8, 40)) for _ in range(size)} - stored
            spilled.add_all(keys)
            stored |= keys
            assert len(spilled.filter) <= 8_192 and spilled.bits <= 65_536
            assert all(key in spilled for key in stored)
            strangers = {draw.randbytes(draw.randrange(8, 40)) for _ in range(2_000)} - stored
            assert not any(key in spilled for key in strangers)
        assert spilled.count == len(stored) > 65_536 // 16  # past what a free filter would have grown for
    finally:
        spilled.close()


def test_the_last_search_gives_way_to_a_proof_only_where_the_budget_left_holds_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """App with 1 cell, deal 30412 (lost), take-backs one at a time (fused, the last
    search proves it in 94,895 positions), 300,000 positions at most: the last search
    reaches the handover (200,000) before its end, about 209,000. A proof from the start
    would need as many positions again and has 100,000 left, so the search goes on, and
    its end proves the loss. With no bound, or room enough, it gives way as before."""
    monkeypatch.setattr(board_module, "FUSED_TAKE_BACKS", False)
    rules = find_rules("app", cells=1)
    losses.LOST.clear()  # no loss remembered from another test
    result = solve(Deal(rules, 30412).position(), rules, limit=SearchLimit(seconds=None, positions=300_000))
    assert result.status is SolveStatus.UNSOLVABLE
    assert TIGHT_HANDOVER < result.expanded < 300_000

    budget = Budget(SearchLimit(seconds=None, positions=300_000))
    budget.expanded = 200_000
    assert not proof_fits(budget, 200_000, PROOF_TIME_SHARE)
    assert proof_fits(budget, 100_000, PROOF_TIME_SHARE)
    assert proof_fits(Budget(SearchLimit(seconds=None)), 10**9, PROOF_TIME_SHARE)


def test_best_first_leaves_the_proof_the_memory_its_positions_left_need() -> None:
    """Half the memory limit is set aside for the proof best first would give way to,
    or what the positions left need (BYTES_PER_POSITION each) where that is less, but
    never under an eighth of the limit: the proof cannot expand more than is left."""
    no_count = Budget(SearchLimit(seconds=None, memory_mb=600))
    assert proof_reserve(no_count) == 300_000_000
    budget = Budget(SearchLimit(seconds=None, positions=1_000_000, memory_mb=600))
    assert proof_reserve(budget) == 300_000_000
    budget.expanded = 800_000  # 200,000 left
    assert proof_reserve(budget) == 200_000 * BYTES_PER_POSITION
    budget.expanded = 990_000  # 10,000 left
    assert proof_reserve(budget) == 75_000_000


@pytest.mark.parametrize("number", [3, 4])
def test_a_spill_the_time_left_cannot_pay_for_is_not_begun(number: int) -> None:
    """App with 1 cell, deals 3 and 4 (lost): where spilling 100 keys would take longer
    than the hour left (100 s a key, as said here), the proof keeps its keys in memory
    and walks as without a spill; with the hour it may spill them."""
    rules = find_rules("app", cells=1)
    problem = FreeCellProblem(rules, complete=True)
    state, _ = problem.initial(Deal(rules, number).position())
    outcomes = []
    for seconds_per_key in (100.0, 1e-6):
        search = DepthFirst(problem, state, spill_at=100, spill_seconds_per_key=seconds_per_key)
        run = search.run(Budget(SearchLimit(seconds=3600)))
        outcomes.append((run.outcome, search.expanded, search.keys_spilled))
    (refused, walked, none_spilled), (spilled, walked_too, some_spilled) = outcomes
    assert refused is spilled is SearchEnd.EXHAUSTED and walked == walked_too
    assert none_spilled == 0 and some_spilled > 0


def test_a_spill_moves_as_many_keys_as_the_time_left_pays_for() -> None:
    """App 2 cells, deal 20211 (lost): its proof sees 31,229 keys. When the hour left
    pays for 40,000 keys stored or read back only (0.09 s a key, as said here), the
    first spill, which reads back what it stores to make the filter, moves about
    20,000 keys, leaves the rest in memory, and every key is still found, on disk or
    in memory."""
    rules = find_rules("app", cells=2)
    problem = FreeCellProblem(rules, complete=True)
    state, _ = problem.initial(Deal(rules, 20211).position())
    search = DepthFirst(problem, state, spill=True, spill_seconds_per_key=3600 / 40_000)
    assert search.run(Budget(SearchLimit())).outcome is SearchEnd.EXHAUSTED
    every = set(search.seen)
    assert len(every) == 31_229
    try:
        assert search._move_keys_to_disk(Budget(SearchLimit(seconds=3600)))
        assert 19_900 <= search.keys_spilled <= 20_000
        assert len(search.seen) == len(every) - search.keys_spilled
        spilled = search.spilled
        assert spilled is not None
        assert all(key in search.seen or key in spilled for key in every)
    finally:
        search.close()


@pytest.mark.parametrize("number", [2, 3])
def test_a_path_kept_by_its_anchors_walks_as_one_kept_whole(number: int) -> None:
    """App with 1 cell: with blocks of 3 levels, the path is made again from its anchors
    time and again as the search backs up; it visits the same positions in the same
    order, to the same verdict and the same win, as with every level kept whole, and
    the solver's statistics count the same positions expanded and moves generated."""
    rules = find_rules("app", cells=1)
    problem = FreeCellProblem(rules, complete=True)
    state, _ = problem.initial(Deal(rules, number).position())
    walks = []
    for block in (10**9, 3):
        counted = InstrumentedProblem(problem)  # as the solver counts: its statistics
        search = DepthFirst(counted, state, block=block)
        run = search.run(Budget(SearchLimit()))
        counts = (search.expanded, counted.expanded, counted.generated)
        walks.append((run.outcome, run.path, *counts, search.blocks_remade))
    assert walks[0][:5] == walks[1][:5]  # a level made again is not counted as expanded
    assert walks[0][2] == walks[0][3]  # nor the path played again to a win
    assert walks[0][5] == 0 and walks[1][5] > 0, (walks[0][5], walks[1][5])
    assert walks[0][0] is (SearchEnd.FOUND if number == 2 else SearchEnd.EXHAUSTED)


def test_a_path_keeps_fewer_levels_whole_under_a_tight_memory_limit() -> None:
    """Left to choose, a search keeps blocks of 8,192 levels whole, and fewer where
    they would take more than a 32nd of its memory limit (about a kilobyte a level): at
    60 MB the process holds the proof's keys as well (see the CLI's memory test)."""
    rules = find_rules("app", cells=1)
    problem = FreeCellProblem(rules, complete=True)
    state, _ = problem.initial(Deal(rules, 3).position())
    blocks = {}
    for memory_mb in (None, 600, 60):
        search = DepthFirst(problem, state)
        search.run(Budget(SearchLimit(memory_mb=memory_mb)), 10)
        blocks[memory_mb] = search.block
    assert blocks[None] == blocks[600] == 8_192
    assert 256 <= blocks[60] <= 60_000_000 // (2 * 1_000 * 32), blocks


class _Counted:
    """A problem that counts the moves played, and may never say which move leads back."""

    def __init__(self, problem: FreeCellProblem, *, reverses: bool) -> None:
        self.problem = problem
        self.reverses = reverses
        self.played = 0
        self.key, self.is_goal, self.moves = problem.key, problem.is_goal, problem.moves

    def play(self, state: State, step: Step) -> tuple[State, Steps]:
        self.played += 1
        return self.problem.play(state, step)

    def reverse(self, state: State, step: Step, child: State, via: Steps) -> Step | None:
        return self.problem.reverse(state, step, child, via) if self.reverses else None

    def child_key(self, state: State, key: bytes, step: Step) -> bytes | None:
        return None  # every child is made: the moves played tell what passing by spares


@pytest.mark.parametrize(("name", "cells", "number"), [("app", 1, 2), ("app", 1, 3), ("standard", 2, 8323)])
@pytest.mark.parametrize("block", [256, 3])
def test_passing_by_the_move_back_walks_the_same_positions_with_fewer_moves(
    name: str, cells: int, number: int, block: int
) -> None:
    """A depth-first search that passes by each move straight back to the parent sees the
    same positions in the same order, to the same verdict and win, as one that plays
    every move, and plays fewer (with blocks of 3 levels too, where the path
    is made again from its anchors)."""
    rules = find_rules(name, cells=cells)
    walks = []
    for reverses in (False, True):
        counted = _Counted(FreeCellProblem(rules, complete=rules.takes_back), reverses=reverses)
        state, _ = counted.problem.initial(Deal(rules, number).position())
        search = DepthFirst(counted, state, block=block)
        run = search.run(Budget(SearchLimit()))
        walks.append((run.outcome, run.path, search.expanded, search.seen, counted.played))
    (outcome, path, expanded, seen, played), (*passing, played_passing) = walks
    assert (outcome, path, expanded, seen) == tuple(passing)
    assert outcome is (SearchEnd.FOUND if number == 2 else SearchEnd.EXHAUSTED)
    assert played_passing < played, (played_passing, played, expanded)


# --- best first under two rankings taking turns ---------------------------------------------


def _alternating(start: Position, rules: Rules) -> tuple[Alternating[State, Step, Steps], State]:
    """The two-cell final search: two rankings over the exhaustive problem."""
    problem = FreeCellProblem(rules, complete=rules.takes_back, weights=TIGHT_FINAL.weights)
    state, _ = problem.initial(start)
    assert TWO_CELL_FINAL.also is not None
    cell_weight, path_weight = TWO_CELL_FINAL.also
    rankings = ((TIGHT_FINAL.path_weight, 0), (path_weight, cell_weight - TIGHT_FINAL.weights.cell))
    return Alternating(problem, state, rankings=rankings, measure=cards_in_cells, cost=step_cost), state


@st.composite
def two_cell_tables(draw: st.DrawFn) -> tuple[Position, Rules]:
    """A small table with two cells (the rankings differ by the cards in cells)."""
    name = draw(st.sampled_from(["standard", "bakers-game", "app"]))
    rules = _small_rules(name, columns=draw(st.integers(2, 3)), cells=2)
    foundations, cards = [], []
    for suit in range(4):
        height = draw(st.integers(0, 12))
        foundations.append(height)
        cards += [rank * 4 + suit for rank in range(height, min(13, height + draw(st.integers(0, 3))))]
    return deal_out(draw, rules, cards, foundations), rules


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(two_cell_tables())
def test_two_rankings_taking_turns_win_exactly_where_brute_force_does(table: tuple[Position, Rules]) -> None:
    """Run to its end, the alternating search finds a win exactly when the brute force
    does, and its win replays: a frontier that empties is a proof, though each position
    was expanded under one ranking only."""
    start, rules = table
    search, _ = _alternating(start, rules)
    run = search.run(Budget(SearchLimit()))
    assert run.outcome is not SearchEnd.LIMIT
    assert (run.outcome is SearchEnd.FOUND) == winnable(start, rules)
    assert search.expanded == len(search.expanded_keys) or run.outcome is SearchEnd.FOUND


def test_two_rankings_expand_each_position_of_a_proof_once_and_may_stop_and_go_on() -> None:
    """Standard rules with two cells, deal 1018 (lost): taken in slices of a few
    positions, the alternating search ends as one run does, and it proves the loss
    over exactly the positions one best-first search expands."""
    rules = find_rules("standard", cells=2)
    start = Deal(rules, 1018).position()
    whole, _ = _alternating(start, rules)
    at_once = whole.run(Budget(SearchLimit()))
    assert at_once.outcome is SearchEnd.EXHAUSTED
    sliced, _ = _alternating(start, rules)
    turns = 0
    while (run := sliced.run(Budget(SearchLimit()), cap=97)).outcome is SearchEnd.LIMIT:
        turns += 1
    assert turns > 50
    assert run.outcome is at_once.outcome
    assert (sliced.expanded, sliced.expanded_keys) == (whole.expanded, whole.expanded_keys)
    problem = FreeCellProblem(rules, complete=False, weights=TIGHT_FINAL.weights)
    state, _ = problem.initial(start)
    one = BestFirst(problem, state, path_weight=20, cost=step_cost, lazy=False)
    assert one.run(Budget(SearchLimit())).outcome is SearchEnd.EXHAUSTED
    assert set(one.came_from) == set(whole.came_from) and whole.expanded == len(whole.came_from)


def test_with_two_cells_the_last_search_takes_two_rankings_and_wins_where_they_help() -> None:
    """Standard 2 cells, deal 8691: solve() wins it (its win replayed) in fewer positions,
    the portfolio's included, than the tight final alone takes."""
    rules = find_rules("standard", cells=2)
    result = solve(Deal(rules, 8691).position(), rules, limit=SearchLimit(positions=60_000))
    assert result.status is SolveStatus.SOLVED
    alone_problem = FreeCellProblem(rules, complete=False, weights=TIGHT_FINAL.weights)
    state, _ = alone_problem.initial(Deal(rules, 8691).position())
    alone = BestFirst(alone_problem, state, path_weight=TIGHT_FINAL.path_weight, cost=step_cost, lazy=False)
    assert alone.run(Budget(SearchLimit(positions=result.expanded))).outcome is SearchEnd.LIMIT
