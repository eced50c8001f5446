"""A move never waits behind the solver: a hint waits for it outside the games' lock, a
saturated solver answers 503 at once, and what needs no search is known at once.

The solver here is stalled on purpose (a pool whose jobs never finish until released),
so that "while a hint is waiting" is a state the test holds, not a race it hopes for.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import serving
from freecell.advisor import Advisor
from freecell.deals import Deal
from freecell.rules import STANDARD
from freecell.web.analysis import WAITING_PER_WORKER, AnalysisBusyError, AnalysisWorkers
from freecell.web.assistance import Assistance

LONG = 120.0  # seconds a hint would wait for the stalled solver: far beyond any join below
JOIN = 30.0  # seconds to wait for a request that must not be blocked


class StalledPool(Executor):
    """A worker pool whose jobs never finish until :meth:`release`."""

    def __init__(self) -> None:
        self.futures: list[Future[Any]] = []
        self.submitted = threading.Event()
        self._handed = threading.Condition()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._handed:
            self.futures.append(future)
            self._handed.notify_all()
        self.submitted.set()
        return future

    def wait_for(self, count: int) -> bool:
        """Until ``count`` jobs in all were handed to the pool (taken from those waiting)."""
        with self._handed:
            return self._handed.wait_for(lambda: len(self.futures) >= count, timeout=JOIN)

    def release(self) -> None:
        for future in self.futures:
            future.cancel()  # the service records "unknown" and wakes whoever waits

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.release()


@pytest.fixture
def pool() -> StalledPool:
    return StalledPool()


@pytest.fixture
def client(tmp_path: Path, pool: StalledPool) -> Iterator[TestClient]:
    service = AnalysisWorkers(Advisor(), workers=1, max_waiting=1, pool=pool)
    app = serving.make_app(tmp_path / "games.db", assistance=Assistance(analyses=service, hint_wait=LONG))
    with serving.client(app) as test_client:
        try:
            yield test_client
        finally:
            pool.release()


def new_game(client: TestClient, **body: Any) -> str:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def test_a_move_is_answered_while_a_hint_waits_for_the_solver(client: TestClient, pool: StalledPool) -> None:
    gid = new_game(client, rules="app", cells=1, deal=617)
    hinting, hint = in_thread(lambda: client.get(f"/api/games/{gid}/hint"))
    assert pool.submitted.wait(JOIN)  # the hint's position is with the (stalled) solver
    moving, moved = in_thread(lambda: client.post(f"/api/games/{gid}/moves", json={"move": "7a"}))
    moving.join(JOIN)
    assert moved, "the move waited behind the hint"
    assert moved[0].status_code == 200 and moved[0].json()["moves"] == 1
    assert hinting.is_alive()  # the hint is still waiting for the solver
    pool.release()
    hinting.join(JOIN)
    assert hint and hint[0].status_code == 200
    assert hint[0].json()["verdict"] == "unknown"  # the solver gave up: a move worth trying
    assert hint[0].json()["move"]


def test_hints_waiting_for_the_solver_hold_none_of_the_threads_that_run_moves(
    client: TestClient, pool: StalledPool
) -> None:
    service = client.app.state.assistance.analyses  # type: ignore[attr-defined]
    asked = threading.Semaphore(0)
    request = service.request

    def counted(*args: Any) -> Any:
        answered = request(*args)
        asked.release()
        return answered

    service.request = counted
    gid = new_game(client, rules="app", cells=1, deal=617)
    threads = 45  # more than the 40 threads that run the app's blocking work
    hints = [in_thread(lambda: client.get(f"/api/games/{gid}/hint")) for _ in range(threads)]
    for _ in range(threads):  # every hint has asked, and waits: none has an answer yet
        assert asked.acquire(timeout=JOIN), "a hint could not even ask: the threads were taken"
    moving, moved = in_thread(lambda: client.post(f"/api/games/{gid}/moves", json={"move": "7a"}))
    moving.join(JOIN)
    assert moved and moved[0].status_code == 200, "the move waited for a thread that a hint held"
    assert all(thread.is_alive() for thread, _ in hints)  # the hints are still waiting
    pool.release()
    for thread, _ in hints:
        thread.join(JOIN)
    assert all(answer and answer[0].status_code == 200 for _, answer in hints)


def test_a_saturated_solver_answers_503_with_retry_after_at_once(client: TestClient, pool: StalledPool) -> None:
    games = [new_game(client, rules="app", cells=1, deal=deal) for deal in (1, 2, 3, 4)]
    assert client.get(f"/api/games/{games[0]}/analysis").json()["verdict"] == "pending"
    assert pool.submitted.wait(JOIN)  # the dispatcher took it from those waiting, for the stalled worker
    assert client.get(f"/api/games/{games[1]}/analysis").json()["verdict"] == "pending"  # the one waiting place
    refused = client.get(f"/api/games/{games[2]}/analysis")
    assert refused.status_code == 503
    assert int(refused.headers["Retry-After"]) >= 1
    assert "busy" in refused.json()["detail"]
    hinting, hint = in_thread(lambda: client.get(f"/api/games/{games[3]}/hint"))
    hinting.join(JOIN)  # refused at once, not after the hint's long wait
    assert hint and hint[0].status_code == 503 and "Retry-After" in hint[0].headers
    assert client.post(f"/api/games/{games[3]}/moves", json={"move": "7a"}).status_code == 200


def test_a_won_game_is_known_winnable_at_once(client: TestClient, pool: StalledPool) -> None:
    board = "Foundations: H-Q C-K D-K S-K\nFreecells:\n: KH\n" + ":\n" * 7
    gid = new_game(client, rules="standard", board=board)
    won = client.post(f"/api/games/{gid}/moves", json={"move": "1h"}).json()
    assert won["outcome"] == "won"
    assert client.get(f"/api/games/{gid}/analysis", params={"line": True}).json() == {
        "verdict": "winnable", "line": [], "losing_move": None, "searching": False,
    }
    assert client.get(f"/api/games/{gid}/hint").json()["text"] == "The game is won"
    assert not pool.submitted.is_set()  # no search was asked for


def test_a_game_with_no_move_left_is_known_lost_at_once(client: TestClient, pool: StalledPool) -> None:
    gid = new_game(client, rules="standard", cells=0, deal=1)  # deal 1 without cells: stuck at once
    analysis = client.get(f"/api/games/{gid}/analysis").json()
    assert analysis["verdict"] == "not-winnable" and analysis["losing_move"] is None  # lost from the deal
    assert not pool.submitted.is_set()



@pytest.mark.parametrize("workers", [1, 2])
def test_no_more_wait_for_a_worker_than_it_can_answer_while_the_page_asks(workers: int) -> None:
    """By default 6 requests a worker wait (6 searches of 3 s: what the page's 20 s of
    asking can see answered); the next is refused at once."""
    pool = StalledPool()
    service = AnalysisWorkers(Advisor(), workers=workers, pool=pool)
    positions = iter(Deal(STANDARD, number).position() for number in range(1, 100))
    try:
        for owner in range(workers):  # every worker busy (stalled)
            service.request(f"running-{owner}", next(positions), STANDARD)
        assert pool.wait_for(workers)
        for owner in range(WAITING_PER_WORKER * workers):
            service.request(f"waiting-{owner}", next(positions), STANDARD)
        assert service.waiting == WAITING_PER_WORKER * workers
        with pytest.raises(AnalysisBusyError):
            service.request("one-too-many", next(positions), STANDARD)
    finally:
        service.close()
