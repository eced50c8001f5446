"""The daily deal (freecell.daily): found from the day and the preset alone, won by the
solver, the same in a fresh process, compiled or pure; and the days a player may ask for."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys

import pytest

from freecell.advisor import Difficulty
from freecell.daily import (
    DAILY_LIMIT,
    DAILY_NUMBERS,
    InvalidDayError,
    NoDailyDealError,
    candidates,
    daily_deal,
    open_day,
    parse_day,
)
from freecell.deals import Deal
from freecell.replay import replay
from freecell.rules import PRESETS, find_rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus, losses, solve

DAY = datetime.date(2026, 12, 6)
NOON_UTC = datetime.datetime(2026, 12, 6, 12, tzinfo=datetime.UTC).timestamp()


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_presets_daily_deal_is_won_by_replaying_the_solvers_line(name: str) -> None:
    rules = find_rules(name)
    chosen = daily_deal(DAY, rules)
    assert chosen.deal.rules == rules  # the preset's own cells
    assert 1 <= chosen.deal.number <= DAILY_NUMBERS
    assert chosen.deal == candidates(DAY, rules)[chosen.tries - 1]
    assert replay(chosen.deal.position(), rules, chosen.line).is_won()
    assert isinstance(chosen.difficulty, Difficulty)


def test_the_same_day_and_preset_give_the_same_deal_and_grade_whatever_was_solved_before() -> None:
    rules = find_rules("standard")
    first = daily_deal(DAY, rules)
    # Losses remembered from another solve in the process must not steer the choice.
    solve(Deal(rules, 11982).position(), rules.with_cells(4), limit=SearchLimit(positions=100_000))
    solve(
        Deal(find_rules("standard", cells=2), 1).position(),
        find_rules("standard", cells=2),
        limit=SearchLimit(positions=50_000),
    )
    again = daily_deal(DAY, rules)
    assert (again.deal, again.line, again.expanded, again.difficulty) == (
        first.deal,
        first.line,
        first.expanded,
        first.difficulty,
    )
    losses.LOST.clear()


def test_other_days_and_other_presets_give_other_deals() -> None:
    standard = find_rules("standard")
    week = [daily_deal(DAY + datetime.timedelta(days=n), standard).deal.number for n in range(7)]
    assert len(set(week)) == 7
    numbers = {name: candidates(DAY, rules)[0].number for name, rules in PRESETS.items()}
    assert len(set(numbers.values())) == len(PRESETS)


def test_the_candidates_follow_from_the_day_and_preset_alone() -> None:
    rules = find_rules("bakers-game")
    assert candidates(DAY, rules) == candidates(datetime.date(2026, 12, 6), find_rules("Baker's Game"))
    assert len({deal.number for deal in candidates(DAY, rules)}) == len(candidates(DAY, rules))


def test_a_candidate_the_solver_does_not_win_is_passed_over() -> None:
    rules = find_rules("standard")
    first, second = candidates(DAY, rules)[:2]

    def losing_the_first(position, rules, limit):  # type: ignore[no-untyped-def]
        if position == first.position():
            return SolveResult(SolveStatus.LIMIT_REACHED, (), limit.positions, 0, 0.0, 0)
        return solve(position, rules, limit=limit, remember=False)

    chosen = daily_deal(DAY, rules, solver=losing_the_first)
    assert (chosen.deal, chosen.tries) == (second, 2)

    def never(position, rules, limit):  # type: ignore[no-untyped-def]
        return SolveResult(SolveStatus.UNSOLVABLE, (), 1, 1, 0.0, 0)

    with pytest.raises(NoDailyDealError, match="2026-12-06"):
        daily_deal(DAY, rules, solver=never)


def test_only_a_limit_of_positions_is_taken() -> None:
    with pytest.raises(ValueError, match="positions only"):
        daily_deal(DAY, find_rules("standard"), limit=SearchLimit(seconds=5.0, positions=20_000))


@pytest.mark.parametrize("build", ["compiled", "pure"])
def test_a_fresh_process_chooses_the_same_deals_compiled_or_pure(build: str) -> None:
    here = {
        name: (d.deal.number, d.difficulty.value, d.expanded)
        for name in ("standard", "app", "double")
        for d in [daily_deal(DAY, find_rules(name))]
    }
    script = (
        "import datetime, json\n"
        "from freecell.daily import daily_deal\nfrom freecell.rules import find_rules\n"
        "print(json.dumps({n: [d.deal.number, d.difficulty.value, d.expanded] for n in ('standard', 'app', 'double')"
        " for d in [daily_deal(datetime.date(2026, 12, 6), find_rules(n))]}))\n"
    )
    environment = {**os.environ, "FREECELL_PURE_PYTHON": "1"} if build == "pure" else dict(os.environ)
    environment.pop("FREECELL_PURE_PYTHON", None) if build == "compiled" else None
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment, check=True)
    assert {name: tuple(value) for name, value in json.loads(done.stdout).items()} == here
    assert DAILY_LIMIT.seconds is None and DAILY_LIMIT.memory_mb is None


def test_a_day_is_read_as_yyyy_mm_dd_only() -> None:
    assert parse_day(" 2026-12-06 ") == DAY
    for text in ("06/12/2026", "2026-12-6", "2026-02-30", "２０２６-12-06", "1999-12-31", "tomorrow"):
        with pytest.raises(InvalidDayError):
            parse_day(text)


def test_a_day_is_open_while_it_is_that_day_somewhere() -> None:
    assert open_day("2026-12-05", NOON_UTC) == datetime.date(2026, 12, 5)  # UTC-12
    assert open_day("2026-12-07", NOON_UTC) == datetime.date(2026, 12, 7)  # UTC+14
    for text in ("2026-12-04", "2026-12-08", "2027-12-06"):
        with pytest.raises(InvalidDayError, match="not open"):
            open_day(text, NOON_UTC)
    assert open_day(None, NOON_UTC) == datetime.datetime.fromtimestamp(NOON_UTC).date()
