"""Short solutions: ``solve(..., short=True)``, its beam searches, ``shorten()``, and
``shortcut()``, which cuts short the long wins a depth-first proof finds.

Every solution is replayed by the rules engine. The fewest moves of a small endgame come
from a brute-force search over the public rules engine, which shares no code with the
solver.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from pathlib import Path

import pytest

from freecell import Deal, find_rules
from freecell.position import PlaceKind, Position
from freecell.replay import replay
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveStatus, searches, solve, solve_deal
from freecell.solver.beam import beam_search
from freecell.solver.board import FreeCellProblem
from freecell.solver.depth_first import DepthFirst
from freecell.solver.plan import plan_for
from freecell.solver.search import Budget, SearchEnd
from freecell.solver.shortcut import shortcut
from freecell.solver.shorten import shorten
from freecell.solver.steps import HOME
from freecell.solver.transcript import SolverError, count_non_foundation, write_moves

DATA = Path(__file__).parent / "data" / "solver"
STANDARD = find_rules("standard")


def in_play(position: Position) -> int:
    return sum(len(column) for column in position.columns) + sum(card is not None for card in position.cells)


def assert_wins(start: Position, rules: Rules, moves: tuple[str, ...] | list[str]) -> None:
    end = replay(start, rules, moves)
    assert in_play(end) == 0, end.to_text()


def fewest_moves(start: Position, rules: Rules, most: int = 50_000) -> int:
    """Brute force over the public rules engine (0-1 breadth-first): the fewest moves
    that do not go home in any win from ``start``."""
    best = {start.key(): 0}
    queue = deque([(0, start)])
    while queue:
        moves, position = queue.popleft()
        if best[position.key()] < moves:
            continue
        if in_play(position) == 0:
            return moves
        for move in position.legal_moves(rules):
            following = position.apply_unchecked(move)
            cost = moves + (move.target.kind is not PlaceKind.FOUNDATION)
            key = following.key()
            if best.get(key, cost + 1) > cost:
                best[key] = cost
                (queue.appendleft if cost == moves else queue.append)((cost, following))
        assert len(best) < most, "the brute force grew too large for a test"
    raise AssertionError("no win from this position")


# --- solve(short=True) under every kind of rules --------------------------------------------

SHORT_DEALS = [
    ("standard", None, 1),
    ("standard", None, 38),
    ("standard", 2, 7),
    ("strict", None, 2),
    ("bakers-game", None, 7),
    ("eight-off", None, 2),
    ("cardems", None, 8),
    pytest.param("double", None, 6, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("name", "cells", "number"), SHORT_DEALS)
def test_a_short_solution_wins_and_is_no_longer_than_the_default(name: str, cells: int | None, number: int) -> None:
    rules = find_rules(name, cells=cells)
    deal = Deal(rules, number)
    plain = solve_deal(deal)
    short = solve_deal(deal, short=True)
    assert plain.status is SolveStatus.SOLVED and short.status is SolveStatus.SOLVED
    assert_wins(deal.position(), rules, short.moves)
    assert short.non_foundation_moves == count_non_foundation(short.moves)
    assert short.non_foundation_moves <= plain.non_foundation_moves
    assert short.expanded > plain.expanded  # the searches for a shorter win are counted too


def test_short_finds_the_fewest_moves_of_a_small_endgame() -> None:
    # A position from deal 38 where the default search took 10 moves when this test was
    # written; the brute force knows the least there is.
    start = Position.from_text((DATA / "deal38-endgame.board").read_text(), STANDARD)
    least = fewest_moves(start, STANDARD)
    result = solve(start, STANDARD, short=True)
    assert result.status is SolveStatus.SOLVED
    assert_wins(start, STANDARD, result.moves)
    assert result.non_foundation_moves <= least


def test_a_short_solve_within_a_tiny_budget_still_returns_a_checked_win() -> None:
    deal = Deal(STANDARD, 1)
    plain = solve_deal(deal, limit=SearchLimit(positions=2_000))
    short = solve_deal(deal, limit=SearchLimit(positions=plain.expanded + 1), short=True)
    assert short.status is SolveStatus.SOLVED
    assert_wins(deal.position(), STANDARD, short.moves)
    assert short.non_foundation_moves <= plain.non_foundation_moves


# --- the beam search ------------------------------------------------------------------------


def _beam(number: int, **options: int) -> tuple[object, int]:
    problem = FreeCellProblem(STANDARD, complete=False, eager=True)
    start, _ = problem.initial(Deal(STANDARD, number).position())
    limit = SearchLimit(positions=options.pop("positions", 1_000_000))
    run = beam_search(problem, start, Budget(limit), cost=lambda step: int(step[1] != HOME), **options)
    return run.outcome, sum(1 for via in run.path if via[0][1] != HOME)


def test_a_beam_finds_a_win_cheaper_than_its_bound() -> None:
    outcome, cost = _beam(1, width=50, bound=60)
    assert outcome is SearchEnd.FOUND
    assert 0 < cost < 60


def test_a_beam_bounded_below_any_win_finds_nothing() -> None:
    assert _beam(1, width=50, bound=5) == (SearchEnd.EXHAUSTED, 0)


def test_a_beam_stops_when_the_budget_is_spent() -> None:
    assert _beam(1, width=50, positions=30) == (SearchEnd.LIMIT, 0)


# --- shorten() ------------------------------------------------------------------------------


def _a_run_of_two(position: Position) -> int:
    """A column whose exposed card lies on a card it may lie on: it can go to a cell and
    come back."""
    return next(i for i in range(len(position.columns)) if position.run_length(i, STANDARD.building) >= 2)


@pytest.mark.parametrize("number", [6, 8, 12])
def test_shorten_drops_a_detour_through_a_cell(number: int) -> None:
    deal = Deal(STANDARD, number)
    start = deal.position()
    moves = list(solve_deal(deal).moves)
    column = str(_a_run_of_two(start) + 1)
    detoured = [column + "a", "a" + column, *moves]
    assert_wins(start, STANDARD, detoured)
    shorter = shorten(start, STANDARD, detoured)
    assert_wins(start, STANDARD, shorter)
    assert count_non_foundation(shorter) <= count_non_foundation(moves)


def test_shorten_sends_a_card_straight_where_a_cell_took_it() -> None:
    deal = Deal(STANDARD, 5)
    start = deal.position()
    move = next(
        move
        for move in start.legal_moves(STANDARD)
        if move.source.kind is move.target.kind is PlaceKind.COLUMN and move.count == 1
    )
    source, target = str(move.source.index + 1), str(move.target.index + 1)
    then = replay(start, STANDARD, [source + target])
    detoured = [source + "a", "a" + target, *solve(then, STANDARD).moves]
    assert_wins(start, STANDARD, detoured)
    shorter = shorten(start, STANDARD, detoured)
    assert_wins(start, STANDARD, shorter)
    assert count_non_foundation(shorter) < count_non_foundation(detoured)


def test_shorten_leaves_a_solution_without_waste_as_it_is() -> None:
    start = Position.from_text((DATA / "deal38-endgame.board").read_text(), STANDARD)
    result = solve(start, STANDARD, short=True)
    assert shorten(start, STANDARD, list(result.moves)) == list(result.moves)


def _cut_short(name: str, cells: int, number: int, *, depth: int = 3, window: int | None = None) -> tuple[int, int]:
    """A depth-first win of deal ``number`` (thousands of moves), then :func:`shortcut`
    with ``depth`` and ``window``: checks that the result is a win the rules engine replays and is
    never longer than the path. The path's length and the result's."""
    rules = find_rules(name, cells=cells)
    position = Deal(rules, number).position()
    problem = FreeCellProblem(rules, complete=rules.takes_back)
    start, first = problem.initial(position)
    run = DepthFirst(problem, start).run(Budget(SearchLimit(positions=300_000)))
    assert run.outcome is SearchEnd.FOUND and len(run.path) > 1_000
    walker = FreeCellProblem(rules, complete=rules.takes_back, runs=True)
    path, goal = shortcut(walker, start, run.path, depth=depth, window=window)
    assert len(path) <= len(run.path)
    moves = write_moves(position, rules, first + [step for via in path for step in via] + problem.finish(goal))
    assert_wins(position, rules, moves)
    return len(run.path), len(path)


@pytest.mark.parametrize(("name", "cells", "number"), [("standard", 4, 1), ("standard", 4, 617), ("app", 2, 5)])
def test_shortcut_makes_a_depth_first_win_far_shorter_and_it_still_wins(name: str, cells: int, number: int) -> None:
    """Depth first alone wanders to a win of thousands of moves (1,598, 2,595 and 3,724
    here); looking a few moves ahead along it finds one of at most a few hundred that
    the rules engine replays, and looking fewer moves ahead is never longer than the
    path either. Under take-back rules over the complete problem, take-backs and all."""
    for depth in (1, 2, 3):
        whole, cut = _cut_short(name, cells, number, depth=depth)
    assert cut < whole / 5


@pytest.mark.parametrize(("name", "cells", "number"), [("standard", 4, 1), ("app", 2, 5)])
def test_a_path_cut_short_a_stretch_at_a_time_still_wins(name: str, cells: int, number: int) -> None:
    """With a window (the memory left holds the keys of part of the path only), the
    path is cut short a stretch at a time: still a win the rules engine replays, never
    longer than the path, far shorter with stretches of a few hundred moves (1,598
    moves became 192, and 3,724 became 206), and with one stretch as long as the path,
    what the whole path's keys give."""
    whole, unwindowed = _cut_short(name, cells, number)
    lengths = {window: _cut_short(name, cells, number, window=window)[1] for window in (1, 40, 300, whole)}
    assert lengths[300] < whole / 3
    assert lengths[whole] == unwindowed


def test_a_win_that_the_proof_finds_comes_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard rules, 2 cells, deal 10, with the proof begun after 2,000 positions and
    no late search: the proof finds a win of 589 moves, and the solve gives one of at
    most half that, replayed."""
    rules = find_rules("standard", cells=2)
    position = Deal(rules, 10).position()
    plan = plan_for(rules)
    plan = dataclasses.replace(plan, hand_over=dataclasses.replace(plan.hand_over, at=2_000, late=()))
    limit = SearchLimit(positions=100_000)
    cut = solve(position, rules, limit=limit, plan=plan)
    left_whole = []

    def declined(*_: object, **__: object) -> None:  # a win that cannot be cut short stays whole
        left_whole.append(1)
        raise SolverError("not cut short in this test")

    monkeypatch.setattr(searches, "shortcut", declined)
    whole = solve(position, rules, limit=limit, plan=plan)
    assert left_whole
    assert cut.solved and whole.solved
    assert_wins(position, rules, cut.moves)
    assert_wins(position, rules, whole.moves)
    assert len(whole.moves) > 500
    assert len(cut.moves) <= len(whole.moves) / 2
