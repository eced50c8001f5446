"""Solving in the background for the server: worker processes that answer the
:class:`~freecell.web.in_play.InPlayQueue`.

The solver runs in a separate process (one by default), so a long search never stalls
the event loop or the GIL. In a tight game a search in play that runs long lends its
relaxed walks to a helper process on the other core for its few seconds (see
``solve``'s ``helper``); both run at a lower priority than the server, whose requests
(moves) cannot wait. Whoever asks gets an :class:`~freecell.web.in_play.Answered` event,
which can be waited for by a thread or, through its callback, by an event loop without
holding a thread.

A longer search (:data:`~freecell.advisor.LONGER_LIMIT`) runs in a process of its own, at
a lower priority still, one at a time; when the queue says it stopped (the player moved
on), its process is ended and its memory given back.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from multiprocessing.context import SpawnContext, SpawnProcess
from multiprocessing.process import BaseProcess
from typing import Any, Final

from freecell.advisor import LONGER_LIMIT, Advisor, Analysis
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveResult, solve
from freecell.web.in_play import WAITING_PER_WORKER as WAITING_PER_WORKER
from freecell.web.in_play import AnalysisBusyError as AnalysisBusyError
from freecell.web.in_play import Answered, InPlayQueue, Job
from freecell.worker_process import exit_with_parent

WORKER_NICENESS: Final = 10
LONGER_NICENESS: Final = 15  # a longer search gives way to the in-play one as well


def _solve_in_worker(
    position: Position, rules: Rules, limit: SearchLimit, helper: bool = False, remember: bool = True
) -> SolveResult:
    """``helper``: a tight game's relaxed walks may take the other core for the search's
    few seconds (see ``solve``): a worker forks safely, its only other thread asleep."""
    return solve(position, rules, limit=limit, helper=helper, remember=remember)


def _start_worker(parent: int, niceness: int = WORKER_NICENESS) -> None:
    """In a worker: yield the CPU to the server, whose requests (moves) cannot wait, and
    exit as soon as the server that started it is gone (even killed)."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)
    exit_with_parent(parent)


class _KeptProcesses(SpawnContext):
    """The spawn start method, remembering the processes it makes, so that the pool that
    asked for them can end them."""

    def __init__(self) -> None:
        super().__init__()
        self.made: weakref.WeakSet[SpawnProcess] = weakref.WeakSet()

    def Process(self, *args: Any, **kwargs: Any) -> SpawnProcess:  # type: ignore[override]
        process = SpawnProcess(*args, **kwargs)
        self.made.add(process)
        return process


class WorkerPool(ProcessPoolExecutor):
    """``workers`` spawned processes for searches, at ``niceness``, each gone as soon as
    the server is; with ``tasks_per_worker``, a process is made anew after that many.

    ``shutdown(cancel_futures=True)`` ends the searches running too: their processes are
    ended first, and the pool shut down after, waiting. Shut down without waiting,
    CPython 3.11 lets the thread that manages the processes go on and then fail (a worker
    that ended after its task met a pool with no processes left), or cross at exit with
    the wakeup Python sends it (the server printed "Bad file descriptor" after it
    stopped); with no worker left, that thread ends at once."""

    def __init__(self, workers: int, niceness: int, *, tasks_per_worker: int | None = None) -> None:
        self._kept_processes = _KeptProcesses()
        super().__init__(
            max_workers=workers,
            mp_context=self._kept_processes,
            initializer=_start_worker,
            initargs=(os.getpid(), niceness),
            max_tasks_per_child=tasks_per_worker,
        )

    @property
    def processes(self) -> list[BaseProcess]:
        """The processes this pool has started (those already gone included, until freed)."""
        return list(self._kept_processes.made)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            processes = [process for process in self.processes if process.pid is not None]
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(timeout=5)
        super().shutdown(wait=wait, cancel_futures=cancel_futures)


def end_pool(pool: Executor) -> None:
    """Stop ``pool`` now, its running searches included, and wait until nothing of it runs."""
    pool.shutdown(wait=True, cancel_futures=True)


def _outcome(future: Future[SolveResult]) -> SolveResult | None:
    """The result of a search, or None if it failed (its process died) or was cancelled."""
    if future.cancelled() or future.exception() is not None:
        return None
    return future.result()


class AnalysisWorkers:
    """Analyses for the server in worker processes (``workers`` of them, in ``pool``, which
    it then owns), recorded in ``advisor``. A position the in-play search leaves unknown
    gets a search within ``longer`` (None: none) in a pool of one process that
    ``longer_pool()`` makes, one for each search (so that ending it stops that search)."""

    def __init__(
        self,
        advisor: Advisor,
        *,
        workers: int = 1,
        max_waiting: int | None = None,
        pool: Executor | None = None,
        longer: SearchLimit | None = LONGER_LIMIT,
        longer_pool: Callable[[], Executor] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.advisor = advisor
        self.queue = InPlayQueue(
            advisor, runners=workers, max_waiting=WAITING_PER_WORKER * workers if max_waiting is None else max_waiting,
            longer=longer, clock=clock,
        )
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._pool = pool or WorkerPool(workers, WORKER_NICENESS)
        # A process for each longer search: one that grew to its limit would start the next
        # one near it (the memory a search frees is not all given back to the OS).
        self._new_longer_pool = longer_pool or (lambda: WorkerPool(1, LONGER_NICENESS, tasks_per_worker=1))
        self._longer_pool: Executor | None = None
        self._closed = False
        self._dispatcher = threading.Thread(target=self._dispatch, name="analysis-dispatcher", daemon=True)
        self._dispatcher.start()

    @property
    def longer(self) -> SearchLimit | None:
        return self.queue.longer

    def analysis(self, position: Position, rules: Rules) -> Analysis | None:
        """What is already known of ``position`` (None while it is still unknown)."""
        return self.advisor.known(position, rules)

    @property
    def waiting(self) -> int:
        """How many requests wait for a worker."""
        with self._lock:
            return self.queue.waiting

    def request(self, owner: str, position: Position, rules: Rules, *, background: bool = False) -> Answered:
        """:meth:`InPlayQueue.request <freecell.web.in_play.InPlayQueue.request>`, answered
        by the workers; a longer search stopped by it has its process ended."""
        stopped = None
        try:
            with self._lock:
                try:
                    answered = self.queue.request(owner, position, rules, background=background)
                    self._wake.notify()
                finally:  # a request refused may have stopped a longer search too
                    stopped = self._stopped_pool_locked()
        finally:
            self._end_longer(stopped)
        return answered

    def searching_further(self, position: Position, rules: Rules) -> bool:
        """Whether a longer search for ``position`` is running or waiting."""
        with self._lock:
            return self.queue.searching_further(position, rules)

    def solve(self, position: Position, rules: Rules, limit: SearchLimit, *, repeatable: bool = False) -> SolveResult:
        """Solve in a worker process now (behind whatever the workers are doing) and wait.
        The answer is recorded in the advisor too. ``repeatable``: no helper, nothing
        remembered from the worker's other solves (see ``Analyses.solve``)."""
        result = self._pool.submit(_solve_in_worker, position, rules, limit, not repeatable, not repeatable).result()
        self.advisor.learn(position, rules, result)
        return result

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                job = None
                while not self._closed and (job := self.queue.take()) is None:
                    self._wake.wait()
                if self._closed or job is None:
                    return
            try:
                future = self._pool.submit(_solve_in_worker, job.position, job.rules, self.advisor.limit, True)
            except RuntimeError:  # the pool is shutting down
                job.done.set()
                return
            future.add_done_callback(lambda done, job=job: self._finished(job, done))  # type: ignore[misc]

    def _finished(self, job: Job, future: Future[SolveResult]) -> None:
        result = _outcome(future)
        self.queue.learn(job, result)  # outside the lock, which requests (in the event loop) take
        with self._lock:
            self.queue.finished(job, result)
            self._wake.notify()
        self._start_longer()

    # --- the longer searches -------------------------------------------------------------

    def _start_longer(self) -> None:
        """Start the next longer search, if one waits and none runs."""
        with self._lock:
            job = None if self._closed else self.queue.take_longer()
            if job is None or self.longer is None:
                return
            if self._longer_pool is None:
                self._longer_pool = self._new_longer_pool()
            pool, limit = self._longer_pool, self.longer
        future = pool.submit(_solve_in_worker, job.position, job.rules, limit)
        future.add_done_callback(lambda done, job=job: self._longer_finished(job, done))  # type: ignore[misc]

    def _longer_finished(self, job: Job, future: Future[SolveResult]) -> None:
        with self._lock:
            if not self.queue.longer_finished(job, _outcome(future)):
                return  # stopped: its process was ended
        self._start_longer()

    def _stopped_pool_locked(self) -> Executor | None:
        """The pool of the longer search the queue stopped, if it did, to end."""
        if not self.queue.stopped():
            return None
        pool, self._longer_pool = self._longer_pool, None
        return pool

    def _end_longer(self, pool: Executor | None) -> None:
        """End the process of a longer search stopped (its ``pool``), then start the next."""
        if pool is not None:
            end_pool(pool)
        self._start_longer()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self.queue.close()
            longer_pool, self._longer_pool = self._longer_pool, None
            self._wake.notify_all()
        # A worker may be in the middle of a long search: stop it rather than wait for it,
        # and reap it, so that no worker outlives the server.
        end_pool(self._pool)
        if longer_pool is not None:
            end_pool(longer_pool)
        self._dispatcher.join(timeout=5)
