"""``freecell range`` (solve a range of deals into a census store) and ``freecell report``
(summarise a store, with plots)."""

from __future__ import annotations

import re
import sqlite3
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TextIO

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from freecell.batch import (
    Deals,
    RangeRun,
    available_cores,
    check_range,
    local_workers,
    open_backend,
    plan_range,
    pool_size,
    solve_into,
)
from freecell.census import Census, CensusError, describe_limit
from freecell.cli.options import fail, resolve_rules, rules_options
from freecell.deals import InvalidDealError, parse_deal_number
from freecell.report import Summary, can_plot, summaries, write_csv, write_json, write_report
from freecell.rules import Rules, cells_text
from freecell.solver import SearchLimit
from freecell.storage import StoreLostError

EXIT_FAILED = 1
EXIT_LIMIT_REACHED = 4
EXIT_INTERRUPTED = 130

_RANGE = re.compile(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?")


def parse_range(text: str) -> tuple[int, int]:
    """``START-END`` (or one deal ``N``) as the first and last deal.

    >>> parse_range("1-32000")
    (1, 32000)
    """
    match = _RANGE.fullmatch(text)
    if match is None:
        raise ValueError(f"a range is START-END, such as 1-1000, not {text!r}")
    first = parse_deal_number(match.group(1))
    last = parse_deal_number(match.group(2) or match.group(1))
    return first, last


def parse_limit(text: str) -> SearchLimit:
    """A limit per deal, read as ``solve --limit`` reads it (:meth:`SearchLimit.from_text`).

    >>> parse_limit("10s,200k,1GB")
    SearchLimit(seconds=10.0, positions=200000, memory_mb=1000)
    """
    return SearchLimit.from_text(text)


class _SpeedColumn(ProgressColumn):
    """Deals per second, as Rich measures them over the last half-minute."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:,.1f} deals/s", style="progress.data.speed")


@click.command("range")
@click.argument("deals", metavar="START-END")
@rules_options
@click.option("--limit", "limit_text", default="10s,1000MB", show_default=True,
              help="Budget per deal: a time (10s), positions (200k), memory (500MB), or several, comma-separated.")
@click.option("--jobs", type=int, default=None,
              help="Worker processes of the local pool [default: one per core; never more than the cores, "
                   "nor than the deals to solve].")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=Path("census.db"),
              show_default=True, help="The SQLite store that results go into, and that a rerun goes on from.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write one row per deal of the range to this CSV file.")
@click.option("--scheduler", default=None, metavar="ADDRESS|local:N",
              help="Solve on the Dask cluster at this scheduler address, or on a local cluster of N workers.")
@click.option("--retry-limited", is_flag=True,
              help="Solve again only the deals stored as having reached their limit (give a larger --limit).")
def range_command(
    deals: str, rules_name: str, cells: int | None, limit_text: str, jobs: int | None, db_path: Path,
    csv_path: Path | None, scheduler: str | None, retry_limited: bool,
) -> None:
    """Solve deals START to END, storing each result as it arrives.

    Every solution is replayed through the rules engine before it is stored. Run the same
    command again after an interruption and it goes on where it stopped. Exit status: 0
    when every deal is solved or proven unsolvable, 4 when some reached the limit, 1 when
    some could not be decided because of an error, 2 for bad input.
    """
    rules = resolve_rules(rules_name, cells)
    try:
        first, last = parse_range(deals)
        limit = parse_limit(limit_text)
    except ValueError as error:
        fail(str(error))
    if jobs is not None and jobs < 1:
        fail(f"--jobs must be at least 1, not {jobs}")
    if jobs is not None and scheduler:
        fail("--jobs sizes the local pool; with --scheduler the cluster's workers do the work")
    try:  # checked before the store is opened, so that a refused range leaves no file behind
        check_range(rules, first, last)
    except (ValueError, InvalidDealError) as error:
        fail(str(error))
    if scheduler is not None and scheduler.startswith("local:"):
        try:
            local_workers(scheduler)
        except ValueError as error:
            fail(str(error))
    census = _open(db_path)
    with census:
        try:
            todo = plan_range(census, rules, first, last, retry_limited=retry_limited)
        except (ValueError, InvalidDealError) as error:
            fail(str(error))
        count = last - first + 1
        if retry_limited:
            plan = f"{len(todo)} stored as limit reached, to solve again"
        else:
            plan = f"{count - len(todo)} already stored, {len(todo)} to solve"
        plan = f"deals {first}-{last} ({rules.name}, {cells_text(rules.cells)}): {plan}, limit {describe_limit(limit)}"
        if len(todo):
            run = _solve(census, rules, limit, todo, jobs=jobs, scheduler=scheduler, plan=plan)
        else:
            click.echo(plan, err=True)
            run = RangeRun()
        select = partial(census.records, rules=rules.name, cells=rules.cells, first=first, last=last)
        records = list(select(solutions=False))
        for failure in run.failures:
            click.echo(f"freecell: deal {failure.deal} not decided: {failure.message}", err=True)
        if records:
            for line in Summary.of(records).lines():
                click.echo(line)
        if csv_path is not None:
            _write(csv_path, lambda out: write_csv(select(), out))
    if run.failures or len(records) < count:
        sys.exit(EXIT_FAILED)
    if any(not r.decided for r in records):
        sys.exit(EXIT_LIMIT_REACHED)


def _open(path: Path, *, readonly: bool = False) -> Census:
    try:
        return Census(path, readonly=readonly)
    except CensusError as error:
        fail(str(error))
        raise AssertionError from error


def _solve(
    census: Census, rules: Rules, limit: SearchLimit, todo: Deals, *, jobs: int | None, scheduler: str | None, plan: str
) -> RangeRun:
    """Solve ``todo`` on the workers, showing progress; ``plan`` is said once they have
    started (so that workers that cannot start are the only line)."""
    capped = ""
    if not scheduler:
        size = pool_size(jobs, len(todo))
        if jobs is not None and size < jobs:
            why = f"{len(todo)} deals to solve" if size == len(todo) else f"{available_cores()} cores"
            capped = f"freecell: --jobs {jobs} capped to {size}: {why}"
        jobs = size
    try:
        backend = open_backend(jobs=jobs, scheduler=scheduler)
    except ImportError as error:
        fail(f"--scheduler needs Dask, which is not installed ({error}): pip install 'freecell[cluster]'")
        raise AssertionError from error
    except (ValueError, OSError) as error:
        fail(f"cannot start the workers: {error}")
        raise AssertionError from error
    click.echo(plan, err=True)
    if capped:
        click.echo(capped, err=True)
    progress = Progress(
        TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
        _SpeedColumn(), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
        console=Console(stderr=True), speed_estimate_period=60.0,
    )
    try:
        with progress:
            task = progress.add_task("solving", total=len(todo))
            return solve_into(census, backend, rules, limit, todo, progress=lambda n: progress.advance(task, n))
    except KeyboardInterrupt:
        click.echo(f"interrupted: {census.count()} deals are stored in {census.path}; "
                   "run the same command again to go on", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except StoreLostError as error:
        fail(str(error))
        raise AssertionError from error
    except (sqlite3.Error, OSError) as error:  # a full disk: what was committed is kept
        fail(f"cannot store results in {census.path} ({error}); {census.count()} deals are stored: "
             "free some disk space and run the same command again to go on")
        raise AssertionError from error
    finally:
        backend.close()


def _write(path: Path, writer: Callable[[TextIO], object]) -> None:
    try:
        with path.open("w", encoding="utf-8", newline="") as out:
            writer(out)
    except OSError as error:
        fail(f"cannot write {path}: {error.strerror}")


@click.command("report")
@click.argument("db_path", metavar="DB", type=click.Path(dir_okay=False, path_type=Path))
@rules_options
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write a self-contained HTML page with the tables and plots.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write one row per deal to this CSV file.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the summaries and every deal's result to this JSON file.")
@click.option("--all-rules", is_flag=True, help="Report every ruleset in the store, not only --rules.")
def report_command(
    db_path: Path, rules_name: str, cells: int | None, html_path: Path | None, csv_path: Path | None,
    json_path: Path | None, all_rules: bool,
) -> None:
    """Summarise the census store DB: counts by verdict, percentiles of time and length,
    the hardest and the unwinnable deals; optionally as HTML with plots, CSV and JSON."""
    if html_path is not None and not can_plot():
        fail("--html draws its plots with matplotlib, which is not installed: pip install 'freecell[cluster]'")
    if not db_path.is_file():
        fail(f"{db_path}: no such census store")
    rules = resolve_rules(rules_name, cells)
    with _open(db_path, readonly=True) as census:
        if all_rules:
            select = census.records
        else:
            select = partial(census.records, rules=rules.name, cells=rules.cells)
        records = list(select(solutions=False))
        if not records:
            which = "" if all_rules else f" for {rules.name} with {cells_text(rules.cells)}"
            fail(f"{db_path} holds no results{which}")
        found = summaries(records)
        for summary in found:
            for line in summary.lines():
                click.echo(line)
        if html_path is not None:
            try:
                write_report(records, html_path, title=f"FreeCell census: {db_path.name}")
            except OSError as error:
                fail(f"cannot write {html_path}: {error.strerror}")
            click.echo(f"wrote {html_path}", err=True)
        # The exports read the solutions row by row rather than hold millions in memory.
        if csv_path is not None:
            _write(csv_path, lambda out: write_csv(select(), out))
        if json_path is not None:
            _write(json_path, lambda out: write_json(found, select(), out))
