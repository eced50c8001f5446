"""The games the server plays: sessions in memory, each written to the store before the
answer goes out.

Every request that changes a game is checked first (nothing changes when it is refused),
then applied to the session, then committed to the store as one transaction. If the
commit fails, the session is dropped from memory, so that it is rebuilt from the log.
One lock serialises the requests, which the server answers in its event loop (play) or
in its thread pool (a new game, which may solve or replay). It is held only for work that
takes a millisecond or so (a move, its commit, a state or a snapshot to answer from),
never while anything waits for the solver or reads a whole table: so one lock for every
game costs little, as the work under it holds the GIL and the store's one connection
anyway. The store's own failures (SQLite's, the file system's) come out as
:class:`StoreFailedError`.

A game's clock counts only the time a page shows it. A page pauses it as it is hidden, but
a browser that quits or crashes sends nothing; so :class:`Games` keeps, per game, when a
request last asked about it (the page sends a heartbeat while it shows a running clock),
and a request after a longer silence than ``away_after`` takes the time since off the
clock (:meth:`Games.skip_time_away`).
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Final, TypeVar

from freecell.codes import decode_game_code
from freecell.deals import Deal, random_deal
from freecell.errors import InvalidInputError, NotFoundError
from freecell.game import Game, Outcome
from freecell.lessons import find_lesson
from freecell.position import Position
from freecell.replay import ReplayError
from freecell.rules import find_rules
from freecell.store import Event, GameRecord, Store, StoreError, Writer
from freecell.web.session import NotTriviallyWonError, Session

T = TypeVar("T")

# A page not heard from for this long was closed: longer than three of its heartbeats
# (every 15 s, js/clock.js), so a late or lost one is not taken for a page gone.
PAGE_GONE_SECONDS: Final = 50.0


class GameNotFoundError(NotFoundError):
    """No game has that id."""


class StoreFailedError(StoreError):
    """The game store could not be read or written (a full disk, say): nothing was saved."""


@contextmanager
def storing() -> Iterator[None]:
    """Raise the store's own failures as :class:`StoreFailedError`."""
    try:
        yield
    except (sqlite3.Error, OSError) as error:
        raise StoreFailedError(
            f"the game store failed ({error}); nothing was saved: free some disk space and try again"
        ) from error


def new_game_id() -> str:
    """An unguessable id: 128 random bits."""
    return secrets.token_urlsafe(16)


class Games:
    """The games in ``store``, with ``now`` as the clock (seconds since the epoch). A game
    asked about after a silence of ``away_after`` seconds or more (None: never) was on no
    page meanwhile: that time is kept off its clock."""

    def __init__(self, store: Store, now: Callable[[], float] = time.time, *, away_after: float | None = None) -> None:
        self.store = store
        self.now = now
        self.away_after = away_after
        self._sessions: dict[str, Session] = {}
        self._last_seen: dict[str, float] = {}  # game id: when a request last asked about it
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Session:
        with self._lock:
            return self._visit(game_id)

    def view(self, game_id: str, read: Callable[[Session], T]) -> T:
        """``read(session)`` under the lock, so that no request changes the game meanwhile.
        ``read`` must be quick: every game's moves wait for it."""
        with self._lock:
            return read(self._visit(game_id))

    def current(self) -> str | None:
        with storing():
            return self.store.current()

    def _visit(self, game_id: str) -> Session:
        """The game, asked about by a request now: the time since the last request, if it
        is ``away_after`` or more, is kept off its clock."""
        session = self._load(game_id)
        last_seen = self._last_seen.get(game_id)
        if self.away_after is not None and last_seen is not None:
            self._skip_time_away(session, last_seen, self.away_after)
        self._last_seen[game_id] = self.now()
        return session

    def skip_time_away(self, game_id: str, last_seen: float, away_after: float) -> bool:
        """Keep the time since ``last_seen`` (when a page last showed the game, in seconds
        since the epoch) off the game's clock, if it is running and that is ``away_after``
        seconds or more ago: the page was closed with no pause saved (a browser that quits
        saves nothing as it goes). The game is logged as paused then and resumed now.
        Whether the clock changed."""
        with self._lock:
            return self._skip_time_away(self._load(game_id), last_seen, away_after)

    def _skip_time_away(self, session: Session, last_seen: float, away_after: float) -> bool:
        clock, now = session.clock, self.now()
        since = max(last_seen, clock.started)
        if session.abandoned or clock.paused or clock.stopped_at is not None or now - since < away_after:
            return False
        last = session.last  # what the last request played stays for its answer
        self._commit(session, [Event("pause", since), Event("resume", now)])
        session.last = last
        return True

    def _load(self, game_id: str) -> Session:
        session = self._sessions.get(game_id)
        if session is None:
            with storing():
                found = self.store.game(game_id)
            if found is None:
                raise GameNotFoundError(f"there is no game {game_id!r}: start a new one")
            session = Session.replay(*found)
            self._sessions[game_id] = session
        return session

    # --- starting ---------------------------------------------------------------------

    def create(
        self,
        *,
        rules: str = "standard",
        cells: int | None = None,
        deal: int | None = None,
        code: str | None = None,
        random: bool = False,
        board: str | None = None,
        difficulty: str | None = None,
        moves: list[str] | None = None,
        auto_home: bool = False,
        daily: str | None = None,
    ) -> Session:
        """A new game: deal number ``deal``, game ``code``, a ``random`` deal or an imported
        ``board`` (a random deal when none is named), with ``moves`` (standard notation)
        played from its start, as a shared link gives them, and safe cards sent home by
        themselves with ``auto_home``; ``daily`` is the day of a daily deal. It replaces
        the game in progress, which counts as lost or abandoned if a move was made in it.

        Raises :class:`~freecell.errors.InvalidInputError` with the library's message for an unknown ruleset,
        cells the ruleset does not offer, a deal out of range, a bad code or a bad board,
        and :class:`~freecell.replay.ReplayError` naming the first of ``moves`` that cannot
        be played; nothing is stored then.
        """
        chosen = [name for name, value in (("deal", deal), ("code", code), ("board", board)) if value is not None]
        if random:
            chosen.append("random")
        if len(chosen) > 1:
            raise InvalidInputError(f"choose one of deal, code, random or board, not {' and '.join(chosen)}")
        the_rules = find_rules(rules, cells=cells)
        made: Deal | None = None
        if code is not None:
            made = decode_game_code(code)
        elif deal is not None:
            made = Deal(the_rules, deal)
        elif board is None:
            made = random_deal(the_rules)
        if made is not None:
            the_rules, start = made.rules, made.position()
        else:
            assert board is not None
            start = Position.from_text(board, the_rules)
        record = GameRecord(
            id=new_game_id(),
            rules=the_rules.name,
            cells=the_rules.cells,
            deal_kind=None if made is None else made.kind.value,
            deal_number=None if made is None else made.number,
            board=start.to_text(),
            lesson=None,
            created=self.now(),
            difficulty=difficulty,
            daily=daily,
        )
        at = record.created
        events = [Event("move", at, text) for text in _checked(Game(the_rules, start), moves or [])]
        if auto_home:
            events.append(Event("auto-on", at))
        return self._start(record, events)

    def create_lesson(self, lesson_id: str) -> Session:
        """A new game on the lesson's position; raises :class:`UnknownLessonError`."""
        lesson = find_lesson(lesson_id)
        record = GameRecord(
            id=new_game_id(),
            rules=lesson.rules.name,
            cells=lesson.rules.cells,
            deal_kind=None,
            deal_number=None,
            board=lesson.start().to_text(),
            lesson=lesson.id,
            created=self.now(),
        )
        return self._start(record)

    def _start(self, record: GameRecord, events: list[Event] | None = None) -> Session:
        session = Session.start(record)
        for event in events or []:
            session.apply(event)
        session.last = ()
        with self._lock:
            replaced = None if record.lesson else self._replaced(record.created)
            with storing(), self.store.writing() as writer:
                writer.add_game(record)
                for event in events or []:
                    writer.add_event(record.id, event)
                writer.set_current(record.id, lesson=record.lesson is not None)
                if replaced is not None:
                    self._abandon(replaced, record.created, writer)
            self._sessions[record.id] = session
            self._last_seen[record.id] = record.created
            if replaced is not None:  # rebuilt from its log, abandon included, if it is asked for
                del self._sessions[replaced.id]
        return session

    def _replaced(self, at: float) -> Session | None:
        """The game in progress that a new deal replaces, if it counts as played."""
        with storing():
            previous = self.store.current(lessons=False)
        if previous is None:
            return None
        try:
            session = self._load(previous)
        except (NotFoundError, InvalidInputError):  # gone, or a log that no longer replays
            return None
        if session.abandoned or not session.moved or session.is_won():
            return None
        return session

    @staticmethod
    def _abandon(session: Session, at: float, writer: Writer) -> None:
        outcome = "lost" if session.outcome() is Outcome.LOST else "abandoned"
        writer.add_event(session.id, Event("abandon", at))
        writer.add_result(session.result(outcome, at))

    # --- playing ----------------------------------------------------------------------

    def act(self, game_id: str, kind: str, move: str | None = None) -> Session:
        """Do one logged action (``move``, ``undo``, ``redo``, ``restart``, ``pause``,
        ``resume``). Raises the library's error, and changes nothing, when it is refused."""
        with self._lock:
            session = self._visit(game_id)
            event = Event(kind, self.now(), move)
            session.check(event)
            clock = session.clock
            changes = {
                "pause": not clock.paused and clock.stopped_at is None,
                "resume": clock.paused,
            }.get(kind, True)
            if changes:  # pausing a paused clock, or resuming a running one, is not logged
                self._commit(session, [event])
            else:
                session.last = ()
            return session

    def note(self, game_id: str, kind: str) -> None:
        """Log ``hint`` (a hint was shown) or ``assist`` (the solver's line was shown) for
        a game still being played; an assist is logged once."""
        with self._lock:
            session = self._visit(game_id)
            if session.abandoned or session.lesson is not None or session.is_won():
                return
            if kind == "assist" and session.assisted:
                return
            self._commit(session, [Event(kind, self.now())])

    def finish(self, game_id: str) -> Session:
        """Play the trivially won finish to the end; raises :class:`NotTriviallyWonError`."""
        with self._lock:
            session = self._visit(game_id)
            session.check_playable()
            moves = session.finishing_moves()
            if moves is None:
                raise NotTriviallyWonError("the game is not trivially won: some cards cannot go home by themselves yet")
            at = self.now()
            events = []
            position = session.game.position
            for move in moves:
                events.append(Event("move", at, position.notation(move)))
                position = position.apply_unchecked(move)
            self._commit(session, events)
            session.last = tuple(event.move for event in events if event.move)
            return session

    def _commit(self, session: Session, events: list[Event]) -> None:
        """Apply ``events`` to ``session`` and store them (with the result of a win)."""
        was_won = session.is_won()
        try:
            for event in events:
                session.apply(event)
            with storing(), self.store.writing() as writer:
                for event in events:
                    writer.add_event(session.id, event)
                if session.lesson is None and session.is_won() and not was_won:
                    writer.add_result(session.result("won", events[-1].at))
        except BaseException:
            self._sessions.pop(session.id, None)  # rebuilt from the log next time
            raise


def _checked(game: Game, moves: list[str]) -> list[str]:
    """``moves`` played through ``game`` one by one: each must be legal where it comes.
    Raises :class:`ReplayError` naming the first that is not."""
    for number, text in enumerate(moves, start=1):
        try:
            game.play(text)
        except InvalidInputError as error:
            raise ReplayError(number, text, str(error)) from None
    return moves
