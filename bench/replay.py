"""What writing out and checking a solution costs: ``write_moves`` and ``verify`` apart.

    python bench/replay.py [--standard 1-500] [--strict 1-100] [--double 1-100] [--repeat 5]

Each deal is solved once with ``solve()``; the steps its search found are captured on
their way to ``write_moves``. Then, for every solution, ``write_moves`` and ``verify``
are timed separately (CPU time, ``time.process_time_ns``, best of ``--repeat`` runs to
drop the noise of a shared machine), and the median and p90 in µs are printed per
ruleset, with the mean number of moves written.

For counting instructions, the solutions can be kept and verified apart from the solves:

    python bench/replay.py --standard 1-300 --strict "" --double "" --save wins.pickle
    PYTHONHASHSEED=0 valgrind --tool=callgrind python bench/replay.py --verify-saved wins.pickle --times 1

and the same with ``--times 0`` (loading only) to subtract.
"""

from __future__ import annotations

import argparse
import functools
import pickle
import statistics
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from solver import parse_deals, percentile  # bench/solver.py, beside this script

from freecell import Deal, find_rules
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver import solving, transcript
from freecell.solver.steps import Step


@dataclass(frozen=True)
class Case:
    start: Position
    rules: Rules
    steps: list[Step]


def capture(rules: Rules, numbers: Iterable[int]) -> list[Case]:
    """The steps of each solved deal, as ``solve()`` hands them to ``write_moves``."""
    cases: list[Case] = []
    original = solving.write_moves

    def recording(start: Position, rules: Rules, steps: Iterable[Step]) -> list[str]:
        listed = list(steps)
        cases.append(Case(start, rules, listed))
        return original(start, rules, listed)

    solving.write_moves = recording  # type: ignore[assignment]
    try:
        for number in numbers:
            solving.solve(Deal(rules, number).position(), rules)
    finally:
        solving.write_moves = original
    return cases


def cpu_us(call: Callable[[], object], repeat: int) -> float:
    best = None
    for _ in range(repeat):
        begin = time.process_time_ns()
        call()
        spent = time.process_time_ns() - begin
        best = spent if best is None else min(best, spent)
    assert best is not None
    return best / 1000


def measure(name: str, cases: list[Case], repeat: int) -> None:
    written: list[float] = []
    verified: list[float] = []
    lengths: list[int] = []
    for case in cases:
        start, rules, steps = case.start, case.rules, case.steps
        moves = transcript.write_moves(start, rules, steps)
        transcript.verify(start, rules, moves)
        lengths.append(len(moves))
        written.append(cpu_us(functools.partial(transcript.write_moves, start, rules, steps), repeat))
        verified.append(cpu_us(functools.partial(transcript.verify, start, rules, moves), repeat))
    both = [w + v for w, v in zip(written, verified, strict=True)]
    print(
        f"{name:9} {len(cases):4} solutions, {statistics.mean(lengths):5.1f} moves | "
        f"write_moves median {statistics.median(written):6.0f} µs p90 {percentile(written, 0.9):6.0f} | "
        f"verify median {statistics.median(verified):6.0f} µs p90 {percentile(verified, 0.9):6.0f} | "
        f"both median {statistics.median(both):6.0f} µs p90 {percentile(both, 0.9):6.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--standard", default="1-500")
    parser.add_argument("--strict", default="1-100")
    parser.add_argument("--double", default="1-100")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--save", metavar="FILE", help="keep the solutions (pickled) instead of timing them")
    parser.add_argument("--verify-saved", metavar="FILE", help="only verify the solutions kept in FILE")
    parser.add_argument("--times", type=int, default=1, help="with --verify-saved: how often each (0: load only)")
    options = parser.parse_args()
    if options.verify_saved:
        verify_saved(options.verify_saved, options.times)
        return
    saved: list[tuple[Position, Rules, list[str]]] = []
    for name in ("standard", "strict", "double"):
        deals = getattr(options, name)
        if not deals:
            continue
        cases = capture(find_rules(name), parse_deals(deals))
        if options.save:
            saved.extend(
                (case.start, case.rules, transcript.write_moves(case.start, case.rules, case.steps)) for case in cases
            )
        else:
            measure(name, cases, options.repeat)
    if options.save:
        with open(options.save, "wb") as file:
            pickle.dump(saved, file)
        print(f"{len(saved)} solutions kept in {options.save}")


def verify_saved(path: str, times: int) -> None:
    with open(path, "rb") as file:
        saved = pickle.load(file)  # a file this script wrote
    for _ in range(times):
        for start, rules, moves in saved:
            transcript.verify(start, rules, moves)
    print(f"{len(saved)} solutions verified {times} times")


if __name__ == "__main__":
    main()
