"""The solver: every solution is replayed by the rules engine, every verdict is checked.

Small positions are checked against a brute-force search over the public rules engine
(``Position.legal_moves``), which shares no code with the solver's own move generator.
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from freecell import Deal, find_rules
from freecell.notation import parse_move
from freecell.position import Position
from freecell.replay import replay
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus, searches, solve, solve_deal, solving
from freecell.solver.board import FreeCellProblem
from freecell.solver.plan import PORTFOLIO, RESTARTS, SLICE, TIGHT_FINAL, TWO_CELL_FINAL, Plan, Strategy, plan_for
from freecell.solver.search import Alternating, BestFirst, Budget, SearchEnd
from freecell.solver.searches import Search, Searches
from freecell.solver.steps import HOME, Steps
from freecell.solver.transcript import SolverError, write_moves

DATA = Path(__file__).parent / "data" / "solver"


def in_play(position: Position) -> int:
    return sum(len(column) for column in position.columns) + sum(card is not None for card in position.cells)


def assert_wins(start: Position, rules: Rules, moves: tuple[str, ...]) -> None:
    end = replay(start, rules, moves)
    assert in_play(end) == 0, end.to_text()


def winnable(start: Position, rules: Rules, most: int = 200_000) -> bool:
    """Brute force over the public rules engine: is a table with no card in play reachable?"""
    seen = {start.key()}
    frontier = [start]
    while frontier:
        position = frontier.pop()
        if in_play(position) == 0:
            return True
        for move in position.legal_moves(rules):
            following = position.apply_unchecked(move)
            key = following.key()
            if key not in seen:
                seen.add(key)
                frontier.append(following)
        assert len(seen) < most, "the brute force grew too large for a test"
    return False


# --- full deals under every preset ----------------------------------------------------------

PRESET_DEALS = [
    ("standard", None, 1),
    ("standard", None, 3),
    ("standard", 2, 7),
    ("strict", None, 2),
    ("supermove", None, 7),
    ("bakers-game", None, 7),
    ("eight-off", None, 2),
    ("double", None, 6),
    ("double", None, 12305),  # its win, cut short, once met a table whose columns lay in another order
    ("app", 4, 3),
    ("app", 2, 2),
    ("app", 1, 7),
    ("cardems", None, 8),
]


@pytest.mark.parametrize(("name", "cells", "number"), PRESET_DEALS)
def test_deals_under_every_preset_are_solved_and_replay_to_a_win(name: str, cells: int | None, number: int) -> None:
    rules = find_rules(name, cells=cells)
    deal = Deal(rules, number)
    result = solve_deal(deal, limit=SearchLimit(seconds=60))
    assert result.status is SolveStatus.SOLVED
    assert_wins(deal.position(), rules, result.moves)
    home = sum(1 for move in result.moves if len(move) == 2 and move[1] == "h")
    assert home >= rules.card_count  # every foundation move is written out
    assert result.non_foundation_moves == len(result.moves) - home
    assert result.expanded > 0 and result.generated >= result.expanded


def test_strict_solutions_move_one_card_at_a_time() -> None:
    rules = find_rules("strict")
    start = Deal(rules, 5).position()
    result = solve(start, rules)
    assert result.status is SolveStatus.SOLVED
    position = start
    for text in result.moves:
        move = parse_move(text, position, rules)
        assert move.count == 1, text
        position = position.apply(move, rules)
    assert in_play(position) == 0


def test_a_win_that_cannot_be_cut_short_still_stands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cutting a long win short is an economy: where it fails, the win found is kept as
    it is, replayed like any other, rather than lost to an error."""
    rules = find_rules("double")
    deal = Deal(rules, 12305)  # its win, found best first, passes 100 steps
    cut = solve_deal(deal)

    calls = []

    def broken(*_: object, **__: object) -> None:
        calls.append(1)
        raise SolverError("a path to cut short is not a win over its problem")

    monkeypatch.setattr(searches, "shortcut", broken)
    uncut = solve_deal(deal)
    assert calls
    assert uncut.status is SolveStatus.SOLVED
    assert_wins(deal.position(), rules, uncut.moves)
    assert len(uncut.moves) >= len(cut.moves)


def test_short_solutions_are_no_longer_and_still_win() -> None:
    rules = find_rules("standard")
    deal = Deal(rules, 4)
    plain = solve_deal(deal)
    short = solve_deal(deal, short=True)
    assert short.status is SolveStatus.SOLVED
    assert short.non_foundation_moves <= plain.non_foundation_moves
    assert_wins(deal.position(), rules, short.moves)


def test_a_mid_game_board_is_solved_from_where_it_stands() -> None:
    rules = find_rules("standard")
    start = Position.from_text((DATA / "deal1-midgame.board").read_text(), rules)
    assert start.cards_home == 5 and start.empty_cells == 0
    result = solve(start, rules)
    assert result.status is SolveStatus.SOLVED
    assert_wins(start, rules, result.moves)


# --- small positions with a known verdict ---------------------------------------------------

STANDARD = find_rules("standard")


def _small_rules(name: str, *, columns: int, cells: int) -> Rules:
    """A preset on a smaller table, so that small positions are tight."""
    rules = find_rules(name)
    return dataclasses.replace(rules, columns=columns, cells=cells, cell_options=(cells,), dealt_to_cells=0)


def board(text: str, rules: Rules = STANDARD) -> Position:
    return Position.from_text(text, rules, partial=True)


def test_a_position_already_won_needs_no_move() -> None:
    result = solve(board("Foundations: H-K C-K D-K S-K\n"), STANDARD)
    assert result.status is SolveStatus.SOLVED
    assert result.moves == ()


@pytest.mark.parametrize("enabled", [True, False])
def test_a_solve_pauses_the_garbage_collector_and_leaves_it_as_it_was(
    enabled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bool] = []

    def spy(*args: Any) -> SolveResult:
        seen.append(gc.isenabled())
        return solving_now(*args)

    solving_now = solving._solve
    monkeypatch.setattr(solving, "_solve", spy)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        assert solve(Deal(STANDARD, 1).position(), STANDARD).solved
        assert gc.isenabled() is enabled
        monkeypatch.setattr(solving, "_solve", lambda *args: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            solve(Deal(STANDARD, 1).position(), STANDARD)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
    assert seen == [False]


def test_the_last_cards_go_home_in_order() -> None:
    start = board("Foundations: H-J C-K D-K S-K\n: KH QH\n")
    result = solve(start, STANDARD)
    assert result.moves == ("1h", "1h")
    assert result.non_foundation_moves == 0


def test_a_king_lying_on_its_queen_is_moved_aside_first() -> None:
    start = board("Foundations: H-J C-K D-K S-K\n: QH KH\n")
    result = solve(start, STANDARD)
    assert result.status is SolveStatus.SOLVED
    assert result.non_foundation_moves == 1
    assert_wins(start, STANDARD, result.moves)


def test_a_table_with_no_legal_move_is_lost() -> None:
    rules = find_rules("standard", cells=0)
    # Black tops never build on black, and every ace lies buried.
    start = board(
        "Foundations: H-0 C-0 D-0 S-0\n"
        ": AH KC\n: AD KS\n: AC QC\n: AS QS\n: 2H JC\n: 2D JS\n: 2C TC\n: 2S TS\n",
        rules,
    )
    result = solve(start, rules)
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.moves == ()


def test_a_loss_that_takes_a_search_to_prove() -> None:
    rules = _small_rules("standard", columns=3, cells=1)
    start = board("Foundations: H-4 C-0 D-1 S-J\nFreecells: KS\n: AC 6H 7H 4C 3C\n:\n: 2C 5H QS\n", rules)
    assert not winnable(start, rules)
    result = solve(start, rules)
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.expanded > 10


def test_limit_reached_is_reported_without_guessing() -> None:
    result = solve_deal(Deal(STANDARD, 5), limit=SearchLimit(positions=5))
    assert result.status is SolveStatus.LIMIT_REACHED
    assert result.moves == ()
    assert result.expanded == 5


def test_a_time_limit_stops_the_search() -> None:
    result = solve_deal(Deal(STANDARD, 11982), limit=SearchLimit(seconds=0.05))
    assert result.status is SolveStatus.LIMIT_REACHED
    assert result.seconds < 5


def test_a_table_of_another_layout_is_refused() -> None:
    with pytest.raises(ValueError, match="2 cells"):
        solve(Deal(STANDARD, 1).position(), find_rules("standard", cells=2))


def test_a_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="above 0"):
        SearchLimit(seconds=0)


# --- take-back rules ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["app", "cardems"])
def test_a_take_back_can_be_what_wins(name: str) -> None:
    text = "Foundations: H-8 C-6 D-9 S-5\nFreecells: TC\n: 7C 9H 7S 9C 8C\n: QH 6S TH TD\n: JH\n"
    standard = _small_rules("standard", columns=3, cells=1)
    taking_back = _small_rules(name, columns=3, cells=1)
    start = board(text, standard)
    assert not winnable(start, standard)
    assert solve(start, standard).status is SolveStatus.UNSOLVABLE
    assert winnable(start, taking_back)
    result = solve(start, taking_back)
    assert result.status is SolveStatus.SOLVED
    assert any(move.startswith("h") for move in result.moves)
    assert_wins(start, taking_back, result.moves)


# --- verdicts against brute force on random small tables ------------------------------------

VARIANTS = ["standard", "strict", "bakers-game", "eight-off", "app", "cardems"]


@st.composite
def small_tables(draw: st.DrawFn) -> tuple[Position, Rules]:
    return draw_small_table(draw, VARIANTS, lowest_home=0)


def draw_small_table(draw: st.DrawFn, names: list[str], *, lowest_home: int) -> tuple[Position, Rules]:
    """A table of 2-3 columns and 0-1 cell under one of ``names``, each suit home to at
    least ``lowest_home`` and a few of its next cards in play."""
    name = draw(st.sampled_from(names))
    rules = _small_rules(name, columns=draw(st.integers(2, 3)), cells=draw(st.integers(0, 1)))
    foundations = []
    cards = []
    for suit in range(4):
        height = draw(st.integers(lowest_home, 12))
        foundations.append(height)
        top = min(13, height + draw(st.integers(0, 3)))
        cards += [(rank - 1) * 4 + suit for rank in range(height + 1, top + 1)]
    return deal_out(draw, rules, cards, foundations), rules


def deal_out(draw: st.DrawFn, rules: Rules, cards: list[int], foundations: list[int]) -> Position:
    """``cards`` shuffled, some into the cells and the rest into the columns."""
    cards = draw(st.permutations(cards))
    in_cells = draw(st.integers(0, min(rules.cells, len(cards))))
    cells = tuple(cards[:in_cells]) + (None,) * (rules.cells - in_cells)
    columns: list[list[int]] = [[] for _ in range(rules.columns)]
    for card in cards[in_cells:]:
        columns[draw(st.integers(0, rules.columns - 1))].append(card)
    return Position(tuple(tuple(column) for column in columns), cells, tuple(foundations))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tables())
def test_verdicts_agree_with_brute_force(table: tuple[Position, Rules]) -> None:
    start, rules = table
    result = solve(start, rules, limit=SearchLimit(seconds=30))
    assert result.status is not SolveStatus.LIMIT_REACHED
    assert (result.status is SolveStatus.SOLVED) == winnable(start, rules)
    if result.status is SolveStatus.SOLVED:
        assert_wins(start, rules, result.moves)


# --- the proof of Microsoft deal 11982 ------------------------------------------------------


@pytest.mark.slow
def test_deal_11982_is_proven_unsolvable() -> None:
    result = solve_deal(Deal(STANDARD, 11982), limit=SearchLimit(seconds=300))
    assert result.status is SolveStatus.UNSOLVABLE
    assert result.moves == ()
    assert result.expanded > 50_000


# --- the restarts that weigh the shortest column --------------------------------------------


@pytest.mark.parametrize(("index", "number"), [(1, 17227), (1, 28920), (-1, 33285), (-1, 11854)])
def test_a_restart_weighing_the_shortest_column_wins_where_final_is_lost(index: int, number: int) -> None:
    """Each restart that weighs the shortest column wins, within its own cap, a deal on
    which the portfolio and FINAL walk into long dead ends; its steps, written out as
    public moves, replay to a win."""
    strategy = RESTARTS[index]
    assert strategy.weights.shortest and strategy.cap is not None
    position = Deal(STANDARD, number).position()
    problem = FreeCellProblem(STANDARD, complete=False, weights=strategy.weights, eager=strategy.eager)
    start, first = problem.initial(position)
    search = BestFirst(problem, start, path_weight=strategy.path_weight, cost=lambda step: int(step[1] != HOME))
    run = search.run(Budget(SearchLimit()), strategy.cap)
    assert run.outcome is SearchEnd.FOUND and run.goal is not None
    steps = first + [step for via in run.path for step in via] + problem.finish(run.goal)
    assert_wins(position, STANDARD, tuple(write_moves(position, STANDARD, steps)))


def test_a_deal_won_by_a_restart_is_solved_with_moves_that_replay() -> None:
    """17227 is won by the second restart, not by FINAL (which needs some 60,000 positions)."""
    result = solve_deal(Deal(STANDARD, 17227))
    assert result.status is SolveStatus.SOLVED
    assert result.expanded < sum(s.cap or 0 for s in PORTFOLIO) + 2 * SLICE + sum(s.cap or 0 for s in RESTARTS[:2])
    assert_wins(Deal(STANDARD, 17227).position(), STANDARD, result.moves)


# --- tight games: few cells, Baker's Game ---------------------------------------------------


class WatchedSearches:
    """A stand-in for a solve's :class:`~freecell.solver.searches.Searches` that hands
    every call on to a real one, keeping each search begun in ``begun``; with
    ``follow_from_start``, a relaxed walk's way is followed in the game from its start,
    as if its first step were a twin step. (``Searches`` is compiled: its methods take
    no patch, but ``solving`` finds the class by its name.)"""

    def __init__(self, searches: Searches, begun: list[Search], follow_from_start: bool) -> None:
        self._searches = searches
        self._begun = begun
        self._follow_from_start = follow_from_start

    def begin(self, strategy: Strategy, **options: Any) -> Search:
        search = self._searches.begin(strategy, **options)
        self._begun.append(search)
        return search

    def follow(self, relaxed: Search, path: Sequence[Steps]) -> Search:
        return self._searches.follow(relaxed, [] if self._follow_from_start else path)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._searches, name)


def watch_searches(monkeypatch: pytest.MonkeyPatch, *, follow_from_start: bool = False) -> list[Search]:
    """Every search the solves from now on begin, in order (see :class:`WatchedSearches`)."""
    begun: list[Search] = []

    def watched(position: Position, rules: Rules) -> WatchedSearches:
        return WatchedSearches(Searches(position, rules), begun, follow_from_start)

    monkeypatch.setattr(solving, "Searches", watched)
    return begun


def best_first_path_weights(begun: list[Search]) -> list[int | tuple[int, ...]]:
    """The path weight of each best-first search among ``begun``, in order (for a search
    under several rankings taking turns, the tuple of their path weights)."""
    weights: list[int | tuple[int, ...]] = []
    for search in begun:
        algorithm = search.algorithm
        if isinstance(algorithm, BestFirst):
            weights.append(algorithm.path_weight)
        elif isinstance(algorithm, Alternating):
            weights.append(tuple(path_weight for path_weight, _ in algorithm.rankings))
    return weights


@pytest.mark.parametrize(("name", "number"), [("app", 15035), ("standard", 15035), ("app", 19588)])
def test_with_two_cells_the_last_search_runs_alone_and_wins(
    name: str, number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two cells, after the portfolio (its first search alone unless foundation
    cards may come back, as in the app) only the last search runs (no restart takes
    turns with it): TIGHT_FINAL's ranking and TWO_CELL_FINAL's second, taking turns. It
    wins these deals within 30,000 positions, the relaxed proof's share included (past
    10,000; FINAL and its restarts needed 175,000 to over 300,000); the moves replay to a
    win."""
    rules = find_rules(name, cells=2)
    watched = watch_searches(monkeypatch)
    result = solve(Deal(rules, number).position(), rules, limit=SearchLimit(positions=30_000))
    assert result.status is SolveStatus.SOLVED
    assert_wins(Deal(rules, number).position(), rules, result.moves)
    begun = best_first_path_weights(watched)
    assert len(begun) == (len(PORTFOLIO) if rules.takes_back else 1) + 1
    assert TWO_CELL_FINAL.also is not None
    assert begun[-1] == (TIGHT_FINAL.path_weight, TWO_CELL_FINAL.also[1])


def test_in_bakers_game_a_loss_is_proven_without_restarts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Baker's Game deal 20358 is lost: the portfolio's first search, then TIGHT_FINAL
    alone, prove it (21,930 positions; with the whole portfolio before, 26,080; with
    the restarts taking turns too, 38,000)."""
    rules = find_rules("bakers-game")
    watched = watch_searches(monkeypatch)
    result = solve_deal(Deal(rules, 20358), limit=SearchLimit(positions=30_000))
    assert result.status is SolveStatus.UNSOLVABLE
    begun = best_first_path_weights(watched)
    assert len(begun) == 2
    assert begun[-1] == TIGHT_FINAL.path_weight


_WHOLE_PLAN = slice(None)


def _proof_at_once(rules: Rules, *, late: slice = _WHOLE_PLAN, kept_room: int | None = None) -> Plan:
    """The plan of ``rules``'s family with no relaxed walk, the proof begun at 2,000
    positions, its late searches cut to ``late`` and, under take-back rules, room for
    ``kept_room`` positions more for the last search behind the proof."""
    plan = plan_for(rules)
    assert plan.walks is not None and plan.hand_over.at is not None
    hand_over = dataclasses.replace(
        plan.hand_over,
        at=2_000,
        late=plan.hand_over.late[late],
        kept_room=None if plan.hand_over.kept_room is None else kept_room,
    )
    return dataclasses.replace(plan, walks=dataclasses.replace(plan.walks, relaxations=()), hand_over=hand_over)


@pytest.mark.parametrize(
    ("name", "number", "positions", "within", "without"),
    [
        ("standard", 16322, 300_000, _WHOLE_PLAN, slice(1, None)),
        ("app", 16322, 250_000, _WHOLE_PLAN, slice(1, None)),
        ("standard", 23487, 450_000, _WHOLE_PLAN, slice(0, 1)),
        ("standard", 27738, 200_000, slice(-1, None), slice(0, -1)),
    ],
)
def test_the_late_searches_win_what_the_last_search_wanders_past(
    name: str, number: int, positions: int, within: slice, without: slice
) -> None:
    """Two cells. Deal 16322 is won only by keeping in play a card that the eager
    searches send home: TIGHT_FINAL's alternating search wanders (more than 10 million
    positions, standard and app, without a win), and LATE wins it within 60,000. The
    census left standard 23487 at 60 s: the alternating search and LATE wander, and the
    third restart of the four-cell game, behind LATE, wins it in 3,849 positions; and
    27738, which LATE_EAGER, last of the plan, wins in 36,000. With the proof begun at
    once (a handover at 2,000 positions) and the plan cut to ``within`` (the whole plan,
    or LATE_EAGER alone, to keep the test short), the solve ends in a win whose moves
    replay; without the one late search that wins it (the plan cut to ``without``) it is
    still at its limit. The relaxed proofs are left out: where one meets a goal, the
    search that follows its way there wins 23487 too (see test_solver_twins); so is
    the last search's room behind the proof under the app's take-back rules (see the
    next test)."""
    rules = find_rules(name, cells=2)
    position = Deal(rules, number).position()
    limit = SearchLimit(positions=positions)
    result = solve(position, rules, limit=limit, plan=_proof_at_once(rules, late=within, kept_room=0))
    assert result.status is SolveStatus.SOLVED
    assert_wins(position, rules, result.moves)
    without_it = _proof_at_once(rules, late=without, kept_room=0)
    assert solve(position, rules, limit=limit, plan=without_it).status is SolveStatus.LIMIT_REACHED


def test_under_take_back_rules_the_last_search_goes_on_behind_the_proof() -> None:
    """App with 2 cells, deal 13019: the last search wins it after about 11,000
    positions. With the proof begun at 2,000 (no relaxed walk, no late search), the
    last search goes on behind the proof, and the solve ends in a win whose moves
    replay within 60,000 positions (the proof's turns included); with no room kept for
    it, the proof alone is still at its limit there. The late searches, over the fast
    problem, could not take a card back from home."""
    rules = find_rules("app", cells=2)
    position = Deal(rules, 13019).position()
    limit = SearchLimit(positions=60_000)
    kept = _proof_at_once(rules, late=slice(0, 0), kept_room=plan_for(rules).hand_over.kept_room)
    result = solve(position, rules, limit=limit, plan=kept)
    assert result.status is SolveStatus.SOLVED
    assert_wins(position, rules, result.moves)
    dropped = _proof_at_once(rules, late=slice(0, 0), kept_room=0)
    assert solve(position, rules, limit=limit, plan=dropped).status is SolveStatus.LIMIT_REACHED
