"""The advisor: winning lines that replay, caching by position, the losing move."""

from __future__ import annotations

import pytest

from freecell import Deal, Position, find_rules
from freecell.advisor import Advisor, Analysis, Difficulty, grade, translate_line, winnable_deal
from freecell.replay import replay
from freecell.solver import SearchLimit, SolveStatus, losses

STANDARD = find_rules("standard")
ONE_CELL = find_rules("standard", cells=1)


@pytest.fixture
def advisor() -> Advisor:
    return Advisor(limit=SearchLimit(seconds=20, positions=500_000))


def test_a_winning_line_replays_to_a_win(advisor: Advisor) -> None:
    start = Deal(STANDARD, 617).position()
    analysis = advisor.analyse(start, STANDARD)
    assert analysis.verdict is SolveStatus.SOLVED
    assert not analysis.cached
    assert replay(start, STANDARD, analysis.line).is_won()


def test_every_position_along_the_line_is_known_without_a_search(advisor: Advisor) -> None:
    position = Deal(STANDARD, 5).position()
    line = advisor.analyse(position, STANDARD).line
    for i, text in enumerate(line):
        known = advisor.known(position, STANDARD)
        assert known is not None and known.cached
        assert known.line == line[i:]
        position = position.apply(position.parse_move(text, STANDARD), STANDARD)
    assert position.is_won()


def test_a_line_is_translated_for_the_same_position_with_columns_swapped(advisor: Advisor) -> None:
    start = Deal(STANDARD, 10).position()
    advisor.analyse(start, STANDARD)
    columns = list(start.columns)
    columns[0], columns[5] = columns[5], columns[0]
    swapped = Position(tuple(columns), start.cells, start.foundations)
    known = advisor.known(swapped, STANDARD)
    assert known is not None and known.verdict is SolveStatus.SOLVED
    assert replay(swapped, STANDARD, known.line).is_won()


def test_translate_line_maps_columns_and_cells() -> None:
    source = Position.from_text("Freecells: 5H - - -\n: AS\n: 2H\n: 4S 3D\n", STANDARD, partial=True)
    target = Position.from_text("Freecells: - - 5H -\n: 2H\n: AS\n:\n:\n: 4S 3D\n", STANDARD, partial=True)
    line = ["1h", "2b", "37v2", "a3"]
    translated = translate_line(line, source, target, STANDARD)
    assert translated == ("2h", "1a", "57v2", "c5")
    played = replay(target, STANDARD, translated)
    assert played.key() == replay(source, STANDARD, line).key()  # the same table, places apart


def test_translate_line_maps_a_take_back() -> None:
    cardems = find_rules("cardems")
    source = Position.from_text("Foundations: H-0 C-0 D-0 S-2\n: 3H\n: 9C\n", cardems, partial=True)
    target = Position.from_text("Foundations: H-0 C-0 D-0 S-2\n: 9C\n: 3H\n", cardems, partial=True)
    assert translate_line(["hs1"], source, target, cardems) == ("hs2",)


def test_a_won_position_and_one_with_no_move_left_are_known_without_a_search() -> None:
    advisor = Advisor(limit=SearchLimit(positions=1))  # any search would say "unknown"
    won = Position.from_text("Foundations: H-K C-K D-K S-K\n", STANDARD, partial=True)
    assert advisor.known(won, STANDARD) == Analysis(SolveStatus.SOLVED, (), cached=True)
    stuck = Deal(find_rules("standard", cells=0), 1).position()  # deal 1 without cells: no move at all
    assert advisor.known(stuck, find_rules("standard", cells=0)) == Analysis(SolveStatus.UNSOLVABLE, cached=True)
    assert advisor.known(Deal(STANDARD, 1).position(), STANDARD) is None  # this one needs a search


def test_a_move_that_loses_a_winnable_game_is_named(advisor: Advisor) -> None:
    # With one cell, parking column 2's card in the cell at once leaves deal 2 lost.
    start = Deal(ONE_CELL, 2).position()
    assert advisor.analyse(start, ONE_CELL).verdict is SolveStatus.SOLVED
    after = start.apply(start.parse_move("2a", ONE_CELL), ONE_CELL)
    assert advisor.analyse(after, ONE_CELL).verdict is SolveStatus.UNSOLVABLE
    losing = advisor.losing_move([start, after], ["2a"], ONE_CELL)
    assert losing is not None
    assert (losing.index, losing.move, losing.moves_back) == (0, "2a", 1)


def test_no_losing_move_while_the_game_can_be_won(advisor: Advisor) -> None:
    start = Deal(STANDARD, 1).position()
    assert advisor.losing_move([start], [], STANDARD) is None


def test_a_limit_reached_gives_unknown() -> None:
    # A loss proven by an earlier test in this process would be remembered (see
    # losses.LOST) and told at once, whatever the limit.
    losses.LOST.clear()
    tiny = Advisor(limit=SearchLimit(positions=1))
    assert tiny.analyse(Deal(STANDARD, 11982).position(), STANDARD).verdict is SolveStatus.LIMIT_REACHED


@pytest.mark.parametrize("name", ["standard", "bakers-game", "app"])
def test_winnable_deals_are_won_and_graded(name: str) -> None:
    rules = find_rules(name)
    found = winnable_deal(rules)
    assert found.deal.rules == rules
    assert found.analysis.verdict is SolveStatus.SOLVED
    assert replay(found.deal.position(), rules, found.analysis.line).is_won()
    assert found.difficulty in set(Difficulty)
    assert grade(found.analysis, rules) is found.difficulty


def test_grades_weigh_a_line_against_the_ruleset() -> None:
    line = tuple(["12"] * 60 + ["1h"] * 52)
    analysis = Analysis(SolveStatus.SOLVED, line, expanded=300)
    assert grade(analysis, STANDARD) is Difficulty.HARD
    assert grade(analysis, find_rules("strict")) is Difficulty.EASY  # 60 one-card moves is short there
    assert grade(analysis, find_rules("double")) is Difficulty.EASY
    assert grade(Analysis(SolveStatus.SOLVED, line[:40] + line[60:], expanded=300), STANDARD) is Difficulty.MEDIUM


def test_what_is_reached_from_a_proven_lost_position_is_lost_without_a_search() -> None:
    advisor = Advisor()
    lost = Deal(STANDARD, 11982).position()
    advisor.remember_verdict(lost, STANDARD, SolveStatus.UNSOLVABLE)  # as a proof would (no solve here:
    # the solver keeps what it proved lost for this process's later searches)
    after_one = lost.apply(lost.legal_moves(STANDARD)[0], STANDARD)
    after_two = after_one.apply(after_one.legal_moves(STANDARD)[-1], STANDARD)
    assert advisor.known(after_two, STANDARD) is None  # not known by itself
    assert advisor.lost_on_the_way(after_two, STANDARD, [lost, after_one])  # past a position never asked
    known = advisor.known(after_two, STANDARD)
    assert known is not None and known.verdict is SolveStatus.UNSOLVABLE


def test_a_winnable_position_on_the_way_ends_the_look_back() -> None:
    advisor = Advisor()
    lost, winnable = Deal(STANDARD, 11982).position(), Deal(STANDARD, 1).position()
    advisor.remember_verdict(lost, STANDARD, SolveStatus.UNSOLVABLE)
    assert advisor.analyse(winnable, STANDARD).verdict is SolveStatus.SOLVED
    after = winnable.apply(winnable.legal_moves(STANDARD)[0], STANDARD)
    assert not advisor.lost_on_the_way(after, STANDARD, [lost, winnable])
    assert not advisor.lost_on_the_way(after, STANDARD, [])
    known = advisor.known(after, STANDARD)
    assert known is None or known.verdict is not SolveStatus.UNSOLVABLE
