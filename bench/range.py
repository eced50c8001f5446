"""Range-solving throughput: deals per second on the local pool with 1 and 2 workers and on
a Dask LocalCluster of 2 workers, the scaling from 1 worker to 2, the store's size per
million deals, and what a census of 1,000,000 deals would take at the best speed measured.

    python bench/range.py [START-END] [--rules R] [--cells C] [--limit L]

Each run solves the whole range into a fresh census store. Times exclude starting the
workers (reported apart) and include storing every result.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from freecell.batch import Backend, Chunk, DaskBackend, PoolBackend, plan_range, solve_into
from freecell.census import Census
from freecell.cli.range_commands import parse_limit, parse_range
from freecell.report import Summary, format_seconds
from freecell.rules import find_rules
from freecell.solver import SolveStatus


def measure(
    name: str, make: Callable[[], Backend], workers: int, args: argparse.Namespace, workdir: Path
) -> tuple[float, int]:
    """Solve the range on a fresh store; print and return deals per second and the store's bytes."""
    rules = find_rules(args.rules, cells=args.cells)
    first, last = parse_range(args.range)
    budget = parse_limit(args.limit)
    db = workdir / f"{name.replace(' ', '-')}.db"
    started = time.perf_counter()
    backend = make()
    if isinstance(backend, DaskBackend):
        backend.client.wait_for_workers(workers)
    for _ in range(workers):  # start the pool's processes before the clock starts
        backend.submit(Chunk(rules, budget, ()))
    for _ in range(workers):
        backend.next_result()
    start_up = time.perf_counter() - started
    load_before = os.getloadavg()[0]
    try:
        with Census(db) as census:
            todo = plan_range(census, rules, first, last)
            began = time.perf_counter()
            run = solve_into(census, backend, rules, budget, todo)
            seconds = time.perf_counter() - began
            records = list(census.records())
    finally:
        backend.close()
    summary = Summary.of(records)
    rate = len(todo) / seconds
    # The share of the workers' wall time spent inside solve(): what the pipeline (chunks,
    # pickling, the store) leaves to the solver. It does not see other programs on the CPU;
    # the load average does.
    busy = sum(r.seconds for r in records) / (seconds * workers)
    print(f"{name:<24} {len(todo)} deals in {seconds:7.2f} s = {rate:8.1f} deals/s "
          f"(start-up {start_up:.1f} s; {summary.counts[SolveStatus.SOLVED]} solved, "
          f"{summary.counts[SolveStatus.UNSOLVABLE]} unsolvable, "
          f"{summary.counts[SolveStatus.LIMIT_REACHED]} at the limit, "
          f"{len(run.failures)} failures)")
    print(f"{'':<24} workers in solve() {busy:.0%} of the time; median solve {format_seconds(summary.seconds[50])}; "
          f"load average {load_before:.1f} -> {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    return rate, db.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("range", nargs="?", default="1-2000")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--cells", type=int, default=None)
    parser.add_argument("--limit", default="10s,1000MB")
    parser.add_argument("--skip-cluster", action="store_true", help="Measure the local pool only.")
    args = parser.parse_args()
    first, last = parse_range(args.range)
    deals = last - first + 1
    print(f"deals {first}-{last}, {args.rules}, limit {parse_limit(args.limit)}")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        one, size = measure("pool, 1 worker", lambda: PoolBackend(1), 1, args, workdir)
        two, _ = measure("pool, 2 workers", lambda: PoolBackend(2), 2, args, workdir)
        best = max(one, two)
        if not args.skip_cluster:
            cluster, _ = measure("LocalCluster, 2 workers", lambda: DaskBackend("local:2"), 2, args, workdir)
            print(f"cluster / pool with 2 workers: {cluster / two:.2f}")
            best = max(best, cluster)
    print(f"scaling from 1 worker to 2: {two / one:.2f}x")
    print(f"store: {size / deals:.0f} bytes a deal, so {size / deals:.0f} MB per million deals")
    hours = 1_000_000 / best / 3600
    print(f"a census of 1,000,000 deals at {best:.1f} deals/s: {hours:.1f} hours")


if __name__ == "__main__":
    main()
