"""Range solving: deals sent in chunks to a local process pool or a Dask cluster, and each
chunk's results stored in the census as it comes back.

Every solution is replayed through the rules engine on the worker before it is returned;
one that does not replay to a win comes back as a :class:`Failure` and is never stored.
Chunks are sized from the measured speed, so that a chunk takes about a target time: long
enough that the scheduler is never the bottleneck, short enough that a worker that dies or
a run that is killed loses little work.
"""

from __future__ import annotations

import importlib
import itertools
import math
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any, Final, Protocol

from freecell.census import Census, DealRecord
from freecell.deals import Deal
from freecell.errors import InvalidInputError
from freecell.replay import replay
from freecell.rules import Rules, cells_text
from freecell.solver import SearchLimit, SolveStatus, solve
from freecell.worker_process import start_pool_worker


@dataclass(frozen=True, slots=True)
class Failure:
    """A deal the run could not decide because something went wrong: a solution that does
    not replay, an error in the solver, or a worker lost too often. Never stored."""

    deal: int
    message: str


DealOutcome = DealRecord | Failure


@dataclass(frozen=True, slots=True)
class Chunk:
    """A unit of work: some deals of one ruleset, each solved within one limit."""

    rules: Rules
    limit: SearchLimit
    deals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChunkResult:
    """What a worker sends back for a chunk: one outcome per deal, and its wall time."""

    chunk: Chunk
    outcomes: tuple[DealOutcome, ...]
    seconds: float


def solve_deal(rules: Rules, number: int, limit: SearchLimit) -> DealOutcome:
    """Solve deal ``number`` within ``limit`` and check the answer: a solution is replayed
    through the rules engine and must win. Any error is returned as a :class:`Failure`,
    never raised."""
    try:
        result = solve(Deal(rules, number).position(), rules, limit=limit)
        verdict = result.status
        record = DealRecord(
            rules=rules.name,
            cells=rules.cells,
            deal=number,
            verdict=verdict,
            length=result.non_foundation_moves if verdict is SolveStatus.SOLVED else None,
            expanded=result.expanded,
            generated=result.generated,
            seconds=result.seconds,
            solution=tuple(result.moves) if verdict is SolveStatus.SOLVED else (),
            limit=limit,
        )
        if verdict is SolveStatus.SOLVED:
            check_record(record, rules)
    except Exception as error:  # one bad deal must not sink a census of millions
        return Failure(number, f"{type(error).__name__}: {error}")
    return record


def check_record(record: DealRecord, rules: Rules) -> None:
    """Replay a stored solution over its deal under ``rules``; raise
    :class:`~freecell.errors.InvalidInputError` (a :class:`~freecell.replay.ReplayError`
    for an illegal move) unless it wins."""
    if (record.rules, record.cells) != (rules.name, rules.cells):
        raise InvalidInputError(f"deal {record.deal} was solved under {record.rules} with {cells_text(record.cells)}")
    if record.verdict is not SolveStatus.SOLVED:
        return
    end = replay(Deal(rules, record.deal).position(), rules, record.solution)
    if not end.is_won():
        raise InvalidInputError(f"the stored solution of deal {record.deal} leaves {end.cards_home} cards home")


def solve_chunk(chunk: Chunk) -> ChunkResult:
    """Solve every deal of ``chunk`` in turn (this runs on a worker)."""
    start = time.perf_counter()
    outcomes = tuple(solve_deal(chunk.rules, number, chunk.limit) for number in chunk.deals)
    return ChunkResult(chunk, outcomes, time.perf_counter() - start)


class Backend(Protocol):
    """Where chunks are solved: a local process pool or a Dask cluster."""

    #: About how long one chunk should take, in seconds.
    target_seconds: float
    #: The most deals sent in one chunk.
    largest_chunk: int

    def slots(self) -> int:
        """How many chunks can be solved at the same time."""
        ...

    def submit(self, chunk: Chunk) -> None:
        """Start solving ``chunk``."""
        ...

    def next_result(self) -> ChunkResult:
        """Wait for a submitted chunk to finish and return its result."""
        ...

    def close(self) -> None:
        """Stop the workers this backend started."""
        ...


class PoolBackend:
    """A local pool of ``jobs`` worker processes.

    A worker that dies (killed, out of memory) breaks the whole pool: a new pool is
    started and every chunk that was in flight is sent again, up to :attr:`attempts`
    times, after which its deals come back as failures.
    """

    target_seconds = 0.5
    largest_chunk = 200
    attempts = 3

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise InvalidInputError(f"--jobs must be at least 1, not {jobs}")
        self._jobs = jobs
        self._pool = self._start()
        self._generation = 0
        # Each future's chunk, the pool generation it was sent to, and its attempt.
        self._in_flight: dict[Future[ChunkResult], tuple[Chunk, int, int]] = {}

    def _start(self) -> ProcessPoolExecutor:
        # spawn, not fork: the parent runs threads (the progress display, SQLite).
        return ProcessPoolExecutor(
            self._jobs, mp_context=get_context("spawn"), initializer=start_pool_worker, initargs=(os.getpid(),)
        )

    def slots(self) -> int:
        return self._jobs

    def submit(self, chunk: Chunk, attempt: int = 1) -> None:
        self._in_flight[self._pool.submit(solve_chunk, chunk)] = (chunk, self._generation, attempt)

    def next_result(self) -> ChunkResult:
        while True:
            done, _ = wait(self._in_flight, return_when=FIRST_COMPLETED)
            future = done.pop()
            chunk, generation, attempt = self._in_flight.pop(future)
            try:
                return future.result()
            except BrokenProcessPool as error:
                if attempt >= self.attempts:
                    return _failed(chunk, error)
                if generation == self._generation:
                    self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = self._start()
                    self._generation += 1
                self.submit(chunk, attempt + 1)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskBackend:
    """A Dask distributed cluster: the scheduler at ``address``, or ``local:N`` for a
    :class:`LocalCluster` of N worker processes with one thread each.

    When a worker dies, the scheduler gives its chunks to another worker; a chunk that has
    been on too many dying workers comes back as failures. Every worker of a remote cluster
    needs this version of freecell installed, since the chunks name its functions.
    """

    target_seconds = 2.0
    largest_chunk = 500

    def __init__(self, address: str) -> None:
        # Imported here, untyped: Dask is an optional dependency (the ``cluster`` extra).
        distributed: Any = importlib.import_module("dask.distributed")
        self._cluster: Any = None
        if address.startswith("local:"):
            workers = local_workers(address)
            self._cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                host="127.0.0.1", dashboard_address="127.0.0.1:0",
            )
            self.client: Any = distributed.Client(self._cluster)
        else:
            self.client = distributed.Client(address)
        self._completed: Any = distributed.as_completed()
        self._chunks: dict[str, Chunk] = {}
        self._slots = 1
        self._slots_checked = -math.inf

    def slots(self) -> int:
        now = time.monotonic()
        if now - self._slots_checked > 5.0:
            self._slots = max(1, sum(self.client.nthreads().values()))
            self._slots_checked = now
        return self._slots

    def submit(self, chunk: Chunk) -> None:
        future = self.client.submit(solve_chunk, chunk, pure=False)
        self._chunks[future.key] = chunk
        self._completed.add(future)

    def next_result(self) -> ChunkResult:
        future = next(self._completed)
        chunk = self._chunks.pop(future.key)
        try:
            result: ChunkResult = future.result()
        except Exception as error:  # KilledWorker: the chunk was on too many dying workers
            result = _failed(chunk, error)
        future.release()
        return result

    def close(self) -> None:
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def local_workers(address: str) -> int:
    """N of a ``local:N`` scheduler address; raises :class:`~freecell.errors.InvalidInputError` unless N ≥ 1."""
    text = address.removeprefix("local:")
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or int(text) < 1:
        raise InvalidInputError(f"--scheduler local:N needs a number of workers N ≥ 1, not {text!r}")
    return int(text)


def _failed(chunk: Chunk, error: BaseException) -> ChunkResult:
    message = f"the worker was lost: {type(error).__name__}: {error}"
    return ChunkResult(chunk, tuple(Failure(number, message) for number in chunk.deals), 0.0)


def open_backend(*, jobs: int | None = None, scheduler: str | None = None) -> Backend:
    """A Dask backend when ``scheduler`` is given, else a pool of ``jobs`` processes (one
    per CPU by default)."""
    if scheduler:
        return DaskBackend(scheduler)
    return PoolBackend(jobs or os.cpu_count() or 1)


class ChunkSizer:
    """Sizes chunks so each takes about ``target_seconds`` at the speed measured so far,
    and so the last chunks are spread over every slot rather than left to one."""

    def __init__(self, target_seconds: float, largest: int, first: int = 4) -> None:
        self.target_seconds = target_seconds
        self.largest = largest
        self._seconds_per_deal: float | None = None
        self._first = first

    def record(self, result: ChunkResult) -> None:
        """Learn from a finished chunk (an average weighted towards recent chunks)."""
        if not result.chunk.deals or result.seconds <= 0:
            return
        measured = result.seconds / len(result.chunk.deals)
        previous = self._seconds_per_deal
        self._seconds_per_deal = measured if previous is None else 0.7 * previous + 0.3 * measured

    def size(self, remaining: int, slots: int) -> int:
        fair_share = math.ceil(remaining / (2 * slots))
        if self._seconds_per_deal is None:
            wanted = self._first
        else:
            wanted = round(self.target_seconds / max(self._seconds_per_deal, 1e-6))
        return max(1, min(wanted, self.largest, fair_share))


#: How many deals of a range are looked up in the census at a time: a plan holds no more.
PLAN_BATCH: Final = 10_000


class Deals(Protocol):
    """Deals to solve: counted at once, and read lazily when iterated."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[int]: ...


@dataclass(frozen=True, slots=True)
class RangePlan:
    """The deals from ``first`` to ``last`` still to solve: those with nothing stored, or
    with ``retry_limited`` only those stored as having reached their limit.

    Iterating reads the census :data:`PLAN_BATCH` deals at a time, as the deals are wanted,
    so a range of a hundred million deals takes no more memory than one of ten thousand.
    ``len()`` is counted once, when the plan is made.
    """

    census: Census
    rules: Rules
    first: int
    last: int
    retry_limited: bool
    count: int

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[int]:
        rules = self.rules
        for start in range(self.first, self.last + 1, PLAN_BATCH):
            end = min(start + PLAN_BATCH - 1, self.last)
            stored = self.census.stored_deals(rules.name, rules.cells, start, end)
            if self.retry_limited:
                yield from sorted(deal for deal, verdict in stored.items() if verdict is SolveStatus.LIMIT_REACHED)
            else:
                yield from (deal for deal in range(start, end + 1) if deal not in stored)


def check_range(rules: Rules, first: int, last: int) -> None:
    """Raise :class:`~freecell.errors.InvalidInputError` for an empty range (an
    :class:`InvalidDealError` beyond the
    last deal ``rules`` can deal; needs no census, so a refused range opens no file."""
    if first < 1 or last < first:
        raise InvalidInputError(
            f"a range runs from a first deal ≥ 1 to a last deal ≥ the first, not {first}-{last}"
        )
    Deal(rules, last)  # raises InvalidDealError beyond the last deal


def plan_range(census: Census, rules: Rules, first: int, last: int, *, retry_limited: bool = False) -> RangePlan:
    """The deals from ``first`` to ``last`` still to solve (see :class:`RangePlan`).
    Raises :class:`~freecell.errors.InvalidInputError` for an empty range (an
    :class:`InvalidDealError` beyond the last deal)."""
    check_range(rules, first, last)
    if retry_limited:
        count = census.stored_count(rules.name, rules.cells, first, last, verdict=SolveStatus.LIMIT_REACHED)
    else:
        count = last - first + 1 - census.stored_count(rules.name, rules.cells, first, last)
    return RangePlan(census, rules, first, last, retry_limited, count)


def available_cores() -> int:
    """The cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def pool_size(jobs: int | None, deals: int) -> int:
    """How many worker processes to start for ``deals`` deals when ``jobs`` are asked for
    (None: one per core): never more than the cores, nor than the deals."""
    return max(1, min(jobs or available_cores(), available_cores(), deals))


def solve_chunks(backend: Backend, rules: Rules, limit: SearchLimit, deals: Deals) -> Iterator[ChunkResult]:
    """Solve ``deals`` on ``backend`` and yield each chunk's result as it finishes.

    Twice as many chunks as slots are kept in flight, so no worker waits for work and a
    killed run has little to do again; deals are taken from ``deals`` only as chunks are
    sent.
    """
    sizer = ChunkSizer(backend.target_seconds, backend.largest_chunk)
    pending = iter(deals)
    remaining = len(deals)
    exhausted = False
    in_flight = 0
    while True:
        slots = backend.slots()
        while not exhausted and in_flight < 2 * slots:
            taken = tuple(itertools.islice(pending, sizer.size(max(remaining, 1), slots)))
            if not taken:
                exhausted = True
                break
            remaining -= len(taken)
            backend.submit(Chunk(rules, limit, taken))
            in_flight += 1
        if not in_flight:
            return
        result = backend.next_result()
        in_flight -= 1
        sizer.record(result)
        yield result


@dataclass(slots=True)
class RangeRun:
    """What one run did: how many deals it stored, and what went wrong."""

    stored: int = 0
    failures: list[Failure] = field(default_factory=list)


def solve_into(
    census: Census,
    backend: Backend,
    rules: Rules,
    limit: SearchLimit,
    deals: Deals,
    *,
    progress: Callable[[int], None] | None = None,
) -> RangeRun:
    """Solve ``deals``, each within ``limit``, and store every result in ``census`` as its
    chunk comes back, one transaction per chunk; ``progress`` is told how many deals each
    chunk settled."""
    run = RangeRun()
    for result in solve_chunks(backend, rules, limit, deals):
        records = [outcome for outcome in result.outcomes if isinstance(outcome, DealRecord)]
        run.stored += census.store(records)
        run.failures.extend(outcome for outcome in result.outcomes if isinstance(outcome, Failure))
        if progress is not None:
            progress(len(result.outcomes))
    return run
