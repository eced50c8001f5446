"""Solving in the background for the server: a worker process, bounded and superseding.

The solver runs in a separate process (one by default), so a long search never stalls
the event loop or the GIL. In a tight game a search in play that runs long lends its
relaxed walks to a helper process on the other core for its few seconds (see
``solve``'s ``helper``); both run at a lower priority than the server, whose requests
(moves) cannot wait. Requests are keyed by
game: a newer request for a game replaces its older one while that is still waiting, and
at most :data:`WAITING_PER_WORKER` requests for each worker wait at once; past that a
request is refused at once (:class:`AnalysisBusyError`, with the seconds after which to
ask again) instead of piling up. Every answer is handed to the shared :class:`Advisor`, whose cache then serves
the page at no cost. Whoever asks gets an :class:`Answered` event, which can be waited for
by a thread or, through its callback, by an event loop without holding a thread.

When the in-play search reaches its limit, the position gets a longer search
(:data:`~freecell.advisor.LONGER_LIMIT`) in a process of its own, at a lower priority
still, one at a time: :meth:`AnalysisService.searching_further` says it is under way, and
its verdict replaces "unknown" in the advisor. A request of the same game for another
position stops it (the process is ended, its memory given back): the player moved on.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Final, Generic, Protocol, TypeVar

from freecell.advisor import CACHE_SIZE, LONGER_LIMIT, Advisor, Analysis, Verdict
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus, solve
from freecell.worker_process import exit_with_parent

# A search in play takes up to 3 s (the advisor's limit) and the page asks for a hint for
# about 20 s: a request behind more than 6 others a worker would not be answered in time,
# so it is refused at once rather than left to wait (and its page to ask again and again).
WAITING_PER_WORKER: Final = 6
RETRY_AFTER: Final = 1  # seconds: a worker takes a waiting request about that often
WORKER_NICENESS: Final = 10
LONGER_NICENESS: Final = 15  # a longer search gives way to the in-play one as well
# A game whose page has asked nothing for this many seconds has been left: while its
# longer search runs, the page asks about the position every second (advice.js). A
# longer search still running for a game left gives way to another game's waiting one,
# which the player is looking at (without this, a new deal left unknown in play waited
# behind the 30 s of a deal given up on, and its page could give up first).
LEFT_AFTER: Final = 5.0


class AnalysisBusyError(RuntimeError):
    """Too many requests are waiting for the solver: ask again in ``retry_after`` seconds."""

    def __init__(self, message: str, *, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Answered(threading.Event):
    """Set when the analysis asked for is in the advisor's cache, or when the request was
    superseded or dropped (look again: the answer may not be there)."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks: list[Callable[[], None]] = []
        self._guard = threading.Lock()

    def set(self) -> None:
        with self._guard:
            super().set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()

    def add_callback(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` once set, in the thread that sets it (now if it is set)."""
        with self._guard:
            if not self.is_set():
                self._callbacks.append(callback)
                return
        callback()

    async def wait_async(self, timeout: float) -> bool:
        """:meth:`wait` for an event loop, holding no thread meanwhile: True once set."""
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()

        def settle() -> None:
            if not woken.done():  # a wait that timed out has cancelled it
                woken.set_result(None)

        def wake() -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(settle)

        self.add_callback(wake)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(woken, timeout)
        return self.is_set()


@dataclass
class _Job:
    owner: str
    position: Position
    rules: Rules
    done: Answered = field(default_factory=Answered)


def _solve_in_worker(position: Position, rules: Rules, limit: SearchLimit, helper: bool = False) -> SolveResult:
    """``helper``: a tight game's relaxed walks may take the other core for the search's
    few seconds (see ``solve``): a worker forks safely, its only other thread asleep."""
    return solve(position, rules, limit=limit, helper=helper)


def _start_worker(parent: int, niceness: int = WORKER_NICENESS) -> None:
    """In a worker: yield the CPU to the server, whose requests (moves) cannot wait, and
    exit as soon as the server that started it is gone (even killed)."""
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)
    exit_with_parent(parent)


def _worker_pool(workers: int, niceness: int, *, tasks_per_worker: int | None = None) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), niceness),
        max_tasks_per_child=tasks_per_worker,
    )


def _end_pool(pool: Executor) -> None:
    """Stop ``pool`` now, its running search included, and wait until nothing of it runs:
    its processes, and the thread that manages them.

    The processes are ended first and the pool shut down after, waiting: shut down
    without waiting, CPython 3.11 lets that thread go on and then fail (a worker that
    ended after its task met a pool with no processes left), or cross at exit with the
    wakeup Python sends it (the server printed "Bad file descriptor" after it stopped).
    With no worker left, the thread ends at once. Only a search given to a worker
    started after the processes were ended is waited for, and that search is one of
    the in-play limit (a hint's, or a winnable deal's)."""
    processes = getattr(pool, "_processes", None) or {}
    workers = list(processes.values())
    for process in workers:
        process.terminate()
    for process in workers:
        process.join(timeout=5)
    pool.shutdown(wait=True, cancel_futures=True)


class LongerJob(Protocol):
    owner: str
    position: Position
    rules: Rules


J = TypeVar("J", bound=LongerJob)


class LongerQueue(Generic[J]):
    """Which positions get a longer search, for the server and the static site alike: one
    runs at a time, one per game waits (a newer one replaces it), and no position is
    searched twice. The games whose pages still ask come first, and a game left (see
    :data:`LEFT_AFTER`) gives way. It only keeps the books: whoever runs the searches
    locks it if need be. ``clock`` tells the time in seconds."""

    def __init__(self, max_waiting: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._max_waiting = max_waiting
        self._waiting: OrderedDict[str, J] = OrderedDict()
        self.running: J | None = None
        self._done: OrderedDict[tuple[Rules, object], None] = OrderedDict()
        self._clock = clock
        self._asked: OrderedDict[str, float] = OrderedDict()  # when each game last asked

    def asked(self, owner: str) -> J | None:
        """``owner``'s page asked about its game just now. Where the search running is for
        a game left while another game's waits, it gives way: it is returned (the caller
        ends it) and is not done, so it is queued again should its game ask again."""
        now = self._clock()
        self._asked[owner] = now
        self._asked.move_to_end(owner)
        while len(self._asked) > CACHE_SIZE:
            self._asked.popitem(last=False)
        running = self.running
        if running is None or self._still_asking(running.owner, now):
            return None
        if all(waiting == running.owner for waiting in self._waiting):
            return None
        self.running = None
        return running

    def _still_asking(self, owner: str, now: float) -> bool:
        asked = self._asked.get(owner)
        return asked is not None and now - asked < LEFT_AFTER

    def add(self, job: J) -> None:
        """Queue ``job`` unless its position had a longer search or has one under way."""
        key = (job.rules, job.position.key())
        if key in self._done or any((other.rules, other.position.key()) == key for other in self._jobs()):
            return
        self._waiting[job.owner] = job
        self._waiting.move_to_end(job.owner)
        while len(self._waiting) > self._max_waiting:
            self._waiting.popitem(last=False)

    def take(self) -> J | None:
        """The next job to run, if none runs: the first of a game still asking, else the
        first; it is running from now on."""
        if self.running is not None or not self._waiting:
            return None
        now = self._clock()
        owners = list(self._waiting)
        owner = next((owner for owner in owners if self._still_asking(owner, now)), owners[0])
        self.running = self._waiting.pop(owner)
        return self.running

    def finish(self, job: J) -> bool:
        """``job`` ended: True if it was still the one running (not stopped meanwhile)."""
        if self.running is not job:
            return False
        self.running = None
        self.mark_done(job.rules, job.position)
        return True

    def moved_on(self, owner: str, position: Position, rules: Rules) -> J | None:
        """``owner``'s game is at ``position`` now: its longer search for any other position
        is dropped; the one running, if it was that, is returned (the caller ends it)."""
        waiting = self._waiting.get(owner)
        if waiting is not None and (waiting.position, waiting.rules) != (position, rules):
            del self._waiting[owner]
        running = self.running
        if running is None or running.owner != owner or (running.position, running.rules) == (position, rules):
            return None
        self.running = None
        return running

    def searching(self, position: Position, rules: Rules) -> bool:
        """Whether a longer search for ``position`` is running or waiting."""
        return any((job.position, job.rules) == (position, rules) for job in self._jobs())

    def mark_done(self, rules: Rules, position: Position) -> None:
        """Give ``position`` no longer search (it had one, or its search failed)."""
        self._done[(rules, position.key())] = None
        while len(self._done) > CACHE_SIZE:
            self._done.popitem(last=False)

    def clear(self) -> None:
        self._waiting.clear()
        self.running = None

    def _jobs(self) -> list[J]:
        return [*self._waiting.values(), *([] if self.running is None else [self.running])]


class AnalysisService:
    """Runs analyses in worker processes (or in ``pool``, which the service then owns)
    and records them in ``advisor``. A position the in-play search leaves unknown gets a
    search within ``longer`` (None: none) in a process of its own."""

    def __init__(
        self,
        advisor: Advisor,
        *,
        workers: int = 1,
        max_waiting: int | None = None,
        pool: Executor | None = None,
        longer: SearchLimit | None = LONGER_LIMIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.advisor = advisor
        self.longer = longer
        self._max_waiting = WAITING_PER_WORKER * workers if max_waiting is None else max_waiting
        self._workers = workers
        self._waiting: OrderedDict[str, _Job] = OrderedDict()
        self._running: dict[tuple[Rules, Position], _Job] = {}
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._pool = pool or _worker_pool(workers, WORKER_NICENESS)
        # The longer searches: one runs at a time, one per game waits, in a pool of one
        # process that is ended (and made again when needed) to stop a search at once.
        self._longer_pool: Executor | None = None
        self._longer: LongerQueue[_Job] = LongerQueue(self._max_waiting, clock=clock)
        self._closed = False
        self._dispatcher = threading.Thread(target=self._dispatch, name="analysis-dispatcher", daemon=True)
        self._dispatcher.start()

    def analysis(self, position: Position, rules: Rules) -> Analysis | None:
        """What is already known of ``position`` (None while it is still unknown)."""
        return self.advisor.known(position, rules)

    @property
    def waiting(self) -> int:
        """How many requests wait for a worker."""
        with self._lock:
            return len(self._waiting)

    def request(self, owner: str, position: Position, rules: Rules) -> Answered:
        """Ask for ``position`` to be analysed on behalf of ``owner`` (a game id).

        Returns an event set when the answer is in the advisor's cache. Raises
        :class:`AnalysisBusyError` at once when too many requests are waiting. A position
        known to be unknown (the in-play search reached its limit) gets its longer search
        if it has not had one; the owner's longer search for another position stops, and
        so does one for a game left (see :data:`LEFT_AFTER`) while the owner's waits.
        """
        self._give_way_if_left(owner)
        done = Answered()
        known = self.advisor.known(position, rules)
        if known is not None:
            if known.verdict is Verdict.UNKNOWN:
                self._search_further(_Job(owner, position, rules))
            else:
                self._stop_longer(owner, position, rules)
            done.set()
            return done
        self._stop_longer(owner, position, rules)
        with self._lock:
            running = self._running.get((rules, position))
            if running is not None:
                return running.done
            waiting = self._waiting.get(owner)
            if waiting is not None and waiting.position == position and waiting.rules == rules:
                return waiting.done
            if owner not in self._waiting and len(self._waiting) >= self._max_waiting:
                raise AnalysisBusyError("the solver is busy: try again in a moment")
            if waiting is not None:
                waiting.done.set()  # superseded: whoever waits on it looks again and finds no answer
            job = _Job(owner, position, rules, done)
            self._waiting[owner] = job
            self._waiting.move_to_end(owner)
            self._wake.notify()
        return done

    def searching_further(self, position: Position, rules: Rules) -> bool:
        """Whether a longer search for ``position`` is running or waiting."""
        with self._lock:
            return self._longer.searching(position, rules)

    def solve(self, position: Position, rules: Rules, limit: SearchLimit) -> SolveResult:
        """Solve in a worker process now (behind whatever the workers are doing) and wait.
        The answer is recorded in the advisor too."""
        result = self._pool.submit(_solve_in_worker, position, rules, limit, True).result()
        self.advisor.learn(position, rules, result)
        return result

    def _dispatch(self) -> None:
        while True:
            with self._lock:
                while not self._closed and (not self._waiting or len(self._running) >= self._workers):
                    self._wake.wait()
                if self._closed:
                    return
                _, job = self._waiting.popitem(last=False)
                self._running[(job.rules, job.position)] = job
            try:
                future = self._pool.submit(_solve_in_worker, job.position, job.rules, self.advisor.limit, True)
            except RuntimeError:  # the pool is shutting down
                job.done.set()
                return
            future.add_done_callback(lambda f, job=job: self._finished(job, f))  # type: ignore[misc]

    def _finished(self, job: _Job, future: Future[SolveResult]) -> None:
        try:
            if not future.cancelled() and future.exception() is None:
                result = future.result()
                self.advisor.learn(job.position, job.rules, result)
                if result.status is SolveStatus.LIMIT_REACHED:  # before the page hears "unknown"
                    self._search_further(_Job(job.owner, job.position, job.rules))
            else:  # a worker that died or failed: say unknown rather than leave the page waiting
                self.advisor.remember_verdict(job.position, job.rules, Verdict.UNKNOWN)
                with self._lock:  # and give it no longer search, which would fail the same way
                    self._longer.mark_done(job.rules, job.position)
        finally:
            with self._lock:
                self._running.pop((job.rules, job.position), None)
                self._wake.notify()
            job.done.set()

    # --- the longer searches -------------------------------------------------------------

    def _search_further(self, job: _Job) -> None:
        """Queue ``job`` for a longer search, unless it had one or one is under way."""
        if self.longer is None:
            return
        with self._lock:
            if not self._closed:
                self._longer.add(job)
                self._start_longer_locked()

    def _start_longer_locked(self) -> None:
        if self._closed or self.longer is None:
            return
        job = self._longer.take()
        if job is None:
            return
        if self._longer_pool is None:
            # A process for each search: one that grew to its limit would start the next
            # one near it (the memory a search frees is not all given back to the OS).
            self._longer_pool = _worker_pool(1, LONGER_NICENESS, tasks_per_worker=1)
        future = self._longer_pool.submit(_solve_in_worker, job.position, job.rules, self.longer)
        future.add_done_callback(lambda f, job=job: self._longer_finished(job, f))  # type: ignore[misc]

    def _longer_finished(self, job: _Job, future: Future[SolveResult]) -> None:
        with self._lock:
            if self._longer.running is not job:  # stopped: the process was ended
                return
        if not future.cancelled() and future.exception() is None:
            result = future.result()
            if result.status is not SolveStatus.LIMIT_REACHED:
                self.advisor.learn(job.position, job.rules, result)
        with self._lock:
            self._longer.finish(job)
            self._start_longer_locked()

    def _stop_longer(self, owner: str, position: Position, rules: Rules) -> None:
        """The player of ``owner`` is at ``position`` now: drop the game's longer search
        for any other position, and end it if it runs."""
        with self._lock:
            if self._longer.moved_on(owner, position, rules) is None:
                return
            pool, self._longer_pool = self._longer_pool, None
        self._end_longer(pool)

    def _give_way_if_left(self, owner: str) -> None:
        """``owner`` asked: end the longer search running for a game left, if another
        game's waits, and start the next."""
        with self._lock:
            if self._closed or self._longer.asked(owner) is None:
                return
            pool, self._longer_pool = self._longer_pool, None
        self._end_longer(pool)

    def _end_longer(self, pool: Executor | None) -> None:
        """End the process of the longer search given way (its ``pool``), then start the next."""
        if pool is not None:
            _end_pool(pool)
        with self._lock:
            self._start_longer_locked()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for job in self._waiting.values():
                job.done.set()
            self._waiting.clear()
            self._longer.clear()
            longer_pool, self._longer_pool = self._longer_pool, None
            self._wake.notify_all()
        # A worker may be in the middle of a long search: stop it rather than wait for it,
        # and reap it, so that no worker outlives the server.
        _end_pool(self._pool)
        if longer_pool is not None:
            _end_pool(longer_pool)
