"""Figures for the solver in play: hint latency and the time to deal a winnable game.

Hint latency is measured as the server gets it: a request to the analysis service (the
solver in a worker process) until the answer is in the cache, with a cold cache, over the
start position and a mid-game position of each deal. Mid-game positions are reached by
following the solver's own winning line for a number of moves, so that they are positions
a player following hints would meet.

    python bench/advisor.py --deals 1-100
    python bench/advisor.py --deals 1-100 --winnable 10
"""

from __future__ import annotations

import argparse
import statistics
import time

from freecell.advisor import Advisor, winnable_deal
from freecell.deals import Deal
from freecell.rules import PRESETS, find_rules
from freecell.solver import SolveStatus, solve
from freecell.web.analysis import AnalysisWorkers


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def hint_latency(rules_name: str, first: int, last: int, depth: int) -> None:
    rules = find_rules(rules_name)
    positions = []
    for number in range(first, last + 1):
        start = Deal(rules, number).position()
        positions.append(start)
        line = solve(start, rules).moves
        position = start
        for text in line[:depth]:
            position = position.apply(position.parse_move(text, rules), rules)
        positions.append(position)
    service = AnalysisWorkers(Advisor())
    service.request("warm-up", Deal(rules, 1).position(), rules).wait(60)  # spawn the worker
    latencies = []
    verdicts: dict[str, int] = {}
    for i, position in enumerate(positions):
        # cold: nothing learnt from another position
        service.advisor = service.queue.advisor = Advisor(limit=service.advisor.limit)
        began = time.perf_counter()
        service.request(f"game{i}", position, rules).wait(120)
        latencies.append(time.perf_counter() - began)
        analysis = service.analysis(position, rules)
        verdict = analysis.verdict.value if analysis else "none"
        verdicts[verdict] = verdicts.get(verdict, 0) + 1
    service.close()
    ms = [1000 * t for t in latencies]
    print(
        f"{rules.name:<11} hint latency over {len(positions)} positions (deals {first}-{last}, start and "
        f"after {depth} moves): median {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
        f"max {max(ms):.0f} ms; verdicts {verdicts}"
    )


def winnable_deals(rules_name: str, count: int) -> None:
    rules = find_rules(rules_name)
    times = []
    tries = []
    grades: dict[str, int] = {}
    for _ in range(count):
        began = time.perf_counter()
        found = winnable_deal(rules)
        times.append(time.perf_counter() - began)
        tries.append(found.tries)
        assert found.analysis.verdict is SolveStatus.SOLVED
        grades[found.difficulty.value] = grades.get(found.difficulty.value, 0) + 1
    ms = [1000 * t for t in times]
    print(
        f"{rules.name:<11} winnable deal in {count} tries: median {statistics.median(ms):.0f} ms, "
        f"p95 {percentile(ms, 0.95):.0f} ms, max {max(ms):.0f} ms; deals drawn per win "
        f"{statistics.mean(tries):.2f}; grades {grades}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-100", help="range of deals for hint latency")
    parser.add_argument("--depth", type=int, default=20, help="moves into the game for the mid-game position")
    parser.add_argument("--rules", default="standard", help="preset for hint latency, or 'all'")
    parser.add_argument("--winnable", type=int, default=0, help="also time this many winnable deals per preset")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    names = list(PRESETS) if args.rules == "all" else [args.rules]
    for name in names:
        hint_latency(name, int(first), int(last or first), args.depth)
    if args.winnable:
        for name in PRESETS:
            winnable_deals(name, args.winnable)


if __name__ == "__main__":
    main()
