"""The server's background solving: answers land in the advisor, newer requests
supersede waiting ones, and the queue is bounded."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.process import BaseProcess

import pytest

from freecell import Deal, find_rules
from freecell.advisor import Advisor, Verdict
from freecell.position import Position
from freecell.replay import replay
from freecell.rules import Rules
from freecell.solver import SearchLimit
from freecell.web import analysis
from freecell.web.analysis import LEFT_AFTER, WORKER_NICENESS, AnalysisBusyError, AnalysisService, LongerQueue

STANDARD = find_rules("standard")
APP_ONE_CELL = find_rules("app", cells=1)


@pytest.fixture
def service() -> Iterator[AnalysisService]:
    running = AnalysisService(Advisor(limit=SearchLimit(seconds=20, positions=500_000)), max_waiting=2)
    yield running
    running.close()


def test_an_answer_lands_in_the_cache_and_replays(service: AnalysisService) -> None:
    start = Deal(STANDARD, 1).position()
    assert service.request("game", start, STANDARD).wait(60)
    analysis = service.analysis(start, STANDARD)
    assert analysis is not None and analysis.verdict is Verdict.WINNABLE
    assert replay(start, STANDARD, analysis.line).is_won()
    assert service.request("other game", start, STANDARD).is_set()  # known: no new search


def test_a_newer_request_supersedes_the_waiting_one(service: AnalysisService) -> None:
    busy = Deal(STANDARD, 11982).position()  # a proof keeps the worker busy for a while
    service.request("other", busy, STANDARD)
    positions = [Deal(STANDARD, n).position() for n in range(2, 7)]
    events = [service.request("game", position, STANDARD) for position in positions]
    assert events[-1].wait(60)
    assert all(event.is_set() for event in events)  # the superseded ones were released
    assert service.analysis(positions[-1], STANDARD) is not None
    assert all(service.analysis(position, STANDARD) is None for position in positions[:-1])


def test_the_waiting_queue_is_bounded(service: AnalysisService) -> None:
    service.request("busy", Deal(STANDARD, 11982).position(), STANDARD)
    while service.waiting:  # until a worker has taken it
        time.sleep(0.01)
    service.request("a", Deal(STANDARD, 20).position(), STANDARD)
    service.request("b", Deal(STANDARD, 21).position(), STANDARD)
    with pytest.raises(AnalysisBusyError):
        service.request("c", Deal(STANDARD, 22).position(), STANDARD)
    # a game already waiting may still replace its own request
    service.request("a", Deal(STANDARD, 23).position(), STANDARD)


def test_the_worker_yields_the_cpu_to_the_server(service: AnalysisService) -> None:
    here = os.nice(0)
    assert service._pool.submit(os.nice, 0).result(timeout=60) == min(19, here + WORKER_NICENESS)


# --- the longer search after an in-play "unknown" ----------------------------------------

TOO_SHORT = SearchLimit(positions=1)  # an in-play search that decides nothing


def longer_service(longer: SearchLimit) -> AnalysisService:
    return AnalysisService(Advisor(limit=TOO_SHORT), longer=longer)


def settle(service: AnalysisService, position: Position, *, until: float = 60) -> Verdict:
    """Wait for the longer search of ``position`` to end; the verdict it left."""
    deadline = time.monotonic() + until
    while service.searching_further(position, STANDARD):
        assert time.monotonic() < deadline, "the longer search never ended"
        time.sleep(0.02)
    analysis = service.analysis(position, STANDARD)
    assert analysis is not None
    return analysis.verdict


def longer_process(service: AnalysisService) -> BaseProcess:
    """The process of the longer search under way, once it is up."""
    while not getattr(service._longer_pool, "_processes", None):
        time.sleep(0.01)
    return next(iter(service._longer_pool._processes.values()))  # type: ignore[union-attr]


@pytest.mark.parametrize("tasks_per_worker", [None, 1])
def test_an_ended_pool_leaves_nothing_running(tasks_per_worker: int | None) -> None:
    """Ending a pool (the server's, or a longer search's: a process for each task) stops
    its running task, and returns once its processes and the thread that managed them
    have ended: none of it is left to fail later, or at the server's exit."""
    pool = analysis._worker_pool(1, WORKER_NICENESS, tasks_per_worker=tasks_per_worker)
    running = pool.submit(time.sleep, 600)
    processes = list(pool._processes.values())
    manager = pool._executor_manager_thread
    assert processes and manager is not None
    analysis._end_pool(pool)
    assert not any(process.is_alive() for process in processes)
    assert not manager.is_alive()
    assert running.done()


def test_an_unknown_position_is_decided_by_a_longer_search() -> None:
    service = longer_service(SearchLimit(seconds=60))
    start = Deal(STANDARD, 1).position()
    try:
        assert service.request("game", start, STANDARD).wait(60)
        first = service.analysis(start, STANDARD)
        assert first is not None
        # the page never hears a bare "unknown": the longer search is already under way
        assert first.verdict is Verdict.WINNABLE or service.searching_further(start, STANDARD)
        assert settle(service, start) is Verdict.WINNABLE
        analysis = service.analysis(start, STANDARD)
        assert analysis is not None and replay(start, STANDARD, analysis.line).is_won()
    finally:
        service.close()


def test_moving_on_stops_the_games_longer_search_and_ends_its_process() -> None:
    service = longer_service(SearchLimit(seconds=120))
    proof = Deal(STANDARD, 11982).position()  # a proof: the longer search runs a while
    other_game = Deal(STANDARD, 617).position()
    try:
        assert service.request("game", proof, STANDARD).wait(60)
        assert service.searching_further(proof, STANDARD)
        process = longer_process(service)
        assert service.request("other", other_game, STANDARD).wait(60)
        assert service.searching_further(proof, STANDARD)  # another game's request waits behind it
        assert process.is_alive()

        moved_on = Deal(STANDARD, 2).position()
        assert service.request("game", moved_on, STANDARD).wait(60)
        assert not service.searching_further(proof, STANDARD)
        assert not process.is_alive()  # ended and reaped: its memory is given back
        unknown = service.analysis(proof, STANDARD)
        assert unknown is not None and unknown.verdict is Verdict.UNKNOWN
        assert settle(service, other_game) is Verdict.WINNABLE  # the others go on
        assert settle(service, moved_on) is Verdict.WINNABLE
    finally:
        service.close()


def test_a_left_games_longer_search_gives_way_to_the_game_played_now() -> None:
    """A player who gives up on a deal left unknown and deals another that is unknown too
    does not wait behind the first one's longer search: once the first game has asked
    nothing for LEFT_AFTER seconds, its search's process is ended and the new game's
    search begins."""
    now = [0.0]
    service = AnalysisService(Advisor(limit=TOO_SHORT), longer=SearchLimit(seconds=120), clock=lambda: now[0])
    given_up = Deal(APP_ONE_CELL, 9331).position()  # undecided within 30 s: its search runs on
    played = Deal(STANDARD, 617).position()
    try:
        assert service.request("given up", given_up, APP_ONE_CELL).wait(60)
        assert service.searching_further(given_up, APP_ONE_CELL)
        process = longer_process(service)
        assert service.request("played", played, STANDARD).wait(60)
        assert service.searching_further(played, STANDARD)  # it waits behind the other
        now[0] = LEFT_AFTER - 1
        service.request("played", played, STANDARD)  # the page asks again, as it does every second
        assert process.is_alive() and service.searching_further(given_up, APP_ONE_CELL)
        now[0] = LEFT_AFTER + 1
        service.request("played", played, STANDARD)
        assert not process.is_alive()  # ended and reaped: its memory is given back
        assert not service.searching_further(given_up, APP_ONE_CELL)
        assert settle(service, played) is Verdict.WINNABLE
        service.request("given up", given_up, APP_ONE_CELL)  # the player came back to it
        assert service.searching_further(given_up, APP_ONE_CELL)
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
    jobs = [_Waiting(owner, Deal(STANDARD, number).position(), STANDARD) for number, owner in enumerate("abc", 1)]
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


def test_a_longer_search_that_reaches_its_limit_leaves_unknown_and_is_not_run_again() -> None:
    service = longer_service(SearchLimit(positions=2))
    start = Deal(STANDARD, 11982).position()
    try:
        assert service.request("game", start, STANDARD).wait(60)
        assert settle(service, start) is Verdict.UNKNOWN
        service.request("game", start, STANDARD)  # asked again, as the page does
        assert not service.searching_further(start, STANDARD)
    finally:
        service.close()


def test_without_a_longer_limit_unknown_stays_unknown() -> None:
    service = AnalysisService(Advisor(limit=TOO_SHORT), longer=None)
    start = Deal(STANDARD, 1).position()
    try:
        assert service.request("game", start, STANDARD).wait(60)
        assert not service.searching_further(start, STANDARD)
        analysis = service.analysis(start, STANDARD)
        assert analysis is not None and analysis.verdict is Verdict.UNKNOWN
    finally:
        service.close()
