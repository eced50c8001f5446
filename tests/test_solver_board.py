"""The solver's compact problem: what it promises the search about moves and heuristics."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from freecell import Deal, find_rules
from freecell.cards import parse_card
from freecell.position import Position
from freecell.rules import Building, Rules
from freecell.solver import board as board_module
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst
from freecell.solver.search import WON, Alternating, BestFirst, Budget, InstrumentedProblem, SearchEnd, SearchLimit
from freecell.solver.steps import CELL, FUSED, HOME, State, Step, Steps, cards_in_cells, fused, fused_moves, step_cost
from freecell.solver.tables import (
    DISORDER_MASK,
    EMPTY_LOWEST,
    LOWEST_SHIFT,
    NO_CARDS,
    SHARE_SHIFT,
    Weights,
    building_tables,
    column_features,
    column_values,
    ready_table,
    stacking_slots,
)
from freecell.solver.transcript import verify, write_moves


class _Recording:
    """A problem that keeps every state whose moves are asked for (the compiled
    problem's methods cannot be replaced on it)."""

    def __init__(self, problem: FreeCellProblem) -> None:
        self.problem = problem
        self.states: list[State] = []
        self.key, self.is_goal, self.play, self.reverse = problem.key, problem.is_goal, problem.play, problem.reverse
        self.child_key = problem.child_key

    def moves(self, state: State) -> list[Step]:
        self.states.append(state)
        return self.problem.moves(state)


@pytest.mark.parametrize("weights", [Weights(), Weights(cell=40, shortest=25)], ids=["plain", "shortest"])
def test_take_backs_are_rated_with_their_childs_own_heuristic(
    weights: Weights, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Take-backs one at a time (where they are not fused) are rated without making the
    child: over the positions a depth-first walk meets in the complete problem with one
    cell (where cards often come back), each take-back's rating equals the heuristic of
    the child it makes."""
    monkeypatch.setattr(board_module, "FUSED_TAKE_BACKS", False)
    rules = find_rules("app", cells=1)
    problem = FreeCellProblem(rules, complete=True, weights=weights, runs=True)
    walker = _Recording(FreeCellProblem(rules, complete=True, runs=True))
    for number in (28212, 90, 617):
        start, _ = problem.initial(Deal(rules, number).position())
        DepthFirst(walker, start).run(Budget(SearchLimit(positions=3_000)))
    states = walker.states
    take_backs = 0
    for state in states:
        for h, step, _, made in problem.rated_moves(state):
            if step[0] >= HOME:
                assert made is None
                child = problem.play(state, step)[0]
                assert h == (WON if problem.is_goal(child) else problem.heuristic(child)), (state, step)
                take_backs += 1
    assert take_backs > 150


@pytest.mark.parametrize("name", ["standard", "bakers-game", "eight-off", "double", "cardems", "strict"])
@pytest.mark.parametrize(("complete", "eager"), [(False, False), (False, True), (True, False)])
@pytest.mark.parametrize("weights", [Weights(), Weights(cell=40, shortest=25)], ids=["plain", "shortest"])
def test_rated_moves_give_each_childs_own_heuristic(name: str, complete: bool, eager: bool, weights: Weights) -> None:
    """The heuristic worked out from the parent equals the one of the child made, WON
    marks exactly the children already won, each step's cost is step_cost's, and a
    child made while rating is the one play() makes, along random walks through deals
    (with and without the weight on the shortest column, which rated_moves adds on its
    own)."""
    rules = find_rules(name)
    walk = random.Random(f"{name}-{complete}-{eager}")
    checked = won = 0
    for number in range(1, 25):  # a random walk soon fills the cells and is stuck
        problem = FreeCellProblem(rules, complete=complete, eager=eager, weights=weights)
        state, _ = problem.initial(Deal(rules, number).position())
        for _ in range(60):
            rated = problem.rated_moves(state)
            if not rated:
                break
            assert [step for _, step, _, _ in rated] == problem.moves(state)
            for h, step, cost, made in rated:
                assert cost == step_cost(step), step
                child, via = problem.play(state, step)
                assert made is None or made == (child, via)
                if problem.is_goal(child):
                    won += 1
                    assert h == WON
                else:
                    assert h == problem.heuristic(child), (state, step)
                checked += 1
            state = problem.play(state, walk.choice(rated)[1])[0]
    assert checked > 1000


@pytest.mark.parametrize("name", ["standard", "double"])
def test_rated_moves_do_not_depend_on_the_table_rated_before(name: str) -> None:
    """rate() keeps what it found of the last table's columns (LastTable): tables rated
    in any order, from other deals and other foundations, some twice in a row, are
    rated as a problem that has seen no other table rates them."""
    rules = find_rules(name)
    states = [state for state, _ in _random_walks(FreeCellProblem(rules, complete=False), rules, name, length=40)]
    assert len({state[2] for state in states}) > 20
    order = random.Random(name)
    order.shuffle(states)
    states[10:10] = [states[9]] * 2  # the same table again
    shared = FreeCellProblem(rules, complete=False)
    for state in states:
        assert shared.rated_moves(state) == FreeCellProblem(rules, complete=False).rated_moves(state), state


@pytest.mark.parametrize("name", ["standard", "bakers-game"])
def test_whole_runs_leave_out_only_moves_that_break_an_ordered_run(name: str) -> None:
    """With whole runs, the moves listed are the others less some that break a run: a
    card of a run to a cell, or part of a run to an empty column that neither is as
    much as may move nor leaves just the column's last card."""
    rules = find_rules(name)
    every = FreeCellProblem(rules, complete=False, eager=True)
    whole = FreeCellProblem(rules, complete=False, eager=True, whole_runs=True)
    kept = dropped = 0
    for state, listed in _random_walks(every, rules, name, length=60):
        chosen = whole.moves(state)
        assert set(chosen) <= set(listed)
        assert [step for step in listed if step in set(chosen)] == chosen
        kept += len(chosen)
        for source, target, count in set(listed) - set(chosen):
            dropped += 1
            assert source < CELL
            column = state[0][source]
            run = column_features(column, every.follows)[0]
            assert count < run or (target == CELL and run > 1)
            if target == CELL:
                assert count == 1
            else:
                assert not state[0][target] and count < len(column) - 1
    assert dropped > 100 and kept > 1000


def _random_walks(
    problem: FreeCellProblem, rules: Rules, seed: str, *, deals: range = range(1, 25), length: int
) -> Iterator[tuple[State, list[Step]]]:
    """Each state of a random walk of at most ``length`` moves from each of ``deals``,
    with its moves (a walk soon fills the cells and is stuck)."""
    walk = random.Random(seed)
    for number in deals:
        state, _ = problem.initial(Deal(rules, number).position())
        for _ in range(length):
            listed = problem.moves(state)
            if not listed:
                break
            yield state, listed
            state = problem.play(state, walk.choice(listed))[0]


@pytest.mark.parametrize("building", list(Building))
def test_a_card_may_lie_on_another_exactly_when_it_seeks_the_others_slot(building: Building) -> None:
    """The slots that moves() finds the columns a card may go onto by agree with the
    building rule for every pair of cards; a king seeks a slot that no card offers."""
    offers, seeks, slot_count = stacking_slots(building)
    follows = building_tables(building, 4)[0]
    for card in range(52):
        for onto in range(52):
            assert (seeks[card] == offers[onto]) == bool(follows[onto * 52 + card]), (card, onto)
        assert offers[card] < slot_count
        assert (seeks[card] == slot_count) == (card >> 2 == 12)


@pytest.mark.parametrize("name", ["standard", "bakers-game", "eight-off", "double", "app"])
def test_a_complete_problem_lists_each_card_onto_every_column_it_may_lie_on(name: str) -> None:
    """Every exposed card and every card in a cell goes onto each occupied column whose
    exposed card it may lie on, and onto no other: the single-card steps a complete
    problem lists, against the building rule asked pair by pair."""
    rules = find_rules(name)
    problem = FreeCellProblem(rules, complete=True)
    follows = building_tables(rules.building, 4)[0]
    seen = 0
    for state, listed in _random_walks(problem, rules, name, deals=range(1, 13), length=60):
        columns, cells, _ = state
        sources = [(i, column[-1]) for i, column in enumerate(columns) if column]
        sources += [(CELL + card, card) for card in set(cells)]
        expected = {
            (source, j, 1)
            for source, card in sources
            for j, onto in enumerate(columns)
            if onto and follows[onto[-1] * 52 + card]
        }
        found = {step for step in listed if step[0] < HOME and step[1] < CELL and columns[step[1]] and step[2] == 1}
        assert found == expected
        seen += len(found)
    assert seen > 80


@pytest.mark.parametrize("building", list(Building))
def test_a_columns_packed_value_reads_back_as_its_share_and_its_disorder(building: Building) -> None:
    """Each column's share of the heuristic and its disorder are packed in one value;
    both read back, and the sum over a table of up to two decks reads back as the sum
    of the shares and the sum of the disorders."""
    weights = Weights(in_play=9, disorder=11, off_run=3, depth=4, empty_column=37)
    values = column_values(building, weights)
    follows = building_tables(building, 4)[0]
    rng = random.Random(55)
    for _ in range(50):
        table = [bytes(rng.randrange(52) for _ in range(rng.randrange(11))) for _ in range(10)]
        shares, disorders = [], []
        for column in table:
            run, disorder, lowest, depth = _features(column, follows)
            assert column_features(column, follows) == (run, disorder, lowest, depth)
            n = len(column)
            share = (
                weights.in_play * n + weights.disorder * disorder + weights.off_run * (n - run) + weights.depth * depth
                if n
                else -weights.empty_column
            )
            assert values.of(column) >> SHARE_SHIFT == share
            assert values.of(column) & DISORDER_MASK == disorder
            shares.append(share)
            disorders.append(disorder)
        total = sum(values.of(column) for column in table)
        assert (total >> SHARE_SHIFT, total & DISORDER_MASK) == (sum(shares), sum(disorders))


@pytest.mark.parametrize("building", list(Building))
def test_a_column_with_a_card_put_on_it_is_valued_from_its_own_packed_value(building: Building) -> None:
    """A column's packed value holds the rank of its lowest card (EMPTY_LOWEST for
    none); a card that may lie on its top card, of a rank above that lowest, adds
    ``one_above``, and so does each card of a run put there above it; an ordered run
    alone in a column is worth ``one_alone`` a card, its top card the lowest."""
    weights = Weights(in_play=9, disorder=11, off_run=3, depth=4, empty_column=37)
    values = column_values(building, weights)
    children = building_tables(building, 4)[1]
    rng = random.Random(56)
    told = runs_told = 0
    for _ in range(300):
        column = bytes(rng.randrange(52) for _ in range(rng.randrange(12)))
        packed = values.of(column)
        lowest = min((card >> 2 for card in column), default=EMPTY_LOWEST)
        assert packed >> LOWEST_SHIFT & 15 == lowest
        if not column:
            continue
        for card in children[column[-1]]:
            if card >> 2 > lowest:
                assert values.of(column + bytes((card,))) == packed + values.one_above
                told += 1
                # An ordered run put on it, all of it above that lowest card: each of
                # its cards adds as much.
                run = bytes((card,))
                while children[run[-1]] and rng.random() < 0.7:
                    run += bytes((rng.choice(children[run[-1]]),))
                if run[-1] >> 2 > lowest:
                    for length in range(1, len(run) + 1):
                        assert values.of(column + run[:length]) == packed + values.one_above * length
                    runs_told += len(run) > 1
        run = column[-1:]
        while children[run[-1]] and rng.random() < 0.8:
            run += bytes((rng.choice(children[run[-1]]),))
        assert values.of(run) == values.one_alone * len(run) + (run[-1] >> 2 << LOWEST_SHIFT)
    assert told > 100  # the usual case was met
    assert runs_told > 30


def _features(column: bytes, follows: bytes) -> tuple[int, int, int, int]:
    """A column's features worked out another way, from their definitions: the ordered
    run at its exposed end, the cards lying on a lower card, the rank of its lowest card
    (99 for none) and the cards above the last card of that rank."""
    run = 0
    while run < len(column) and (run == 0 or follows[column[-run - 1] * 52 + column[-run]]):
        run += 1
    disorder = sum(1 for at, card in enumerate(column) if any(card >> 2 > below >> 2 for below in column[:at]))
    lowest = min((card >> 2 for card in column), default=99)
    at = max((at for at, card in enumerate(column) if card >> 2 == lowest), default=len(column) - 1)
    return run, disorder, lowest, len(column) - 1 - at


def test_a_goal_is_a_table_won_by_foundation_moves_alone() -> None:
    """Once no card lies on a lower one, the search may stop there: finish() sends every
    card home, and the rules engine accepts those moves as a win."""
    rules = find_rules("standard")
    problem = FreeCellProblem(rules, complete=False)
    cards = [
        [parse_card(text) for text in column.split()]
        for column in ("KS QD JS TD", "KH QC JH TC", "KD QS JD TS", "KC QH JC")
    ]
    position = Position(
        tuple(tuple(column) for column in cards) + ((),) * 4, (parse_card("TH"), None, None, None), (9, 9, 9, 9)
    )
    state, first = problem.initial(position)
    assert problem.is_goal(state)
    steps = first + problem.finish(state)
    verify(position, rules, write_moves(position, rules, steps))

    disordered = Position(
        ((cards[0][0], cards[0][3], cards[0][1], cards[0][2]), *map(tuple, cards[1:])) + ((),) * 4,
        (parse_card("TH"), None, None, None),
        (9, 9, 9, 9),
    )
    assert not problem.is_goal(problem.initial(disordered)[0])


@pytest.mark.parametrize(("name", "number", "lazy"), [("standard", 5, True), ("bakers-game", 10, False)])
def test_a_search_taken_in_turns_ends_as_one_run_does(name: str, number: int, lazy: bool) -> None:
    """A search stopped at its cap and run again goes on where it was: in slices of a
    few positions it ends as one run does, with the same path or the same proof."""
    rules = find_rules(name)

    def search() -> tuple[BestFirst[State, Step, Steps], State]:
        problem = FreeCellProblem(rules, complete=False)
        start, _ = problem.initial(Deal(rules, number).position())
        return BestFirst(problem, start, path_weight=8, cost=lambda step: int(step[1] != HOME), lazy=lazy), start

    whole, _ = search()
    at_once = whole.run(Budget(SearchLimit()))
    assert at_once.outcome in (SearchEnd.FOUND, SearchEnd.EXHAUSTED)
    sliced, _ = search()
    turns = 0
    while (run := sliced.run(Budget(SearchLimit()), cap=7)).outcome is SearchEnd.LIMIT:
        turns += 1
    assert turns > 10
    assert (run.outcome, run.path, sliced.expanded) == (at_once.outcome, at_once.path, whole.expanded)


@pytest.mark.parametrize("kind", ["lazy", "made at once", "two rankings"])
def test_a_search_over_a_counted_problem_counts_each_expansion_and_its_moves(kind: str) -> None:
    """Over an InstrumentedProblem (whose moves the search counts itself, calling the
    problem's own), a search counts the positions expanded and the moves generated as a
    problem counting its own calls does, and walks the same way."""
    rules = find_rules("standard")
    problem = FreeCellProblem(rules, complete=False)
    start, _ = problem.initial(Deal(rules, 5).position())

    class Counting:  # not an InstrumentedProblem: the search calls its moves
        def __init__(self) -> None:
            self.expanded = 0
            self.generated = 0

        def __getattr__(self, name: str) -> object:
            return getattr(problem, name)

        def moves(self, state: State) -> list[Step]:
            found = problem.moves(state)
            self.expanded += 1
            self.generated += len(found)
            return found

        def rated_moves(self, state: State) -> list[tuple[int, Step, int, tuple[State, Steps] | None]]:
            found = problem.rated_moves(state)
            self.expanded += 1
            self.generated += len(found)
            return found

    walks = []
    for counted in (InstrumentedProblem(problem), Counting()):
        search: BestFirst[State, Step, Steps] | Alternating[State, Step, Steps] = (
            Alternating(counted, start, rankings=((8, 0), (4, 12)), measure=cards_in_cells, cost=step_cost)  # type: ignore[arg-type]
            if kind == "two rankings"
            else BestFirst(counted, start, path_weight=8, cost=step_cost, lazy=kind == "lazy")  # type: ignore[arg-type]
        )
        run = search.run(Budget(SearchLimit()), cap=500)
        walks.append((run.outcome, run.path, search.expanded, counted.expanded, counted.generated))
    assert walks[0] == walks[1]
    assert walks[0][3] > 100 and walks[0][4] > 5 * walks[0][3], walks[0]


@pytest.mark.parametrize(
    ("name", "cells", "complete"),
    [
        ("standard", 2, False),
        ("standard", 4, False),
        ("bakers-game", 4, False),
        ("strict", 4, True),
        ("double", 6, False),
        ("app", 1, True),
        ("cardems", 4, True),
        ("double", 6, True),
    ],
)
def test_the_move_back_leads_to_the_parent(name: str, cells: int, complete: bool) -> None:
    """Along random walks through deals, whenever the child lists the move that
    ``reverse`` names, playing it leads back to the parent's key; and it is listed
    often. A complete problem under take-back rules takes cards back only in fused
    steps, which no one step undoes."""
    rules = find_rules(name, cells=cells)
    problem = FreeCellProblem(rules, complete=complete)
    listed = unlisted = take_backs = 0
    for state, moves in _random_walks(problem, rules, f"{name}-{cells}-{complete}", deals=range(1, 30), length=80):
        for step in moves:
            child, via = problem.play(state, step)
            back = problem.reverse(state, step, child, via)
            if step[0] == FUSED:
                assert back is None  # a fused step is never undone by one step
            if back is not None and back in problem.moves(child):
                assert problem.key(problem.play(child, back)[0]) == problem.key(state), (state, step, back)
                listed += 1
                take_backs += back[0] >= HOME or step[0] >= HOME
            else:
                unlisted += 1
    assert listed > 200, (listed, unlisted)
    if problem.fuses:  # a complete problem under take-back rules: no take-back alone
        assert take_backs == 0


# Problems the tests of keys walk: one deck and two, fast and complete, eager, fused or not.
_WALKED_PROBLEMS = [
    ("standard", 2, False, False, True),
    ("standard", 4, False, True, True),
    ("bakers-game", 4, True, False, True),
    ("strict", 4, True, False, True),
    ("app", 1, True, False, True),
    ("app", 2, True, False, False),
    ("app", 1, False, True, True),
    ("cardems", 4, True, False, True),
    ("double", 6, False, False, True),
]


@pytest.mark.parametrize(("name", "cells", "complete", "eager", "fused"), _WALKED_PROBLEMS)
def test_a_childs_key_told_without_the_child_is_its_key(
    name: str, cells: int, complete: bool, eager: bool, fused: bool
) -> None:
    """Along random walks through deals, the key ``child_key`` tells for a step, from
    the parent's key alone, is the key of the child that playing the step makes; it
    tells one for most steps with one deck (none that send a card home: their children
    are made), and none with two decks."""
    rules = find_rules(name, cells=cells)
    problem = FreeCellProblem(rules, complete=complete, eager=eager, fused=fused)
    told = untold = 0
    walks = _random_walks(problem, rules, f"{name}-{cells}-{complete}-{eager}", deals=range(1, 30), length=80)
    for state, moves in walks:
        key = problem.key(state)
        for step in moves:
            known = problem.child_key(state, key, step)
            if known is None:
                untold += 1
            else:
                assert known == problem.key(problem.play(state, step)[0]), (state, step)
                told += 1
    if rules.decks == 2:
        assert told == 0
    else:
        assert told > 4 * untold, (told, untold)


@pytest.mark.parametrize("name", ["standard", "app", "bakers-game", "double"])
def test_keys_are_equal_exactly_for_tables_that_differ_by_the_order_of_columns(name: str) -> None:
    """Along random walks, a table's key does not change when its columns are shuffled,
    and two tables have the same key only when they hold the same columns and cells
    (with one deck the key is a table of what each card lies on; with two, the columns
    sorted)."""
    rules = find_rules(name)
    problem = FreeCellProblem(rules, complete=True)
    shuffle = random.Random(name)
    tables_by_key: dict[bytes, set[tuple[tuple[bytes, ...], bytes]]] = {}
    for state, _ in _random_walks(problem, rules, f"keys-{name}", deals=range(1, 41), length=80):
        columns = list(state[0])
        shuffle.shuffle(columns)
        key = problem.key(state)
        assert problem.key((tuple(columns), state[1], state[2])) == key
        tables_by_key.setdefault(key, set()).add((tuple(sorted(state[0])), state[1]))
    assert len(tables_by_key) > 400
    assert all(len(tables) == 1 for tables in tables_by_key.values())


def _columns_moved(step: Step, place: dict[int, int]) -> Step:
    """``step`` with each column ``i`` it names as ``place[i]``."""
    source, target, count = step
    return (place[source] if source < CELL else source, place[target] if target < CELL else target, count)


@pytest.mark.parametrize(
    ("name", "complete", "eager"),
    [
        ("standard", False, True),
        ("eight-off", False, True),
        ("app", True, False),
        ("double", False, False),
        ("double", False, True),
    ],
)
def test_a_table_makes_the_same_children_whatever_the_order_of_its_columns(
    name: str, complete: bool, eager: bool
) -> None:
    """A move's child, with the cards sent home after it, has the key of the same move's
    child from the table with its columns in another order: tables with one key are one
    table to a search (and to a win cut short). With two decks an eager problem may send
    home either of two copies of a card, and must choose by the cards, not their places.
    Over the positions of depth-first walks, each table shuffled."""
    rules = find_rules(name)
    problem = FreeCellProblem(rules, complete=complete, eager=eager)
    walker = _Recording(problem)
    for number in range(1, 9):
        start, _ = problem.initial(Deal(rules, number).position())
        DepthFirst(walker, start).run(Budget(SearchLimit(positions=1_500)))
    shuffle = random.Random(f"children-{name}-{complete}-{eager}")
    compared = 0
    for state in walker.states:
        order = list(range(len(state[0])))
        shuffle.shuffle(order)
        shuffled = (tuple(state[0][i] for i in order), state[1], state[2])
        place = {old: new for new, old in enumerate(order)}
        for step in problem.moves(state):
            parts = tuple(_columns_moved(part, place) for part in fused_moves(step)) if step[0] == FUSED else ()
            moved = fused(parts) if parts else _columns_moved(step, place)
            child, via = problem.play(state, step)
            assert problem.key(problem.play(shuffled, moved)[0]) == problem.key(child), (state, step)
            compared += len(via) > 1
    assert compared > 100, compared  # children with cards sent home after the move


def test_the_ready_table_marks_each_card_its_piles_height_wants() -> None:
    """For every foundations of one deck, ``ready_table`` marks exactly the cards one rank
    above their suit's pile, and is ``NO_CARDS`` itself once every card is home."""
    for heights in itertools.product(range(14), repeat=4):
        foundations = bytes(heights)
        table = ready_table(foundations)
        assert table == bytes(heights[card & 3] == card >> 2 for card in range(52)), heights
        assert (table is NO_CARDS) is (heights == (13, 13, 13, 13)), heights


@pytest.mark.parametrize(("name", "cells", "complete", "eager", "fused"), _WALKED_PROBLEMS)
def test_an_unseen_child_is_the_child_played_with_its_own_key(
    name: str, cells: int, complete: bool, eager: bool, fused: bool
) -> None:
    """Along random walks through deals, ``unseen_child`` gives for each step the child
    that playing it makes, the steps taken and that child's own key (its key told from
    the parent's or not), and None once that key has been seen."""
    rules = find_rules(name, cells=cells)
    problem = FreeCellProblem(rules, complete=complete, eager=eager, fused=fused)
    walks = _random_walks(problem, rules, f"unseen-{name}-{cells}-{complete}", deals=range(1, 30), length=80)
    for state, moves in walks:
        key = problem.key(state)
        for step in moves:
            child, via = problem.play(state, step)
            assert problem.unseen_child({}, state, key, step) == (problem.key(child), child, via), (state, step)
            assert problem.unseen_child({problem.key(child): None}, state, key, step) is None


@pytest.mark.parametrize(
    ("name", "cells", "complete", "eager"),
    [
        ("standard", 4, False, True),
        ("app", 1, False, True),
        ("standard", 4, False, False),
        ("app", 1, True, False),
        ("double", 6, False, True),
        ("double", 6, False, False),
    ],
)
def test_the_safe_cards_are_told_from_the_foundations_only_where_they_are_the_ready_ones(
    name: str, cells: int, complete: bool, eager: bool
) -> None:
    """An eager problem with one deck tells the cards safe to send home from the
    foundations (``safe_when_ready``): those that may go home. Along random walks it
    makes the same children, sends the same cards home and tells the same keys as the
    same problem looking the table of safe cards up. Not eager, some card that may go
    home is not safe (the walks meet such cards), and with two decks a card's suit does
    not name its pile: the table is looked up there."""
    rules = find_rules(name, cells=cells)
    problem = FreeCellProblem(rules, complete=complete, eager=eager)
    looked_up = FreeCellProblem(rules, complete=complete, eager=eager)
    looked_up.safe_when_ready = False
    assert problem.safe_when_ready is (eager and rules.decks == 1)
    for number in range(1, 4):
        position = Deal(rules, number).position()
        assert problem.initial(position) == looked_up.initial(position)
    unsafe = 0
    walks = _random_walks(problem, rules, f"ready-{name}-{cells}-{complete}-{eager}", deals=range(1, 30), length=80)
    for state, moves in walks:
        key = problem.key(state)
        for step in moves:
            assert problem.play(state, step) == looked_up.play(state, step), (state, step)
            assert problem.child_key(state, key, step) == looked_up.child_key(state, key, step), (state, step)
        ready, safe = problem.homeward_cards(state[2])
        exposed = [column[-1] for column in state[0] if column] + list(state[1])
        unsafe += any(ready[card] and not safe[card] for card in exposed)
    if not eager:
        assert unsafe > 10, unsafe


@pytest.mark.parametrize("name", ["standard", "double"])
def test_a_card_raises_the_pile_it_goes_to_for_every_pile(name: str) -> None:
    """``_raised`` raises the pile a card goes to, each pile of one deck or two (the
    second copy of a card goes to its suit's second pile), from foundations met first
    and again."""
    rules = find_rules(name)
    problem = FreeCellProblem(rules, complete=False, eager=True)
    piles = 4 * rules.decks
    foundations = bytes(piles)
    for pile in range(piles):
        raised = problem._raised(foundations, pile & 3)  # an ace of the pile's suit
        assert raised == bytes(1 if p <= pile else 0 for p in range(piles)), (pile, raised)
        assert problem._raised(foundations, pile & 3) is raised  # looked up again
        foundations = raised
    assert foundations == bytes([1] * piles)


@pytest.mark.parametrize("name", ["standard", "bakers-game", "double"])
def test_cards_put_below_a_columns_lowest_are_rated_as_the_child(name: str) -> None:
    """rate() tells the value of a column that a card or run is put on from the column's
    own where the run's top card is no higher than the column's lowest (it becomes the
    lowest, at depth 0): along random walks, each such step, from a column or a cell,
    is rated with its child's heuristic, and there are many of both."""
    rules = find_rules(name)
    problem = FreeCellProblem(rules, complete=False)
    from_column = from_cell = 0
    for state, listed in _random_walks(problem, rules, name, deals=range(1, 49), length=60):
        columns, _, _ = state
        rated = {step: h for h, step, _, made in problem.rated_moves(state) if made is None}
        for step in listed:
            source, target, _ = step
            if step not in rated or source >= HOME or target >= CELL or not columns[target]:
                continue
            top = columns[source][-1] if source < CELL else source - CELL
            if top >> 2 > min(card >> 2 for card in columns[target]):
                continue
            child = problem.play(state, step)[0]
            assert rated[step] == (WON if problem.is_goal(child) else problem.heuristic(child)), (state, step)
            if source < CELL:
                from_column += 1
            else:
                from_cell += 1
    assert from_column > 30 and from_cell > 20, (from_column, from_cell)
