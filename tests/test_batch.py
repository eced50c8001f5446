"""Range solving on the local process pool: results checked and stored as they arrive, a
killed run restarted without losing or repeating a deal, and ``freecell range``."""

from __future__ import annotations

import contextlib
import csv
import itertools
import multiprocessing
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

import freecell.batch
import freecell.cli.range_commands
from freecell.batch import (
    PLAN_BATCH,
    Chunk,
    ChunkResult,
    ChunkSizer,
    Failure,
    PoolBackend,
    available_cores,
    check_record,
    plan_range,
    solve_chunks,
    solve_deal,
    solve_into,
)
from freecell.census import Census, DealRecord, verdict_text
from freecell.cli import main
from freecell.cli.range_commands import parse_limit, parse_range
from freecell.deals import MAX_DEAL, InvalidDealError
from freecell.replay import ReplayError
from freecell.rules import find_rules
from freecell.solver import SearchLimit, SolveResult, SolveStatus

STANDARD = find_rules("standard")
# One cell and a small positions budget give all three verdicts among the first deals,
# and a budget in positions (not seconds) makes every verdict the same on every run.
ONE_CELL = find_rules("standard", cells=1)
SMALL = SearchLimit(positions=2000)


@pytest.fixture(scope="module")
def serial() -> list[SolveStatus]:
    """Deals 1 to 40 so, solved one by one in this process: what the pool must agree with."""
    outcomes = [solve_deal(ONE_CELL, n, SMALL) for n in range(1, 41)]
    return [o.verdict for o in outcomes if isinstance(o, DealRecord)]


def stored(db: Path) -> list[DealRecord]:
    with Census(db) as census:
        return list(census.records())


def assert_complete_and_sound(db: Path, rules_name: str, cells: int, first: int, last: int) -> list[DealRecord]:
    """Every deal of the range is stored exactly once, and every solution replays to a win."""
    connection = sqlite3.connect(db)
    rows = connection.execute("SELECT count(*), count(DISTINCT deal) FROM results").fetchone()
    connection.close()
    records = stored(db)
    assert [r.deal for r in records] == list(range(first, last + 1))
    assert rows == (len(records), len(records))
    rules = find_rules(rules_name, cells=cells)
    for record in records:
        check_record(record, rules)
    return records


def test_a_solved_deal_is_replayed_and_its_length_counts_moves_not_home() -> None:
    record = solve_deal(STANDARD, 1, SearchLimit(seconds=30.0))
    assert isinstance(record, DealRecord)
    assert record.verdict is SolveStatus.SOLVED and record.deal == 1 and record.rules == "standard"
    assert record.length == sum(1 for move in record.solution if not move.endswith("h"))
    assert record.moves == len(record.solution) and record.expanded > 0
    check_record(record, STANDARD)


def test_a_solution_that_does_not_replay_is_a_failure_never_a_record(monkeypatch: pytest.MonkeyPatch) -> None:
    real = freecell.batch.solve

    def dropping_a_move(*args: object, **kwargs: object) -> SolveResult:
        result = real(*args, **kwargs)  # type: ignore[arg-type]
        return replace(result, moves=result.moves[1:])

    monkeypatch.setattr(freecell.batch, "solve", dropping_a_move)
    outcome = solve_deal(STANDARD, 1, SearchLimit(seconds=30.0))
    assert isinstance(outcome, Failure) and outcome.deal == 1
    assert "illegal" in outcome.message or "cards home" in outcome.message


def test_check_record_rejects_a_tampered_solution() -> None:
    record = solve_deal(STANDARD, 2, SearchLimit(seconds=30.0))
    assert isinstance(record, DealRecord)
    with pytest.raises(ReplayError):
        check_record(replace(record, solution=record.solution[1:]), STANDARD)
    with pytest.raises(ValueError, match="leaves 51 cards home"):
        check_record(replace(record, solution=record.solution[:-1]), STANDARD)
    with pytest.raises(ValueError, match="solved under standard with 4 cells"):
        check_record(record, ONE_CELL)


def test_plan_range_skips_what_is_stored_and_retries_only_the_limited(tmp_path: Path) -> None:
    with Census(tmp_path / "c.db") as census:
        census.store([
            DealRecord("standard", 1, 3, SolveStatus.UNSOLVABLE, None, 5, 5, 0.1),
            DealRecord("standard", 1, 5, SolveStatus.LIMIT_REACHED, None, 5, 5, 0.1),
            DealRecord("standard", 4, 4, SolveStatus.LIMIT_REACHED, None, 5, 5, 0.1),
        ])
        assert list(plan_range(census, ONE_CELL, 1, 6)) == [1, 2, 4, 6]
        assert len(plan_range(census, ONE_CELL, 1, 6)) == 4
        assert list(plan_range(census, ONE_CELL, 1, 6, retry_limited=True)) == [5]
        assert len(plan_range(census, ONE_CELL, 1, 6, retry_limited=True)) == 1
        assert list(plan_range(census, STANDARD, 1, 6, retry_limited=True)) == [4]
        with pytest.raises(ValueError, match="not 6-1"):
            plan_range(census, STANDARD, 6, 1)
        with pytest.raises(InvalidDealError):
            plan_range(census, STANDARD, 1, 2**40)


def test_a_huge_range_is_planned_a_batch_at_a_time(tmp_path: Path) -> None:
    """range 1-100000000 took 4.7 GB before its first deal was stored: the plan must read
    the store in bounded batches, as the deals are wanted, and skip what is stored."""
    with Census(tmp_path / "c.db") as census:
        census.store([DealRecord("standard", 4, n, SolveStatus.UNSOLVABLE, None, 5, 5, 0.1) for n in (3, 4, 10_001)])
        spans: list[int] = []
        stored_deals = census.stored_deals

        def spy(rules: str, cells: int, first: int, last: int) -> dict[int, SolveStatus]:
            spans.append(last - first + 1)
            return stored_deals(rules, cells, first, last)

        census.stored_deals = spy  # type: ignore[method-assign]
        plan = plan_range(census, STANDARD, 1, MAX_DEAL)
        assert len(plan) == MAX_DEAL - 3
        assert spans == []  # nothing is read before it is wanted
        deals = iter(plan)
        assert list(itertools.islice(deals, 5)) == [1, 2, 5, 6, 7]
        assert 10_001 not in itertools.islice(deals, 20_000)
        assert spans and max(spans) <= PLAN_BATCH < 100_000


class _Instant:
    """A backend that solves nothing: each chunk comes back at once, empty."""

    target_seconds = 0.5
    largest_chunk = 200

    def __init__(self) -> None:
        self.waiting: list[Chunk] = []

    def slots(self) -> int:
        return 2

    def submit(self, chunk: Chunk) -> None:
        self.waiting.append(chunk)

    def next_result(self) -> ChunkResult:
        return ChunkResult(self.waiting.pop(0), (), 0.001)

    def close(self) -> None:
        pass


def test_chunks_are_taken_from_the_plan_only_as_they_are_sent() -> None:
    taken = 0

    class Endless:
        def __len__(self) -> int:
            return 10**9

        def __iter__(self) -> Iterator[int]:
            nonlocal taken
            for deal in itertools.count(1):
                taken += 1
                yield deal

    results = solve_chunks(_Instant(), STANDARD, SMALL, Endless())
    next(results)
    assert taken <= 2 * 2 * _Instant.largest_chunk + 1  # twice the slots in flight, no more
    for _ in range(50):
        next(results)
    assert taken <= 60 * _Instant.largest_chunk


def test_chunks_are_sized_from_measured_speed_and_spread_at_the_end() -> None:
    sizer = ChunkSizer(target_seconds=0.5, largest=200, first=4)
    assert sizer.size(remaining=1000, slots=2) == 4
    sizer.record(ChunkResult(Chunk(STANDARD, SMALL, tuple(range(10))), (), seconds=0.1))  # 10 ms a deal
    assert sizer.size(remaining=1000, slots=2) == 50
    assert sizer.size(remaining=40, slots=2) == 10  # the last deals are shared out
    assert sizer.size(remaining=1, slots=2) == 1
    sizer.record(ChunkResult(Chunk(STANDARD, SMALL, tuple(range(10))), (), seconds=0.01))  # 1 ms a deal
    assert sizer.size(remaining=1000, slots=2) == 68  # 0.5 s at 7.3 ms: weighted towards the new speed
    for _ in range(20):
        sizer.record(ChunkResult(Chunk(STANDARD, SMALL, tuple(range(10))), (), seconds=0.0001))
    assert sizer.size(remaining=10**6, slots=2) == 200


def test_a_pool_worker_killed_mid_run_loses_nothing(tmp_path: Path, serial: list[SolveStatus]) -> None:
    killed: list[int] = []

    def kill_a_worker(_settled: int) -> None:
        if not killed:
            victim = multiprocessing.active_children()[0]
            killed.append(victim.pid or 0)
            os.kill(victim.pid or 0, signal.SIGKILL)

    backend = PoolBackend(2)
    try:
        with Census(tmp_path / "c.db") as census:
            run = solve_into(census, backend, ONE_CELL, SMALL, range(1, 41), progress=kill_a_worker)
    finally:
        backend.close()
    assert killed and killed[0] not in [child.pid for child in multiprocessing.active_children()]
    assert run.failures == [] and run.stored == 40
    records = assert_complete_and_sound(tmp_path / "c.db", "standard", 1, 1, 40)
    assert [r.verdict for r in records] == serial


def test_parse_limit_and_range() -> None:
    assert parse_limit("10s") == SearchLimit(seconds=10.0)
    assert parse_limit("500ms, 2000k, 2GB") == SearchLimit(0.5, 2_000_000, 2000)
    assert parse_limit("2000") == SearchLimit(positions=2000)
    assert parse_limit("1min,300MB") == SearchLimit(seconds=60.0, memory_mb=300)
    assert parse_range("7") == (7, 7) and parse_range(" 1 - 60 ") == (1, 60)
    for bad in ("ten seconds", "10x", "0s", ""):
        with pytest.raises(ValueError, match="not a limit"):
            parse_limit(bad)
    with pytest.raises(ValueError, match="START-END"):
        parse_range("1..5")


def test_range_on_the_pool_stores_every_verdict_and_retries_the_limited(
    tmp_path: Path, serial: list[SolveStatus]
) -> None:
    db, table = tmp_path / "census.db", tmp_path / "deals.csv"
    runner = CliRunner()
    args = ["range", "1-40", "--cells", "1", "--limit", "2000", "--jobs", "2", "--db", str(db)]
    result = runner.invoke(main, [*args, "--csv", str(table)])
    assert result.exit_code == 4, result.output  # some deals reach so small a limit
    records = assert_complete_and_sound(db, "standard", 1, 1, 40)
    assert [r.verdict for r in records] == serial
    assert {r.verdict for r in records} == set(SolveStatus)
    counts = {v: sum(r.verdict is v for r in records) for v in SolveStatus}
    assert (f"40 deals, {counts[SolveStatus.SOLVED]} solved, {counts[SolveStatus.UNSOLVABLE]} unsolvable, "
            f"{counts[SolveStatus.LIMIT_REACHED]} limit reached") in result.output
    with table.open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(row["deal"]) for row in rows] == list(range(1, 41))
    assert [row["verdict"] for row in rows] == [verdict_text(r.verdict) for r in records]
    assert all(row["solution"].split() == list(r.solution) for row, r in zip(rows, records, strict=True))

    again = runner.invoke(main, args)
    assert again.exit_code == 4 and "40 already stored, 0 to solve" in again.output
    assert stored(db) == records

    limited = [r.deal for r in records if r.verdict is SolveStatus.LIMIT_REACHED]
    retry = runner.invoke(main, ["range", "1-40", "--cells", "1", "--limit", "20k", "--jobs", "2",
                                 "--db", str(db), "--retry-limited"])
    assert f"{len(limited)} stored as limit reached, to solve again" in retry.output
    after = assert_complete_and_sound(db, "standard", 1, 1, 40)
    assert [r for r in after if r.deal not in limited] == [r for r in records if r.deal not in limited]
    assert all(r.limit == SearchLimit(positions=20000) for r in after if r.deal in limited)
    assert any(r.decided for r in after if r.deal in limited)  # deal 5 is solved with more room
    assert retry.exit_code == (0 if all(r.decided for r in after) else 4)


def test_range_exits_0_when_every_deal_is_decided(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["range", "1-6", "--jobs", "1", "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 0, result.output
    assert "6 deals, 6 solved, 0 unsolvable, 0 limit reached" in result.output
    assert re.search(r"length: p50 \d+, p90 \d+, p99 \d+, max \d+", result.output)
    assert_complete_and_sound(tmp_path / "c.db", "standard", 4, 1, 6)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["9-3"], "not 9-3"),
        (["1-5", "--limit", "soon"], "not a limit"),
        (["1-5", "--jobs", "0"], "--jobs must be at least 1"),
        (["1-5", "--rules", "klondike"], "no ruleset is called 'klondike'"),
        (["1-5", "--scheduler", "local:many"], "local:N needs a number of workers"),
        (["1-5", "--scheduler", "local:2", "--jobs", "2"], "--jobs sizes the local pool"),
    ],
)
def test_bad_input_is_refused_clearly(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["range", *args, "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "c.db").exists() or stored(tmp_path / "c.db") == []


def test_a_file_that_is_not_a_store_is_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not sqlite at all\n" * 100)
    result = CliRunner().invoke(main, ["range", "1-3", "--db", str(notes)])
    assert result.exit_code == 2 and "not a census store" in result.output
    assert notes.read_text() == "not sqlite at all\n" * 100


def stored_count(db: Path) -> int:
    if not db.exists():
        return 0
    connection = sqlite3.connect(db, timeout=10)
    try:
        return int(connection.execute("SELECT count(*) FROM results").fetchone()[0])
    except sqlite3.OperationalError:  # the table is not created yet
        return 0
    finally:
        connection.close()


def test_a_killed_run_restarts_where_it_stopped(tmp_path: Path) -> None:
    db = tmp_path / "census.db"
    command = [sys.executable, "-m", "freecell", "range", "1-160", "--cells", "1", "--limit", "2000",
               "--jobs", "2", "--db", str(db)]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 120
    while stored_count(db) < 10 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    os.killpg(run.pid, signal.SIGKILL)  # the whole run: the parent and its pool
    run.communicate()
    assert run.returncode == -signal.SIGKILL
    at_kill = stored_count(db)
    assert 10 <= at_kill < 160, "the run must be killed in the middle"

    restart = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert f"{at_kill} already stored, {160 - at_kill} to solve" in restart.stderr
    assert restart.returncode == 4, restart.stderr  # some deals reach so small a limit
    records = assert_complete_and_sound(db, "standard", 1, 1, 160)
    expected = {n: solve_deal(ONE_CELL, n, SMALL) for n in (1, 2, 5, 12, 159, 160)}
    assert {r.deal: r.verdict for r in records if r.deal in expected} == {
        n: e.verdict for n, e in expected.items() if isinstance(e, DealRecord)
    }


def test_jobs_are_capped_at_the_cores_and_the_deals(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--jobs 1000 started 41 processes for 40 deals."""
    asked: list[int | None] = []
    real_open_backend = freecell.cli.range_commands.open_backend

    def spy(*, jobs: int | None = None, scheduler: str | None = None) -> freecell.batch.Backend:
        asked.append(jobs)
        return real_open_backend(jobs=jobs, scheduler=scheduler)

    monkeypatch.setattr(freecell.cli.range_commands, "open_backend", spy)
    db = str(tmp_path / "c.db")
    many = CliRunner().invoke(main, ["range", "1-3", "--jobs", "1000", "--db", db])
    assert many.exit_code == 0, many.output
    assert asked == [min(3, available_cores())]
    assert f"--jobs 1000 capped to {asked[0]}" in many.stderr
    default = CliRunner().invoke(main, ["range", "4", "--db", db])
    assert default.exit_code == 0 and asked[1] == 1 and "capped" not in default.stderr
    assert "never more than the cores" in CliRunner().invoke(main, ["range", "--help"]).output


def _session_members(session: int) -> list[int]:
    """The processes still alive (not zombies) in ``session``, read from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # it went while we looked
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[3]) == session:
            members.append(int(entry.name))
    return members


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_the_pool_goes_when_range_is_killed(tmp_path: Path) -> None:
    """kill -9 of range left two workers and the resource tracker alive a minute later."""
    db = tmp_path / "census.db"
    command = [sys.executable, "-m", "freecell", "range", "1-2000", "--cells", "1", "--limit", "2000",
               "--jobs", "2", "--db", str(db)]
    run = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while stored_count(db) < 5 and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert run.poll() is None and len(_session_members(run.pid)) >= 3, "the pool must be solving"
        os.kill(run.pid, signal.SIGKILL)  # the parent only, as kill -9 <pid> does
        run.wait()
        deadline = time.monotonic() + 20
        while _session_members(run.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _session_members(run.pid) == []
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
