"""The solver's speed beside Freecell Solver's fastest preset: whole processes, and per deal.

    python bench/speed.py                        # deals 1-300, 5 rounds, compiled and pure
    python bench/speed.py --rounds 9 --build compiled
    PYTHONPATH=/tmp/other/src python bench/speed.py   # another checkout's sources

Standard rules, 4 cells, Microsoft deals. In each round, one after another:

- ``freecell-solver-range-parallel-solve FIRST LAST 1 -l lg`` (Debian's
  ``freecell-solver-bin``): one process solving the deals in turn, as fast as fc-solve goes;
- ours: one process (``python -c``) that imports the solver and, for each deal in turn,
  deals it (``Deal(rules, n).position()``) and calls ``solve()`` with the default limit,
  which writes the win out as moves and replays it through the rules engine; compiled,
  and from the sources (``FREECELL_PURE_PYTHON=1``);
- the start-up alone: ``python -c pass``, and the same process importing what ours
  imports and solving nothing.

Each side's figure is the wall time of its whole process, start-up included; the rounds
alternate the sides, so that a neighbour's load falls on both alike, and the medians
over the rounds are compared. Per deal, in the process: ours from ``time.perf_counter``
around each deal, fc-solve's from the time stamps it prints after each board (its
board's generation included); for each deal the median over the rounds, then the
median, p90 and max over the deals. The machine's load (``uptime``) is printed before
and after: other work on it shows in every figure. The package's bytecode is compiled
first, as pip does on install: where ``PYTHONDONTWRITEBYTECODE`` is set, every process
would otherwise compile the sources again (some 20 ms a start-up).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

# Ours, in one process: the deals solved in turn, each deal's seconds and positions
# printed at the end (one line of JSON, written after the last deal).
_OURS = """
import json, sys, time
from freecell import Deal, find_rules
from freecell.solver import native, solve
rules = find_rules("standard")
rows = []
for number in range(int(sys.argv[1]), int(sys.argv[2]) + 1):
    started = time.perf_counter()
    result = solve(Deal(rules, number).position(), rules)
    rows.append((time.perf_counter() - started, result.expanded, result.status.value))
print(json.dumps({"compiled": native.in_use(), "rows": rows}))
"""
# The same process solving nothing: the interpreter's start-up and the imports.
_IMPORTS = """
from freecell import Deal, find_rules
from freecell.solver import native, solve
"""
_REACHED = re.compile(r"Reached Board No\. (\d+) at (\d+\.\d+) \(total_num_iters=(\d+)\)")
_STARTED = re.compile(r"Started at (\d+\.\d+)")


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(math.ceil(fraction * len(ordered)) - 1, 0)]


def timed(command: list[str], env: dict[str, str] | None = None) -> tuple[float, str]:
    """The wall seconds of ``command`` as a whole process, and its output."""
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    return time.perf_counter() - started, done.stdout


def fc_solve(first: int, last: int) -> tuple[float, list[float], list[int]]:
    """fc-solve's whole process over the deals: wall seconds, and each deal's seconds and
    positions (iterations) from its status lines."""
    wall, output = timed(["freecell-solver-range-parallel-solve", str(first), str(last), "1", "-l", "lg"])
    started = _STARTED.search(output)
    assert started is not None, output[:200]
    before, iterations_before = float(started[1]), 0
    seconds, positions = [], []
    for match in _REACHED.finditer(output):
        stamp, iterations = float(match[2]), int(match[3])
        seconds.append(stamp - before)
        positions.append(iterations - iterations_before)
        before, iterations_before = stamp, iterations
    assert len(seconds) == last - first + 1, output[-200:]
    return wall, seconds, positions


def ours(first: int, last: int, *, pure: bool) -> tuple[float, list[float], list[int], list[str]]:
    """Our whole process over the deals: wall seconds, and each deal's seconds, positions
    expanded and verdict."""
    env = dict(os.environ)
    env.pop("FREECELL_PURE_PYTHON", None)
    if pure:
        env["FREECELL_PURE_PYTHON"] = "1"
    wall, output = timed([sys.executable, "-c", _OURS, str(first), str(last)], env)
    answer = json.loads(output)
    if answer["compiled"] == pure:
        sys.exit("the pure run was compiled" if pure else "the compiled solver is not current: run scripts/setup --dev")
    rows = answer["rows"]
    return wall, [row[0] for row in rows], [row[1] for row in rows], [row[2] for row in rows]


def per_deal(runs: list[list[float]]) -> list[float]:
    """For each deal, the median of its figure over the rounds."""
    return [statistics.median(values) for values in zip(*runs, strict=True)]


def spread(values: list[float]) -> str:
    low, high = min(values) * 1000, max(values) * 1000
    return f"median {statistics.median(values) * 1000:7.1f} ms (rounds {low:.1f} to {high:.1f})"


def deal_line(label: str, seconds: list[float]) -> str:
    ms = [value * 1000 for value in seconds]
    return (
        f"  {label:<22} per deal: median {percentile(ms, 0.5):7.3f} ms  p90 {percentile(ms, 0.9):7.3f} ms"
        f"  max {max(ms):7.1f} ms  sum {sum(ms) / 1000:6.3f} s"
    )


def compile_bytecode() -> None:
    """Write the bytecode of the ``freecell`` package that the measured processes import."""
    code = "import compileall, os, freecell; compileall.compile_dir(os.path.dirname(freecell.__file__), quiet=1)"
    subprocess.run([sys.executable, "-c", code], check=True)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-300", help="a range of Microsoft deals (default 1-300)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each side once a round (default 5)")
    parser.add_argument("--build", choices=("both", "compiled", "pure"), default="both")
    options = parser.parse_args()
    if shutil.which("freecell-solver-range-parallel-solve") is None:
        sys.exit("freecell-solver-range-parallel-solve is not on the PATH (Debian: freecell-solver-bin)")
    first, _, last = options.deals.partition("-")
    first_deal, last_deal = int(first), int(last or first)
    builds = ("compiled", "pure") if options.build == "both" else (options.build,)
    print(f"python {sys.version.split()[0]} ({sys.executable}); deals {first_deal}-{last_deal}, standard, 4 cells")
    compile_bytecode()
    print(f"load before: {uptime()}")
    walls: dict[str, list[float]] = {name: [] for name in ("fc-solve", "python -c pass", "imports", *builds)}
    deal_seconds: dict[str, list[list[float]]] = {name: [] for name in ("fc-solve", *builds)}
    positions: dict[str, list[int]] = {}
    verdicts: list[str] = []
    pure_env = {**os.environ, "FREECELL_PURE_PYTHON": "1"}
    for _ in range(options.rounds):
        wall, seconds, counted = fc_solve(first_deal, last_deal)
        walls["fc-solve"].append(wall)
        deal_seconds["fc-solve"].append(seconds)
        positions["fc-solve"] = counted
        for build in builds:
            wall, seconds, counted, verdicts = ours(first_deal, last_deal, pure=build == "pure")
            walls[build].append(wall)
            deal_seconds[build].append(seconds)
            positions[build] = counted
        walls["python -c pass"].append(timed([sys.executable, "-c", "pass"])[0])
        walls["imports"].append(timed([sys.executable, "-c", _IMPORTS], pure_env if builds == ("pure",) else None)[0])
    print(f"load after:  {uptime()}")
    count = last_deal - first_deal + 1
    print(f"whole processes, {options.rounds} rounds, {count} deals each:")
    theirs = statistics.median(walls["fc-solve"])
    for name, values in walls.items():
        ratio = f"  = {statistics.median(values) / theirs:5.1f}x fc-solve" if name != "fc-solve" else ""
        print(f"  {name:<22} {spread(values)}{ratio}")
    print("in the process (each deal's median over the rounds):")
    for name, runs in deal_seconds.items():
        print(deal_line(name, per_deal(runs)))
    ours_counted = positions[builds[0]]
    solved = sum(1 for verdict in verdicts if verdict == "solved")
    print(
        f"positions: fc-solve iterations median {statistics.median(positions['fc-solve']):.0f}"
        f" sum {sum(positions['fc-solve'])}; ours expanded median {statistics.median(ours_counted):.0f}"
        f" sum {sum(ours_counted)}; ours solved {solved} of {count}"
    )


if __name__ == "__main__":
    main()
