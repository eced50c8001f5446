"""A game as the server keeps it: the library's :class:`~freecell.game.Game`, the
server-side clock, the lesson being taught, what the last request played, the hints
asked for, and whether the solver's line was used (an *assisted* game, which does not
count towards wins, streaks or records).

A session changes only through :meth:`Session.apply`, one logged event at a time, so that
replaying a game's log rebuilds exactly the session that wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from freecell.deals import Deal, DealKind
from freecell.errors import NotPossibleNowError
from freecell.finish import finishing_moves
from freecell.game import Game, NothingToUndoError, Outcome
from freecell.lessons import Lesson, find_lesson
from freecell.position import Move, Position
from freecell.rules import find_rules
from freecell.store import Event, GameRecord, Result


class GameOverError(NotPossibleNowError):
    """The game cannot take this action any more (won, or replaced by a new deal)."""


class NotTriviallyWonError(NotPossibleNowError):
    """A finish was asked for in a position that foundation moves alone do not win."""


@dataclass
class Clock:
    """Seconds of play: wall time since the start, less the paused time, stopped at a win."""

    started: float
    paused_at: float | None = None
    paused_total: float = 0.0
    stopped_at: float | None = None

    def elapsed(self, now: float) -> float:
        end = self.stopped_at if self.stopped_at is not None else self.paused_at
        return max(0.0, (now if end is None else end) - self.started - self.paused_total)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None and self.stopped_at is None

    def pause(self, at: float) -> None:
        if self.paused_at is None and self.stopped_at is None:
            self.paused_at = at

    def resume(self, at: float) -> None:
        if self.paused_at is not None:
            self.paused_total += max(0.0, at - self.paused_at)
            self.paused_at = None


def open_game(record: GameRecord) -> tuple[Game, Lesson | None]:
    """The game at the start of ``record``: its deal, its lesson or its imported board."""
    if record.lesson is not None:
        lesson = find_lesson(record.lesson)
        return Game(lesson.rules, lesson.start()), lesson
    rules = find_rules(record.rules, cells=record.cells)
    if record.deal_kind is not None and record.deal_number is not None:
        return Game.new(Deal(rules, record.deal_number, DealKind(record.deal_kind))), None
    return Game(rules, Position.from_text(record.board, rules)), None


@dataclass
class Session:
    """One game being played, rebuilt from its record and log by :meth:`replay`."""

    record: GameRecord
    game: Game
    lesson: Lesson | None
    clock: Clock
    last: tuple[str, ...] = ()
    abandoned: bool = False
    moved: bool = False
    hints: int = 0
    assisted: bool = False
    log: list[tuple[str, str | None]] = field(default_factory=list)  # each event's kind and move, for a review

    @classmethod
    def start(cls, record: GameRecord) -> Session:
        game, lesson = open_game(record)
        return cls(record, game, lesson, Clock(record.created))

    @classmethod
    def replay(cls, record: GameRecord, events: list[Event]) -> Session:
        session = cls.start(record)
        for event in events:
            session.apply(event)
        session.last = ()
        return session

    @property
    def id(self) -> str:
        return self.record.id

    # --- questions ----------------------------------------------------------------------

    @property
    def lesson_step(self) -> int:
        """The number (from 0) of the lesson step to do next."""
        return self.game.moves_made

    def outcome(self) -> Outcome:
        if self.lesson is not None:
            return Outcome.WON if self.lesson.step(self.lesson_step) is None else Outcome.PLAYING
        return self.game.outcome()

    def is_won(self) -> bool:
        return self.outcome() is Outcome.WON

    def finishing_moves(self) -> list[Move] | None:
        """The foundation moves that finish the game now, if it is trivially won."""
        if self.lesson is not None or self.abandoned:
            return None
        return finishing_moves(self.game.position)

    def result(self, outcome: str, at: float) -> Result:
        return Result(
            self.id, self.record.rules, outcome, self.clock.elapsed(at), self.game.moves_made, at,
            assisted=self.assisted, hints=self.hints, daily=self.record.daily,
        )

    # --- checking a request before it is logged ------------------------------------------

    def check_playable(self) -> None:
        """Raise :class:`GameOverError` unless cards may still move in this game."""
        if self.abandoned:
            raise GameOverError("this game was replaced by a new deal: open the current game")
        if self.is_won():
            raise GameOverError("the game is won: restart it or deal a new one")

    def check(self, event: Event) -> None:
        """Raise if ``event`` may not happen now: :class:`GameOverError`, or the library's
        error for a move that is malformed, illegal or not what the lesson asks."""
        if self.abandoned:
            raise GameOverError("this game was replaced by a new deal: open the current game")
        lesson_undo = event.kind == "undo" and self.lesson is not None  # a done lesson may go back a step
        if event.kind in ("move", "undo", "redo") and not lesson_undo:
            self.check_playable()
        if event.kind == "move":
            assert event.move is not None
            if self.lesson is not None:
                self.lesson.check(self.game.position, event.move, self.lesson_step)
            else:
                self.game.position.parse_move(event.move, self.game.rules)
        elif event.kind == "undo" and not self.game.can_undo:
            raise self.game.nothing_to_undo()
        elif event.kind == "redo" and not self.game.can_redo:
            raise NothingToUndoError("there is nothing to redo")

    # --- the one way a session changes ---------------------------------------------------

    def apply(self, event: Event) -> None:
        """Play ``event`` (already checked, or read back from the log)."""
        game, clock = self.game, self.clock
        self.log.append((event.kind, event.move))
        if event.kind == "move":
            assert event.move is not None
            clock.resume(event.at)
            actions = game.play(event.move)
            self.last = tuple(text for action in actions for text in action.notation)
            self.moved = True
            if self.lesson is None and game.position.is_won():
                clock.stopped_at = event.at
        elif event.kind == "undo":
            clock.resume(event.at)
            game.undo()
            self.last = ()
        elif event.kind == "redo":
            clock.resume(event.at)
            self.last = game.redo().notation
        elif event.kind == "restart":
            self.clock = Clock(event.at)  # the clock starts again with the deal
            game.restart()
            self.last = ()
        elif event.kind == "pause":
            clock.pause(event.at)
            self.last = ()
        elif event.kind == "resume":
            clock.resume(event.at)
            self.last = ()
        elif event.kind == "abandon":
            clock.stopped_at = event.at
            self.abandoned = True
        elif event.kind == "hint":
            self.hints += 1
        elif event.kind == "assist":
            self.assisted = True
        elif event.kind in ("auto-on", "auto-off"):
            game.auto_home = event.kind == "auto-on"
        if event.kind in ("hint", "assist", "auto-on", "auto-off"):
            self.last = ()
