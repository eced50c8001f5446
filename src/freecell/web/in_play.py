"""Which positions the solver takes next, and what becomes of its answers: the books of
the analyses in play, kept alike for the server (worker processes,
:mod:`freecell.web.analysis`) and the static site (Web Workers, :mod:`freecell.web.worker`).

Requests are keyed by game: a newer request for a game replaces its older one while that
is still waiting, and at most ``max_waiting`` requests wait at once; past that a request
is refused at once (:class:`AnalysisBusyError`, with the seconds after which to ask again)
instead of piling up. A *background* request (a game's review) is taken only when no
request of a game in play waits, and gets no longer search. Every answer is handed to the shared
:class:`~freecell.advisor.Advisor`, whose cache then serves the page at no cost; a runner
that failed leaves the position unknown rather than the page waiting. A search that
reached its limit is followed by a longer one (:class:`LongerQueue`), one at a time, which
a game's request for another position stops: the player moved on.

:class:`InPlayQueue` only keeps the books: whoever runs the searches takes the jobs,
hands the answers back, ends the longer searches it is told to stop, and locks it if
need be.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Generic, Protocol, TypeVar

from freecell.advisor import CACHE_SIZE, Advisor
from freecell.errors import UnavailableError
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus

# A search in play takes up to 3 s (the advisor's limit) and the page asks for a hint for
# about 20 s: a request behind more than 6 others a worker would not be answered in time,
# so it is refused at once rather than left to wait (and its page to ask again and again).
WAITING_PER_WORKER: Final = 6
RETRY_AFTER: Final = 1  # seconds: a worker takes a waiting request about that often
# A game whose page has asked nothing for this many seconds has been left: while its
# longer search runs, the page asks about the position every second (advice.js). A
# longer search still running for a game left gives way to another game's waiting one,
# which the player is looking at (without this, a new deal left unknown in play waited
# behind the 30 s of a deal given up on, and its page could give up first).
LEFT_AFTER: Final = 5.0


class AnalysisBusyError(UnavailableError):
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

    @classmethod
    def already(cls) -> Answered:
        """One set now: the answer is known."""
        answered = cls()
        answered.set()
        return answered

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
        if self.is_set():  # known already: not even a turn of the loop
            return True
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


@dataclass(eq=False)
class Job:
    """One position to solve for a game (``owner``), numbered in the order asked; ``done``
    is set once it is answered, superseded or dropped. A ``background`` job gives way to
    the others and has no longer search."""

    number: int
    owner: str
    position: Position
    rules: Rules
    done: Answered = field(default_factory=Answered)
    background: bool = False


class LongerJob(Protocol):
    owner: str
    position: Position
    rules: Rules


J = TypeVar("J", bound=LongerJob)


class LongerQueue(Generic[J]):
    """Which positions get a longer search: one runs at a time, one per game waits (a
    newer one replaces it), and no position is searched twice. The games whose pages still
    ask come first, and a game left (see :data:`LEFT_AFTER`) gives way. ``clock`` tells
    the time in seconds."""

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


class InPlayQueue:
    """The analyses owed to the games being played, for ``runners`` runners at once (the
    worker processes, or the site's one solver worker), and their longer searches within
    ``longer`` (None: none). Not thread-safe: the server calls it under its lock."""

    def __init__(
        self,
        advisor: Advisor,
        *,
        runners: int = 1,
        max_waiting: int | None = None,
        longer: SearchLimit | None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.advisor = advisor
        self.longer = longer
        self._runners = runners
        self._max_waiting = WAITING_PER_WORKER * runners if max_waiting is None else max_waiting
        self._waiting: OrderedDict[str, Job] = OrderedDict()
        self._running: dict[int, Job] = {}
        self._numbers = itertools.count(1)
        self._longer: LongerQueue[Job] = LongerQueue(self._max_waiting, clock=clock)
        self._stopped: list[Job] = []

    @property
    def waiting(self) -> int:
        """How many requests wait for a runner."""
        return len(self._waiting)

    def request(self, owner: str, position: Position, rules: Rules, *, background: bool = False) -> Answered:
        """Ask for ``position`` to be analysed on behalf of ``owner`` (a game id), unless it
        is known, being solved, or already waiting: the event to wait for (set already
        when the answer is known). Raises :class:`AnalysisBusyError` at once when too many
        requests wait. A position known to be unknown gets its longer search if it has not
        had one; the owner's longer search for another position stops, and so does one for
        a game left (see :data:`LEFT_AFTER`) while the owner's waits (:meth:`stopped`).
        A ``background`` request (a review's) touches no longer search and waits behind
        every other (:meth:`take`)."""
        known = self.advisor.known(position, rules)
        if background:
            return Answered.already() if known is not None else self._queue(owner, position, rules, background=True)
        self._stop(self._longer.asked(owner))
        if known is not None and known.verdict is SolveStatus.LIMIT_REACHED:
            self._search_further(owner, position, rules)
            return Answered.already()
        self._stop(self._longer.moved_on(owner, position, rules))
        if known is not None:
            return Answered.already()
        return self._queue(owner, position, rules, background=False)

    def _queue(self, owner: str, position: Position, rules: Rules, *, background: bool) -> Answered:
        """The job for ``position`` running or waiting, or a new one for ``owner``, which
        replaces the owner's waiting one."""
        running = next((job for job in self._running.values() if (job.position, job.rules) == (position, rules)), None)
        if running is not None:
            return running.done
        waiting = self._waiting.get(owner)
        if waiting is not None and (waiting.position, waiting.rules) == (position, rules):
            return waiting.done
        if waiting is None and len(self._waiting) >= self._max_waiting:
            raise AnalysisBusyError("the solver is busy: try again in a moment")
        if waiting is not None:
            waiting.done.set()  # superseded: whoever waits on it looks again and finds no answer
        job = Job(next(self._numbers), owner, position, rules, background=background)
        self._waiting[owner] = job
        self._waiting.move_to_end(owner)
        return job.done

    def take(self) -> Job | None:
        """The next job for a runner, if one is free and a job waits (the first asked, a
        background one only when no other waits); it is running now."""
        if len(self._running) >= self._runners or not self._waiting:
            return None
        owner = next((owner for owner, job in self._waiting.items() if not job.background), next(iter(self._waiting)))
        job = self._waiting.pop(owner)
        self._running[job.number] = job
        return job

    def running(self, number: int) -> Job | None:
        """The job numbered ``number``, if it is running."""
        return self._running.get(number)

    def learn(self, job: Job, result: SolveResult | None) -> None:
        """The advisor learns what ``job``'s search found: ``result``, or, when it is None
        (its runner failed, or its answer was not trusted), that the position is unknown.
        Call it before :meth:`finished`; the advisor is thread-safe, so the server calls it
        outside its lock (a winning line takes a while to record)."""
        if result is None:
            self.advisor.remember_verdict(job.position, job.rules, SolveStatus.LIMIT_REACHED)
        else:
            self.advisor.learn(job.position, job.rules, result)

    def finished(self, job: Job, result: SolveResult | None) -> None:
        """``job`` ended with ``result`` (None: failed), which the advisor has learnt: a
        failed position gets no longer search (it would fail the same way), one that
        reached its limit is queued for a longer one, and whoever waits on the job is woken."""
        if self._running.pop(job.number, None) is not job:
            return
        if result is None:
            self._longer.mark_done(job.rules, job.position)
        elif result.status is SolveStatus.LIMIT_REACHED and not job.background:  # before the page hears "unknown"
            self._search_further(job.owner, job.position, job.rules)
        job.done.set()

    # --- the longer searches -------------------------------------------------------------

    def searching_further(self, position: Position, rules: Rules) -> bool:
        """Whether a longer search for ``position`` is running or waiting."""
        return self._longer.searching(position, rules)

    def take_longer(self) -> Job | None:
        """The next longer search, if none runs and one waits; it is running now."""
        return None if self.longer is None else self._longer.take()

    def running_longer(self) -> Job | None:
        return self._longer.running

    def longer_finished(self, job: Job, result: SolveResult | None) -> bool:
        """``job``'s longer search ended with ``result`` (None: it failed): the advisor
        learns a verdict it found. False if it had been stopped (its answer is not taken)."""
        if not self._longer.finish(job):
            return False
        if result is not None and result.status is not SolveStatus.LIMIT_REACHED:
            self.advisor.learn(job.position, job.rules, result)
        return True

    def stopped(self) -> list[Job]:
        """The longer searches stopped since last asked, which the caller ends now."""
        stopped, self._stopped = self._stopped, []
        return stopped

    def _stop(self, job: Job | None) -> None:
        if job is not None:
            self._stopped.append(job)

    def _search_further(self, owner: str, position: Position, rules: Rules) -> None:
        if self.longer is not None:
            self._longer.add(Job(next(self._numbers), owner, position, rules))

    def close(self) -> None:
        """Drop every job, waking whoever waits on one."""
        for job in [*self._waiting.values(), *self._running.values()]:
            job.done.set()
        self._waiting.clear()
        self._running.clear()
        self._longer.clear()
        self._stopped.clear()
