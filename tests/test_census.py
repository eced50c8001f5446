"""The census store: one row per deal, limit-reached rows replaced, nothing else twice."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from freecell.census import Census, CensusError, DealRecord, describe_limit
from freecell.solver import SearchLimit, SolveStatus
from freecell.storage import StoreLostError

TEN_SECONDS = SearchLimit(seconds=10.0)


def record(deal: int, verdict: SolveStatus = SolveStatus.SOLVED, *, seconds: float = 0.01, rules: str = "standard",
           cells: int = 4, limit: SearchLimit = TEN_SECONDS) -> DealRecord:
    solved = verdict is SolveStatus.SOLVED
    return DealRecord(
        rules=rules, cells=cells, deal=deal, verdict=verdict, length=3 if solved else None,
        expanded=100 + deal, generated=400 + deal, seconds=seconds,
        solution=("1h", "2a", "a3", "57v8") if solved else (), limit=limit,
    )


def test_records_come_back_exactly_as_stored(tmp_path: Path) -> None:
    stored = [
        record(1), record(2, SolveStatus.UNSOLVABLE),
        record(3, SolveStatus.LIMIT_REACHED, limit=SearchLimit(2.5, 1000, 500)),
    ]
    with Census(tmp_path / "c.db") as census:
        assert census.store(stored) == 3
    with Census(tmp_path / "c.db") as census:
        assert list(census.records()) == stored
        assert census.stored_deals("standard", 4, 1, 10) == {
            1: SolveStatus.SOLVED, 2: SolveStatus.UNSOLVABLE, 3: SolveStatus.LIMIT_REACHED
        }
        assert list(census.records(first=2, last=2)) == [stored[1]]
    assert stored[0].moves == 4 and stored[1].moves is None


def test_a_decided_deal_is_never_stored_twice_nor_overwritten(tmp_path: Path) -> None:
    with Census(tmp_path / "c.db") as census:
        census.store([record(1), record(2, SolveStatus.UNSOLVABLE)])
        assert census.store([record(1, seconds=9.0), record(2, SolveStatus.SOLVED)]) == 0
        assert [(r.deal, r.verdict, r.seconds) for r in census.records()] == [
            (1, SolveStatus.SOLVED, 0.01), (2, SolveStatus.UNSOLVABLE, 0.01)
        ]
        assert census.count() == 2


def test_a_limit_reached_deal_is_replaced_by_a_later_result(tmp_path: Path) -> None:
    with Census(tmp_path / "c.db") as census:
        census.store([record(5, SolveStatus.LIMIT_REACHED, limit=SearchLimit(seconds=1.0))])
        assert census.store([record(5, SolveStatus.SOLVED, limit=SearchLimit(seconds=60.0))]) == 1
        (only,) = census.records()
        assert only.verdict is SolveStatus.SOLVED and only.limit == SearchLimit(seconds=60.0) and only.solution
        assert census.count() == 1


def test_rulesets_and_cell_counts_are_kept_apart(tmp_path: Path) -> None:
    with Census(tmp_path / "c.db") as census:
        census.store([record(1), record(1, cells=2), record(1, rules="bakers-game", verdict=SolveStatus.UNSOLVABLE)])
        assert census.count() == 3
        assert census.stored_deals("standard", 2, 1, 1) == {1: SolveStatus.SOLVED}
        assert census.stored_deals("bakers-game", 4, 1, 1) == {1: SolveStatus.UNSOLVABLE}


def test_a_bad_record_leaves_the_store_unchanged(tmp_path: Path) -> None:
    broken = DealRecord("standard", 4, 7, SolveStatus.SOLVED, 3, 1, 1, 0.1, solution=())
    with Census(tmp_path / "c.db") as census:
        census.store([record(1)])
        with pytest.raises(CensusError, match="deal 7 is marked solved but has no solution"):
            census.store([record(2), broken])
        assert [r.deal for r in census.records()] == [1]


def test_the_store_uses_wal_and_a_unique_key(tmp_path: Path) -> None:
    Census(tmp_path / "c.db").close()
    db = sqlite3.connect(tmp_path / "c.db")
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.execute("INSERT INTO results (rules, cells, deal, verdict, expanded, generated, seconds) "
               "VALUES ('standard', 4, 1, 'unsolvable', 1, 1, 0.1)")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO results (rules, cells, deal, verdict, expanded, generated, seconds) "
                   "VALUES ('standard', 4, 1, 'unsolvable', 1, 1, 0.1)")


def test_a_file_that_is_not_a_census_is_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("these are not the results you are looking for\n" * 20)
    with pytest.raises(CensusError, match="not a census store"):
        Census(text)
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE games (id INTEGER)")
    with pytest.raises(CensusError, match="not a census store"):
        Census(other)
    assert text.read_text().startswith("these are not")


def test_a_limit_reads_as_text() -> None:
    assert describe_limit(SearchLimit(10.0, 200000, 512)) == "10s, 200000 positions, 512MB"
    assert describe_limit(SearchLimit()) == "no limit"


def test_records_can_be_read_without_their_solutions(tmp_path: Path) -> None:
    with Census(tmp_path / "c.db") as census:
        census.store([record(1), record(2, SolveStatus.UNSOLVABLE)])
        light = list(census.records(solutions=False))
    assert [(r.deal, r.verdict, r.length, r.moves, r.solution) for r in light] == [
        (1, SolveStatus.SOLVED, 3, 4, ()), (2, SolveStatus.UNSOLVABLE, None, None, ())
    ]


def test_a_census_whose_file_was_removed_keeps_nothing_more(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    with Census(path) as census:
        census.store([record(1)])
        for file in tmp_path.iterdir():
            file.unlink()
        with pytest.raises(StoreLostError, match="removed or replaced"):
            census.store([record(2)])
    with Census(path) as census:
        assert census.count() == 0
