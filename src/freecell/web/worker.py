"""The Python side of the static site's Web Workers (see :mod:`freecell.site`).

The page runs two workers under Pyodide. The first answers the API with the same
:class:`~freecell.web.service.Service` as the server, its games in SQLite on a file
system that the worker keeps in IndexedDB. Pyodide cannot start threads or processes, so
the analyses that the server gives to worker processes wait in the same
:class:`~freecell.web.in_play.InPlayQueue` here, and are handed to the page one at a time
(:meth:`Api.next_job`), solved by the second worker (:func:`solve_job`), and handed back
(:meth:`Api.solved`). Meanwhile
the first worker goes on answering, and the page shows "pending" as it does with the
server. A search that reached its limit is followed by a longer one, as on the server,
in a third worker that the page starts when one is wanted and ends when the game moves
on (:meth:`Api.next_longer_job`, :meth:`Api.longer_to_stop`). Everything crossing
between workers is JSON text.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

import freecell.board_format  # noqa: F401  (imported lazily by Position.from_text; here, into the site's snapshot)
from freecell.advisor import HINT_LIMIT, LONGER_LIMIT, Advisor
from freecell.daily import daily_deal, daily_text, parse_day, read_daily
from freecell.errors import FreecellError
from freecell.position import Position
from freecell.replay import replay
from freecell.rules import Rules, find_rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus, solve
from freecell.store import Store
from freecell.web.assistance import Assistance
from freecell.web.in_play import WAITING_PER_WORKER, Answered, InPlayQueue, Job
from freecell.web.service import Service
from freecell.web.share_target import PAGE

# The longer search in the browser keeps the in-play bound on memory: a Web Worker that
# runs out of it may take the page down with it.
SITE_LONGER_LIMIT: Final = SearchLimit(seconds=LONGER_LIMIT.seconds, memory_mb=HINT_LIMIT.memory_mb)


def _job_text(job: Job, limit: SearchLimit) -> str:
    return json.dumps({
        "job": job.number, "board": job.position.to_text(), "rules": job.rules.name, "cells": job.rules.cells,
        "limit": {"seconds": limit.seconds, "positions": limit.positions, "memory_mb": limit.memory_mb},
    })


def _trusted_result(job: Job, result_text: str) -> SolveResult | None:
    """The solver worker's answer to ``job``, or None if it is an error or a winning line
    that does not replay through the rules engine."""
    try:
        found = json.loads(result_text)
        result = SolveResult(
            SolveStatus(found["status"]), tuple(found["moves"]), found["expanded"], found["generated"],
            found["seconds"], found["non_foundation_moves"],
        )
        trusted = not result.solved or replay(job.position, job.rules, result.moves).is_won()
    except (ValueError, KeyError, TypeError):  # a ReplayError too: the text came from another worker
        return None
    return result if trusted else None


class QueuedAnalysis:
    """The analyses of the :class:`~freecell.web.in_play.InPlayQueue`, handed to the page's
    solver worker one at a time as JSON (:meth:`next_job`), and its answers taken back
    (:meth:`solved`). Nothing in a worker can wait for an answer: the page asks again, as
    with the server.

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
        self.queue = InPlayQueue(advisor, max_waiting=max_waiting, longer=longer, clock=clock)
        self._longer_stopped: int | None = None

    def request(self, owner: str, position: Position, rules: Rules, *, background: bool = False) -> Answered:
        """:meth:`InPlayQueue.request <freecell.web.in_play.InPlayQueue.request>`; a longer
        search it stops is one for the page to stop (:meth:`longer_to_stop`)."""
        try:
            return self.queue.request(owner, position, rules, background=background)
        finally:
            for job in self.queue.stopped():
                self._longer_stopped = job.number

    def searching_further(self, position: Position, rules: Rules) -> bool:
        """Whether a longer search for ``position`` is running or waiting."""
        return self.queue.searching_further(position, rules)

    def solve(self, position: Position, rules: Rules, limit: SearchLimit, *, repeatable: bool = False) -> SolveResult:
        """Solve now, in this worker (a winnable-only deal, a daily deal: the request waits
        for it); ``repeatable``: nothing remembered from other solves."""
        result = solve(position, rules, limit=limit, remember=not repeatable)
        self.advisor.learn(position, rules, result)
        return result

    def next_job(self) -> str | None:
        """The next analysis for the solver worker, as JSON, if it is idle and one waits."""
        job = self.queue.take()
        return None if job is None else _job_text(job, self.advisor.limit)

    def solved(self, job_number: int, result_text: str) -> None:
        """Learn the solver worker's answer to job ``job_number``; a winning line is replayed
        through the rules engine before it is trusted. An answer that does not replay, or
        an error, is taken as "unknown", as the server does with a worker that failed."""
        job = self.queue.running(job_number)
        if job is not None:
            result = _trusted_result(job, result_text)
            self.queue.learn(job, result)
            self.queue.finished(job, result)

    # --- the longer searches -------------------------------------------------------------

    def next_longer_job(self) -> str | None:
        """The next longer search, as JSON, for the page's longer-search worker, if none runs."""
        job = self.queue.take_longer()
        return None if job is None or self.queue.longer is None else _job_text(job, self.queue.longer)

    def longer_solved(self, job_number: int, result_text: str) -> None:
        """Learn the answer of longer search ``job_number`` (replayed, as in :meth:`solved`);
        one that reached its limit, or failed, leaves the position unknown for good."""
        job = self.queue.running_longer()
        if job is not None and job.number == job_number:
            self.queue.longer_finished(job, _trusted_result(job, result_text))

    def longer_to_stop(self) -> int | None:
        """The longer search the page must stop (end its worker), once: its game moved on."""
        stopped, self._longer_stopped = self._longer_stopped, None
        return stopped

    def close(self) -> None:
        self.queue.close()


def solve_job(job_text: str) -> str:
    """In the solver worker: solve one job of :meth:`QueuedAnalysis.next_job`."""
    job = json.loads(job_text)
    rules = find_rules(job["rules"], cells=job["cells"])
    result = solve(Position.from_text(job["board"], rules), rules, limit=SearchLimit(**job["limit"]))
    return json.dumps({
        "status": result.status.value, "moves": list(result.moves), "expanded": result.expanded,
        "generated": result.generated, "seconds": result.seconds, "non_foundation_moves": result.non_foundation_moves,
    })


def daily_job(rules: str, date: str) -> str | None:
    """In the solver worker: the daily deal of ``date`` under the preset ``rules`` (see
    :func:`~freecell.daily.daily_text`), chosen here so that the API worker, which would
    hold every move while it solves, only checks it (:meth:`Api.learn_daily`). None for a
    preset or a day that the API refuses anyway."""
    try:
        return daily_text(daily_deal(parse_day(date), find_rules(rules)))
    except FreecellError:
        return None


# A tab of the site that was last seen this long ago was closed, not reloaded.
AWAY_SECONDS: Final = 10.0


class Api:
    """The API worker's service over the games in ``db_path``, ``now`` its clock."""

    def __init__(self, db_path: str, *, now: Callable[[], float] = time.time) -> None:
        self.queue = QueuedAnalysis(Advisor())
        self.service = Service(Store(Path(db_path)), Assistance(analyses=self.queue), now=now, share=PAGE)

    def skip_time_away(self, last_seen: float) -> bool:
        """Keep the time since ``last_seen`` (when a tab last held the games, in seconds
        since the epoch) off the current game's running clock, unless it is a reload's
        moment (see :meth:`Games.skip_time_away <freecell.web.games.Games.skip_time_away>`):
        the worker lives only while its tab does, so the tab's lease says when the site
        was last seen. Whether the clock changed."""
        games = self.service.games
        game_id = games.current()
        return game_id is not None and games.skip_time_away(game_id, last_seen, AWAY_SECONDS)

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

    def learn_daily(self, text: str) -> None:
        """A daily deal chosen by :func:`daily_job`, checked, then kept for ``GET /api/daily``."""
        self.service.assistance.learn_daily(read_daily(text))

    def solved(self, job_number: int, result_text: str) -> None:
        self.queue.solved(job_number, result_text)

    def next_longer_job(self) -> str | None:
        return self.queue.next_longer_job()

    def longer_solved(self, job_number: int, result_text: str) -> None:
        self.queue.longer_solved(job_number, result_text)

    def longer_to_stop(self) -> int | None:
        return self.queue.longer_to_stop()
