"""The Python side of the static site's Web Workers (see :mod:`freecell.site`).

The page runs two workers under Pyodide. The first answers the API with the same
:class:`~freecell.web.service.Service` as the server, its games in SQLite on a file
system that the worker keeps in IndexedDB. Pyodide cannot start threads or processes, so
the analyses that the server gives to worker processes are queued here instead
(:class:`QueuedAnalysis`), handed to the page one at a time (:meth:`Api.next_job`), solved
by the second worker (:func:`solve_job`), and handed back (:meth:`Api.solved`). Meanwhile
the first worker goes on answering, and the page shows "pending" as it does with the
server. A search that reached its limit is followed by a longer one, as on the server,
in a third worker that the page starts when one is wanted and ends when the game moves
on (:meth:`Api.next_longer_job`, :meth:`Api.longer_to_stop`). Everything crossing
between workers is JSON text.
"""

from __future__ import annotations

import itertools
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import freecell.board_format  # noqa: F401  (imported lazily by Position.from_text; here, into the site's snapshot)
from freecell.advisor import HINT_LIMIT, LONGER_LIMIT, Advisor, Verdict
from freecell.position import Position
from freecell.replay import ReplayError, replay
from freecell.rules import Rules, find_rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus, solve
from freecell.store import Store
from freecell.web.analysis import WAITING_PER_WORKER, AnalysisBusyError, Answered, LongerQueue
from freecell.web.assistance import Assistance
from freecell.web.service import Service

# The longer search in the browser keeps the in-play bound on memory: a Web Worker that
# runs out of it may take the page down with it.
SITE_LONGER_LIMIT: Final = SearchLimit(seconds=LONGER_LIMIT.seconds, memory_mb=HINT_LIMIT.memory_mb)


@dataclass
class _Job:
    number: int
    owner: str
    position: Position
    rules: Rules


def _job_text(job: _Job, limit: SearchLimit) -> str:
    return json.dumps({
        "job": job.number, "board": job.position.to_text(), "rules": job.rules.name, "cells": job.rules.cells,
        "limit": {"seconds": limit.seconds, "positions": limit.positions, "memory_mb": limit.memory_mb},
    })


def _trusted_result(job: _Job, result_text: str) -> SolveResult | None:
    """The solver worker's answer to ``job``, or None if it is an error or a winning line
    that does not replay through the rules engine."""
    try:
        found = json.loads(result_text)
        result = SolveResult(
            SolveStatus(found["status"]), tuple(found["moves"]), found["expanded"], found["generated"],
            found["seconds"], found["non_foundation_moves"],
        )
        trusted = not result.solved or replay(job.position, job.rules, result.moves).is_won()
    except (ValueError, KeyError, TypeError, ReplayError):
        return None
    return result if trusted else None


class QueuedAnalysis:
    """The analyses waiting for the solver worker, one per game (a newer request for a
    game replaces its waiting one), at most ``max_waiting`` at once, as in the server.

    A position whose search reached its limit gets a longer one (``longer``, None for
    none), handed out by :meth:`next_longer_job` for a worker of its own, which the page
    ends when :meth:`longer_to_stop` says so: the game asked about another position."""

    def __init__(
        self,
        advisor: Advisor,
        *,
        max_waiting: int = WAITING_PER_WORKER,
        longer: SearchLimit | None = SITE_LONGER_LIMIT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.advisor = advisor
        self.longer = longer
        self._max_waiting = max_waiting
        self._waiting: OrderedDict[str, _Job] = OrderedDict()
        self._running: _Job | None = None
        self._numbers = itertools.count(1)
        self._longer: LongerQueue[_Job] = LongerQueue(max_waiting, clock=clock)
        self._longer_stopped: int | None = None

    def request(self, owner: str, position: Position, rules: Rules) -> Answered:
        """Queue ``position`` for analysis on behalf of ``owner`` unless it is known, being
        solved, or already waiting. Raises :class:`AnalysisBusyError` when too many wait.
        Nothing in a worker can wait for the answer: the page asks again, as with the server.
        A position known to be unknown gets its longer search if it has not had one; one
        running for a game left gives way, as on the server."""
        left = self._longer.asked(owner)
        if left is not None:
            self._longer_stopped = left.number
        known = self.advisor.known(position, rules)
        if known is not None and known.verdict is Verdict.UNKNOWN:
            self._search_further(owner, position, rules)
            return Answered()
        stopped = self._longer.moved_on(owner, position, rules)
        if stopped is not None:
            self._longer_stopped = stopped.number
        running = self._running
        if known is not None or (running is not None and (running.position, running.rules) == (position, rules)):
            return Answered()
        waiting = self._waiting.get(owner)
        if waiting is not None and (waiting.position, waiting.rules) == (position, rules):
            return Answered()
        if waiting is None and len(self._waiting) >= self._max_waiting:
            raise AnalysisBusyError("the solver is busy: try again in a moment")
        self._waiting[owner] = _Job(next(self._numbers), owner, position, rules)
        self._waiting.move_to_end(owner)
        return Answered()

    def searching_further(self, position: Position, rules: Rules) -> bool:
        """Whether a longer search for ``position`` is running or waiting."""
        return self._longer.searching(position, rules)

    def solve(self, position: Position, rules: Rules, limit: SearchLimit) -> SolveResult:
        """Solve now, in this worker (a winnable-only deal: the request waits for it)."""
        result = solve(position, rules, limit=limit)
        self.advisor.learn(position, rules, result)
        return result

    def next_job(self) -> str | None:
        """The next analysis for the solver worker, as JSON, if it is idle and one waits."""
        if self._running is not None or not self._waiting:
            return None
        _, job = self._waiting.popitem(last=False)
        self._running = job
        return _job_text(job, self.advisor.limit)

    def solved(self, job_number: int, result_text: str) -> None:
        """Learn the solver worker's answer to job ``job_number``; a winning line is replayed
        through the rules engine before it is trusted. An answer that does not replay, or
        an error, is taken as "unknown", as the server does with a worker that failed; an
        answer that reached its limit queues the longer search."""
        job, self._running = self._running, None
        if job is None or job.number != job_number:
            return
        result = _trusted_result(job, result_text)
        if result is None:
            self.advisor.remember_verdict(job.position, job.rules, Verdict.UNKNOWN)
            self._longer.mark_done(job.rules, job.position)  # a longer search would fail the same way
            return
        self.advisor.learn(job.position, job.rules, result)
        if result.status is SolveStatus.LIMIT_REACHED:
            self._search_further(job.owner, job.position, job.rules)

    # --- the longer searches -------------------------------------------------------------

    def next_longer_job(self) -> str | None:
        """The next longer search, as JSON, for the page's longer-search worker, if none runs."""
        if self.longer is None:
            return None
        job = self._longer.take()
        return None if job is None else _job_text(job, self.longer)

    def longer_solved(self, job_number: int, result_text: str) -> None:
        """Learn the answer of longer search ``job_number`` (replayed, as in :meth:`solved`);
        one that reached its limit, or failed, leaves the position unknown for good."""
        job = self._longer.running
        if job is None or job.number != job_number or not self._longer.finish(job):
            return
        result = _trusted_result(job, result_text)
        if result is not None and result.status is not SolveStatus.LIMIT_REACHED:
            self.advisor.learn(job.position, job.rules, result)

    def longer_to_stop(self) -> int | None:
        """The longer search the page must stop (end its worker), once: its game moved on."""
        stopped, self._longer_stopped = self._longer_stopped, None
        return stopped

    def _search_further(self, owner: str, position: Position, rules: Rules) -> None:
        if self.longer is not None:
            self._longer.add(_Job(next(self._numbers), owner, position, rules))

    def close(self) -> None:
        self._waiting.clear()
        self._longer.clear()


def solve_job(job_text: str) -> str:
    """In the solver worker: solve one job of :meth:`QueuedAnalysis.next_job`."""
    job = json.loads(job_text)
    rules = find_rules(job["rules"], cells=job["cells"])
    result = solve(Position.from_text(job["board"], rules), rules, limit=SearchLimit(**job["limit"]))
    return json.dumps({
        "status": result.status.value, "moves": list(result.moves), "expanded": result.expanded,
        "generated": result.generated, "seconds": result.seconds, "non_foundation_moves": result.non_foundation_moves,
    })


class Api:
    """The API worker's service over the games in ``db_path``."""

    def __init__(self, db_path: str) -> None:
        self.queue = QueuedAnalysis(Advisor())
        self.service = Service(Store(Path(db_path)), Assistance(service=self.queue))

    def answer(self, method: str, path: str, query: str, body_text: str) -> str:
        """One request, its body as JSON text (empty for none); ``{"status", "body",
        "changed"}`` as JSON, ``changed`` when the store committed a write (a hint counted
        by a GET too), which the worker saves to IndexedDB before the page hears of it."""
        body = json.loads(body_text) if body_text else None
        store = self.service.store
        commits = store.commits
        status, value = self.service.handle(method, path, query, body)
        return json.dumps({"status": status, "body": value, "changed": store.commits != commits})

    def next_job(self) -> str | None:
        return self.queue.next_job()

    def solved(self, job_number: int, result_text: str) -> None:
        self.queue.solved(job_number, result_text)

    def next_longer_job(self) -> str | None:
        return self.queue.next_longer_job()

    def longer_solved(self, job_number: int, result_text: str) -> None:
        self.queue.longer_solved(job_number, result_text)

    def longer_to_stop(self) -> int | None:
        return self.queue.longer_to_stop()
