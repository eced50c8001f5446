"""How long a `freecell` command takes to start: whole processes, and their imports.

For each command: the median and the least wall time of ``--runs`` whole processes
(``python -m freecell ...``, output thrown away), and from ``python -X importtime`` the
median of the total time spent importing, with the number of modules imported and the
modules that cost most on their own. The interpreter alone (``-c pass``) is measured the
same way, for the floor. The machine's load is printed before and after: other work on
it shows in every figure.

    python bench/startup.py                  # --version, deal 617, solve 617
    python bench/startup.py --runs 21 --top 5
    PYTHONPATH=/tmp/other/src python bench/startup.py   # another checkout's sources
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

COMMANDS: tuple[tuple[str, ...], ...] = (("--version",), ("deal", "617"), ("solve", "617"))


def whole_process(arguments: list[str]) -> float:
    """Seconds from start to exit of ``python ARGUMENTS``."""
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def import_times(arguments: list[str]) -> dict[str, int]:
    """Each module's own import time in microseconds, from ``python -X importtime ARGUMENTS``."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *arguments], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True, check=True,
    )
    own: dict[str, int] = {}
    for line in done.stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        own_text, _, name = line.removeprefix("import time:").split("|")
        if own_text.strip().isdigit():  # (not the header line)
            own[name.strip()] = own.get(name.strip(), 0) + int(own_text)
    return own


def report(name: str, arguments: list[str], runs: int, top: int) -> None:
    for _ in range(2):  # warm the file cache and the bytecode
        whole_process(arguments)
    walls = sorted(whole_process(arguments) for _ in range(runs))
    imports = [import_times(arguments) for _ in range(runs)]
    totals = sorted(sum(own.values()) for own in imports)
    typical = imports[[sum(own.values()) for own in imports].index(totals[len(totals) // 2])]
    costly = sorted(typical.items(), key=lambda item: item[1], reverse=True)[:top]
    print(
        f"{name:<16} whole process: median {statistics.median(walls) * 1000:6.1f} ms, least {walls[0] * 1000:6.1f} ms"
        f" | imports: median {statistics.median(totals) / 1000:6.1f} ms, {len(typical)} modules"
    )
    if costly:
        print(" " * 17 + "most on their own: " + ", ".join(f"{module} {us / 1000:.1f}" for module, us in costly))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11, help="processes per figure (default 11)")
    parser.add_argument("--top", type=int, default=6, help="the costliest modules to name (default 6)")
    options = parser.parse_args()
    print(f"python {sys.version.split()[0]} ({sys.executable}); load average {os.getloadavg()[0]:.2f}")
    print(f"freecell from {os.environ.get('PYTHONPATH') or 'the installed package'}; {options.runs} runs each")
    report("python -c pass", ["-c", "pass"], options.runs, 0)
    for command in COMMANDS:
        report(" ".join(command), ["-m", "freecell", *command], options.runs, options.top)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
