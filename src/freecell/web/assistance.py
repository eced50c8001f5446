"""The solver in play, for the server: hints that win, the live verdict, the losing move
and its rewind, and winnable-only deals.

Every answer comes from the library's :class:`~freecell.advisor.Advisor`, fed by the
analyses (:class:`Analyses`: worker processes in the server, Web Workers in the static
site), which solve with a limit on every call. An answer is worked out from a :class:`Snapshot` of the game, taken
under the games' lock and used after it is released, so that no move ever waits while a
request waits for the solver. A hint waits for the solver at most :data:`HINT_WAIT`
seconds: past that it answers "pending" and the page asks again.
"""

from __future__ import annotations

import datetime
import os
import threading
from dataclasses import dataclass
from typing import Final, Protocol

from freecell.advisor import HINT_LIMIT, LONGER_LIMIT, Advisor, Analysis, winnable_deal
from freecell.daily import DailyDeal, daily_deal
from freecell.game import Action, is_lost
from freecell.lessons import Lesson
from freecell.position import Move, Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus
from freecell.web.hint import describe, describe_briefly, move_worth_trying
from freecell.web.in_play import Answered
from freecell.web.session import Session
from freecell.web.states import Json, move_hint, no_move_hint

HINT_WAIT: Final = 0.25
# What the API calls each verdict of the solver.
VERDICT_WORDS: Final = {
    SolveStatus.SOLVED: "winnable", SolveStatus.UNSOLVABLE: "not-winnable", SolveStatus.LIMIT_REACHED: "unknown",
}


@dataclass(frozen=True)
class Snapshot:
    """What the solver's answers need of a game at one moment. Everything in it is
    immutable, so it may be read while the game moves on."""

    game_id: str
    rules: Rules
    position: Position
    history: tuple[Action, ...]
    lesson: Lesson | None
    lesson_step: int
    moves_made: int = 0
    start: Position | None = None  # where the game began (a deal's layout or an imported position)

    @classmethod
    def of(cls, session: Session) -> Snapshot:
        """Take it (under the games' lock: it copies the history)."""
        game = session.game
        return cls(
            session.id, game.rules, game.position, tuple(game.history), session.lesson, session.lesson_step,
            game.moves_made, game.start,
        )


class Analyses(Protocol):
    """Where analyses run: :class:`~freecell.web.analysis.AnalysisWorkers` (worker
    processes) in the server; in the static site,
    :class:`~freecell.web.worker.QueuedAnalysis` (the solver's Web Worker)."""

    advisor: Advisor

    def request(self, owner: str, position: Position, rules: Rules, *, background: bool = False) -> Answered: ...

    def searching_further(self, position: Position, rules: Rules) -> bool: ...

    def solve(self, position: Position, rules: Rules, limit: SearchLimit, *, repeatable: bool = False) -> SolveResult:
        """Solve now and wait. ``repeatable``: with no helper and no losses remembered from
        other solves, so that under a limit of positions only the answer is the same
        everywhere (the daily deal)."""
        ...  # pragma: no cover

    def close(self) -> None: ...


class Assistance:
    """The server's one advisor and its worker processes, started on first use (or
    ``analyses``, made by the caller); a hint waits ``hint_wait`` seconds for the solver.
    Each search in play is bounded by ``limit``; one that reaches it is followed by a
    search within ``longer`` (None: none)."""

    def __init__(
        self,
        *,
        workers: int | None = None,
        analyses: Analyses | None = None,
        hint_wait: float = HINT_WAIT,
        limit: SearchLimit = HINT_LIMIT,
        longer: SearchLimit | None = LONGER_LIMIT,
    ) -> None:
        self.advisor = analyses.advisor if analyses is not None else Advisor(limit=limit)
        self.hint_wait = hint_wait
        self._longer = longer
        self._workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._analyses = analyses
        self._lock = threading.Lock()
        self._daily_lock = threading.Lock()
        self._dailies: dict[tuple[datetime.date, Rules], DailyDeal] = {}

    @property
    def analyses(self) -> Analyses:
        with self._lock:
            if self._analyses is None:
                from freecell.web.analysis import AnalysisWorkers  # processes: not in the static site

                self._analyses = AnalysisWorkers(self.advisor, workers=self._workers, longer=self._longer)
            return self._analyses

    def close(self) -> None:
        """End the analyses and their processes."""
        with self._lock:
            if self._analyses is not None:
                self._analyses.close()
                self._analyses = None

    # --- what is known of a position -----------------------------------------------------

    def ask(self, snapshot: Snapshot) -> Answered | None:
        """Ask the worker about the snapshot's position unless it is known already (or a
        lesson's, which follows the lesson): what to wait for, or None. Raises
        :class:`~freecell.web.in_play.AnalysisBusyError` at once when the solver is saturated."""
        if snapshot.lesson is not None:
            return None
        known = self.advisor.known(snapshot.position, snapshot.rules)
        if known is not None and known.verdict is not SolveStatus.LIMIT_REACHED:
            return None
        earlier = [action.before for action in snapshot.history]
        if self.advisor.lost_on_the_way(snapshot.position, snapshot.rules, earlier):
            return None
        asked = self.analyses.request(snapshot.game_id, snapshot.position, snapshot.rules)
        return None if known is not None else asked  # unknown: the longer search is not waited for

    def analysis(self, snapshot: Snapshot) -> Analysis | None:
        """What is known of the snapshot's position, asking the worker for it if it is
        not known yet; None while the solver is still at it. Never waits."""
        self.ask(snapshot)
        return self.advisor.known(snapshot.position, snapshot.rules)

    def hint(self, snapshot: Snapshot) -> Json:
        """The next move of a winning line, or why there is none (wait for :meth:`ask`
        first to give the solver a chance)."""
        position, rules = snapshot.position, snapshot.rules
        if snapshot.lesson is not None:
            step = snapshot.lesson.step(snapshot.lesson_step)
            if step is None:
                return no_move_hint("The lesson is done")
            return _hint_for(step.move(position), position, verdict=None)
        if position.is_won():
            return no_move_hint("The game is won", verdict="winnable")
        if is_lost(position, rules):
            return no_move_hint("No legal move is left", verdict="not-winnable")
        analysis = self.analysis(snapshot)
        if analysis is None:
            return no_move_hint("Thinking…", pending=True)
        if analysis.verdict is SolveStatus.SOLVED and analysis.next_move is not None:
            move = position.parse_move(analysis.next_move, rules)
            return _hint_for(move, position, verdict="winnable")
        if analysis.verdict is SolveStatus.UNSOLVABLE:
            if snapshot.moves_made == 0:  # nothing to undo: the deal itself is lost
                return no_move_hint(
                    "This deal cannot be won, whatever is played: our solver proved it. Deal a new one",
                    verdict="not-winnable",
                )
            started = None if snapshot.start is None else self.advisor.known(snapshot.start, rules)
            if started is not None and started.verdict is SolveStatus.UNSOLVABLE:  # no winnable position to go back to
                return no_move_hint(
                    "This game could not be won from its start, whatever was played: our solver proved it. "
                    "Deal a new one",
                    verdict="not-winnable",
                )
            return no_move_hint(
                "This position can no longer be won: undo, or rewind to the last winnable position",
                verdict="not-winnable",
            )
        undone = snapshot.history[-1].before if snapshot.history else None
        fallback = move_worth_trying(position, rules, undone=undone)
        if fallback is None:
            return no_move_hint("No legal move is left", verdict="unknown")
        text = describe(fallback, position)
        searching = self.analyses.searching_further(position, rules)
        why = "The solver could not decide in time" + ("; it is searching further." if searching else ".")
        text = f"{why} A move worth trying: {text[0].lower()}{text[1:]}"
        hint = move_hint(fallback, position, text, verdict="unknown")
        return {**hint, "searching": searching}

    def analysis_state(self, snapshot: Snapshot, *, with_line: bool) -> Json:
        """The live verdict on the position, the winning line if asked for, and the move
        that lost the game when it was lost from a winnable position. Never waits."""
        answer: Json = {"verdict": "unknown", "line": None, "losing_move": None, "searching": False}
        if snapshot.lesson is not None:
            return answer
        analysis = self.analysis(snapshot)
        if analysis is None:
            return {**answer, "verdict": "pending"}
        answer["verdict"] = VERDICT_WORDS[analysis.verdict]
        if analysis.verdict is SolveStatus.LIMIT_REACHED:
            answer["searching"] = self.analyses.searching_further(snapshot.position, snapshot.rules)
        if analysis.verdict is SolveStatus.SOLVED and with_line:
            answer["line"] = list(analysis.line)
        if analysis.verdict is SolveStatus.UNSOLVABLE:
            answer["losing_move"] = self.losing_move(snapshot)
        return answer

    def losing_move(self, snapshot: Snapshot) -> Json | None:
        """The move that lost the game, from what is known; where an earlier position's
        verdict is not known yet, the worker is asked for it (the page asks again)."""
        rules = snapshot.rules
        positions = [action.before for action in snapshot.history] + [snapshot.position]
        moves = [action.notation[0] for action in snapshot.history]
        found = self.advisor.losing_move(positions, moves, rules, search=False)
        if found is None:
            for position in reversed(positions):
                known = self.advisor.known(position, rules)
                if known is None:
                    self.analyses.request(f"{snapshot.game_id}/history", position, rules)
                    break
                if known.verdict is not SolveStatus.UNSOLVABLE:
                    break
            return None
        plural = "s" if found.moves_back > 1 else ""
        before = positions[found.index]
        what = describe_briefly(before.parse_move(found.move, rules), before)
        return {
            "move": found.move, "moves_back": found.moves_back,
            "text": f"The game could still be won before {what} ({found.move}), {found.moves_back} move{plural} ago",
        }

    # --- winnable deals ------------------------------------------------------------------

    def winnable_code(self, rules: Rules) -> tuple[str, str]:
        """A random deal the solver has won: its game code and its difficulty."""

        def in_worker(position: Position, rules: Rules, limit: SearchLimit) -> SolveResult:
            return self.analyses.solve(position, rules, limit)

        found = winnable_deal(rules, solver=in_worker)
        return found.deal.code(), found.difficulty.value

    def learn_daily(self, chosen: DailyDeal) -> None:
        """Keep a daily deal chosen elsewhere (the static site's solver worker; already
        checked: :func:`~freecell.daily.read_daily`), and its line for hints."""
        rules = chosen.deal.rules
        self.advisor.learn(
            chosen.deal.position(), rules, SolveResult(SolveStatus.SOLVED, chosen.line, chosen.expanded, 0, 0.0, 0)
        )
        with self._daily_lock:
            self._keep_daily(chosen)

    def _keep_daily(self, chosen: DailyDeal) -> None:
        """Keep ``chosen`` with the other days' deals from its day on (the lock held)."""
        self._dailies = {kept: deal for kept, deal in self._dailies.items() if kept[0] >= chosen.day}
        self._dailies[(chosen.day, chosen.deal.rules)] = chosen

    def daily(self, day: datetime.date, rules: Rules) -> DailyDeal:
        """The daily deal of ``day`` under ``rules``, chosen in a worker (the same
        everywhere: see :mod:`freecell.daily`); kept for the day."""
        key = (day, rules)
        with self._daily_lock:  # one choice at a time: a second asker waits for the first's answer
            chosen = self._dailies.get(key)
            if chosen is None:

                def in_worker(position: Position, rules: Rules, limit: SearchLimit) -> SolveResult:
                    return self.analyses.solve(position, rules, limit, repeatable=True)

                chosen = daily_deal(day, rules, solver=in_worker)
                self._keep_daily(chosen)
        return chosen


def _hint_for(move: Move, position: Position, *, verdict: str | None) -> Json:
    return move_hint(move, position, describe(move, position), verdict=verdict)
