"""The relaxed problems of proofs: twins (the two cards of a rank and colour) that are both
loose (on a card they may lie on, in a cell, or in the run on top of a column, as each
problem names) make one class (see :mod:`freecell.solver.board`).

Their soundness rests on one property, checked here directly: from every position of a
class, the moves lead to the same classes. Their verdicts are checked against the brute
force over the public rules engine, which shares no code with the solver."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.test_solver import _small_rules, assert_wins, board, watch_searches, winnable

from freecell import Deal, find_rules
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveStatus, solve
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst
from freecell.solver.plan import RELAXATIONS, plan_for
from freecell.solver.search import Budget, SearchEnd
from freecell.solver.steps import TWIN, TWIN_CELL, State
from freecell.solver.twins import IN_BUILT_RUN, IN_CELL, IN_TOP_RUN, ON_CARD, loose_pairs

STANDARD_2 = find_rules("standard", cells=2)
# Every relaxed problem there may be: some of the four, with ON_CARD, IN_TOP_RUN or
# IN_BUILT_RUN (IN_BUILT_RUN beside IN_TOP_RUN adds nothing).
EVERY_RELAXATION = (
    ON_CARD, ON_CARD | IN_CELL, IN_TOP_RUN, IN_TOP_RUN | IN_CELL, ON_CARD | IN_TOP_RUN, 7,
    IN_BUILT_RUN, IN_BUILT_RUN | IN_CELL, IN_BUILT_RUN | ON_CARD, IN_BUILT_RUN | ON_CARD | IN_CELL,
)
LOOSEST = IN_CELL | IN_TOP_RUN
BUILT = IN_CELL | IN_BUILT_RUN


def relaxed(rules: Rules, twins: int = ON_CARD, *, fused: bool = True) -> FreeCellProblem:
    problem = FreeCellProblem(rules, complete=rules.takes_back, runs=False, twins=twins, fused=fused)
    assert problem.twins == twins
    return problem


def _loose_pairs(twins: int, problem: FreeCellProblem, state: State) -> list[int]:
    """The clubs or diamonds card of each pair of twins that are both loose in the ways
    ``twins`` names, told here from the definition (not by the problem's code)."""
    columns, cells, _ = state
    follows = problem.follows
    loose: set[int] = set()
    for column in columns:
        for at, card in enumerate(column):
            if twins & ON_CARD and at > 0 and follows[column[at - 1] * 52 + card] == 1:
                loose.add(card)
            in_top_run = all(
                follows[column[below] * 52 + column[below + 1]] == 1 for below in range(at, len(column) - 1)
            )
            if twins & IN_TOP_RUN and in_top_run:
                loose.add(card)
            if twins & IN_BUILT_RUN and in_top_run and (at == 0 or follows[column[at - 1] * 52 + card] == 1):
                loose.add(card)
    if twins & IN_CELL:
        loose.update(cells)
    return [card for card in range(52) if card & 3 in (0, 1) and card in loose and card ^ 3 in loose]


def _swapped(state: State, card: int) -> State:
    """``state`` with ``card`` and its twin changing places (in the columns or cells)."""
    columns, cells, foundations = state
    twin = card ^ 3
    table = bytes(range(256)).translate(bytes.maketrans(bytes((card, twin)), bytes((twin, card))))
    return tuple(column.translate(table) for column in columns), bytes(sorted(cells.translate(table))), foundations


def test_twins_lying_in_runs_make_one_class_and_others_do_not() -> None:
    rules = _small_rules("standard", columns=3, cells=2)
    problem = relaxed(rules, ON_CARD)
    state, _ = problem.initial(board(": KC 6S 5H 4C\n: 6C 5D\n: 9H\n", rules))
    assert _loose_pairs(ON_CARD, problem, state) == [17]  # 5D (and 5H)
    assert problem.key(_swapped(state, 17)) == problem.key(state)
    # 6S and 6C: the 6C lies at the bottom, on no card; it is itself still.
    assert problem.key(_swapped(state, 20)) != problem.key(state)
    # The plain problem tells every position apart.
    plain = FreeCellProblem(rules, complete=False, runs=False)
    assert plain.key(_swapped(state, 17)) != plain.key(state)


def test_twins_in_top_runs_or_cells_make_one_class() -> None:
    """With twins loose in the top run of a column or in a cell: the 6C at the bottom of
    a column (its top run) and the 6S under the 5H are loose; the 8H in a cell and the
    8D buried under the 3S are not both."""
    rules = _small_rules("standard", columns=3, cells=2)
    problem = relaxed(rules, LOOSEST)
    state, _ = problem.initial(board("Freecells: 8H\n: KC 6S 5H\n: 6C\n: 8D 3S\n", rules))
    assert _loose_pairs(LOOSEST, problem, state) == [20]  # 6C (and 6S)
    assert problem.key(_swapped(state, 20)) == problem.key(state)
    assert problem.key(_swapped(state, 29)) != problem.key(state)  # 8D, 8H
    # Once the 3S is gone, the 8D is on top: it and the 8H in the cell make one class.
    moved, _ = problem.play(state, (2, 64, 1))
    assert _loose_pairs(LOOSEST, problem, moved) == [20, 29]
    assert problem.key(_swapped(moved, 29)) == problem.key(moved)
    with pytest.raises(ValueError, match="ON_CARD, IN_TOP_RUN or IN_BUILT_RUN"):
        FreeCellProblem(rules, complete=False, runs=False, twins=IN_CELL)


def test_twins_in_built_runs_make_one_class_but_not_at_the_foot_of_a_dealt_run() -> None:
    """With twins loose in the run on top of a column only where they lie on a card
    they may lie on (or at the foot of the column), and in a cell: the 3D dealt onto the KS is
    on top, but not loose, so it and the 3H in the built run of the other column make two
    classes (with IN_TOP_RUN, one). The 6C alone in its column and the 6S under the 5H,
    on the 7D, are loose."""
    rules = _small_rules("standard", columns=4, cells=1)
    state, _ = relaxed(rules, BUILT).initial(board(": KS 3D\n: 5S 4D 3H\n: 6C\n: 7D 6S 5H\n", rules))
    for twins, pairs in ((BUILT, [20]), (LOOSEST, [9, 20])):  # 6C (and 6S); 3D (and 3H)
        problem = relaxed(rules, twins)
        assert _loose_pairs(twins, problem, state) == pairs
        assert problem.key(_swapped(state, 20)) == problem.key(state)
        assert (problem.key(_swapped(state, 9)) == problem.key(state)) is (twins == LOOSEST)


def test_a_twin_sent_elsewhere_than_onto_a_card_may_be_either_of_the_pair() -> None:
    """With twins loose on a card they may lie on: 5H and 5D both lie in runs; the 5 on
    top may go to a cell, an empty column or home as itself or as its twin, and twins
    never go home by themselves (here the 5H is safe to send home and ready to go, yet
    stays)."""
    rules = _small_rules("standard", columns=3, cells=1)
    problem = relaxed(rules, ON_CARD)
    start = board("Foundations: H-4 C-5 D-2 S-5\n: KC 6S 5H\n: 6C 5D\n:\n", rules)
    state, sent = problem.initial(start)
    assert sent == [] and state[0][0][-1] == 18  # the 5H is still on the 6S
    steps = problem.moves(state)
    twin_steps = sorted(step for step in steps if TWIN <= step[0] < 64)
    # From column 1 (5H on top) as the 5D: to the empty column 3 and to the cell (the 5D
    # cannot go home); from column 2 (5D on top) as the 5H: home too.
    assert twin_steps == [(TWIN + 0, 2, 1), (TWIN + 0, 64, 1), (TWIN + 1, 2, 1), (TWIN + 1, 64, 1), (TWIN + 1, 128, 1)]
    child, via = problem.play(state, (TWIN + 1, 128, 1))
    assert child[0][0] == bytes([48 + 0, 20 + 3, 16 + 1]) and child[0][1] == bytes([20 + 0])  # KC 6S 5D, 6C
    assert len(via) == 1


def test_where_cells_and_top_runs_are_loose_only_the_way_home_is_either_of_the_pair() -> None:
    """Twins loose in cells and top runs: the 5H in the cell may go home as the 5D (which
    lies at the bottom of a run), swapping first; the 5D on top of its column may go home
    as the 5H. Nothing else is listed twice: a 5 moved to a cell or an empty column is
    loose still. Neither goes home by itself."""
    rules = _small_rules("standard", columns=3, cells=2)
    problem = relaxed(rules, LOOSEST)
    start = board("Foundations: H-4 C-5 D-4 S-5\nFreecells: 5H\n: KC 5D\n: 9S\n:\n", rules)
    state, sent = problem.initial(start)
    assert sent == [] and state[1] == bytes([18])  # the 5H, safe, stays in its cell
    twin_steps = sorted(step for step in problem.moves(state) if TWIN <= step[0] < 64 or step[0] >= TWIN_CELL)
    assert twin_steps == [(TWIN + 0, 128, 1), (TWIN_CELL + 18, 128, 1)]
    child, via = problem.play(state, (TWIN_CELL + 18, 128, 1))
    # The 5D went home from the cell, and the 5H, in the column now and a twin no more
    # (its pair is home), followed by itself.
    assert child == ((bytes([48]), bytes([35]), b""), b"", bytes([5, 5, 5, 5]))
    assert via == ((TWIN_CELL + 18, 128, 1), (0, 128, 1))


def _with_loose_twins_to_move(problem: FreeCellProblem, state: State) -> bool:
    """Whether a card of a pair of loose twins lies on top of a column or in a cell."""
    movable = {column[-1] for column in state[0] if column} | set(state[1])
    return any(card in movable or card ^ 3 in movable for card in _loose_pairs(problem.twins, problem, state))


@st.composite
def positions_in_play(draw: st.DrawFn) -> tuple[FreeCellProblem, State]:
    """A relaxed problem and a position some moves into a Microsoft deal, under an
    alternate-colour preset of one deck, where a card of a pair of loose twins lies on
    top of its column or in a cell (the moves that build runs are taken more often than
    others, so that such pairs form)."""
    name, cells = draw(st.sampled_from([("standard", 2), ("standard", 1), ("app", 2), ("app", 1), ("cardems", 4)]))
    rules = find_rules(name, cells=cells)
    problem = relaxed(rules, draw(st.sampled_from(EVERY_RELAXATION)))
    state, _ = problem.initial(Deal(rules, draw(st.integers(1, 32000))).position())
    chooser = random.Random(draw(st.integers(0, 2**32)))
    chosen = state
    for _ in range(150):
        steps = problem.moves(state)
        if not steps:
            break
        building = [step for step in steps if step[1] < 64 and state[0][step[1]]]
        state, _ = problem.play(state, chooser.choice(building if building and chooser.random() < 0.8 else steps))
        if _with_loose_twins_to_move(problem, state):
            chosen = state
    assume(_with_loose_twins_to_move(problem, chosen))
    return problem, chosen


@settings(
    max_examples=200, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(positions_in_play())
def test_the_problem_finds_the_loose_twins_that_the_definition_names(drawn: tuple[FreeCellProblem, State]) -> None:
    """The pairs the problem writes as one (worked out down the columns) are exactly the
    pairs loose by the definition: no fewer (a class split in two), no more (two classes
    made one, which could prove a loss where there is a win)."""
    problem, state = drawn
    pairs = loose_pairs(problem, state[0], state[1])
    assert [card for card in range(52) if card & 3 in (0, 1) and pairs >> card & 1] == _loose_pairs(
        problem.twins, problem, state
    )
    assert all(pairs >> card & 1 == pairs >> (card ^ 3) & 1 for card in range(52))  # both of each pair


@settings(
    max_examples=300, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(positions_in_play(), st.randoms(use_true_random=False))
def test_every_position_of_a_class_leads_to_the_same_classes(
    drawn: tuple[FreeCellProblem, State], chooser: random.Random
) -> None:
    """The lemma the relaxed proofs rest on: the position the walk holds for a class and
    any other position of that class (some pairs of loose twins the other way round)
    lead, move by move, to the same classes."""
    problem, state = drawn

    def classes(position: State) -> set[bytes]:
        return {problem.key(problem.play(position, step)[0]) for step in problem.moves(position)}

    pairs = _loose_pairs(problem.twins, problem, state)
    every = state
    for card in pairs:  # each pair the other way round alone, then some of them at once
        other = _swapped(state, card)
        assert problem.key(other) == problem.key(state)
        assert classes(other) == classes(state)
        if chooser.random() < 0.5:
            every = _swapped(every, card)
    assert problem.key(every) == problem.key(state)
    assert classes(every) == classes(state)


@st.composite
def tables_with_runs(draw: st.DrawFn) -> tuple[Position, Rules]:
    """A small table of 3 or 4 columns under an alternate-colour preset of one deck, the
    piles within a rank of each other and the next few cards of each in play, dealt so
    that many lie in runs, twins among them."""
    name = draw(st.sampled_from(["standard", "strict", "app"]))
    rules = _small_rules(name, columns=draw(st.integers(3, 4)), cells=draw(st.integers(0, 1)))
    base = draw(st.integers(0, 8))
    foundations = [base + draw(st.integers(0, 1)) for _ in range(4)]
    cards = [
        rank * 4 + suit for suit, height in enumerate(foundations) for rank in range(height, min(13, height + 3))
    ]
    cards = draw(st.permutations(cards))
    in_cells = draw(st.integers(0, min(rules.cells, 1)))
    columns: list[list[int]] = [[] for _ in range(rules.columns)]
    for card in cards[in_cells:]:
        fitting = [
            column for column in columns
            if column and column[-1] >> 2 == (card >> 2) + 1 and (column[-1] & 3 in (1, 2)) != (card & 3 in (1, 2))
        ]
        if fitting and draw(st.integers(0, 4)) > 0:
            draw(st.sampled_from(fitting)).append(card)
        else:
            columns[draw(st.integers(0, rules.columns - 1))].append(card)
    cells = tuple(cards[:in_cells]) + (None,) * (rules.cells - in_cells)
    return Position(tuple(tuple(column) for column in columns), cells, tuple(foundations)), rules


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(tables_with_runs(), st.sampled_from(EVERY_RELAXATION))
def test_a_relaxed_proof_never_claims_a_table_that_can_be_won(table: tuple[Position, Rules], twins: int) -> None:
    start, rules = table
    problem = relaxed(rules, twins)
    state, _ = problem.initial(start)
    outcome = DepthFirst(problem, state).run(Budget(SearchLimit())).outcome
    assert outcome is not SearchEnd.LIMIT
    if outcome is SearchEnd.EXHAUSTED:
        assert not winnable(start, rules)


@pytest.mark.parametrize(
    ("name", "cells", "number", "plain", "classes"),
    [
        ("standard", 2, 1, 70_882, (12_038, 13_961, 18_225, 33_137)),
        ("standard", 2, 5441, 434_813, (34_771, 34_771, 56_987, 79_313)),
        ("app", 1, 3318, 188_504, (6_334, 6_334, 11_929, 15_174)),
    ],
)
def test_a_lost_deal_is_proven_over_far_fewer_classes_than_positions(
    name: str, cells: int, number: int, plain: int, classes: tuple[int, ...]
) -> None:
    """Lost deals (each proven by the plain walk too): the relaxed walks (of
    :data:`RELAXATIONS`, with twins loose in top runs and cells, and only on a card) run
    out of classes, far fewer than the positions the plain walk runs out of. Of the
    nested relaxations, the looser the twins, the fewer; twins loose only in built runs
    (the first walk's) take no more classes here than in every top run."""
    rules = find_rules(name, cells=cells)
    walks = {}
    assert RELAXATIONS == (BUILT, ON_CARD | IN_CELL)
    relaxations = (BUILT, LOOSEST, ON_CARD | IN_CELL, ON_CARD)
    for twins in (0, *relaxations):
        problem = FreeCellProblem(rules, complete=rules.takes_back, runs=False, twins=twins)
        search = DepthFirst(problem, problem.initial(Deal(rules, number).position())[0])
        assert search.run(Budget(SearchLimit())).outcome is SearchEnd.EXHAUSTED
        walks[twins] = len(search.seen)
    assert walks == {0: plain, **dict(zip(relaxations, classes, strict=True))}


@pytest.mark.parametrize(("name", "cells", "number"), [("standard", 2, 14909), ("app", 1, 27158)])
def test_where_twins_loose_at_the_foot_of_a_dealt_run_meet_a_goal_built_runs_prove_the_loss(
    name: str, cells: int, number: int
) -> None:
    """Lost deals (proven by the plain walk) where twins loose in cells and every top run
    let the relaxed walk reach a goal, which proves nothing: a card dealt onto one it may
    not lie on changes places with its twin in a built run. With twins loose only in built
    runs and cells (the first walk), or on a card they may lie on and in cells (the
    second), it runs out of classes."""
    rules = find_rules(name, cells=cells)
    outcomes = []
    for twins in (0, LOOSEST, *RELAXATIONS):
        problem = FreeCellProblem(rules, complete=rules.takes_back, runs=False, twins=twins)
        search = DepthFirst(problem, problem.initial(Deal(rules, number).position())[0])
        outcomes.append(search.run(Budget(SearchLimit())).outcome)
    assert outcomes == [SearchEnd.EXHAUSTED, SearchEnd.FOUND, SearchEnd.EXHAUSTED, SearchEnd.EXHAUSTED]


def test_in_a_tight_game_a_loss_is_proven_early_over_classes() -> None:
    """Standard rules with 2 cells, deal 5441: the plain proof alone walks 434,813
    positions; the relaxed one, taking turns with the last search from its start,
    proves the loss within the in-play limit's 300,000 positions."""
    result = solve(Deal(STANDARD_2, 5441).position(), STANDARD_2, limit=SearchLimit(positions=300_000))
    assert result.status is SolveStatus.UNSOLVABLE


@pytest.mark.parametrize("number", [13659, 14083])
def test_a_relaxed_goal_is_followed_in_the_game_to_a_win(number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard rules, 2 cells: the census left 13659 and 14083 at its limit (60 s,
    over 9.5 million positions each). The relaxed walk meets a goal, after 58,466 and
    47,371 classes: 13659's way there has no twin step, so it is a win as it is; 14083's
    first twin step comes after 115 moves, and a depth-first search of the game from
    there wins within 11,000 positions. The moves replay to a win. Following from the
    start instead (as if the first step were a twin step), and with no dead ends passed
    by, the solve is at its limit."""
    position = Deal(STANDARD_2, number).position()
    limit = SearchLimit(positions=150_000)
    result = solve(position, STANDARD_2, limit=limit)
    assert result.status is SolveStatus.SOLVED
    assert_wins(position, STANDARD_2, result.moves)
    watch_searches(monkeypatch, follow_from_start=True)
    plan = plan_for(STANDARD_2)
    assert plan.walks is not None
    plan = dataclasses.replace(plan, walks=dataclasses.replace(plan.walks, dead_ends=False))  # 14083 won in time else
    assert solve(position, STANDARD_2, limit=limit, plan=plan).status is SolveStatus.LIMIT_REACHED
