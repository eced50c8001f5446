"""The game store: SQLite (the stdlib module), one file in the user's data directory.

A game in progress is kept as an append-only log: a ``games`` row says where it started
(ruleset, cells, the deal or the imported board, the lesson), and ``events`` rows say what
happened since, in order: ``move`` (with its notation), ``undo``, ``redo``, ``restart``,
``pause``, ``resume``, ``abandon``, ``hint`` (a hint was shown), ``assist`` (the solver's
winning line was shown) and ``auto-on``/``auto-off`` (safe cards go home by themselves, or
no longer), each with the time it happened. Every write is
committed before the caller answers, so a killed server loses nothing: the game is rebuilt
by replaying its log through the library. Finished games (won, lost, or abandoned when a
new deal replaced them) are ``results`` rows, from which the statistics per preset come;
an *assisted* result (the player used the solver's line) is counted apart, and does not
count towards games won, streaks or records. A game of a daily deal (``daily`` row) is
kept out of those statistics: its results make the daily statistics, whose streak counts
days (:func:`daily_stats`).

The database runs in WAL mode, which keeps committed transactions through a crash of the
process, with exclusive locking: one process at a time uses the file (a second server on it
is refused with :class:`StoreInUseError`), and no ``-shm`` file is mapped into memory, where
another process could bring the server down (``storage.py``). One connection is shared
under a lock, because uvicorn runs sync endpoints in a thread pool. The file is marked as
a game store and checked when opened (``storage.py``): a census, a damaged file or a newer
version is refused untouched. A write is acknowledged only while the file is still the one
opened: removed or replaced, it raises :class:`StoreLostError`, since a restart would find
nothing of it.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

from freecell.rules import PRESETS
from freecell.storage import GAME_STORE_ID, FileWatch, StoreKind, open_store
from freecell.storage import StoreError as StoreError
from freecell.storage import StoreInUseError as StoreInUseError
from freecell.storage import StoreLostError as StoreLostError
from freecell.storage import StoreVersionError as StoreVersionError
from freecell.storage import UnusableStoreError as UnusableStoreError

SCHEMA_VERSION: Final = 1
EVENT_KINDS: Final = (
    "move", "undo", "redo", "restart", "pause", "resume", "abandon", "hint", "assist", "auto-on", "auto-off",
)
OUTCOMES: Final = ("won", "lost", "abandoned")
RESULTS_AT_ONCE: Final = 500  # finished games read under the lock at a time (a move waits for no more)

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    cells INTEGER NOT NULL,
    deal_kind TEXT,
    deal_number TEXT,          -- text: a random deal's 64-bit seed does not fit SQLite's integer
    board TEXT NOT NULL,       -- the starting position in Freecell Solver's board format
    lesson TEXT,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    move TEXT,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL REFERENCES games(id),
    rules TEXT NOT NULL,
    outcome TEXT NOT NULL,
    seconds REAL NOT NULL,
    moves INTEGER NOT NULL,
    finished REAL NOT NULL,
    assisted INTEGER NOT NULL DEFAULT 0,  -- the solver's line was shown in this game
    hints INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS grades (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    difficulty TEXT NOT NULL   -- a winnable-only deal's grade: easy, medium or hard
);
CREATE TABLE IF NOT EXISTS daily (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    day TEXT NOT NULL          -- a daily deal's day, YYYY-MM-DD: its results are the daily statistics
);
CREATE TABLE IF NOT EXISTS current (
    slot INTEGER PRIMARY KEY CHECK (slot IN (0, 1)),  -- 0: the last game or lesson; 1: the last game
    game_id TEXT NOT NULL
);
"""


def default_path() -> Path:
    """``$XDG_DATA_HOME/freecell/freecell.db``, or ``~/.local/share/freecell/freecell.db``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "freecell" / "freecell.db"


GAME_STORE: Final = StoreKind(
    name="game store",
    application_id=GAME_STORE_ID,
    version=SCHEMA_VERSION,
    schema=_SCHEMA,
    tables={
        "games": frozenset({"id", "rules", "board"}),
        "events": frozenset({"game_id", "seq", "kind"}),
        "results": frozenset({"game_id", "outcome"}),
    },
    exclusive=True,  # one server a store: two would each keep the games in memory and write over each other
)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Where a game started. ``deal_kind`` and ``deal_number`` are None for an imported
    position or a lesson; ``board`` always holds the starting position."""

    id: str
    rules: str
    cells: int
    deal_kind: str | None
    deal_number: int | None
    board: str
    lesson: str | None
    created: float
    difficulty: str | None = None  # set for a deal dealt as winnable: easy, medium or hard
    daily: str | None = None  # the day (YYYY-MM-DD) of a daily deal


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a game's log."""

    kind: str
    at: float
    move: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in EVENT_KINDS:
            raise ValueError(f"unknown event kind {self.kind!r}")


@dataclass(frozen=True, slots=True)
class Result:
    """A finished game, for the statistics."""

    game_id: str
    rules: str
    outcome: str
    seconds: float
    moves: int
    finished: float
    assisted: bool = False
    hints: int = 0
    daily: str | None = None  # the day (YYYY-MM-DD) of a daily deal's game

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {self.outcome!r}")


@dataclass(frozen=True, slots=True)
class PresetStats:
    """The statistics of one preset. ``played``, ``won``, ``lost``, the streaks and the
    records leave out assisted games, counted in ``assisted``; ``lost`` counts abandoned
    games too; best time and fewest moves are over won games (None before the first
    win; the best time in seconds to the tenth); ``hints`` is the number of hints shown in
    the games counted."""

    rules: str
    played: int
    won: int
    lost: int
    current_streak: int
    best_streak: int
    best_seconds: float | None
    fewest_moves: int | None
    assisted: int = 0
    hints: int = 0


STATS_FIELDS: Final = tuple(PresetStats.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class DailyStats:
    """The daily deals of one preset, counted in days. A day is *won* when a game of its
    deal was won without the solver's line (tries after a loss are allowed; a day won twice
    counts once); ``played`` counts the days with a game finished, assisted ones apart (in
    ``assisted``). ``current_streak`` is the run of days won up to ``today``, or up to the
    day before while today is not won yet (it is not lost until the day ends);
    ``best_streak`` the longest run. ``today`` is ``won``, ``assisted`` (won only with the
    line shown), ``lost`` (finished, not won) or None. Best time and fewest moves are
    over the wins counted."""

    rules: str
    played: int
    won: int
    current_streak: int
    best_streak: int
    best_seconds: float | None
    fewest_moves: int | None
    assisted: int
    today: str | None


class Writer:
    """The writes of one transaction (see :meth:`Store.writing`)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._db = connection

    def add_game(self, record: GameRecord) -> None:
        number = None if record.deal_number is None else str(record.deal_number)
        self._db.execute(
            "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (record.id, record.rules, record.cells, record.deal_kind, number, record.board,
             record.lesson, record.created),
        )
        if record.difficulty is not None:
            self._db.execute("INSERT INTO grades VALUES (?, ?)", (record.id, record.difficulty))
        if record.daily is not None:
            self._db.execute("INSERT INTO daily VALUES (?, ?)", (record.id, record.daily))

    def add_event(self, game_id: str, event: Event) -> None:
        (seq,) = self._db.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
        ).fetchone()
        self._db.execute(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?)", (game_id, seq, event.kind, event.move, event.at)
        )

    def add_result(self, result: Result) -> None:
        self._db.execute(
            "INSERT INTO results (game_id, rules, outcome, seconds, moves, finished, assisted, hints)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (result.game_id, result.rules, result.outcome, result.seconds, result.moves, result.finished,
             int(result.assisted), result.hints),
        )

    def set_current(self, game_id: str, *, lesson: bool = False) -> None:
        """Make ``game_id`` the one a reloaded page continues (and, unless it is a lesson,
        the game that the next new deal replaces)."""
        self._db.execute("INSERT OR REPLACE INTO current VALUES (0, ?)", (game_id,))
        if not lesson:
            self._db.execute("INSERT OR REPLACE INTO current VALUES (1, ?)", (game_id,))


class Store:
    """The game store at ``path``: created with its folders when missing, or with
    ``readonly`` opened without writing (a missing file then reads as an empty store).
    Raises :class:`UnusableStoreError` when the file is not a game store."""

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = path
        self._lock = threading.RLock()
        # Another process holds the file for as long as it runs: no use waiting for it.
        self._db = open_store(path, GAME_STORE, readonly=readonly, timeout=0.5)
        self._db.execute("PRAGMA busy_timeout=5000")
        self._watch = None if readonly else FileWatch(path)
        self.commits = 0  # writes committed since it was opened (the static site saves its file after each)
        self._assist_columns = self._add_missing_columns(writable=not readonly)
        self._daily_table = self._add_daily_table(writable=not readonly)

    def _add_missing_columns(self, *, writable: bool) -> bool:
        """Bring a file written before the results had ``assisted`` and ``hints`` up to date
        (the change is additive: older code still reads and writes the file). Answers
        whether the columns are there (a file opened read-only is left as it is)."""
        present = {row[1] for row in self._db.execute("PRAGMA table_info(results)")}
        missing = [column for column in ("assisted", "hints") if column not in present]
        if missing and not writable:
            return False
        for column in missing:
            self._db.execute(f"ALTER TABLE results ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0")
        return True

    def _add_daily_table(self, *, writable: bool) -> bool:
        """Give a file written before the daily deals its ``daily`` table (additive, as
        above). Answers whether the table is there."""
        found = self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'daily'").fetchone()
        if found is None and writable:
            self._db.execute(_SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS daily"):].split(";")[0])
            return True
        return found is not None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def writing(self) -> Iterator[Writer]:
        """One transaction: committed when the block ends, rolled back if it raises.

        Raises :class:`StoreLostError` when the file was removed or replaced since it was
        opened (what was written is not kept), and ``sqlite3.Error`` or ``OSError`` when it
        cannot be written (a full disk): the caller must not acknowledge the write then.
        """
        if self._watch is None:
            raise StoreError(f"{self.path} was opened read-only")
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield Writer(self._db)
                self._watch.check()  # the last moment before the commit: a removed file keeps nothing
                self._db.execute("COMMIT")
                self.commits += 1
            except BaseException:
                if self._db.in_transaction:  # a failed COMMIT may already have rolled back
                    with suppress(sqlite3.Error):
                        self._db.execute("ROLLBACK")
                raise

    # --- reading ------------------------------------------------------------------------

    def game(self, game_id: str) -> tuple[GameRecord, list[Event]] | None:
        """The game's record and its log in order, or None if there is no such game."""
        with self._lock:
            row = self._db.execute(
                "SELECT games.*, grades.difficulty, " + ("daily.day" if self._daily_table else "NULL")
                + " FROM games LEFT JOIN grades ON grades.game_id = games.id"
                + (" LEFT JOIN daily ON daily.game_id = games.id" if self._daily_table else "")
                + " WHERE games.id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            events = self._db.execute(
                "SELECT kind, at, move FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        gid, rules, cells, kind, number, board, lesson, created, difficulty, day = row
        record = GameRecord(
            gid, rules, cells, kind, None if number is None else int(number), board, lesson, created, difficulty, day
        )
        return record, [Event(k, at, move) for k, at, move in events]

    def current(self, *, lessons: bool = True) -> str | None:
        """The id of the game (or, with ``lessons``, game or lesson) last started, if any."""
        with self._lock:
            row = self._db.execute("SELECT game_id FROM current WHERE slot = ?", (0 if lessons else 1,)).fetchone()
        return None if row is None else str(row[0])

    def results(self) -> list[Result]:
        """Every finished game, oldest first. The rows are read :data:`RESULTS_AT_ONCE` at a
        time, the lock let go between, so that a write (a move) waits for one read at most,
        never for the whole table."""
        rows: list[tuple[Any, ...]] = []
        while True:
            more = self._result_rows(after=rows[-1][0] if rows else 0)
            rows += more
            if len(more) < RESULTS_AT_ONCE:
                break
        rows.sort(key=lambda row: (row[6], row[0]))  # finished, then id
        return [
            Result(game_id, rules, outcome, seconds, moves, finished, assisted=bool(assisted), hints=hints, daily=day)
            for _, game_id, rules, outcome, seconds, moves, finished, assisted, hints, day in rows
        ]

    def _result_rows(self, *, after: int) -> list[tuple[Any, ...]]:
        """The next rows of ``results`` after the id ``after``, in the order written."""
        with self._lock:
            return self._db.execute(
                "SELECT id, results.game_id, rules, outcome, seconds, moves, finished, "
                + ("assisted, hints, " if self._assist_columns else "0, 0, ")
                + ("daily.day FROM results LEFT JOIN daily ON daily.game_id = results.game_id"
                   if self._daily_table else "NULL FROM results")
                + " WHERE id > ? ORDER BY id LIMIT ?",
                (after, RESULTS_AT_ONCE),
            ).fetchall()

    def stats(self) -> list[PresetStats]:
        """One row per preset, in the registry's order (presets never played included); the
        daily deals' games are left out (:meth:`daily_stats`)."""
        by_rules: dict[str, list[Result]] = {name: [] for name in PRESETS}
        for result in self.results():
            if result.daily is None:
                by_rules.setdefault(result.rules, []).append(result)
        return [preset_stats(name, results) for name, results in by_rules.items()]

    def daily_stats(self, rules: str, today: datetime.date) -> DailyStats:
        """The daily statistics of the preset ``rules`` on ``today`` (the player's day)."""
        return daily_stats(rules, [r for r in self.results() if r.daily is not None and r.rules == rules], today)

    def daily_games(self, rules: str, day: str) -> list[str]:
        """The ids of the games of the daily deal of ``day`` under ``rules``, oldest first."""
        if not self._daily_table:
            return []
        with self._lock:
            rows = self._db.execute(
                "SELECT games.id FROM daily JOIN games ON games.id = daily.game_id"
                " WHERE daily.day = ? AND games.rules = ? ORDER BY games.created",
                (day, rules),
            ).fetchall()
        return [game_id for (game_id,) in rows]

    def export_json(self) -> str:
        return json.dumps([asdict(row) for row in self.stats()], indent=2) + "\n"

    def export_csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(STATS_FIELDS)
        for row in self.stats():
            writer.writerow(["" if value is None else value for value in asdict(row).values()])
        return out.getvalue()


def preset_stats(rules: str, results: list[Result]) -> PresetStats:
    """The statistics of ``results`` (one preset's finished games, oldest first)."""
    assisted = [r for r in results if r.assisted]
    results = [r for r in results if not r.assisted]
    wins = [r for r in results if r.outcome == "won"]
    streak = best = 0
    for result in results:
        streak = streak + 1 if result.outcome == "won" else 0
        best = max(best, streak)
    return PresetStats(
        rules=rules,
        played=len(results),
        won=len(wins),
        lost=len(results) - len(wins),
        current_streak=streak,
        best_streak=best,
        # to the tenth, as the state's elapsed_seconds: a clock's float says more than it knows
        best_seconds=None if not wins else round(min(r.seconds for r in wins), 1),
        fewest_moves=min((r.moves for r in wins), default=None),
        assisted=len(assisted),
        hints=sum(r.hints for r in results),
    )


def daily_stats(rules: str, results: list[Result], today: datetime.date) -> DailyStats:
    """The daily statistics of ``results`` (one preset's daily games, each with its day)."""
    counted = [r for r in results if not r.assisted and r.daily is not None]
    wins = [r for r in counted if r.outcome == "won"]
    won_days = {datetime.date.fromisoformat(r.daily) for r in wins if r.daily is not None}
    best = run = 0
    previous = None
    for day in sorted(won_days):
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    end = today if today in won_days else today - datetime.timedelta(days=1)
    current = 0
    while end - datetime.timedelta(days=current) in won_days:
        current += 1
    key = today.isoformat()
    of_today = [r for r in results if r.daily == key]
    state = None
    if any(r.outcome == "won" and not r.assisted for r in of_today):
        state = "won"
    elif any(r.outcome == "won" for r in of_today):
        state = "assisted"
    elif of_today:
        state = "lost"
    return DailyStats(
        rules=rules,
        played=len({r.daily for r in counted}),
        won=len(won_days),
        current_streak=current,
        best_streak=best,
        best_seconds=min((r.seconds for r in wins), default=None),
        fewest_moves=min((r.moves for r in wins), default=None),
        assisted=sum(1 for r in results if r.assisted),
        today=state,
    )
