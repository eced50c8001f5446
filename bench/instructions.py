"""The solver's instructions counted by callgrind: figures that do not depend on the load.

    python bench/instructions.py                      # all three workloads
    python bench/instructions.py --workload median
    PYTHONPATH=/tmp/other/src python bench/instructions.py   # another checkout's sources

Standard rules, 4 cells, Microsoft deals, each solved by ``solve()`` with the default
limit (the win written out and replayed), in one process under
``valgrind --tool=callgrind``. The workloads:

- ``compiled``: deals 1-300 in turn, compiled;
- ``median``: the *median deals*, the 60 deals of 1-300 whose search expands 46 to 65
  positions (the middle fifth: :data:`MEDIAN_DEALS`), solved after 50 other deals
  (1001-1050) so that the process is warm, less the same process without them: what a
  typical solve costs once the process runs (its search, and writing and replaying the
  win); compiled;
- ``sources``: deals 1-100 from the sources (``FREECELL_PURE_PYTHON=1``), the build the
  browser runs.

``PYTHONHASHSEED=0`` fixes a dict's probes (the count depends on the hash seed) and the
package's bytecode is compiled first (else a checkout without ``__pycache__`` pays some
100M instructions compiling it). Counts from two checkouts compare exactly; each
workload takes one to three minutes. Needs valgrind (``apt-get install valgrind``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

# The 60 deals of 1-300 whose search expands 46-65 positions (standard rules, 4 cells),
# in the order the figures in docs/solver.md were counted in.
MEDIAN_DEALS = (
    (172, 18, 98, 208, 222, 234, 9, 78, 263, 265, 282, 294, 12, 53, 67, 121, 298, 131, 144, 174)
    + (223, 245, 259, 156, 229, 274, 4, 57, 182, 188, 255, 1, 6, 114, 157, 201, 214, 52, 211, 226)
    + (111, 135, 26, 40, 126, 297, 83, 202, 258, 47, 243, 73, 63, 212, 239, 42, 49, 115, 181, 197)
)
WARM_UP = range(1001, 1051)

# The process counted: the deals on its command line solved in turn, after the warm-up
# deals when asked.
_SOLVES = """
import sys
from freecell import Deal, find_rules
from freecell.solver import native, solve
if native.in_use() == (sys.argv[1] == "pure"):
    sys.exit("the solver is not the build asked for (is the compiled build current?)")
rules = find_rules("standard")
for number in [int(n) for n in sys.argv[2].split(",")]:
    solve(Deal(rules, number).position(), rules)
"""
_TOTALS = re.compile(r"^(?:summary|totals): (\d+)", re.MULTILINE)


def counted(build: str, deals: list[int]) -> int:
    """The instructions of one process solving ``deals`` with ``build``."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("FREECELL_PURE_PYTHON", None)
    if build == "pure":
        env["FREECELL_PURE_PYTHON"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", _SOLVES]
        done = subprocess.run(
            [*command, build, ",".join(map(str, deals))], capture_output=True, text=True, env=env, check=False
        )
        if done.returncode != 0:
            sys.exit(f"the counted process failed: {done.stderr.strip().splitlines()[-1]}")
        with open(out, encoding="utf-8") as counts:
            found = _TOTALS.search(counts.read())
    if found is None:
        sys.exit("callgrind wrote no total")
    return int(found[1])


def compile_bytecode() -> None:
    """Write the bytecode of the ``freecell`` package that the counted processes import."""
    code = "import compileall, os, freecell; compileall.compile_dir(os.path.dirname(freecell.__file__), quiet=1)"
    subprocess.run([sys.executable, "-c", code], check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", choices=("compiled", "median", "sources", "all"), default="all")
    workload = parser.parse_args().workload
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: apt-get install valgrind")
    compile_bytecode()
    warm_up = list(WARM_UP)
    print(f"python {sys.version.split()[0]} ({sys.executable}); instructions, millions (callgrind)")
    # Two processes at a time: this machine's two cores, and callgrind runs one thread.
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = {}
        if workload in ("compiled", "all"):
            runs["compiled"] = pool.submit(counted, "compiled", list(range(1, 301)))
        if workload in ("median", "all"):
            runs["warm"] = pool.submit(counted, "compiled", warm_up)
            runs["median"] = pool.submit(counted, "compiled", warm_up + list(MEDIAN_DEALS))
        if workload in ("sources", "all"):
            runs["sources"] = pool.submit(counted, "pure", list(range(1, 101)))
        if "compiled" in runs:
            print(f"  compiled, deals 1-300:         {runs['compiled'].result() / 1e6:9,.1f}M")
        if "median" in runs:
            median = (runs["median"].result() - runs["warm"].result()) / 1e6
            print(f"  compiled, the median deals:    {median:9,.1f}M  ({median / len(MEDIAN_DEALS):.2f}M a deal)")
        if "sources" in runs:
            print(f"  from the sources, deals 1-100: {runs['sources'].result() / 1e6:9,.1f}M")

if __name__ == "__main__":
    main()
