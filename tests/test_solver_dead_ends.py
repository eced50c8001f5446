"""Dead ends: a depth-first walk that goes on past its goals finds the states from
which no goal can be reached (Tarjan's components), and the game's searches pass by
the positions whose relaxed class is one of them (see ``DeadEnds`` in
:mod:`freecell.solver.board`).

The walk is checked on small graphs against reachability worked out by brute force,
and on small tables against the public rules engine: no position that can be won lies
in a class the walk calls dead."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.test_solver import assert_wins, in_play
from tests.test_solver_twins import EVERY_RELAXATION, LOOSEST, relaxed, tables_with_runs

from freecell import Deal, find_rules
from freecell.position import Move, Place, Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveStatus, losses, solve
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst
from freecell.solver.plan import plan_for
from freecell.solver.search import Budget, SearchEnd
from freecell.solver.twins import DeadEnds


class Graph:
    """A walkable problem over a directed graph: a state is a node, a move the node it
    leads to, and the move back is listed where the graph has that edge."""

    def __init__(self, edges: dict[int, list[int]], goals: set[int]) -> None:
        self.edges = edges
        self.goals = goals

    def key(self, state: int) -> bytes:
        return str(state).encode()

    def is_goal(self, state: int) -> bool:
        return state in self.goals

    def moves(self, state: int) -> Sequence[int]:
        return self.edges[state]

    def play(self, state: int, move: int) -> tuple[int, int]:
        return move, move

    def reverse(self, state: int, move: int, child: int, via: int) -> int | None:
        return state if state in self.edges[child] else None

    def child_key(self, state: int, key: bytes, move: int) -> bytes | None:
        return None


def _reaching(edges: dict[int, list[int]], start: int, stops: frozenset[int] = frozenset()) -> set[int]:
    """The nodes ``start`` reaches (itself included), going on from none of ``stops``."""
    seen, todo = {start}, [start]
    while todo:
        node = todo.pop()
        if node in stops:
            continue
        for following in edges[node]:
            if following not in seen:
                seen.add(following)
                todo.append(following)
    return seen


@st.composite
def graphs(draw: st.DrawFn) -> tuple[dict[int, list[int]], set[int]]:
    size = draw(st.integers(1, 14))
    edges = {
        node: draw(st.lists(st.integers(0, size - 1), max_size=4, unique=True)) for node in range(size)
    }
    goals = draw(st.sets(st.integers(1, size), max_size=3)) & set(range(1, size))
    return edges, goals


@settings(max_examples=400, deadline=None, derandomize=True)
@given(graphs(), st.integers(1, 5), st.integers(1, 3))
def test_the_walk_calls_dead_only_states_that_reach_no_goal(
    graph: tuple[dict[int, list[int]], set[int]], cap: int, block: int
) -> None:
    """Run a few states at a time (small blocks, so that levels are made again), to its
    first goal or its end: every state called dead reaches no goal, and where no goal
    is reached every state seen is called dead."""
    edges, goals = graph
    walk = DepthFirst(Graph(edges, goals), 0, dead_ends=True, block=block)
    budget = Budget(SearchLimit())
    outcome = SearchEnd.LIMIT
    for _ in range(100):
        outcome = walk.run(budget, cap).outcome
        for key in walk.dead:
            assert not _reaching(edges, int(key)) & goals
        if outcome is not SearchEnd.LIMIT:
            break
    reachable = _reaching(edges, 0, frozenset(goals))  # a goal met is not gone on from
    assert outcome is (SearchEnd.FOUND if reachable & goals else SearchEnd.EXHAUSTED)
    if outcome is SearchEnd.EXHAUSTED:
        assert {int(key) for key in walk.dead} == reachable


def test_a_component_is_dead_once_closed_though_its_states_lead_back_to_the_path() -> None:
    """0 -> 1 <-> 2 (dead: they lead only to each other), 0 -> 3 <-> 4 -> 5 (a goal):
    the walk closes 1 and 2 as dead before it meets the goal; 3 and 4 it leaves pending.
    With 2 -> 0 as well, 1 and 2 reach the goal through 0, and are never called dead."""
    edges = {0: [1, 3], 1: [2], 2: [1], 3: [4], 4: [3, 5], 5: []}
    walk = DepthFirst(Graph(edges, {5}), 0, dead_ends=True)
    assert walk.run(Budget(SearchLimit())).outcome is SearchEnd.FOUND
    assert walk.dead == {b"1", b"2"}
    edges[2] = [1, 0]
    walk = DepthFirst(Graph(edges, {5}), 0, dead_ends=True)
    assert walk.run(Budget(SearchLimit())).outcome is SearchEnd.FOUND
    assert walk.dead == set()


PositionKey = tuple[object, ...]


def _winnable_positions(
    start: Position, rules: Rules, most: int = 6_000
) -> tuple[set[PositionKey], list[Position]] | None:
    """Brute force over the public rules engine: every position reachable from
    ``start``, and the keys of those from which a table with no card in play is; None
    where they are more than ``most``."""
    positions = {start.key(): start}
    edges: dict[PositionKey, list[PositionKey]] = {}
    todo = [start]
    while todo:
        position = todo.pop()
        key = position.key()
        edges[key] = []
        for move in position.legal_moves(rules):
            following = position.apply_unchecked(move)
            following_key = following.key()
            edges[key].append(following_key)
            if following_key not in positions:
                positions[following_key] = following
                todo.append(following)
        if len(positions) > most:
            return None
    won = {key for key, position in positions.items() if in_play(position) == 0}
    into: dict[PositionKey, list[PositionKey]] = {key: [] for key in positions}
    for key, targets in edges.items():
        for target in targets:
            into[target].append(key)
    todo_keys = list(won)
    while todo_keys:
        for source in into[todo_keys.pop()]:
            if source not in won:
                won.add(source)
                todo_keys.append(source)
    return won, list(positions.values())


@settings(
    max_examples=100, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(tables_with_runs(), st.sampled_from(EVERY_RELAXATION), st.booleans())
def test_no_position_that_can_be_won_lies_in_a_dead_class(
    table: tuple[Position, Rules], twins: int, fused: bool
) -> None:
    """Every relaxed problem, its cards taken back one at a time or fused, walked to its
    end on a small table: the class of each position the game reaches from the table
    (its safe cards sent home, as a search holds it) is dead only where that position
    cannot be won."""
    start, rules = table
    brute_force = _winnable_positions(start, rules)
    assume(brute_force is not None)
    assert brute_force is not None
    won, reached = brute_force
    problem = relaxed(rules, twins, fused=fused)
    walk = DepthFirst(problem, problem.initial(start)[0], dead_ends=True)
    budget = Budget(SearchLimit())
    outcome = walk.run(budget).outcome  # to its first goal or its end
    if start.key() in won:
        assert outcome is SearchEnd.FOUND
    for position in reached:
        if position.key() in won:
            assert problem.key(problem.initial(position)[0]) not in walk.dead, position.to_text()


APP_1 = find_rules("app", cells=1)


def test_dead_ends_decide_a_deal_the_searches_alone_cannot_within_the_limit() -> None:
    """App, 1 cell, deal 11548 (won): the first relaxed walk meets a goal after 23,120
    classes, which proves nothing. Passing by the dead classes it found on the way, the
    solve wins within the in-play limit's 300,000 positions (245,561); without them it
    stops at that limit. (Deal 31485, a loss the dead ends decided here before, is now
    proven by the first walk alone: its twins are loose only in built runs.)"""
    position = Deal(APP_1, 11548).position()
    limit = SearchLimit(positions=300_000)
    result = solve(position, APP_1, limit=limit)
    assert result.status is SolveStatus.SOLVED
    assert_wins(position, APP_1, result.moves)
    losses.LOST.clear()
    plan = plan_for(APP_1)
    assert plan.walks is not None
    without = dataclasses.replace(plan, walks=dataclasses.replace(plan.walks, dead_ends=False))
    assert solve(position, APP_1, limit=limit, plan=without).status is SolveStatus.LIMIT_REACHED


def test_dead_ends_of_each_kind_are_asked_in_their_own_keys() -> None:
    """Sets of classes and sets of positions (a relaxed walk's, a proof's) may lie in one
    ``DeadEnds``, in any order: a position is passed by when its key of some kind is in
    a set of that kind."""
    position = Deal(APP_1, 3972).position()
    game = FreeCellProblem(APP_1, complete=True)  # no twins: its keys are positions
    loose = relaxed(APP_1, LOOSEST)
    state = game.initial(position)[0]
    assert game.key(state) != loose.key(state)
    for kinds in ([game, loose], [loose, game]):
        dead_ends = DeadEnds()
        for problem in kinds:
            dead_ends.add(problem, {b"another key"})
        assert not dead_ends.holds(state)
        dead_ends.add(loose, {game.key(state)})  # a key of the other kind
        assert not dead_ends.holds(state)
        dead_ends.add(kinds[0], {kinds[0].key(state)})
        assert dead_ends.holds(state)


def test_a_later_solve_of_the_game_goes_on_past_the_dead_ends_an_earlier_one_found() -> None:
    """App, 1 cell, deal 3972 (lost): its first walk runs out after 195,085 classes. A
    solve of the deal stops at 150,000 positions; a solve of the position one move on
    (the sixth column's top card onto the second column), with the same limit, passes
    by the classes the first found dead and proves the loss. With nothing remembered,
    it too stops at the limit."""
    start = Deal(APP_1, 3972).position()
    limit = SearchLimit(positions=150_000)
    assert solve(start, APP_1, limit=limit).status is SolveStatus.LIMIT_REACHED
    assert losses.kept_count() > 0  # the dead ends it found
    later = start.apply(Move(Place.column(5), Place.column(1), 1), APP_1)
    assert solve(later, APP_1, limit=limit).status is SolveStatus.UNSOLVABLE
    losses.LOST.clear()
    assert solve(later, APP_1, limit=limit).status is SolveStatus.LIMIT_REACHED


def test_the_dead_ends_kept_for_later_solves_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a solve's walks found dead is kept only within ``LOST_KEPT`` keys in all."""
    position = Deal(APP_1, 3972).position()
    limit = SearchLimit(positions=150_000)
    solve(position, APP_1, limit=limit)
    found = losses.kept_count()
    assert found > 50_000
    losses.LOST.clear()
    monkeypatch.setattr(losses, "LOST_KEPT", 50_000)
    solve(position, APP_1, limit=limit)
    assert losses.kept_count() <= 50_000


def test_keys_kept_again_count_once_toward_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A walk that proves a loss keeps the classes it saw, its dead ends among them:
    keeping those again adds nothing, and forgets nothing kept before. Past the bound,
    the older keys go."""
    monkeypatch.setattr(losses, "LOST_KEPT", 3)
    other = losses.LOST.setdefault((APP_1, b""), {}).setdefault(LOOSEST, {b"class"})
    kept = losses.LOST[APP_1, b""].setdefault(0, set())
    losses.keep_lost(kept, {b"a", b"b"})
    losses.keep_lost(kept, {b"a", b"b"})
    assert kept == {b"a", b"b"} and other == {b"class"}
    losses.keep_lost(kept, {b"c"})
    assert kept == {b"c"} and not other


def test_a_later_solve_that_passes_remembered_dead_ends_by_still_wins() -> None:
    """App, 1 cell, deal 16187 (won past many dead classes): a solve stopped early
    leaves its dead ends, and a later solve of the deal that passes them by wins; the
    moves replay to a win."""
    position = Deal(APP_1, 16187).position()
    assert solve(position, APP_1, limit=SearchLimit(positions=60_000)).status is SolveStatus.LIMIT_REACHED
    assert any(losses.LOST.values())
    result = solve(position, APP_1, limit=SearchLimit(positions=2_000_000))
    assert result.status is SolveStatus.SOLVED
    assert_wins(position, APP_1, result.moves)


@pytest.mark.parametrize("number", [16187, 26030])
def test_a_search_that_passes_dead_ends_by_still_wins(number: int) -> None:
    """App, 1 cell: deals the walks meet goals on, won past many dead classes; the moves
    replay to a win."""
    position = Deal(APP_1, number).position()
    result = solve(position, APP_1, limit=SearchLimit(positions=2_000_000))
    assert result.status is SolveStatus.SOLVED
    assert_wins(position, APP_1, result.moves)


def test_a_walk_whose_memory_runs_short_drops_its_dead_ends_and_goes_on_as_a_proof() -> None:
    """App, 1 cell, deal 3318 (lost), its loosest relaxed walk with the keys spilled to
    disk after 2,000: the dead ends found until then go (the memory is short), and the
    walk still runs out of classes, over as many as without a spill."""
    position = Deal(APP_1, 3318).position()
    problem = relaxed(APP_1, LOOSEST)
    whole = DepthFirst(problem, problem.initial(position)[0], dead_ends=True)
    assert whole.run(Budget(SearchLimit())).outcome is SearchEnd.EXHAUSTED
    assert len(whole.dead) == len(whole.seen) == 6_334
    walk = DepthFirst(problem, problem.initial(position)[0], dead_ends=True, spill_at=2_000)
    assert walk.run(Budget(SearchLimit())).outcome is SearchEnd.EXHAUSTED
    assert walk.keys_spilled > 0 and not walk.tracks and not walk.dead
    assert walk.expanded == whole.expanded
