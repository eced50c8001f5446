"""A census of ``freecell range`` beside Freecell Solver's verdicts on the same deals.

    python -m freecell range 1-2000 --rules standard --cells 2 --limit 60s,2000MB --db r2.db
    python bench/beside_fcsolve.py r2.db 1-2000 --cells 2 --verdicts fcs2.jsonl

For every deal of the range stored in the census, runs ``fc-solve --freecells-num N -l
tea-for-two -mi ITERATIONS`` (the preset Freecell Solver made for few cells) once, and
keeps its verdict in ``--verdicts`` (a JSON line per deal, so a later run goes on where
this one stopped). Then prints both sets of counts, the deals where they disagree, and
what fc-solve says of the deals ours left at the limit.

fc-solve's "could not solve" after a meta-move scan is not a proof; our "unsolvable" is.
So the one disagreement that would mean a bug is a deal we call unsolvable and fc-solve
solves. Only rules that fc-solve plays are compared (one deck, no take-backs).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from freecell import Deal
from freecell.census import Census
from freecell.cli.range_commands import parse_range
from freecell.rules import find_rules
from freecell.solver import SolveStatus

_VERDICTS = {
    "This game is solveable": "solved",
    "I could not solve this game": "could-not-solve",
    "Iterations count exceeded": "limit",
}


def fc_solve_verdict(board: str, cells: int, iterations: int, game: str) -> tuple[str, float]:
    """fc-solve's verdict on ``board`` and the wall-clock seconds it took."""
    started = time.perf_counter()
    done = subprocess.run(
        ["fc-solve", "--game", game, "--freecells-num", str(cells), "-l", "tea-for-two", "-mi", str(iterations)],
        input=board, capture_output=True, text=True, check=False,
        env={"FREECELL_SOLVER_QUIET": "1", "PATH": "/usr/bin:/bin"},
    )
    seconds = time.perf_counter() - started
    verdict = next((name for text, name in _VERDICTS.items() if text in done.stdout), "error")
    return verdict, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("db", type=Path, help="the census store that freecell range filled")
    parser.add_argument("range", help="deals, e.g. 1-2000")
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--cells", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=8_200_000, help="fc-solve's -mi (its study used 8.2 million)")
    parser.add_argument("--verdicts", type=Path, required=True, help="fc-solve's verdicts, kept as JSON lines")
    options = parser.parse_args()
    if shutil.which("fc-solve") is None:
        sys.exit("fc-solve is not on the PATH (Debian: apt-get install freecell-solver-bin)")
    rules = find_rules(options.rules, cells=options.cells)
    if rules.decks != 1 or rules.takes_back or rules.columns != 8:
        sys.exit(f"fc-solve does not play {rules.name} as we do")
    game = "bakers_game" if options.rules == "bakers-game" else "freecell"
    first, last = parse_range(options.range)
    with Census(options.db, readonly=True) as census:
        ours = {
            record.deal: record
            for record in census.records(rules=rules.name, cells=rules.cells, first=first, last=last, solutions=False)
        }
    theirs: dict[int, tuple[str, float]] = {}
    if options.verdicts.exists():
        for line in options.verdicts.read_text().splitlines():
            row = json.loads(line)
            theirs[row["deal"]] = (row["verdict"], row["seconds"])
    with options.verdicts.open("a") as kept:
        for number in sorted(set(ours) - set(theirs)):
            board = Deal(rules, number).position().to_text()
            theirs[number] = fc_solve_verdict(board, rules.cells, options.iterations, game)
            kept.write(json.dumps({"deal": number, "verdict": theirs[number][0], "seconds": theirs[number][1]}) + "\n")
            kept.flush()

    deals = sorted(ours)
    print(f"{rules.name}, {rules.cells} cells, deals {first}-{last}: {len(deals)} in the census")
    if not deals:
        return
    our_counts = Counter(ours[number].verdict.value for number in deals)
    their_counts = Counter(theirs[number][0] for number in deals)
    our_seconds = [ours[number].seconds for number in deals]
    their_seconds = [theirs[number][1] for number in deals]
    print(
        f"  ours:     solved {our_counts['solved']}, unsolvable {our_counts['unsolvable']} (proofs), "
        f"at the limit {our_counts['limit']}; median {statistics.median(our_seconds):.3f} s, "
        f"mean {statistics.fmean(our_seconds):.2f} s, max {max(our_seconds):.1f} s"
    )
    print(
        f"  fc-solve: solved {their_counts['solved']}, could not solve {their_counts['could-not-solve']} "
        f"(not proofs), at its limit {their_counts['limit']}, other {their_counts['error']}; "
        f"median {statistics.median(their_seconds):.3f} s, max {max(their_seconds):.1f} s"
    )
    wrong = [n for n in deals if ours[n].verdict is SolveStatus.UNSOLVABLE and theirs[n][0] == "solved"]
    print(f"  contradictions (ours unsolvable, fc-solve solved): {len(wrong)} {wrong}")
    only_ours = [n for n in deals if ours[n].verdict is SolveStatus.SOLVED and theirs[n][0] != "solved"]
    print(f"  solved by ours only: {len(only_ours)} {only_ours}")
    limited = [n for n in deals if ours[n].verdict is SolveStatus.LIMIT_REACHED]
    print(f"  ours at the limit, with fc-solve's verdict: {[(n, theirs[n][0]) for n in limited]}")
    hours = statistics.fmean(our_seconds) * 32_000 / 3600
    print(f"  at our mean, deals 1-32000 would take {hours:.1f} h on one core")


if __name__ == "__main__":
    main()
