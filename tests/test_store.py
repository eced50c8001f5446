"""The store: the event log, results, statistics and exports, in a real SQLite file."""

from __future__ import annotations

import datetime
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from freecell.store import (
    RESULTS_AT_ONCE,
    Event,
    GameRecord,
    Result,
    Store,
    StoreInUseError,
    daily_stats,
    default_path,
    preset_stats,
)


def record(game_id: str = "g1", *, number: int | None = 617, lesson: str | None = None) -> GameRecord:
    return GameRecord(game_id, "standard", 4, None if number is None else "number", number, "board", lesson, 100.0)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "sub" / "games.db")


def test_a_game_and_its_log_come_back_in_order(store: Store) -> None:
    with store.writing() as writer:
        writer.add_game(record())
        writer.add_event("g1", Event("move", 101.0, "38"))
        writer.add_event("g1", Event("undo", 102.0))
        writer.add_event("g1", Event("pause", 103.5))
    found = store.game("g1")
    assert found is not None
    game, events = found
    assert game == record()
    assert events == [Event("move", 101.0, "38"), Event("undo", 102.0), Event("pause", 103.5)]
    assert store.game("nope") is None


def test_every_result_comes_back_oldest_first_however_many_reads_it_takes(store: Store) -> None:
    count = 2 * RESULTS_AT_ONCE + 7  # three reads
    finished = [1000.0 - (n % 97) for n in range(count)]  # not in the order they were written
    with store.writing() as writer:
        writer.add_game(record())
        for n, at in enumerate(finished):
            writer.add_result(Result("g1", "standard", "won" if n % 3 else "lost", 60.0, n, at))
    results = store.results()
    assert len(results) == count
    assert [r.finished for r in results] == sorted(finished)
    assert [r.moves for r in results] == sorted(range(count), key=lambda n: (finished[n], n))  # ties as written


def test_a_random_deal_seed_beyond_sqlite_integers_survives(store: Store) -> None:
    seed = 2**64 - 1
    with store.writing() as writer:
        writer.add_game(record(number=seed))
    found = store.game("g1")
    assert found is not None and found[0].deal_number == seed


def test_a_failed_transaction_leaves_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError), store.writing() as writer:
        writer.add_game(record())
        writer.add_event("g1", Event("move", 101.0, "38"))
        raise RuntimeError("the answer could not be built")
    assert store.game("g1") is None


# A process that writes a game and a move, then dies without closing the store.
WRITE_AND_DIE = """
import os, sys
from pathlib import Path
from freecell.store import Event, GameRecord, Store
store = Store(Path(sys.argv[1]))
with store.writing() as writer:
    writer.add_game(GameRecord("g1", "standard", 4, "number", 617, "board", None, 100.0))
    writer.add_event("g1", Event("move", 101.0, "2a"))
os._exit(0)
"""


def test_a_write_is_committed_when_its_block_ends_and_the_log_is_on(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    subprocess.run([sys.executable, "-c", WRITE_AND_DIE, str(db)], check=True, timeout=60)
    other = sqlite3.connect(db)
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT kind, move FROM events").fetchall() == [("move", "2a")]


def test_one_process_at_a_time_uses_a_store_and_no_shared_memory_file_is_made(tmp_path: Path) -> None:
    """The index of the write-ahead log lives in the server's memory, not in a -shm file
    mapped from disk (which another process could truncate: SIGBUS); so the file is locked
    while it is open, and every other opening of it is refused, reading or writing."""
    db = tmp_path / "games.db"
    store = Store(db)
    with store.writing() as writer:
        writer.add_game(record())
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games.db", "games.db-wal"]
    for readonly in (False, True):
        with pytest.raises(StoreInUseError, match=f"^{db} is in use by another process"):
            Store(db, readonly=readonly)
    store.close()
    assert Store(db, readonly=True).game("g1") is not None


def test_current_keeps_the_last_game_and_the_last_game_or_lesson(store: Store) -> None:
    assert store.current() is None
    with store.writing() as writer:
        writer.add_game(record("g1"))
        writer.set_current("g1")
        writer.add_game(record("l1", number=None, lesson="tableau"))
        writer.set_current("l1", lesson=True)
    assert store.current() == "l1"
    assert store.current(lessons=False) == "g1"


def test_unknown_event_kinds_and_outcomes_are_refused() -> None:
    with pytest.raises(ValueError, match="event kind"):
        Event("teleport", 1.0)
    with pytest.raises(ValueError, match="outcome"):
        Result("g", "standard", "drawn", 1.0, 1, 1.0)


def result(outcome: str, seconds: float = 60.0, moves: int = 90, at: float = 0.0) -> Result:
    return Result("g", "standard", outcome, seconds, moves, at)


def test_streaks_best_time_and_fewest_moves() -> None:
    results = [
        result("won", 300, 120), result("won", 200, 110), result("lost"), result("won", 250, 95),
        result("abandoned"), result("won", 500, 130), result("won", 400, 140),
    ]
    stats = preset_stats("standard", results)
    assert (stats.played, stats.won, stats.lost) == (7, 5, 2)
    assert (stats.current_streak, stats.best_streak) == (2, 2)
    assert stats.best_seconds == 200
    assert stats.fewest_moves == 95


def test_stats_list_every_preset_and_exports_agree(store: Store) -> None:
    with store.writing() as writer:
        writer.add_game(record())
        writer.add_result(Result("g1", "standard", "won", 321.5, 100, 10.0))
        writer.add_result(Result("g1", "app", "abandoned", 12.0, 3, 11.0))
    stats = {row.rules: row for row in store.stats()}
    assert list(stats)[:3] == ["standard", "strict", "supermove"]
    assert stats["standard"].won == 1 and stats["standard"].best_seconds == 321.5
    assert stats["app"].lost == 1 and stats["app"].best_seconds is None
    assert stats["cardems"].played == 0
    exported = json.loads(store.export_json())
    assert exported[0] == {
        "rules": "standard", "played": 1, "won": 1, "lost": 0, "current_streak": 1, "best_streak": 1,
        "best_seconds": 321.5, "fewest_moves": 100, "assisted": 0, "hints": 0,
    }
    lines = store.export_csv().splitlines()
    assert lines[0] == "rules,played,won,lost,current_streak,best_streak,best_seconds,fewest_moves,assisted,hints"
    assert lines[1] == "standard,1,1,0,1,1,321.5,100,0,0"
    assert "app,1,0,1,0,0,,,0,0" in lines


def test_the_best_time_is_kept_to_the_tenth_of_a_second(store: Store) -> None:
    """A clock's float (83.45678901234567 s) is written as the state's elapsed_seconds is."""
    with store.writing() as writer:
        writer.add_game(record())
        writer.add_result(Result("g1", "standard", "won", 83.45678901234567, 100, 10.0))
    assert store.stats()[0].best_seconds == 83.5
    assert store.export_csv().splitlines()[1] == "standard,1,1,0,1,1,83.5,100,0,0"
    assert json.loads(store.export_json())[0]["best_seconds"] == 83.5


def test_assisted_games_count_apart_from_wins_streaks_and_records() -> None:
    results = [
        result("won", 300, 120), result("won", 19, 80), result("won", 200, 110), result("lost"), result("won", 250, 95),
    ]
    results[1] = Result("g", "standard", "won", 19, 80, 1.0, assisted=True)
    results[2] = Result("g", "standard", "won", 200, 110, 2.0, hints=3)
    stats = preset_stats("standard", results)
    assert (stats.played, stats.won, stats.lost, stats.assisted) == (4, 3, 1, 1)
    assert (stats.current_streak, stats.best_streak) == (1, 2)  # the assisted win neither counts nor breaks
    assert (stats.best_seconds, stats.fewest_moves) == (200, 95)
    assert stats.hints == 3


def test_a_file_without_the_assisted_columns_opens_and_gains_them(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript(  # the store as it was before results had assisted and hints
        "CREATE TABLE games (id TEXT PRIMARY KEY, rules TEXT NOT NULL, cells INTEGER NOT NULL, deal_kind TEXT,"
        " deal_number TEXT, board TEXT NOT NULL, lesson TEXT, created REAL NOT NULL);"
        "CREATE TABLE events (game_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, move TEXT,"
        " at REAL NOT NULL, PRIMARY KEY (game_id, seq));"
        "CREATE TABLE results (id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL, rules TEXT NOT NULL,"
        " outcome TEXT NOT NULL, seconds REAL NOT NULL, moves INTEGER NOT NULL, finished REAL NOT NULL);"
        "INSERT INTO results (game_id, rules, outcome, seconds, moves, finished)"
        " VALUES ('g', 'standard', 'won', 100, 90, 1.0);"
        "PRAGMA user_version=1;"
    )
    old.close()
    store = Store(path)
    try:
        assert store.results() == [Result("g", "standard", "won", 100, 90, 1.0)]
        with store.writing() as writer:
            writer.add_result(Result("h", "standard", "won", 50, 70, 2.0, assisted=True, hints=2))
        standard = store.stats()[0]
        assert (standard.won, standard.assisted, standard.best_seconds) == (1, 1, 100)
    finally:
        store.close()


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "freecell" / "freecell.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_path() == Path.home() / ".local" / "share" / "freecell" / "freecell.db"


def test_the_stats_command_prints_and_exports(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from freecell.cli import main

    db = tmp_path / "games.db"
    store = Store(db)
    with store.writing() as writer:
        writer.add_game(record())
        writer.add_result(Result("g1", "standard", "won", 125.0, 98, 10.0))
    store.close()
    runner = CliRunner()
    table = runner.invoke(main, ["stats", "--db", str(db)])
    assert table.exit_code == 0
    assert table.output.splitlines()[1].split() == ["standard", "1", "1", "0", "1", "1", "2:05", "98"]
    exported = runner.invoke(main, ["stats", "--db", str(db), "--csv"]).output
    assert exported.splitlines()[1] == "standard,1,1,0,1,1,125.0,98,0,0"
    assert json.loads(runner.invoke(main, ["stats", "--db", str(db), "--json"]).output)[0]["fewest_moves"] == 98
    assert runner.invoke(main, ["stats", "--db", str(db), "--csv", "--json"]).exit_code == 2


def test_a_store_from_a_newer_version_is_not_touched(tmp_path: Path) -> None:
    from freecell.store import SCHEMA_VERSION, StoreVersionError

    path = tmp_path / "games.db"
    Store(path).close()
    newer = sqlite3.connect(path)
    assert newer.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    newer.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    newer.close()
    with pytest.raises(StoreVersionError, match="newer freecell"):
        Store(path)


# --- the daily deals' statistics (days injected: no clock) --------------------------------

def daily_result(day: str, outcome: str = "won", *, assisted: bool = False, seconds: float = 300.0,
                 rules: str = "standard") -> Result:
    finished = datetime.datetime.fromisoformat(f"{day}T20:00:00").timestamp()
    return Result(f"g-{day}-{outcome}", rules, outcome, seconds, 90, finished, assisted=assisted, daily=day)


def test_a_daily_streak_counts_days_won_in_a_row_up_to_today() -> None:
    won = [daily_result(day) for day in ("2026-11-28", "2026-11-29", "2026-12-02", "2026-12-03", "2026-12-04")]
    stats = daily_stats("standard", won, datetime.date(2026, 12, 4))
    assert (stats.current_streak, stats.best_streak, stats.won, stats.played, stats.today) == (3, 3, 5, 5, "won")
    # The next day, not won yet: the streak holds until the day ends.
    stats = daily_stats("standard", won, datetime.date(2026, 12, 5))
    assert (stats.current_streak, stats.today) == (3, None)
    # A day missed breaks it; the best streak stays.
    stats = daily_stats("standard", won, datetime.date(2026, 12, 6))
    assert (stats.current_streak, stats.best_streak) == (0, 3)


def test_a_day_counts_once_a_loss_before_the_win_is_allowed_and_an_assisted_win_does_not_count() -> None:
    results = [
        daily_result("2026-12-01", "abandoned"),
        daily_result("2026-12-01", "won", seconds=400.0),
        daily_result("2026-12-01", "won", seconds=250.0),  # played again: the day counts once
        daily_result("2026-12-02", "won", assisted=True),
        daily_result("2026-12-03", "lost"),
    ]
    stats = daily_stats("standard", results, datetime.date(2026, 12, 2))
    assert (stats.won, stats.played, stats.current_streak, stats.best_streak) == (1, 2, 1, 1)
    assert (stats.today, stats.assisted, stats.best_seconds) == ("assisted", 1, 250.0)
    assert daily_stats("standard", results, datetime.date(2026, 12, 3)).today == "lost"
    assert daily_stats("standard", results, datetime.date(2026, 12, 3)).current_streak == 0


def test_daily_games_are_kept_out_of_the_ordinary_statistics(store: Store) -> None:
    with store.writing() as writer:
        writer.add_game(record("ordinary"))
        writer.add_game(GameRecord("daily", "standard", 4, "number", 402931, "board", None, 100.0, "easy",
                                   "2026-12-06"))
        writer.add_result(Result("ordinary", "standard", "lost", 60.0, 10, 200.0))
        writer.add_result(Result("daily", "standard", "won", 80.0, 95, 300.0))
    standard = store.stats()[0]
    assert (standard.played, standard.won, standard.lost) == (1, 0, 1)
    daily = store.daily_stats("standard", datetime.date(2026, 12, 6))
    assert (daily.won, daily.current_streak, daily.today, daily.fewest_moves) == (1, 1, "won", 95)
    found = store.game("daily")
    assert found is not None and found[0].daily == "2026-12-06"
    assert store.daily_games("standard", "2026-12-06") == ["daily"]
    assert store.daily_games("app", "2026-12-06") == []


def test_a_store_written_before_the_daily_deals_gets_its_table(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE daily")
    db.close()
    readonly = Store(path, readonly=True)
    assert readonly.daily_stats("standard", datetime.date(2026, 12, 6)).played == 0
    assert readonly.daily_games("standard", "2026-12-06") == []
    readonly.close()
    store = Store(path)
    with store.writing() as writer:
        writer.add_game(GameRecord("d", "standard", 4, "number", 1, "board", None, 1.0, None, "2026-12-06"))
    assert store.daily_games("standard", "2026-12-06") == ["d"]
    store.close()
