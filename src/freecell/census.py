"""The census store: one SQLite file holding the solver's verdict on each deal of a range.

A row is keyed by ``(rules, cells, deal)``, so no deal is ever stored twice. Results are
written in small transactions as they arrive, in WAL mode, so a run that is killed keeps
every result it had committed and a restart solves only what was missing. This store is
separate from the game store (``store.py``): it holds range results only, and its file is
marked as a census and checked when opened (``storage.py``), so that neither is taken for
the other.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Any, Final

from freecell.solver import SearchLimit, SolveStatus
from freecell.storage import CENSUS_STORE_ID, FileWatch, StoreError, StoreKind, UnusableStoreError, open_store

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    rules TEXT NOT NULL,
    cells INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    verdict TEXT NOT NULL CHECK (verdict IN ('solved', 'unsolvable', 'limit')),
    length INTEGER,
    moves INTEGER,
    expanded INTEGER NOT NULL,
    generated INTEGER NOT NULL,
    seconds REAL NOT NULL,
    solution TEXT,
    limit_seconds REAL,
    limit_positions INTEGER,
    limit_memory_mb INTEGER,
    stored_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (rules, cells, deal)
) WITHOUT ROWID;
"""


# The solver's verdict as the ``verdict`` column holds it.
_STORED: Final = {
    SolveStatus.SOLVED: "solved", SolveStatus.UNSOLVABLE: "unsolvable", SolveStatus.LIMIT_REACHED: "limit",
}
_READ: Final = {text: status for status, text in _STORED.items()}


def verdict_text(verdict: SolveStatus) -> str:
    """The verdict as the census stores and exports it: ``solved``, ``unsolvable`` or ``limit``."""
    return _STORED[verdict]

NO_LIMIT: Final = SearchLimit()


def describe_limit(limit: SearchLimit) -> str:
    """A search limit in words: ``10s, 200000 positions, 512MB``, or ``no limit``."""
    parts = []
    if limit.seconds is not None:
        parts.append(f"{limit.seconds:g}s")
    if limit.positions is not None:
        parts.append(f"{limit.positions} positions")
    if limit.memory_mb is not None:
        parts.append(f"{limit.memory_mb}MB")
    return ", ".join(parts) or "no limit"


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal's stored result, found within ``limit``. ``solution`` holds every move in
    standard notation (empty unless solved, or when read without solutions); ``length``
    counts the moves that do not go to a foundation and ``moves`` all of them (taken from
    the solution when it is given)."""

    rules: str
    cells: int
    deal: int
    verdict: SolveStatus
    length: int | None
    expanded: int
    generated: int
    seconds: float
    solution: tuple[str, ...] = ()
    limit: SearchLimit = NO_LIMIT
    moves: int | None = None

    def __post_init__(self) -> None:
        if self.solution:
            object.__setattr__(self, "moves", len(self.solution))

    @property
    def decided(self) -> bool:
        """Solved or proven unsolvable: nothing more to do for this deal."""
        return self.verdict is not SolveStatus.LIMIT_REACHED


_COLUMNS = (
    "rules, cells, deal, verdict, length, moves, expanded, generated, seconds, solution, "
    "limit_seconds, limit_positions, limit_memory_mb"
)


class CensusError(StoreError):
    """The file is not a census store, or a record cannot be stored."""


CENSUS_STORE = StoreKind(
    name="census store",
    application_id=CENSUS_STORE_ID,
    version=SCHEMA_VERSION,
    schema=_SCHEMA,
    tables={"results": frozenset({"rules", "cells", "deal", "verdict"})},
)


class Census:
    """A census store opened on ``path`` (created when missing), or with ``readonly``
    opened without writing. Use it as a context manager, or call :meth:`close`. Raises
    :class:`CensusError` when the file is not a census store, and leaves it untouched."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        try:
            self._db = open_store(self.path, CENSUS_STORE, readonly=readonly, timeout=30.0)
        except UnusableStoreError as error:
            raise CensusError(str(error)) from None
        self._watch = FileWatch(self.path)

    def __enter__(self) -> Census:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def store(self, records: Iterable[DealRecord]) -> int:
        """Store ``records`` in one transaction and return how many were written.

        A deal already stored is never stored again, except that a deal stored as having
        reached its limit is replaced by a newer result for it. Raises
        :class:`~freecell.storage.StoreLostError` when the file was removed or replaced
        since it was opened, and ``sqlite3.Error`` or ``OSError`` when it cannot be written
        (a full disk); nothing of ``records`` is kept then.
        """
        rows = [_row(record) for record in records]
        if not rows:
            return 0
        with self._transaction():
            before = self._db.total_changes
            self._db.executemany(
                f"INSERT INTO results ({_COLUMNS}) VALUES ({', '.join('?' * 13)}) "
                "ON CONFLICT (rules, cells, deal) DO UPDATE SET "
                + ", ".join(f"{name} = excluded.{name}" for name in _COLUMNS.split(", ")[3:])
                + ", stored_at = excluded.stored_at WHERE results.verdict = 'limit'",
                rows,
            )
            return self._db.total_changes - before

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """Commits on a clean exit, rolls back on an error."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._watch.check()  # the last moment before the commit: a removed file keeps nothing
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:  # a failed COMMIT may already have rolled back
                with suppress(sqlite3.Error):
                    self._db.execute("ROLLBACK")
            raise

    def stored_deals(self, rules: str, cells: int, first: int, last: int) -> dict[int, SolveStatus]:
        """The verdict stored for each deal from ``first`` to ``last`` that has one."""
        cursor = self._db.execute(
            "SELECT deal, verdict FROM results WHERE rules = ? AND cells = ? AND deal BETWEEN ? AND ?",
            (rules, cells, first, last),
        )
        return {deal: _READ[verdict] for deal, verdict in cursor}

    def stored_count(
        self, rules: str, cells: int, first: int, last: int, *, verdict: SolveStatus | None = None
    ) -> int:
        """How many deals from ``first`` to ``last`` have a result stored (of ``verdict``)."""
        query = "SELECT count(*) FROM results WHERE rules = ? AND cells = ? AND deal BETWEEN ? AND ?"
        params: list[object] = [rules, cells, first, last]
        if verdict is not None:
            query += " AND verdict = ?"
            params.append(verdict_text(verdict))
        return int(self._db.execute(query, params).fetchone()[0])

    def records(
        self, *, rules: str | None = None, cells: int | None = None, first: int | None = None, last: int | None = None,
        solutions: bool = True,
    ) -> Iterator[DealRecord]:
        """The stored records in order of rules, cells and deal, optionally filtered.

        With ``solutions=False`` the moves are left out (``solution`` is empty), which keeps
        a summary of millions of deals in memory.
        """
        where, params = _filters(rules=rules, cells=cells, first=first, last=last)
        columns = _COLUMNS if solutions else _COLUMNS.replace("solution", "NULL")
        cursor = self._db.execute(f"SELECT {columns} FROM results{where} ORDER BY rules, cells, deal", params)
        for row in cursor:
            yield _record(row)

    def count(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM results").fetchone()[0])


def _filters(**values: object) -> tuple[str, list[object]]:
    clauses: list[str] = []
    params: list[object] = []
    for name, value in values.items():
        if value is None:
            continue
        if name == "first":
            clauses.append("deal >= ?")
        elif name == "last":
            clauses.append("deal <= ?")
        else:
            clauses.append(f"{name} = ?")
        params.append(value)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _row(record: DealRecord) -> Sequence[object]:
    if record.verdict is SolveStatus.SOLVED and not record.solution:
        raise CensusError(f"deal {record.deal} is marked solved but has no solution")
    solution = " ".join(record.solution) if record.verdict is SolveStatus.SOLVED else None
    limit = record.limit
    return (
        record.rules, record.cells, record.deal, verdict_text(record.verdict), record.length, record.moves,
        record.expanded, record.generated, record.seconds, solution,
        limit.seconds, limit.positions, limit.memory_mb,
    )


_limit = lru_cache(maxsize=256)(SearchLimit)  # a census has few limits and many rows


def _record(row: tuple[Any, ...]) -> DealRecord:
    rules, cells, deal, verdict, length, moves, expanded, generated, seconds, solution = row[:10]
    return DealRecord(
        rules=rules, cells=cells, deal=deal, verdict=_READ[verdict], length=length,
        expanded=expanded, generated=generated, seconds=seconds,
        solution=tuple(solution.split()) if solution else (),
        limit=_limit(*row[10:]),
        moves=moves,
    )
