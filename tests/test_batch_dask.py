"""Range solving on a real Dask ``LocalCluster`` of two worker processes: the same verdicts
as the local pool, and a worker killed in the middle of a run loses nothing."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from dask.distributed import Client, LocalCluster

from freecell.batch import DaskBackend, check_record, plan_range, solve_into
from freecell.census import Census, DealRecord
from freecell.cli import main
from freecell.rules import find_rules
from freecell.solver import SearchLimit

# One cell and a budget in positions: all three verdicts, the same on every run.
ONE_CELL = find_rules("standard", cells=1)
SMALL = SearchLimit(positions=2000)
FIRST, LAST = 1, 60
RANGE_ARGS = [f"{FIRST}-{LAST}", "--cells", "1", "--limit", "2000"]


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Any, Any]]:
    """One cluster for the module: Dask takes seconds to start."""
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address="127.0.0.1:0"
        ) as local,
        Client(local) as client,
    ):
        yield local, client


@pytest.fixture(scope="module")
def pool_records(tmp_path_factory: pytest.TempPathFactory) -> list[DealRecord]:
    """The range as the local pool solves it, to compare the cluster with."""
    db = tmp_path_factory.mktemp("pool") / "census.db"
    result = CliRunner().invoke(main, ["range", *RANGE_ARGS, "--jobs", "2", "--db", str(db)])
    assert result.exit_code == 4, result.output  # a positions budget this small leaves some at the limit
    return checked(db)


def checked(db: Path) -> list[DealRecord]:
    """The stored range, each deal once, every solution replayed to a win."""
    with Census(db) as census:
        records = list(census.records())
    assert [r.deal for r in records] == list(range(FIRST, LAST + 1))
    for record in records:
        check_record(record, ONE_CELL)
    return records


def verdicts(records: list[DealRecord]) -> list[tuple[int, str, int | None]]:
    return [(r.deal, r.verdict.value, r.length) for r in records]


def test_the_cluster_gives_the_verdicts_of_the_local_pool(
    cluster: tuple[Any, Any], pool_records: list[DealRecord], tmp_path: Path
) -> None:
    local, _ = cluster
    db = tmp_path / "census.db"
    result = CliRunner().invoke(main, ["range", *RANGE_ARGS, "--scheduler", local.scheduler_address, "--db", str(db)])
    assert result.exit_code == 4, result.output
    assert verdicts(checked(db)) == verdicts(pool_records)
    assert {r.verdict for r in pool_records} == {r.verdict for r in checked(db)}
    assert len({r.verdict for r in pool_records}) == 3


def test_a_worker_killed_mid_run_loses_nothing(
    cluster: tuple[Any, Any], pool_records: list[DealRecord], tmp_path: Path
) -> None:
    local, client = cluster
    before = client.run(os.getpid)
    killed: list[tuple[str, int]] = []

    def kill_a_busy_worker(_settled: int) -> None:
        """At the first chunk back while a worker has chunks: the first chunks are small,
        and all of them may be back before the first is stored (the later ones are
        larger: see ChunkSizer)."""
        if killed:
            return
        busy = {worker: keys for worker, keys in client.processing().items() if keys}
        if not busy:
            return
        victim = max(busy, key=lambda worker: len(busy[worker]))
        killed.append((victim, len(busy[victim])))
        os.kill(before[victim], signal.SIGKILL)  # a real kill, not a polite shutdown

    backend = DaskBackend(local.scheduler_address)
    try:
        with Census(tmp_path / "census.db") as census:
            todo = plan_range(census, ONE_CELL, FIRST, LAST)
            run = solve_into(census, backend, ONE_CELL, SMALL, todo, progress=kill_a_busy_worker)
            assert list(plan_range(census, ONE_CELL, FIRST, LAST)) == []
    finally:
        backend.close()
    assert killed and killed[0][1] >= 1, "no worker was busy when a chunk came back"  # it had work in flight
    assert run.failures == [] and run.stored == LAST - FIRST + 1
    assert verdicts(checked(tmp_path / "census.db")) == verdicts(pool_records)
    client.wait_for_workers(2, timeout=60)
    after = client.run(os.getpid)
    assert before[killed[0][0]] not in after.values()  # that worker process is gone for good


def test_scheduler_local_starts_its_own_cluster(tmp_path: Path) -> None:
    db = tmp_path / "census.db"
    result = CliRunner().invoke(main, ["range", "1-8", "--scheduler", "local:2", "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "8 deals, 8 solved, 0 unsolvable, 0 limit reached" in result.output
    with Census(db) as census:
        records = list(census.records())
    assert [r.deal for r in records] == list(range(1, 9))
    for record in records:
        check_record(record, find_rules("standard"))
