"""The server's background solving: answers land in the advisor, newer requests
supersede waiting ones, and the queue is bounded."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from freecell import Deal, find_rules
from freecell.advisor import Advisor, Verdict
from freecell.replay import replay
from freecell.solver import SearchLimit
from freecell.web.analysis import WORKER_NICENESS, AnalysisBusyError, AnalysisService

STANDARD = find_rules("standard")


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
