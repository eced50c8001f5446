"""The game review for the API (``GET /review``, ``POST /play-on``): the library's
:func:`~freecell.review.review`, fed by the solver in play as a background request, so
that the review fills in as verdicts arrive while the page asks again, and nothing of a
game in play waits for it.

Each request takes a :class:`ReviewSource` of the game under the games' lock (the log is
copied, nothing else), and works the review out after it is released.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Final

from freecell.errors import InvalidInputError
from freecell.position import Position
from freecell.review import Known, PlayedStep, Review, ReviewedStep, Verdict, played_steps, review
from freecell.rules import Rules
from freecell.store import GameRecord
from freecell.web.assistance import Assistance
from freecell.web.hint import describe_briefly
from freecell.web.in_play import AnalysisBusyError
from freecell.web.session import Session, open_game
from freecell.web.states import Json, table

# What the API calls each verdict of a review (the words of the live verdict).
REVIEW_WORDS: Final = {
    Verdict.WINNABLE: "winnable",
    Verdict.LOST: "not-winnable",
    Verdict.UNKNOWN: "unknown",
    Verdict.PENDING: "pending",
}


@dataclass(frozen=True)
class ReviewSource:
    """What a review needs of a game: where it began and every logged event's kind and move."""

    game_id: str
    record: GameRecord
    log: tuple[tuple[str, str | None], ...]
    outcome: str
    deal: str

    @classmethod
    def of(cls, session: Session) -> ReviewSource:
        """Take it (under the games' lock: it copies the log)."""
        game = session.game
        outcome = "abandoned" if session.abandoned and not session.is_won() else session.outcome().value
        deal = "imported position" if game.deal is None else str(game.deal)
        if session.lesson is not None:
            deal = f"lesson: {session.lesson.title}"
        return cls(session.id, session.record, tuple(session.log), outcome, deal)

    def played(self) -> tuple[Rules, Position, list[PlayedStep]]:
        """The rules, the start and the steps of the game, played again from its record."""
        game, _ = open_game(self.record)
        rules, start = game.rules, game.position
        return rules, start, played_steps(game, self.log)


def review_state(source: ReviewSource, assistance: Assistance) -> Json:
    """The review as known now; the solver is asked, in the background, for the position
    it needs next (the page asks again until ``complete``)."""
    rules, start, steps = source.played()
    advisor = assistance.advisor

    def known(position: Position) -> Known:
        analysis = advisor.known(position, rules)
        return None if analysis is None else (analysis.verdict, analysis.line)

    found = review(start, steps, rules, known)
    if found.next_to_judge is not None:
        with contextlib.suppress(AnalysisBusyError):  # the games in play come first: the page asks again
            assistance.analyses.request(f"{source.game_id}/review", found.next_to_judge, rules, background=True)
    return _as_json(source, found, rules)


def position_at(source: ReviewSource, step: int) -> tuple[Rules, Position]:
    """The rules and the position where step ``step`` left the game (0: its start).
    Raises :class:`~freecell.errors.InvalidInputError` for a step the game does not have."""
    rules, start, steps = source.played()
    if step > len(steps):
        raise InvalidInputError(f"this game has {len(steps)} steps: there is no step {step}")
    return rules, start if step == 0 else steps[step - 1].after


def _as_json(source: ReviewSource, found: Review, rules: Rules) -> Json:
    solution = len(found.solution) if found.solution else None
    return {
        "complete": found.complete,
        "outcome": source.outcome,
        "deal": source.deal,
        "start": {"verdict": REVIEW_WORDS[found.start_verdict], **table(found.start)},
        "moves_played": found.moves_played,
        "solution_moves": solution,
        "lost_at": found.lost_at,
        "steps": [_step_json(step, rules) for step in found.steps],
    }


def _step_json(reviewed: ReviewedStep, rules: Rules) -> Json:
    step = reviewed.step
    return {
        "number": reviewed.number,
        "kind": step.kind,
        "move": step.notation[0] if step.notation and step.kind != "undo" else None,
        "text": _step_text(step, rules),
        "verdict": REVIEW_WORDS[reviewed.verdict],
        "loses": reviewed.loses,
        "returns_to": reviewed.returns_to,
        **table(step.after),
    }


def _step_text(step: PlayedStep, rules: Rules) -> str:
    """The step in words, as a player would say it (``5♠ to a free cell``)."""
    if step.kind == "restart":
        return "Restarted the deal"
    if step.kind == "undo":  # the move taken back was played from where the undo leads
        return f"Took back {_move_words(step.after, step, rules)}"
    words = _move_words(step.before, step, rules)
    words = words[0].upper() + words[1:]
    return f"Played again: {words}" if step.kind == "redo" else words


def _move_words(position: Position, step: PlayedStep, rules: Rules) -> str:
    """``5♠ to a free cell`` (the step's first move, played from ``position``), with how
    many moves followed it in the same step (cards sent home by themselves, or the rest
    of a run moved card by card)."""
    move = position.parse_move(step.notation[0], rules)
    words = describe_briefly(move, position).removeprefix("the move of ")
    automatic = len(step.notation) - 1
    if automatic > 0:
        words += f", then {automatic} more move{'s' if automatic > 1 else ''}"
    return words
