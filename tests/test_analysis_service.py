"""The server's background solving: answers land in the advisor, newer requests supersede
waiting ones, the queue is bounded, and a position left unknown gets a longer search that
moving on stops.

The searches run in pools the tests hold (:class:`HeldPool`): a job runs only when the
test says so, so "while the worker is busy" is a state the test holds, not a race against
a proof that takes long enough. Real worker processes are used where the processes are
what is tested.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any

import pytest

from freecell import Deal, find_rules
from freecell.advisor import Advisor
from freecell.position import Position
from freecell.replay import replay
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus
from freecell.web.analysis import WORKER_NICENESS, AnalysisWorkers, WorkerPool, end_pool
from freecell.web.in_play import LEFT_AFTER, AnalysisBusyError, InPlayQueue, LongerQueue

STANDARD = find_rules("standard")
JOIN = 60.0  # seconds to wait for what must happen (a job handed to a pool)
TOO_SHORT = SearchLimit(positions=1)  # an in-play search that decides nothing


class HeldPool(Executor):
    """A worker pool whose jobs wait until the test runs them (:meth:`run`, here, in the
    test's thread), fails them (:meth:`fail`), or ends the pool."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]] = []
        self.ended = False
        self._submitted = threading.Condition()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._submitted:
            self.jobs.append((fn, args, future))
            self._submitted.notify_all()
        return future

    def wait_for(self, count: int) -> None:
        """Until ``count`` jobs in all were handed to the pool."""
        with self._submitted:
            assert self._submitted.wait_for(lambda: len(self.jobs) >= count, timeout=JOIN), "no job came"

    def position(self, index: int) -> Position:
        position: Position = self.jobs[index][1][0]
        return position

    def run(self, index: int = -1) -> None:
        fn, args, future = self.jobs[index]
        future.set_result(fn(*args))

    def fail(self, index: int = -1) -> None:
        self.jobs[index][2].set_exception(RuntimeError("the worker died"))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.ended = True
        for _, _, future in self.jobs:
            if not future.done():
                future.set_exception(RuntimeError("the pool was ended"))


class LongerPools:
    """Makes a :class:`HeldPool` for each longer search, as the service asks."""

    def __init__(self) -> None:
        self.made: list[HeldPool] = []

    def __call__(self) -> HeldPool:
        self.made.append(HeldPool())
        return self.made[-1]


def deal(number: int, rules: Rules = STANDARD) -> Position:
    return Deal(rules, number).position()


@pytest.fixture
def pool() -> HeldPool:
    return HeldPool()


@pytest.fixture
def longer_pools() -> LongerPools:
    return LongerPools()


@pytest.fixture
def service(pool: HeldPool, longer_pools: LongerPools) -> Iterator[AnalysisWorkers]:
    running = AnalysisWorkers(
        Advisor(limit=SearchLimit(seconds=60)), max_waiting=2, pool=pool, longer_pool=longer_pools,
        longer=SearchLimit(seconds=60),
    )
    yield running
    running.close()


def test_a_newer_request_supersedes_the_waiting_one(service: AnalysisWorkers, pool: HeldPool) -> None:
    service.request("other", deal(1), STANDARD)
    pool.wait_for(1)  # the one worker is busy
    positions = [deal(n) for n in range(2, 7)]
    events = [service.request("game", position, STANDARD) for position in positions]
    assert all(event.is_set() for event in events[:-1])  # the superseded ones were released
    assert not events[-1].is_set() and service.waiting == 1
    pool.run(0)
    pool.wait_for(2)
    assert pool.position(1) == positions[-1]  # only the newest was solved
    pool.run(1)
    assert events[-1].is_set()
    known = service.analysis(positions[-1], STANDARD)
    assert known is not None and known.verdict is SolveStatus.SOLVED
    assert all(service.analysis(position, STANDARD) is None for position in positions[:-1])


def test_the_waiting_queue_is_bounded(service: AnalysisWorkers, pool: HeldPool) -> None:
    service.request("busy", deal(1), STANDARD)
    pool.wait_for(1)
    service.request("a", deal(20), STANDARD)
    service.request("b", deal(21), STANDARD)
    with pytest.raises(AnalysisBusyError):
        service.request("c", deal(22), STANDARD)
    service.request("a", deal(23), STANDARD)  # a game already waiting may still replace its own request


def test_a_worker_that_fails_leaves_the_position_unknown_with_no_longer_search(
    service: AnalysisWorkers, pool: HeldPool, longer_pools: LongerPools
) -> None:
    answered = service.request("game", deal(1), STANDARD)
    pool.wait_for(1)
    pool.fail()
    assert answered.is_set()
    known = service.analysis(deal(1), STANDARD)
    assert known is not None and known.verdict is SolveStatus.LIMIT_REACHED
    assert not service.searching_further(deal(1), STANDARD) and not longer_pools.made


# --- the longer search after an in-play "unknown" ----------------------------------------


@pytest.fixture
def now() -> list[float]:
    """The clock of the service below, in seconds: the test moves it."""
    return [0.0]


@pytest.fixture
def unknown_in_play(pool: HeldPool, longer_pools: LongerPools, now: list[float]) -> Iterator[AnalysisWorkers]:
    """A service whose in-play search decides nothing, with held pools for the longer ones."""
    running = AnalysisWorkers(
        Advisor(limit=TOO_SHORT), pool=pool, longer_pool=longer_pools, longer=SearchLimit(seconds=60),
        clock=lambda: now[0],
    )
    yield running
    running.close()


def left_unknown(service: AnalysisWorkers, pool: HeldPool, owner: str, position: Position) -> None:
    """Ask for ``position`` and let the in-play search reach its limit."""
    handed = len(pool.jobs)
    answered = service.request(owner, position, STANDARD)
    pool.wait_for(handed + 1)
    pool.run()
    assert answered.is_set()


def test_an_unknown_position_is_decided_by_a_longer_search(
    unknown_in_play: AnalysisWorkers, pool: HeldPool, longer_pools: LongerPools
) -> None:
    start = deal(1)
    left_unknown(unknown_in_play, pool, "game", start)
    assert unknown_in_play.searching_further(start, STANDARD)  # under way before the page hears "unknown"
    [longer] = longer_pools.made
    longer.wait_for(1)
    longer.run()
    known = unknown_in_play.analysis(start, STANDARD)
    assert known is not None and known.verdict is SolveStatus.SOLVED and replay(start, STANDARD, known.line).is_won()
    assert not unknown_in_play.searching_further(start, STANDARD)


def test_moving_on_stops_the_games_longer_search_and_ends_its_process(
    unknown_in_play: AnalysisWorkers, pool: HeldPool, longer_pools: LongerPools
) -> None:
    first, other_game = deal(2), deal(617)
    left_unknown(unknown_in_play, pool, "game", first)
    left_unknown(unknown_in_play, pool, "other", other_game)
    assert len(longer_pools.made) == 1 and unknown_in_play.searching_further(other_game, STANDARD)  # it waits
    searching = longer_pools.made[0]

    moved_on = deal(3)
    unknown_in_play.request("game", moved_on, STANDARD)
    assert searching.ended  # its process ended: its memory is given back
    assert not unknown_in_play.searching_further(first, STANDARD)
    known = unknown_in_play.analysis(first, STANDARD)
    assert known is not None and known.verdict is SolveStatus.LIMIT_REACHED
    assert len(longer_pools.made) == 2  # the other game's longer search goes on, in a process of its own
    next_one = longer_pools.made[1]
    next_one.wait_for(1)
    assert next_one.position(0) == other_game


def test_a_left_games_longer_search_gives_way_to_the_game_played_now(
    unknown_in_play: AnalysisWorkers, pool: HeldPool, longer_pools: LongerPools, now: list[float]
) -> None:
    """A player who gives up on a deal left unknown and deals another that is unknown too
    does not wait behind the first one's longer search: once the first game has asked
    nothing for LEFT_AFTER seconds, its search's process is ended and the new game's
    search begins."""
    given_up, played = deal(4), deal(617)
    left_unknown(unknown_in_play, pool, "given up", given_up)
    left_unknown(unknown_in_play, pool, "played", played)
    searching = longer_pools.made[0]
    now[0] = LEFT_AFTER - 1
    unknown_in_play.request("played", played, STANDARD)  # the page asks again, as it does every second
    assert not searching.ended and unknown_in_play.searching_further(given_up, STANDARD)
    now[0] = LEFT_AFTER + 1
    unknown_in_play.request("played", played, STANDARD)
    assert searching.ended and not unknown_in_play.searching_further(given_up, STANDARD)
    now_searching = longer_pools.made[1]
    now_searching.wait_for(1)
    assert now_searching.position(0) == played
    now_searching.run()
    known = unknown_in_play.analysis(played, STANDARD)
    assert known is not None and known.verdict is SolveStatus.SOLVED
    unknown_in_play.request("given up", given_up, STANDARD)  # the player came back to it
    assert unknown_in_play.searching_further(given_up, STANDARD)


def test_a_request_refused_as_busy_still_ends_the_longer_search_it_stopped(
    pool: HeldPool, longer_pools: LongerPools
) -> None:
    service = AnalysisWorkers(
        Advisor(limit=TOO_SHORT), max_waiting=1, pool=pool, longer_pool=longer_pools, longer=SearchLimit(seconds=60)
    )
    try:
        left_unknown(service, pool, "game", deal(1))
        searching = longer_pools.made[0]
        service.request("busy", deal(10), STANDARD)
        pool.wait_for(2)  # the one worker is busy with it
        service.request("waiting", deal(11), STANDARD)  # the one place to wait is taken
        with pytest.raises(AnalysisBusyError):
            service.request("game", deal(12), STANDARD)  # the player moved on
        assert searching.ended and not service.searching_further(deal(1), STANDARD)
    finally:
        service.close()


def test_a_longer_search_that_reaches_its_limit_leaves_unknown_and_is_not_run_again(
    pool: HeldPool, longer_pools: LongerPools
) -> None:
    service = AnalysisWorkers(Advisor(limit=TOO_SHORT), pool=pool, longer_pool=longer_pools, longer=TOO_SHORT)
    start = deal(1)
    try:
        left_unknown(service, pool, "game", start)
        longer_pools.made[0].wait_for(1)
        longer_pools.made[0].run()
        known = service.analysis(start, STANDARD)
        assert known is not None and known.verdict is SolveStatus.LIMIT_REACHED
        service.request("game", start, STANDARD)  # asked again, as the page does
        assert not service.searching_further(start, STANDARD) and len(longer_pools.made) == 1
    finally:
        service.close()


def test_without_a_longer_limit_unknown_stays_unknown(pool: HeldPool, longer_pools: LongerPools) -> None:
    service = AnalysisWorkers(Advisor(limit=TOO_SHORT), pool=pool, longer_pool=longer_pools, longer=None)
    try:
        left_unknown(service, pool, "game", deal(1))
        assert not service.searching_further(deal(1), STANDARD) and not longer_pools.made
        known = service.analysis(deal(1), STANDARD)
        assert known is not None and known.verdict is SolveStatus.LIMIT_REACHED
    finally:
        service.close()


@dataclass
class _Waiting:
    owner: str
    position: Position
    rules: Rules


def test_the_longer_search_taken_next_is_for_a_game_still_asking() -> None:
    now = [0.0]
    queue: LongerQueue[_Waiting] = LongerQueue(4, clock=lambda: now[0])
    jobs = [_Waiting(owner, deal(number), STANDARD) for number, owner in enumerate("abc", 1)]
    for job in jobs:
        queue.asked(job.owner)
        queue.add(job)
    assert queue.take() is jobs[0]  # everyone asked just now: first come, first served
    assert queue.finish(jobs[0])
    now[0] = LEFT_AFTER + 1
    queue.asked("c")
    assert queue.take() is jobs[2]  # b's page has asked nothing since: c goes first
    assert queue.finish(jobs[2])
    assert queue.take() is jobs[1]  # and b's still runs when no one else waits


def _result(status: SolveStatus) -> SolveResult:
    return SolveResult(status, (), 1, 1, 0.0, 0)


def test_the_in_play_queue_keeps_the_same_books_for_both_transports() -> None:
    """The rules the server and the static site share, without threads or processes."""
    queue = InPlayQueue(Advisor(), max_waiting=1, longer=SearchLimit(seconds=30))
    running = queue.request("a", deal(1), STANDARD)
    job = queue.take()
    assert job is not None and queue.take() is None  # one runner, busy
    assert queue.request("b", deal(1), STANDARD) is running  # the same position: the same answer
    queue.request("b", deal(2), STANDARD)
    with pytest.raises(AnalysisBusyError):
        queue.request("c", deal(3), STANDARD)
    queue.learn(job, _result(SolveStatus.LIMIT_REACHED))
    queue.finished(job, _result(SolveStatus.LIMIT_REACHED))
    assert running.is_set() and queue.searching_further(deal(1), STANDARD)
    longer = queue.take_longer()
    assert longer is not None and longer.position == deal(1) and queue.take_longer() is None
    with pytest.raises(AnalysisBusyError):  # the game moved on, and no place waits for it now:
        queue.request("a", deal(4), STANDARD)
    assert queue.stopped() == [longer] and queue.stopped() == []  # its longer search stops all the same
    assert not queue.longer_finished(longer, _result(SolveStatus.SOLVED))  # too late: not taken
    known = queue.advisor.known(deal(1), STANDARD)
    assert known is not None and known.verdict is SolveStatus.LIMIT_REACHED


def test_a_background_request_waits_behind_the_games_in_play_and_has_no_longer_search() -> None:
    """A review's requests give way: a game's request asked later is taken first, and a
    review's position left unknown is not searched further, nor does asking about it stop
    the game's longer search."""
    queue = InPlayQueue(Advisor(), max_waiting=4, longer=SearchLimit(seconds=30))
    queue.request("g/review", deal(1), STANDARD, background=True)
    queue.request("g", deal(2), STANDARD)
    first = queue.take()
    assert first is not None and first.owner == "g"
    queue.learn(first, _result(SolveStatus.LIMIT_REACHED))
    queue.finished(first, _result(SolveStatus.LIMIT_REACHED))
    longer = queue.take_longer()
    assert longer is not None and longer.position == deal(2)  # the game's own unknown: searched further
    review = queue.take()
    assert review is not None and review.owner == "g/review" and review.background
    queue.learn(review, _result(SolveStatus.LIMIT_REACHED))
    queue.finished(review, _result(SolveStatus.LIMIT_REACHED))
    assert not queue.searching_further(deal(1), STANDARD)
    assert queue.request("g/review", deal(1), STANDARD, background=True).is_set()  # unknown: known, final
    assert queue.stopped() == [] and queue.running_longer() is longer


# --- the worker processes themselves -----------------------------------------------------


def test_an_answer_lands_in_the_cache_and_replays() -> None:
    service = AnalysisWorkers(Advisor(limit=SearchLimit(seconds=60)))
    start = deal(1)
    try:
        assert service.request("game", start, STANDARD).wait(JOIN)
        analysis = service.analysis(start, STANDARD)
        assert analysis is not None and analysis.verdict is SolveStatus.SOLVED
        assert replay(start, STANDARD, analysis.line).is_won()
        assert service.request("other game", start, STANDARD).is_set()  # known: no new search
    finally:
        service.close()


def test_the_worker_yields_the_cpu_to_the_server() -> None:
    pool = WorkerPool(1, WORKER_NICENESS)
    try:
        assert pool.submit(os.nice, 0).result(timeout=JOIN) == min(19, os.nice(0) + WORKER_NICENESS)
    finally:
        end_pool(pool)


@pytest.mark.parametrize("tasks_per_worker", [None, 1])
def test_an_ended_pool_leaves_nothing_running(tasks_per_worker: int | None) -> None:
    """Ending a pool (the server's, or a longer search's: a process for each task) stops
    its running task, and returns once its processes and the threads that managed them
    have ended: none of it is left to fail later, or at the server's exit."""
    before = set(threading.enumerate())
    pool = WorkerPool(1, WORKER_NICENESS, tasks_per_worker=tasks_per_worker)
    running = pool.submit(time.sleep, 600)
    processes = pool.processes
    assert processes and all(process.is_alive() for process in processes)
    end_pool(pool)
    assert not any(process.is_alive() for process in processes)
    assert set(threading.enumerate()) <= before
    assert running.done()
