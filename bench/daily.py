"""The daily deal over many days: how many candidates each day tries, the grade's spread,
the measures it is made from, and what choosing a day costs.

    python bench/daily.py                          # 300 days from 2027-01-01, every preset
    python bench/daily.py --days 100 --rules standard,double
    python bench/daily.py --start 2026-12-01 --limit 50000
    python bench/daily.py --pyodide --days 60 --rules standard,bakers-game,double

Each day is chosen as the page's first open chooses it (``freecell.daily.daily_deal``,
in this process, each solve forgetting the others' losses). Run it with
``FREECELL_PURE_PYTHON=1`` for the sources' speed (what Pyodide runs, several times
slower again), or with ``--pyodide`` under the static site's Pyodide in Node (a site is
built first, and ``bench/daily_pyodide.mjs`` chooses the days: the limit is the
library's then). The deals and grades are the same every way, which the last line checks
against a hash of every day's deal and grade. ``docs/daily.md`` records the figures.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import shutil
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from freecell.advisor import Difficulty
from freecell.daily import DAILY_LIMIT, daily_deal
from freecell.notation import parse_move_text
from freecell.rules import PRESETS, find_rules
from freecell.solver import SearchLimit
from freecell.solver.native import search_path


def quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@dataclass(frozen=True)
class Day:
    rules: str
    day: datetime.date
    deal: int
    difficulty: str
    tries: int
    expanded: int
    length: int
    seconds: float


def here(names: list[str], start: datetime.date, days: int, limit: SearchLimit) -> Iterator[Day]:
    """Each day chosen in this process."""
    for name in names:
        rules = find_rules(name)
        for offset in range(days):
            day = start + datetime.timedelta(days=offset)
            began = time.perf_counter()
            chosen = daily_deal(day, rules, limit=limit)
            seconds = time.perf_counter() - began
            length = sum(1 for text in chosen.line if not parse_move_text(text).to_foundation)
            yield Day(
                name, day, chosen.deal.number, chosen.difficulty.value, chosen.tries, chosen.expanded, length, seconds
            )


def under_pyodide(names: list[str], start: datetime.date, days: int) -> Iterator[Day]:
    """Each day chosen under Pyodide in Node, from a site built for it."""
    from freecell.site import build_site, fetch_runtime

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise SystemExit("--pyodide needs Node (scripts/setup --dev installs Debian's nodejs)")
    with tempfile.TemporaryDirectory() as folder:
        build_site(Path(folder) / "site", pyodide=fetch_runtime())
        script = Path(__file__).with_name("daily_pyodide.mjs")
        command = [node, str(script), str(Path(folder) / "site"), start.isoformat(), str(days), ",".join(names)]
        with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
            assert process.stdout is not None
            for line in process.stdout:
                if line.startswith("{"):
                    found = json.loads(line)
                    found["day"] = datetime.date.fromisoformat(found["day"])
                    yield Day(**found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=300)
    parser.add_argument("--start", default="2027-01-01")
    parser.add_argument("--rules", default=",".join(PRESETS))
    parser.add_argument("--limit", type=int, default=DAILY_LIMIT.positions)
    parser.add_argument("--pyodide", action="store_true", help="under the static site's Pyodide, in Node")
    options = parser.parse_args()
    start = datetime.date.fromisoformat(options.start)
    names = options.rules.split(",")
    build = "Pyodide" if options.pyodide else "compiled" if search_path() else "pure Python"
    print(f"{options.days} days from {start}, limit {options.limit:,} positions, {build}")
    chosen = (
        under_pyodide(names, start, options.days)
        if options.pyodide
        else here(names, start, options.days, SearchLimit(positions=options.limit))
    )
    by_rules: dict[str, list[Day]] = {}
    everything = hashlib.sha256()
    for day in chosen:
        by_rules.setdefault(day.rules, []).append(day)
        everything.update(f"{day.rules} {day.day} {day.deal} {day.difficulty}\n".encode())
    for name, days in by_rules.items():
        grades = Counter(day.difficulty for day in days)
        seconds = [day.seconds for day in days]
        expanded = [float(day.expanded) for day in days]
        lengths = [float(day.length) for day in days]
        spread = " ".join(f"{grade.value} {grades[grade.value]}" for grade in Difficulty)
        print(
            f"{name:12} {spread} | tries mean {statistics.mean(day.tries for day in days):.2f}"
            f" max {max(day.tries for day in days)}"
            f" | expanded median {statistics.median(expanded):.0f} p90 {quantile(expanded, 0.9):.0f}"
            f" | length median {statistics.median(lengths):.0f} p90 {quantile(lengths, 0.9):.0f}"
            f" | seconds median {statistics.median(seconds):.3f} p90 {quantile(seconds, 0.9):.3f}"
            f" max {max(seconds):.3f}"
        )
    print(f"hash of every day's deal and grade: {everything.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
