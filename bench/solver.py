"""Solver figures for a range of deals, beside Freecell Solver's ``-l lg`` when installed.

    python bench/solver.py --rules standard --deals 1-1000 [--short] [--limit 60s]

Prints how many deals were solved, proven unsolvable or left at the limit; the time per
deal (``time.perf_counter`` around ``solve()``, in this process); positions expanded;
and the solution length in moves that do not go to a foundation (a run moved as one
counts 1), with ``--short`` a second pass that asks for short solutions. When
``fc-solve`` is on the PATH and the rules are ones it plays (FreeCell, Baker's Game),
it runs ``fc-solve -l lg -m -snx`` on the same boards and the ratios are printed. Its
time includes starting a process for each deal, so compare its positions, not its time.
"""

from __future__ import annotations

import argparse
import csv
import math
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass

from freecell import Deal, find_rules
from freecell.notation import split_moves
from freecell.rules import Building, Rules, SequenceMoves
from freecell.solver import SearchLimit, SolveStatus, native, solve

_STATES = re.compile(r"Total number of states checked is (\d+)")


@dataclass(frozen=True)
class Row:
    deal: int
    status: str
    seconds: float
    cpu: float
    expanded: int
    length: int


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(math.ceil(fraction * len(ordered)) - 1, 0)]


def parse_deals(text: str) -> list[int]:
    numbers: list[int] = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        numbers.extend(range(int(first), int(last or first) + 1))
    return numbers


def run_ours(rules: Rules, deals: list[int], limit: SearchLimit, *, short: bool) -> list[Row]:
    rows = []
    for number in deals:
        position = Deal(rules, number).position()
        started, cpu = time.perf_counter(), time.process_time()
        result = solve(position, rules, limit=limit, short=short)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        rows.append(Row(number, result.status.value, seconds, cpu, result.expanded, result.non_foundation_moves))
    return rows


def fc_solve_arguments(rules: Rules) -> list[str] | None:
    """fc-solve's options for ``rules``, or None when it does not play them."""
    if rules.decks != 1 or rules.takes_back or rules.columns != 8 or rules.dealt_to_cells:
        return None
    if rules.sequence_moves is SequenceMoves.UNLIMITED:
        return None
    game = "freecell" if rules.building is Building.ALTERNATE_COLOURS else "bakers_game"
    return ["--game", game, "--freecells-num", str(rules.cells)]


def run_fc_solve(rules: Rules, deals: list[int], arguments: list[str]) -> list[Row]:
    rows = []
    for number in deals:
        board = Deal(rules, number).position().to_text()
        started = time.perf_counter()
        done = subprocess.run(
            ["fc-solve", *arguments, "-l", "lg", "-m", "-snx"],
            input=board, capture_output=True, text=True, check=False,
            env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin:/bin"},
        )
        seconds = time.perf_counter() - started
        match = _STATES.search(done.stdout)
        solved = "This game is solveable" in done.stdout
        moves = split_moves(done.stdout) if solved else []
        length = sum(1 for move in moves if not (len(move) == 2 and move[1] == "h"))
        status = "solved" if solved else "unsolved"
        rows.append(Row(number, status, seconds, 0.0, int(match[1]) if match else 0, length))
    return rows


def summary(label: str, rows: list[Row], *, short_rows: list[Row] | None = None) -> dict[str, float]:
    counts = Counter(row.status for row in rows)
    ms = [row.seconds * 1000 for row in rows]
    expanded = [float(row.expanded) for row in rows]
    lengths = [row.length for row in rows if row.status == "solved"]
    print(f"{label:<9} " + "  ".join(f"{status} {n}" for status, n in sorted(counts.items())))
    print(
        f"{label:<9} time per deal (ms): median {percentile(ms, 0.5):.2f}  p90 {percentile(ms, 0.9):.2f}"
        f"  p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  total {sum(ms) / 1000:.1f} s"
    )
    if any(row.cpu for row in rows):
        # The machine may be shared: the process's own CPU time shows the cost without
        # the waiting.
        cpu = [row.cpu * 1000 for row in rows]
        print(
            f"{label:<9} CPU time per deal (ms): median {percentile(cpu, 0.5):.2f}  p90 {percentile(cpu, 0.9):.2f}"
            f"  p99 {percentile(cpu, 0.99):.1f}  max {max(cpu):.1f}  total {sum(cpu) / 1000:.1f} s"
        )
    print(
        f"{label:<9} positions expanded: median {percentile(expanded, 0.5):.0f}  mean {statistics.mean(expanded):.0f}"
        f"  p99 {percentile(expanded, 0.99):.0f}  max {max(expanded):.0f}"
    )
    figures = {
        "time": percentile(ms, 0.5),
        "expanded": percentile(expanded, 0.5),
        "length": statistics.mean(lengths) if lengths else 0.0,
    }
    line = f"{label:<9} solution length (non-foundation moves): mean {figures['length']:.1f}"
    if short_rows is not None:
        short_lengths = [row.length for row in short_rows if row.status == "solved"]
        short_ms = [row.seconds * 1000 for row in short_rows]
        figures["short"] = statistics.mean(short_lengths) if short_lengths else 0.0
        line += (
            f"; with --short: mean {figures['short']:.1f} (time median {percentile(short_ms, 0.5):.1f} ms,"
            f" max {max(short_ms):.0f} ms)"
        )
    print(line)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--cells", type=int, default=None)
    parser.add_argument("--deals", default="1-1000", help="a range and/or list: 1-1000 or 1-10,11982")
    parser.add_argument("--limit", default="60s", help="budget per deal, as for freecell solve --limit")
    parser.add_argument("--short", action="store_true", help="also solve every deal with short=True")
    parser.add_argument("--no-fc-solve", action="store_true", help="do not run fc-solve")
    parser.add_argument("--slowest", type=int, default=5, help="list this many of the slowest deals")
    parser.add_argument("--csv", default=None, help="also write one row per deal (ours) to this file")
    options = parser.parse_args()
    rules = find_rules(options.rules, cells=options.cells)
    deals = parse_deals(options.deals)
    limit = SearchLimit.from_text(options.limit)
    print(
        f"{rules.name} ({rules.cells} cells), {len(deals)} deals ({options.deals}), limit {options.limit} per deal; "
        f"solver {'compiled' if native.in_use() else 'pure Python'}"
    )

    ours = run_ours(rules, deals, limit, short=False)
    short_rows = run_ours(rules, deals, limit, short=True) if options.short else None
    mine = summary("ours", ours, short_rows=short_rows)
    if options.csv:
        with open(options.csv, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["deal", "status", "seconds", "cpu_seconds", "expanded", "non_foundation_moves"])
            writer.writerows(
                [row.deal, row.status, f"{row.seconds:.6f}", f"{row.cpu:.6f}", row.expanded, row.length] for row in ours
            )
    slowest = sorted(ours, key=lambda row: row.seconds, reverse=True)[: options.slowest]
    print("ours      slowest: " + ", ".join(
        f"{row.deal} {row.status} {row.seconds * 1000:.0f} ms {row.expanded} pos" for row in slowest
    ))
    undecided = [row.deal for row in ours if row.status == SolveStatus.LIMIT_REACHED.value]
    unsolvable = [row.deal for row in ours if row.status == SolveStatus.UNSOLVABLE.value]
    if unsolvable:
        print(f"ours      proven unsolvable: {', '.join(map(str, unsolvable[:50]))}")
    if undecided:
        print(f"ours      left at the limit: {', '.join(map(str, undecided[:50]))}")

    arguments = fc_solve_arguments(rules)
    if options.no_fc_solve or arguments is None or shutil.which("fc-solve") is None:
        return
    theirs = summary("fc-solve", run_fc_solve(rules, deals, arguments))
    print(
        f"ratios    ours / fc-solve -l lg: positions expanded (median) {mine['expanded'] / theirs['expanded']:.2f}"
        f"  length (mean) {mine['length'] / theirs['length']:.2f}"
        + (f"  length with --short {mine['short'] / theirs['length']:.2f}" if "short" in mine else "")
        + f"  time (median, theirs with process start) {mine['time'] / theirs['time']:.2f}"
    )


if __name__ == "__main__":
    sys.exit(main())
