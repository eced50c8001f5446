"""A search on the other core (``freecell.solver.helper``, ``solve(..., helper=True)``):
the child reports through its pipe and exits; the parent reads, stops and reaps it; a
child whose parent is gone stops; and a tight game's solve with a helper decides as
one without would, within the same limit, with no process left behind."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable

import pytest
from tests.test_solver import assert_wins

from freecell import Deal, find_rules
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveStatus, helping, losses, solve
from freecell.solver.helper import GONE, Helper, Reporter, start
from freecell.solver.plan import RELAXATIONS, Plan, plan_for
from freecell.solver.search import Budget

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="a helper needs os.fork")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _children() -> set[int]:
    """This process's child processes (Linux)."""
    found: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/children", encoding="ascii") as handle:
            found.update(int(pid) for pid in handle.read().split())
    return found


def _read_all(helper_wait: object, seconds: float = 10.0) -> list[tuple[object, ...]]:
    """Every message up to the child's end (GONE)."""
    found: list[tuple[object, ...]] = []
    ends = time.monotonic() + seconds
    while GONE not in found and time.monotonic() < ends:
        found.extend(helper_wait(0.5))  # type: ignore[operator]
    return found


def test_the_child_sends_its_messages_and_exits() -> None:
    def work(budget: Budget, reporter: Reporter) -> None:
        reporter.send(("limit", budget.limit.positions))
        reporter.send(("keys", [b"a", b"b"]))

    helper = start(work, SearchLimit(positions=7))
    assert helper is not None
    assert _read_all(helper.wait) == [("limit", 7), ("keys", [b"a", b"b"]), GONE]
    assert not helper.running and helper.pid not in _children()


def test_an_error_in_the_work_is_told_to_the_parent() -> None:
    def work(budget: Budget, reporter: Reporter) -> None:
        raise RuntimeError("no way on")

    helper = start(work, SearchLimit())
    assert helper is not None
    assert _read_all(helper.wait) == [("failed", "RuntimeError: no way on"), GONE]


def test_stop_ends_a_child_still_at_work() -> None:
    def work(budget: Budget, reporter: Reporter) -> None:
        while True:
            reporter.send(("working",))
            time.sleep(0.01)

    helper = start(work, SearchLimit())
    assert helper is not None
    assert helper.wait(5.0)[0] == ("working",)
    helper.stop()
    assert not helper.running and not _alive(helper.pid)
    assert helper.messages() == []


def test_a_child_whose_parent_is_gone_stops_at_its_next_report() -> None:
    """A process that started a helper dies (``os._exit``, as if killed): the helper
    stops at its next report rather than live on."""
    reader, writer = os.pipe()
    middle = os.fork()
    if middle == 0:  # the parent that will go

        def work(budget: Budget, reporter: Reporter) -> None:
            while True:
                reporter.send(("working",))
                time.sleep(0.05)

        helper = start(work, SearchLimit())
        os.write(writer, str(helper.pid if helper else 0).encode())
        os._exit(0)
    os.close(writer)
    pid = int(os.read(reader, 64))
    os.close(reader)
    os.waitpid(middle, 0)
    ends = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < ends:
        time.sleep(0.05)
    assert pid and not _alive(pid)


APP_1 = find_rules("app", cells=1)
APP_2 = find_rules("app", cells=2)


def doing_all(rules: Rules, *, last_proof: bool = True) -> Plan:
    """The plan of ``rules`` where the helper gets every position left once it starts:
    what the solve decides past that point, the helper decided (the solve here only
    waits for it); with ``last_proof`` False, it ends where its last walk meets a goal."""
    plan = plan_for(rules)
    assert plan.helper is not None
    return dataclasses.replace(plan, helper=dataclasses.replace(plan.helper, positions=1.0, last_proof=last_proof))


@pytest.fixture
def helpers_started(monkeypatch: pytest.MonkeyPatch) -> list[SearchLimit]:
    """The limits of the helpers started from now on."""
    started: list[SearchLimit] = []

    def recorded(work: Callable[[Budget, Reporter], None], limit: SearchLimit) -> Helper | None:
        started.append(limit)
        return start(work, limit)

    monkeypatch.setattr(helping, "start_helper", recorded)
    return started


def test_a_loss_the_helper_proves_is_a_loss_and_the_helper_is_gone(helpers_started: list[SearchLimit]) -> None:
    """App, 1 cell, deal 3318 (lost): its first relaxed walk runs out after 6,334
    classes (see test_solver_dead_ends), past FINAL's EARLY_FROM positions."""
    position = Deal(APP_1, 3318).position()
    before = _children()
    result = solve(position, APP_1, limit=SearchLimit(positions=300_000), helper=True, plan=doing_all(APP_1))
    assert result.status is SolveStatus.UNSOLVABLE
    assert len(helpers_started) == 1 and 280_000 < (helpers_started[0].positions or 0) < 300_000
    assert _children() == before
    assert losses.kept_count() > 0  # the classes its proof saw, kept for the game


def test_a_win_the_helper_finds_replays_to_a_win(helpers_started: list[SearchLimit]) -> None:
    """App, 2 cells, deal 18315: the first walk meets its goal after 35,718 classes,
    and the game's search from its way there wins (see FOLLOW)."""
    position = Deal(APP_2, 18315).position()
    result = solve(position, APP_2, limit=SearchLimit(positions=300_000), helper=True, plan=doing_all(APP_2))
    assert result.status is SolveStatus.SOLVED and len(helpers_started) == 1
    assert_wins(position, APP_2, result.moves)


@pytest.mark.parametrize(("rules", "number"), [(APP_1, 3972), (APP_2, 13219)])
def test_a_solve_with_a_helper_keeps_the_positions_limit(rules: object, number: int) -> None:
    """Both searches together expand no more than the limit's positions (a few past it,
    as one search alone may), and no process is left."""
    position = Deal(rules, number).position()  # type: ignore[arg-type]
    before = _children()
    result = solve(position, rules, limit=SearchLimit(positions=60_000), helper=True)  # type: ignore[arg-type]
    assert result.status is SolveStatus.LIMIT_REACHED
    assert 59_000 <= result.expanded <= 60_000 + 200
    assert _children() == before


def _listen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """The messages the solve reads from its helpers, but the dead ends, as it reads them."""
    heard: list[tuple[object, ...]] = []
    read = Helper._read

    def listened(self: Helper, seconds: float) -> list[tuple[object, ...]]:
        found = read(self, seconds)
        heard.extend(message for message in found if message[0] != "dead")
        return found

    monkeypatch.setattr(Helper, "_read", listened)
    return heard


def test_a_walk_that_meets_a_goal_gives_back_part_of_what_it_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """App, 2 cells, deal 13233 (lost): the first relaxed walk meets a goal after about
    48,000 classes. The helper then gives back half the positions it has left, which
    the solve here spends (it had none), and begins the next walk with the other half:
    the two together stay within the limit."""
    heard = _listen(monkeypatch)
    position = Deal(APP_2, 13233).position()
    result = solve(position, APP_2, limit=SearchLimit(positions=150_000), helper=True, plan=doing_all(APP_2))
    assert result.status is not SolveStatus.SOLVED
    kinds = [message[0] for message in heard]
    assert kinds[:2] == ["release", "walk"], heard
    released = heard[0][1]
    assert isinstance(released, int) and 30_000 < released < 70_000
    assert result.expanded <= 150_000 + 200


def test_the_next_walk_is_the_helpers_though_the_last_search_has_given_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """App, 1 cell, deal 25888: the first walk meets a goal soon (after about 26,000
    classes), and the helper begins the second. Here the last search gives way to the proof at once (as it does for its
    memory in a worker that grew large): it begins no walk of its own meanwhile, so the
    helper's second walk runs to the limit, and its dead ends are kept here for the next
    solves."""
    heard = _listen(monkeypatch)
    plan = plan_for(APP_1)
    assert plan.walks is not None
    plan = dataclasses.replace(plan, hand_over=dataclasses.replace(plan.hand_over, at=plan.walks.begin_at + 2_000))
    position = Deal(APP_1, 25888).position()
    result = solve(position, APP_1, limit=SearchLimit(positions=150_000), helper=True, plan=plan)
    assert result.status is SolveStatus.LIMIT_REACHED
    second = RELAXATIONS[1]
    assert [message[0] for message in heard][:3] == ["release", "walk", "end"], heard
    assert heard[1] == ("walk", second)
    assert losses.LOST.get((APP_1, b""), {}).get(second)


def test_where_every_relaxed_walk_meets_a_goal_the_helper_goes_on_with_the_games_own_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """App, 1 cell, deal 28766 (a win): both relaxed walks meet a goal whose way leads
    to no win nearby. The helper gives back half of what it holds after the first only:
    then it begins the game's own proof with all it has left, which finds the win."""
    heard = _listen(monkeypatch)
    position = Deal(APP_1, 28766).position()
    result = solve(position, APP_1, limit=SearchLimit(positions=300_000), helper=True, plan=doing_all(APP_1))
    assert result.status is SolveStatus.SOLVED
    assert_wins(position, APP_1, result.moves)
    assert [message[0] for message in heard][:4] == ["release", "walk", "walk", "won"], heard
    assert heard[1] == ("walk", RELAXATIONS[1]) and heard[2] == ("walk", 0)


def test_without_the_games_own_proof_the_helper_ends_where_its_walks_meet_goals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same deal without the helper's last proof: the helper gives back half at
    each goal, and ends; the solve here has nothing left to win it with."""
    heard = _listen(monkeypatch)
    position = Deal(APP_1, 28766).position()
    plan = doing_all(APP_1, last_proof=False)
    result = solve(position, APP_1, limit=SearchLimit(positions=300_000), helper=True, plan=plan)
    assert [message[0] for message in heard][:4] == ["release", "walk", "release", "end"], heard
    assert result.expanded <= 300_000 + 200
