"""The two SQLite stores mark their kind, and a file of the wrong kind, a damaged file or a
newer version is refused untouched; reading commands create nothing; a store notices
that its file was removed or replaced."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner

from freecell.census import Census, CensusError, DealRecord
from freecell.cli import main
from freecell.solver import SolveStatus
from freecell.storage import CENSUS_STORE_ID, GAME_STORE_ID
from freecell.store import (
    Event,
    GameRecord,
    Result,
    Store,
    StoreLostError,
    StoreVersionError,
    UnusableStoreError,
)

GAME = GameRecord("g1", "standard", 4, "number", 617, "board", None, 100.0)
SOLVED = DealRecord("standard", 4, 1, SolveStatus.SOLVED, 3, 10, 20, 0.5, solution=("1h", "2h", "3a", "a4"))


def make_games(path: Path) -> Path:
    store = Store(path)
    with store.writing() as writer:
        writer.add_game(GAME)
        writer.add_event("g1", Event("move", 101.0, "38"))
        writer.add_result(Result("g1", "standard", "won", 125.0, 98, 10.0))
    store.close()
    return path


def make_census(path: Path, deals: int = 1) -> Path:
    with Census(path) as census:
        census.store(
            DealRecord("standard", 4, deal, SolveStatus.SOLVED, 30, 60, 2000, 0.5, solution=("1h",) * 60)
            for deal in range(1, deals + 1)
        )
    return path


def header(path: Path, pragma: str) -> int:
    with closing(sqlite3.connect(path)) as db:
        return int(db.execute(f"PRAGMA {pragma}").fetchone()[0])


def execute(path: Path, statement: str) -> None:
    """Run ``statement`` on ``path`` through a connection of its own, closed after."""
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute(statement)


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file of ``folder`` with its bytes and modification time."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def test_each_store_marks_its_kind(tmp_path: Path) -> None:
    assert GAME_STORE_ID != CENSUS_STORE_ID
    assert header(make_games(tmp_path / "g.db"), "application_id") == GAME_STORE_ID
    assert header(make_census(tmp_path / "c.db"), "application_id") == CENSUS_STORE_ID
    (tmp_path / "empty.db").touch()  # an empty file is a new store
    Store(tmp_path / "empty.db").close()
    assert header(tmp_path / "empty.db", "application_id") == GAME_STORE_ID


def test_a_store_of_the_other_kind_is_refused_untouched(tmp_path: Path) -> None:
    games, census = make_games(tmp_path / "g.db"), make_census(tmp_path / "c.db")
    before = snapshot(tmp_path)
    with pytest.raises(UnusableStoreError, match=r"c\.db is a census store .*not a game store"):
        Store(census)
    with pytest.raises(UnusableStoreError, match="not a game store"):
        Store(census, readonly=True)
    with pytest.raises(CensusError, match=r"g\.db is a game store .*not a census store"):
        Census(games)
    with pytest.raises(CensusError, match="not a census store"):
        Census(games, readonly=True)
    assert snapshot(tmp_path) == before


def damaged_files(folder: Path) -> dict[str, Path]:
    """Files that are no store at all: random bytes, text, a SQLite header over garbage,
    and a census cut in half."""
    made = {
        "random": folder / "random.db",
        "text": folder / "notes.txt",
        "garbage": folder / "garbage.db",
        "truncated": folder / "truncated.db",
    }
    made["random"].write_bytes(random.Random(15).randbytes(8192))
    made["text"].write_text("these are not the games you are looking for\n" * 100)
    made["garbage"].write_bytes(b"SQLite format 3\x00" + random.Random(16).randbytes(8176))
    whole = make_census(folder / "whole.db", deals=300).read_bytes()
    made["truncated"].write_bytes(whole[: len(whole) // 2])
    (folder / "whole.db").unlink()
    return made


def test_damaged_files_are_refused_untouched(tmp_path: Path) -> None:
    files = damaged_files(tmp_path)
    before = snapshot(tmp_path)
    for name, path in files.items():
        for opener in (Store, lambda p: Store(p, readonly=True), Census, lambda p: Census(p, readonly=True)):
            with pytest.raises((UnusableStoreError, CensusError)):
                opener(path)
                pytest.fail(f"the {name} file was opened")
    assert snapshot(tmp_path) == before


def test_a_store_of_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    games, census = make_games(tmp_path / "g.db"), make_census(tmp_path / "c.db")
    for path in (games, census):
        execute(path, "PRAGMA user_version = 2")
    before = snapshot(tmp_path)
    with pytest.raises(StoreVersionError, match="newer freecell"):
        Store(games)
    with pytest.raises(CensusError, match="newer freecell"):
        Census(census)
    assert snapshot(tmp_path) == before


def unmark(path: Path) -> None:
    """Make ``path`` as the code before the mark wrote it: application id 0, version 1."""
    execute(path, "PRAGMA application_id = 0")
    assert header(path, "application_id") == 0 and header(path, "user_version") == 1


def test_a_store_written_before_the_mark_is_read_as_it_is_and_marked_when_written(tmp_path: Path) -> None:
    games, census = make_games(tmp_path / "g.db"), make_census(tmp_path / "c.db")
    unmark(games)
    unmark(census)
    reader = Store(games, readonly=True)
    assert [r.moves for r in reader.results()] == [98]
    reader.close()
    with Census(census, readonly=True) as old:
        assert old.count() == 1
    assert header(games, "application_id") == header(census, "application_id") == 0  # reading marks nothing
    with pytest.raises(CensusError, match="not a census store"):  # the old game store has other tables
        Census(games)
    with pytest.raises(UnusableStoreError, match="not a game store"):
        Store(census)
    Store(games).close()
    Census(census).close()
    assert header(games, "application_id") == GAME_STORE_ID
    assert header(census, "application_id") == CENSUS_STORE_ID
    found = Store(games).game("g1")
    assert found is not None and found[1] == [Event("move", 101.0, "38")]


def test_another_programs_sqlite_file_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    execute(other, "CREATE TABLE results (id INTEGER)")
    with pytest.raises(UnusableStoreError, match=r"another SQLite file \(its tables: results\)"):
        Store(other)
    execute(other, "PRAGMA application_id = 1234")
    with pytest.raises(CensusError, match="application id 0x4d2"):
        Census(other)


def test_a_write_to_a_removed_or_replaced_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path)
    with store.writing() as writer:
        writer.add_game(GAME)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    with pytest.raises(StoreLostError, match="removed or replaced"), store.writing() as writer:
        writer.add_event("g1", Event("move", 101.0, "38"))
    store.close()

    store = Store(path)
    with store.writing() as writer:
        writer.add_game(GAME)
    make_games(tmp_path / "other.db")
    os.replace(tmp_path / "other.db", path)
    with pytest.raises(StoreLostError), store.writing() as writer:
        writer.add_event("g1", Event("move", 101.0, "38"))
    store.close()


def test_a_removed_log_alone_is_noticed_too(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path)
    with store.writing() as writer:
        writer.add_game(GAME)
    Path(f"{path}-wal").unlink()
    with pytest.raises(StoreLostError), store.writing() as writer:
        writer.add_event("g1", Event("move", 101.0, "38"))
    store.close()


def test_a_read_only_store_refuses_to_write(tmp_path: Path) -> None:
    store = Store(make_games(tmp_path / "g.db"), readonly=True)
    with pytest.raises(Exception, match="read-only"), store.writing():
        pass


# --- the commands ---------------------------------------------------------------------


def refused(args: list[str]) -> str:
    """The one line a command refuses ``args`` with (exit status 2)."""
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, (args, result.output, result.exception)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("freecell: "), result.output
    return lines[0]


COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "stats": lambda path: ["stats", "--db", str(path)],
    "report": lambda path: ["report", str(path)],
    "range": lambda path: ["range", "1-3", "--jobs", "1", "--db", str(path)],
}


def test_commands_refuse_the_other_kind_of_store_untouched(tmp_path: Path) -> None:
    games, census = make_games(tmp_path / "g.db"), make_census(tmp_path / "c.db")
    before = snapshot(tmp_path)
    assert "is a census store" in refused(COMMANDS["stats"](census))
    assert "is a game store" in refused(COMMANDS["report"](games))
    assert "is a game store" in refused(COMMANDS["range"](games))
    assert snapshot(tmp_path) == before


def test_commands_refuse_damaged_files_untouched(tmp_path: Path) -> None:
    files = damaged_files(tmp_path)
    before = snapshot(tmp_path)
    for path in files.values():
        for command in COMMANDS.values():
            assert str(path) in refused(command(path))
    assert snapshot(tmp_path) == before


def test_play_refuses_to_start_on_a_census(tmp_path: Path) -> None:
    census = make_census(tmp_path / "c.db")
    before = snapshot(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "freecell", "play", "--no-browser", "--port", "0", "--db", str(census)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and done.stderr.strip().splitlines() == [
        f"freecell: {census} is a census store (of freecell range), not a game store"
    ]
    assert snapshot(tmp_path) == before


def test_stats_on_a_missing_store_shows_empty_statistics_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "new" / "games.db"
    result = CliRunner().invoke(main, ["stats", "--db", str(missing), "--csv"])
    assert result.exit_code == 0, result.output
    rows = result.output.splitlines()[1:]
    assert rows and all(row.split(",")[1:4] == ["0", "0", "0"] for row in rows)
    assert list(tmp_path.iterdir()) == []


def test_stats_reads_the_store_under_xdg_data_home(tmp_path: Path) -> None:
    make_games(tmp_path / "freecell" / "freecell.db")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "freecell", "stats", "--csv"], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr
    assert "standard,1,1,0,1,1,125.0,98,0,0" in done.stdout.splitlines()


@pytest.mark.parametrize("deals", ["5-1", "0-3", "1-99999999999"])
def test_a_refused_range_leaves_no_file(tmp_path: Path, deals: str) -> None:
    refused(["range", deals, "--jobs", "1", "--db", str(tmp_path / "r.db")])
    assert list(tmp_path.iterdir()) == []
