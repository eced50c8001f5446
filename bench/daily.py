"""The daily deal over many days: how many candidates each day tries, the grade's spread,
the measures it is made from, and what choosing a day costs.

    python bench/daily.py                          # 300 days from 2027-01-01, every preset
    python bench/daily.py --days 100 --rules standard,double
    python bench/daily.py --start 2026-12-01 --limit 50000

Each day is chosen as the page's first open chooses it (``freecell.daily.daily_deal``,
in this process, each solve forgetting the others' losses). Run it with
``FREECELL_PURE_PYTHON=1`` for the sources' speed (what Pyodide runs, several times
slower again); the deals and grades are the same either way, which the last line checks
against a hash of every day's deal and grade. ``docs/daily.md`` records the figures.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import statistics
import time
from collections import Counter

from freecell.advisor import Difficulty
from freecell.daily import DAILY_LIMIT, daily_deal
from freecell.notation import parse_move_text
from freecell.rules import PRESETS, find_rules
from freecell.solver import SearchLimit
from freecell.solver.native import search_path


def quantile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=300)
    parser.add_argument("--start", default="2027-01-01")
    parser.add_argument("--rules", default=",".join(PRESETS))
    parser.add_argument("--limit", type=int, default=DAILY_LIMIT.positions)
    options = parser.parse_args()
    start = datetime.date.fromisoformat(options.start)
    limit = SearchLimit(positions=options.limit)
    build = "compiled" if search_path() else "pure Python"
    print(f"{options.days} days from {start}, limit {options.limit:,} positions, {build}")
    everything = hashlib.sha256()
    for name in options.rules.split(","):
        rules = find_rules(name)
        grades: Counter[Difficulty] = Counter()
        seconds, tries, expanded, lengths = [], [], [], []
        for offset in range(options.days):
            day = start + datetime.timedelta(days=offset)
            began = time.perf_counter()
            chosen = daily_deal(day, rules, limit=limit)
            seconds.append(time.perf_counter() - began)
            grades[chosen.difficulty] += 1
            tries.append(chosen.tries)
            expanded.append(chosen.expanded)
            lengths.append(sum(1 for text in chosen.line if not parse_move_text(text).to_foundation))
            everything.update(f"{name} {day} {chosen.deal.number} {chosen.difficulty.value}\n".encode())
        spread = " ".join(f"{grade.value} {grades[grade]}" for grade in Difficulty)
        print(
            f"{name:12} {spread} | tries mean {statistics.mean(tries):.2f} max {max(tries)}"
            f" | expanded median {statistics.median(expanded):.0f} p90 {quantile(expanded, 0.9):.0f}"
            f" | length median {statistics.median(lengths):.0f} p90 {quantile(lengths, 0.9):.0f}"
            f" | seconds median {statistics.median(seconds):.3f} p90 {quantile(seconds, 0.9):.3f}"
            f" max {max(seconds):.3f}"
        )
    print(f"hash of every day's deal and grade: {everything.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
