"""The solver in play, for the server: hints that win, the live verdict, the losing move
and its rewind, and winnable-only deals.

Every answer comes from the library's :class:`~freecell.advisor.Advisor`, fed by the
:class:`~freecell.web.analysis.AnalysisService`, which solves in a worker process with a
limit on every call. A request never waits for the solver longer than
:data:`HINT_WAIT` seconds: past that it answers "pending" and the page asks again.
"""

from __future__ import annotations

import os
import threading
from typing import Final

from freecell.advisor import Advisor, Analysis, Verdict, winnable_deal
from freecell.game import Outcome
from freecell.notation import place_char
from freecell.position import Move, Position
from freecell.rules import Rules
from freecell.solver import SearchLimit, SolveResult
from freecell.web.analysis import AnalysisService
from freecell.web.hint import describe, describe_briefly, hint_move
from freecell.web.models import AnalysisState, Hint, LosingMove, source_char
from freecell.web.session import Session

HINT_WAIT: Final = 0.25


class Assistance:
    """The server's one advisor and its worker process, started on first use."""

    def __init__(self, *, workers: int | None = None) -> None:
        self.advisor = Advisor()
        self._workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._service: AnalysisService | None = None
        self._lock = threading.Lock()

    @property
    def service(self) -> AnalysisService:
        with self._lock:
            if self._service is None:
                self._service = AnalysisService(self.advisor, workers=self._workers)
            return self._service

    def close(self) -> None:
        with self._lock:
            if self._service is not None:
                self._service.close()
                self._service = None

    # --- what is known of a position -----------------------------------------------------

    def analysis(self, owner: str, position: Position, rules: Rules, *, wait: float = 0.0) -> Analysis | None:
        """The analysis of ``position``, asking the worker for it if it is not known yet
        and waiting up to ``wait`` seconds; None while the solver is still at it."""
        known = self.advisor.known(position, rules)
        if known is not None:
            return known
        done = self.service.request(owner, position, rules)
        if wait:
            done.wait(wait)
        return self.advisor.known(position, rules)

    def hint(self, session: Session) -> Hint:
        """The next move of a winning line, or why there is none."""
        game = session.game
        position, rules = game.position, game.rules
        if session.lesson is not None:
            step = session.lesson.step(session.lesson_step)
            if step is None:
                return Hint(move=None, text="The lesson is done")
            return _hint_for(step.move(position), position, verdict=None)
        if position.is_won():
            return Hint(move=None, text="The game is won", verdict="winnable")
        if session.outcome() is Outcome.LOST:
            return Hint(move=None, text="No legal move is left", verdict="not-winnable")
        analysis = self.analysis(session.id, position, rules, wait=HINT_WAIT)
        if analysis is None:
            return Hint(move=None, text="Thinking…", pending=True)
        if analysis.verdict is Verdict.WINNABLE and analysis.next_move is not None:
            move = position.parse_move(analysis.next_move, rules)
            return _hint_for(move, position, verdict="winnable")
        if analysis.verdict is Verdict.NOT_WINNABLE:
            if not game.can_undo and game.moves_made == 0:
                return Hint(
                    move=None, verdict="not-winnable",
                    text="This deal cannot be won, whatever is played: our solver proved it. Deal a new one",
                )
            return Hint(
                move=None, verdict="not-winnable",
                text="This position can no longer be won: undo, or rewind to the last winnable position",
            )
        fallback = hint_move(game)
        if fallback is None:
            return Hint(move=None, verdict="unknown", text="No legal move is left")
        hint = _hint_for(fallback, position, verdict="unknown")
        hint.text = f"The solver could not decide in time. A move worth trying: {hint.text[0].lower()}{hint.text[1:]}"
        return hint

    def state(self, session: Session, *, with_line: bool) -> AnalysisState:
        """The live verdict on the position, the winning line if asked for, and the move
        that lost the game when it was lost from a winnable position."""
        game = session.game
        position, rules = game.position, game.rules
        if session.lesson is not None:
            return AnalysisState(verdict="unknown")
        analysis = self.analysis(session.id, position, rules)
        if analysis is None:
            return AnalysisState(verdict="pending")
        answer = AnalysisState(verdict=analysis.verdict.value)
        if analysis.verdict is Verdict.WINNABLE and with_line:
            answer.line = list(analysis.line)
        if analysis.verdict is Verdict.NOT_WINNABLE:
            answer.losing_move = self.losing_move(session)
        return answer

    def losing_move(self, session: Session) -> LosingMove | None:
        """The move that lost the game, from what is known; where an earlier position's
        verdict is not known yet, the worker is asked for it (the page asks again)."""
        game = session.game
        history = list(game.history)
        positions = [action.before for action in history] + [game.position]
        moves = [action.notation[0] for action in history]
        found = self.advisor.losing_move(positions, moves, game.rules, search=False)
        if found is None:
            for position in reversed(positions):
                known = self.advisor.known(position, game.rules)
                if known is None:
                    self.service.request(f"{session.id}/history", position, game.rules)
                    break
                if known.verdict is not Verdict.NOT_WINNABLE:
                    break
            return None
        plural = "s" if found.moves_back > 1 else ""
        before = positions[found.index]
        what = describe_briefly(before.parse_move(found.move, game.rules), before)
        return LosingMove(
            move=found.move, moves_back=found.moves_back,
            text=f"The game could still be won before {what} ({found.move}), {found.moves_back} move{plural} ago",
        )

    # --- winnable deals ------------------------------------------------------------------

    def winnable_code(self, rules: Rules) -> tuple[str, str]:
        """A random deal the solver has won: its game code and its difficulty."""

        def in_worker(position: Position, rules: Rules, limit: SearchLimit) -> SolveResult:
            return self.service.solve(position, rules, limit)

        found = winnable_deal(rules, solver=in_worker)
        return found.deal.code(), found.difficulty.value


def _hint_for(move: Move, position: Position, *, verdict: str | None) -> Hint:
    return Hint(
        move=position.notation(move), source=source_char(move.source), target=place_char(move.target),
        count=move.count, text=describe(move, position), verdict=verdict,
    )
