"""Opening the project's SQLite files, each marked with its kind, and watching them.

Two kinds of file are SQLite: the game store (``store.py``) and the census store
(``census.py``). Each is marked with its own ``PRAGMA application_id`` and a schema version
(``PRAGMA user_version``), both in the file's header. Opening a file checks, before
anything is written to it, that it is SQLite and not corrupt (``PRAGMA quick_check``), that
its mark is this kind's, and that its version is not newer than this code's; anything else
is refused with :class:`UnusableStoreError`, the file untouched.

A file written before the mark existed (application id 0, version 1, with this kind's
tables and columns) is accepted, and marked when it is first opened for writing. A missing
file is created with the mark when opened for writing; opened for reading, it reads as an
empty store and nothing is created.

A kind may be *exclusive* (the game store): opened for writing, the file stays locked
until it is closed, and SQLite keeps its write-ahead log's index in the process's own
memory. A WAL store shared between processes keeps that index in a ``-shm`` file mapped
into each one's memory, and when another process truncates that file or makes it
unwritable, the next access to the mapping kills the process with SIGBUS, with no
message. An exclusive store makes no ``-shm`` file; another process that opens it while it
is open is refused with :class:`StoreInUseError`.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Final
from urllib.parse import quote_from_bytes

from freecell.errors import UnavailableError

SQLITE_HEADER: Final = b"SQLite format 3\x00"
GAME_STORE_ID: Final = 0x46436770  # "FCgp": games in play
CENSUS_STORE_ID: Final = 0x46436373  # "FCcs": a census of solved deals
_KIND_NAMES: Final = {
    GAME_STORE_ID: "a game store (of freecell play)",
    CENSUS_STORE_ID: "a census store (of freecell range)",
}


class StoreError(UnavailableError):
    """A store cannot be used as asked."""


class UnusableStoreError(StoreError):
    """The file is not a store of the kind asked for (another kind, not SQLite, corrupt,
    unreadable, or written by a newer version), or it cannot be created where asked.
    Nothing was written to it."""


class StoreInUseError(UnusableStoreError):
    """Another process holds the file of an exclusive store (a running ``freecell play``)."""


class StoreVersionError(UnusableStoreError):
    """The file was written by a newer version of the store."""


class StoreLostError(StoreError):
    """The file that a store opened was removed or replaced since: what it writes now
    would be lost at the next start."""


@dataclass(frozen=True, slots=True)
class StoreKind:
    """What marks and makes one kind of store. ``tables`` names the tables, with some of
    their columns, that a file written before the mark must have to be taken as this kind."""

    name: str
    application_id: int
    version: int
    schema: str
    tables: Mapping[str, frozenset[str]]
    exclusive: bool = False  # one process at a time, and no -shm file (see the module's docstring)


class _Found(Enum):
    NEW = "new"  # missing, or a SQLite file with no tables
    UNMARKED = "unmarked"  # this kind's tables, written before the mark
    MARKED = "marked"


def open_store(path: Path, kind: StoreKind, *, readonly: bool = False, timeout: float = 5.0) -> sqlite3.Connection:
    """A connection (autocommit, usable from any thread) to the store of ``kind`` at ``path``.

    For writing, the file (and its folders) is created when missing, put in WAL mode, and
    given the schema and the mark. For reading, nothing is written: the file is opened
    read-only, and a missing file gives an empty store in memory. Raises
    :class:`UnusableStoreError` (the file untouched) when ``path`` is not such a store or
    cannot be created.
    """
    found = _inspect(path, kind, timeout)
    if readonly:
        if found is _Found.NEW:
            memory = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
            memory.executescript(kind.schema)
            return memory
        db = _connect(path, readonly=True, timeout=timeout)
        try:
            db.execute("PRAGMA schema_version")  # the first read: refused here when another process holds the file
        except sqlite3.Error as error:
            db.close()
            raise _refusal(path, kind, error) from None
        return db
    if found is _Found.NEW:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UnusableStoreError(f"cannot create {path}: {error.strerror or error}") from None
    db = _connect(path, readonly=False, timeout=timeout)
    try:
        if kind.exclusive:  # before the first read, so that SQLite never maps a -shm file
            db.execute("PRAGMA locking_mode=EXCLUSIVE")
        db.execute("PRAGMA journal_mode=WAL")
        # NORMAL in WAL mode keeps every commit through a crash of the process (only a
        # power cut may lose the last ones), without an fsync per write.
        db.execute("PRAGMA synchronous=NORMAL")
        if found is not _Found.MARKED:
            db.executescript(
                f"BEGIN IMMEDIATE; {kind.schema}; PRAGMA application_id={kind.application_id};"
                f" PRAGMA user_version={kind.version}; COMMIT;"
            )
    except sqlite3.Error as error:
        db.close()
        raise _refusal(path, kind, error) from None
    return db


def _refusal(path: Path, kind: StoreKind, error: sqlite3.Error) -> UnusableStoreError:
    """What to raise when opening ``path`` failed with ``error``."""
    if _held_elsewhere(kind, error):
        return StoreInUseError(
            f"{path} is in use by another process (is freecell play running?): a {kind.name} is opened by one"
            " process at a time"
        )
    return UnusableStoreError(f"cannot open {path}: {error}")


def _held_elsewhere(kind: StoreKind, error: sqlite3.Error) -> bool:
    """Whether ``error`` says that another process holds the file of an exclusive store."""
    return kind.exclusive and getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY


def _connect(path: Path, *, readonly: bool, timeout: float, immutable: bool = False) -> sqlite3.Connection:
    try:
        if readonly:
            target = _file_uri(path.resolve()) + ("?mode=ro&immutable=1" if immutable else "?mode=ro")
            return sqlite3.connect(target, uri=True, timeout=timeout, check_same_thread=False, isolation_level=None)
        return sqlite3.connect(path, timeout=timeout, check_same_thread=False, isolation_level=None)
    except sqlite3.Error as error:
        raise UnusableStoreError(f"cannot open {path}: {error}") from None


def _file_uri(path: Path) -> str:
    """``path.as_uri()`` for an absolute path; on POSIX without the ``urllib.request`` that
    Python 3.14's ``as_uri`` imports (with ``email`` and ``http``: most of a second under
    Pyodide, on every start of the static site)."""
    if os.name != "posix":
        return path.as_uri()
    return "file://" + quote_from_bytes(os.fsencode(path))


def _inspect(path: Path, kind: StoreKind, timeout: float) -> _Found:
    """What ``path`` holds, read without writing; raises :class:`UnusableStoreError`."""
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except FileNotFoundError:
        return _Found.NEW
    except OSError as error:
        raise UnusableStoreError(f"cannot read {path}: {error.strerror}") from None
    if header and (len(header) < 100 or not header.startswith(SQLITE_HEADER)):
        raise UnusableStoreError(f"{path} is not a {kind.name}: it is not a SQLite file")
    if header:  # a marked file of another kind is refused before SQLite even opens it
        _check_mark(path, kind, int.from_bytes(header[68:72], "big", signed=True))
    # Without a write-ahead log the file alone is the store: read it as immutable, which
    # creates no -wal and -shm files beside it.
    db = _connect(path, readonly=True, timeout=timeout, immutable=_size(Path(f"{path}-wal")) == 0)
    try:
        mark = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        tables = {name: _columns(db, name) for name in names}
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
    except sqlite3.Error as error:
        if _held_elsewhere(kind, error):
            raise _refusal(path, kind, error) from None
        raise UnusableStoreError(f"{path} is not a {kind.name}: it is damaged or not SQLite ({error})") from None
    finally:
        db.close()
    if problems != ["ok"]:
        raise UnusableStoreError(f"{path} is damaged ({problems[0]}): it is left as it is")
    _check_mark(path, kind, mark)
    if version > kind.version:
        raise StoreVersionError(f"{path} was written by a newer freecell ({kind.name} version {version})")
    if mark == kind.application_id:
        return _Found.MARKED
    if not tables:
        return _Found.NEW
    if version == 1 and all(columns <= tables.get(name, frozenset()) for name, columns in kind.tables.items()):
        return _Found.UNMARKED  # what the code before the mark wrote
    listed = ", ".join(sorted(tables))
    raise UnusableStoreError(f"{path} is not a {kind.name}: it is another SQLite file (its tables: {listed})")


def _check_mark(path: Path, kind: StoreKind, mark: int) -> None:
    if mark not in (0, kind.application_id):
        what = _KIND_NAMES.get(mark, f"another program's SQLite file (application id {mark:#x})")
        raise UnusableStoreError(f"{path} is {what}, not a {kind.name}")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _columns(db: sqlite3.Connection, table: str) -> frozenset[str]:
    return frozenset(row[1] for row in db.execute("SELECT * FROM pragma_table_info(?)", (table,)))


class FileWatch:
    """Whether the file at ``path``, and its write-ahead log, are still the ones opened.

    SQLite keeps writing to a file that was removed (or renamed over) while it is open,
    and a restart then finds none of it; one ``stat`` per file tells.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._files = {path: _identity(path), Path(f"{path}-wal"): _identity(Path(f"{path}-wal"))}

    def check(self) -> None:
        """Raise :class:`StoreLostError` if the file or its log was removed or replaced."""
        for file, opened in self._files.items():
            now = _identity(file)
            if opened is None:  # the log appears with the first write after opening
                self._files[file] = now
            elif now != opened:
                raise StoreLostError(
                    f"the file {self.path} was removed or replaced while it was open; nothing was saved"
                )


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino
