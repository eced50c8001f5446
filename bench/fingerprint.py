"""The solver's fingerprint: what it decides and how far it searches, deal by deal, beside a record.

    python bench/fingerprint.py                     # compare both builds with the record
    python bench/fingerprint.py --build compiled    # only the compiled solver (or pure)
    python bench/fingerprint.py --only app-1,double # only these deals (app-1-22222) or kinds
    python bench/fingerprint.py --one-process       # every deal of a build in one process
    python bench/fingerprint.py --record            # write the record (both builds must agree)

Each deal of :data:`DEALS` is solved as ``freecell solve --json`` does, in a process of
its own (``sys.executable -m freecell solve ... --json --limit N``), once with the
compiled solver and once with its sources (``FREECELL_PURE_PYTHON=1``). The limit is a
number of positions only: the budget then reads neither the clock nor the resident size
(``Budget`` in ``solver/search.py``: no deadline, no memory limit, nothing measured), so
every decision of the solve depends on the deal and the positions counted alone, and the
search is the same on every run and every machine. A deal's fingerprint is its verdict,
the positions expanded and generated, and a hash of its moves; the record
(``bench/fingerprint.json``) holds it with the solve's seconds in each build, for the
speed work to compare with.

It prints a line per deal (``same``, or what differs from the record), then a summary a
build, and exits 1 when any deal differs (or is missing from the record), 2 when a build
cannot be run as asked (a compiled solver that is stale: ``scripts/setup --dev``).

``--one-process`` solves a build's deals one after another in one process, forgetting
between deals the losses the solver remembers for the next solve of a game
(``losses.LOST``): the fingerprints are the same as whole processes give, and the
fast test (``tests/test_solver_fingerprint.py``) checks the cheapest deals so.

The deals are chosen so that every family of rules and every part of the solver's plan
runs (the ``exercises`` of each). What runs only under a memory limit (the proof's
hand-over for memory, the spill of keys to disk) or with the helper process depends on
the resident size or on two processes' timing, and cannot be fingerprinted: its tests
keep it (``tests/test_solver_proof.py``, ``tests/test_solver_helper.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECORD = Path(__file__).with_name("fingerprint.json")
BUILDS = ("compiled", "pure")
PURE_PYTHON_VARIABLE = "FREECELL_PURE_PYTHON"  # as freecell.solver.native names it
FIELDS = ("status", "expanded", "generated", "moves")


@dataclass(frozen=True)
class Case:
    """A deal to fingerprint: its rules, cells and number, its limit in positions,
    whether a short solution is asked for, and what of the solver it exercises."""

    rules: str
    cells: int
    deal: int
    positions: int
    exercises: str
    short: bool = False

    @property
    def name(self) -> str:
        return f"{self.rules}-{self.cells}-{self.deal}" + ("-short" if self.short else "")


# Every preset; in each family the searches of its plan that decide a deal (the
# portfolio, the restarts, the last search's win or proof, the relaxed walks' proof and
# the follow from their goal, the hand-over to the depth-first proof and the late
# searches, the last search kept behind the proof under take-back rules), a win cut
# short, and --short. Figures here are those of the record.
DEALS = (
    # Four cells or more, one deck.
    Case("standard", 4, 1, 300_000, "the portfolio's first search wins at once"),
    Case("standard", 4, 617, 300_000, "a later search of the portfolio wins"),
    Case("standard", 4, 12795, 300_000, "the portfolio's last search wins"),
    Case("standard", 4, 8436, 300_000, "a noisy restart wins"),
    Case("standard", 4, 28920, 300_000, "the restart weighing the shortest column wins"),
    Case("standard", 4, 35254, 300_000, "the last search wins after every restart"),
    Case("standard", 4, 11982, 300_000, "the last search proves the loss after the restarts"),
    Case("standard", 4, 1, 300_000, "beams and shorten after the win", short=True),
    Case("strict", 4, 8436, 300_000, "a restart wins; runs written one card at a time"),
    Case("supermove", 4, 28920, 300_000, "a restart wins"),
    Case("app", 4, 35254, 300_000, "the last search over the complete problem wins (take-backs)"),
    Case("app", 4, 617, 300_000, "the portfolio wins under take-back rules", short=True),
    Case("cardems", 4, 11982, 300_000, "the complete problem proves a loss, cards back to cells"),
    Case("cardems", 4, 6, 300_000, "the portfolio's first search wins"),
    Case("eight-off", 8, 295, 300_000, "a restart wins (same suit, kings only)"),
    Case("eight-off", 8, 5, 300_000, "the portfolio wins"),
    # Two decks.
    Case("double", 6, 617, 300_000, "the portfolio wins"),
    Case("double", 6, 113, 300_000, "the last search (whole runs) wins after the restarts; cut short"),
    Case("double", 6, 3, 300_000, "beams and shorten with two decks", short=True),
    # Tight, alternate colours, foundations one way.
    Case("standard", 2, 15035, 300_000, "the last search's two rankings win"),
    Case("standard", 2, 1, 300_000, "the first relaxed walk proves the loss"),
    Case("standard", 2, 5441, 300_000, "the first relaxed walk proves the loss"),
    Case("standard", 2, 1216, 300_000, "a walk meets a goal, the follow from it wins; cut short"),
    Case("standard", 2, 27738, 600_000, "the hand-over: the proof and the late searches take turns; the proof wins"),
    Case("standard", 1, 7, 300_000, "one cell: a walk's goal followed to a win"),
    Case("standard", 1, 12, 300_000, "one cell: a relaxed walk proves the loss"),
    # Tight, same suit.
    Case("bakers-game", 4, 20358, 300_000, "the last search proves the loss"),
    Case("bakers-game", 4, 5, 300_000, "the last search wins"),
    Case("bakers-game", 4, 2, 300_000, "beams and shorten", short=True),
    # Tight, take-backs.
    Case("app", 2, 13019, 300_000, "the whole portfolio, then the last search wins"),
    Case("app", 2, 13019, 300_000, "beams and shorten under take-back rules", short=True),
    Case("app", 2, 18315, 300_000, "a walk's goal followed to a win"),
    Case("app", 2, 13233, 300_000, "the last search proves the loss beside a walk"),
    Case("app", 1, 12682, 300_000, "a relaxed walk proves the loss"),
    Case("app", 1, 16257, 300_000, "a walk's goal followed to a win"),
    Case("app", 1, 3972, 60_000, "the limit reached beside a walk"),
    Case("app", 1, 22222, 600_000, "the hand-over: the last search kept behind the proof wins"),
)


def moves_hash(moves: list[str] | tuple[str, ...]) -> str:
    """A short hash of a solution's moves (empty for none)."""
    return hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16] if moves else ""


def fingerprint(status: str, expanded: int, generated: int, moves: list[str] | tuple[str, ...]) -> dict[str, Any]:
    return {"status": status, "expanded": expanded, "generated": generated, "moves": moves_hash(moves)}


def _environment(build: str) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if key != PURE_PYTHON_VARIABLE}
    if build == "pure":
        environment[PURE_PYTHON_VARIABLE] = "1"
    return environment


def check_build(build: str) -> str | None:
    """Why ``build`` cannot be run as asked, or None when it can."""
    done = subprocess.run(
        [sys.executable, "-c", "from freecell.solver import native; print(native.in_use())"],
        env=_environment(build),
        capture_output=True,
        text=True,
        check=False,
    )
    compiled = done.stdout.strip() == "True"
    if done.returncode != 0:
        return f"the solver does not import: {done.stderr.strip().splitlines()[-1:]}"
    if build == "compiled" and not compiled:
        return "the compiled solver is missing or stale: run scripts/setup --dev"
    if build == "pure" and compiled:
        return f"{PURE_PYTHON_VARIABLE}=1 still loads the compiled solver"
    return None


def solve_in_a_process(case: Case, build: str) -> dict[str, Any]:
    """``case``'s fingerprint and the solve's seconds, from ``freecell solve --json``."""
    command = [
        sys.executable,
        "-m",
        "freecell",
        "solve",
        str(case.deal),
        "--rules",
        case.rules,
        "--cells",
        str(case.cells),
        "--json",
        "--limit",
        str(case.positions),
    ]
    if case.short:
        command.append("--short")
    done = subprocess.run(command, env=_environment(build), capture_output=True, text=True, check=False)
    if done.returncode not in (0, 3, 4):
        raise RuntimeError(f"{case.name}: freecell solve exited {done.returncode}: {done.stderr.strip()}")
    found = json.loads(done.stdout)
    return {
        **fingerprint(found["status"], found["expanded"], found["generated"], found["moves"]),
        "seconds": found["seconds"],
    }


def solve_here(case: Case) -> dict[str, Any]:
    """``case``'s fingerprint and the solve's seconds, solved in this process with no
    loss remembered from a solve before."""
    from freecell import Deal, find_rules
    from freecell.solver import SearchLimit, losses, solve

    losses.LOST.clear()
    rules = find_rules(case.rules, cells=case.cells)
    result = solve(
        Deal(rules, case.deal).position(), rules, limit=SearchLimit(positions=case.positions), short=case.short
    )
    losses.LOST.clear()
    return {
        **fingerprint(result.status.value, result.expanded, result.generated, result.moves),
        "seconds": round(result.seconds, 6),
    }


def solve_in_one_process(cases: list[Case], build: str) -> dict[str, dict[str, Any]]:
    """The fingerprints of ``cases``, each solved in turn in one process of ``build``."""
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import fingerprint as f; "
        "names = set(sys.argv[2:]); "
        "[print(json.dumps([case.name, f.solve_here(case)]), flush=True) for case in f.DEALS if case.name in names]"
    )
    command = [sys.executable, "-c", code, str(Path(__file__).parent), *(case.name for case in cases)]
    done = subprocess.run(command, env=_environment(build), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the {build} solves failed: {done.stderr.strip()}")
    return dict(json.loads(line) for line in done.stdout.splitlines())


def differences(found: dict[str, Any], recorded: dict[str, Any] | None) -> list[str]:
    """What differs between a fingerprint and the record's (nothing: the same)."""
    if recorded is None:
        return ["not in the record"]
    return [f"{field} {recorded[field]} -> {found[field]}" for field in FIELDS if found[field] != recorded[field]]


def _chosen(name: str, only: str) -> bool:
    """Whether ``--only`` names the deal ``name``, or a beginning of its name up to a dash."""
    return not only or any(name == part or name.startswith(f"{part}-") for part in only.split(","))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", choices=("both", *BUILDS), default="both")
    parser.add_argument("--only", default="", help="only these deals, and those their names begin (app-1,double)")
    parser.add_argument("--one-process", action="store_true", help="each build's deals in one process")
    parser.add_argument("--record", action="store_true", help=f"write the record ({RECORD.name})")
    options = parser.parse_args()
    builds = BUILDS if options.build == "both" else (options.build,)
    cases = [case for case in DEALS if _chosen(case.name, options.only)]
    if options.record and (builds != BUILDS or options.only):
        parser.error("--record needs both builds and every deal")
    for build in builds:
        problem = check_build(build)
        if problem is not None:
            print(f"fingerprint: {build}: {problem}", file=sys.stderr)
            return 2
    record = {} if options.record or not RECORD.exists() else json.loads(RECORD.read_text(encoding="utf-8"))
    recorded: dict[str, dict[str, Any]] = record.get("deals", {})
    found: dict[str, dict[str, dict[str, Any]]] = {case.name: {} for case in cases}
    started = time.perf_counter()
    print(
        f"{'deal':<24} {'limit':>7}  {'status':<13} {'expanded':>9} {'generated':>10}  {'moves':<16}"
        + "".join(f" {build:>9}" for build in builds)
    )
    for build in builds:
        if options.one_process:
            for name, fingerprinted in solve_in_one_process(cases, build).items():
                found[name][build] = fingerprinted
    for case in cases:
        for build in builds:
            if build not in found[case.name]:
                found[case.name][build] = solve_in_a_process(case, build)
        _print_row(case, found[case.name], recorded.get(case.name), builds, options.record)
    if options.record:
        _write_record(cases, found)
        print(f"recorded {len(cases)} deals in {RECORD}")
        return 0
    return _print_summary(cases, found, recorded, builds, time.perf_counter() - started)


def _print_row(
    case: Case,
    found: dict[str, dict[str, Any]],
    recorded: dict[str, Any] | None,
    builds: tuple[str, ...],
    recording: bool,
) -> None:
    first = found[builds[0]]
    seconds = "".join(f" {found[build]['seconds']:>8.2f}s" for build in builds)
    print(
        f"{case.name:<24} {case.positions // 1000:>6}k  {first['status']:<13} {first['expanded']:>9,}"
        f" {first['generated']:>10,}  {first['moves'] or '-':<16}{seconds}",
        end="",
    )
    verdicts = []
    for build in builds:
        against = found[BUILDS[0]] if recording else recorded
        what = differences(found[build], against)
        if what:
            verdicts.append(f"{build} DIFFERS: {', '.join(what)}")
    print("  " + ("; ".join(verdicts) if verdicts else "same"), flush=True)


def _print_summary(
    cases: list[Case],
    found: dict[str, dict[str, dict[str, Any]]],
    recorded: dict[str, dict[str, Any]],
    builds: tuple[str, ...],
    seconds: float,
) -> int:
    differing = 0
    for build in builds:
        differ = [case.name for case in cases if differences(found[case.name][build], recorded.get(case.name))]
        differing += len(differ)
        now = sum(found[case.name][build]["seconds"] for case in cases)
        before = sum(recorded.get(case.name, {}).get("seconds", {}).get(build, 0.0) for case in cases)
        ratio = f", solves {now:.1f} s against the record's {before:.1f} s" if before else ""
        print(
            f"{build}: {len(cases) - len(differ)} of {len(cases)} deals the same as the record{ratio}"
            + (f"; differ: {', '.join(differ)}" if differ else "")
        )
    print(f"fingerprint: {'identical' if not differing else 'DIFFERS'} ({seconds:.0f} s in all)")
    return 1 if differing else 0


def _write_record(cases: list[Case], found: dict[str, dict[str, dict[str, Any]]]) -> None:
    """Write the record, refusing where the two builds disagree (a bug to look at first)."""
    deals: dict[str, dict[str, Any]] = {}
    for case in cases:
        compiled, pure = found[case.name]["compiled"], found[case.name]["pure"]
        if differences(pure, compiled):
            raise SystemExit(f"fingerprint: {case.name}: the builds disagree, not recorded")
        deals[case.name] = {
            **{field: compiled[field] for field in FIELDS},
            "limit": case.positions,
            "exercises": case.exercises,
            "seconds": {build: found[case.name][build]["seconds"] for build in BUILDS},
        }
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False)
    about = {
        "commit": commit.stdout.strip(),  # the commit the solver was at (the record is written after it)
        "python": sys.version.split()[0],
        "load": [round(load, 2) for load in os.getloadavg()],  # uptime's, when recorded
    }
    RECORD.write_text(json.dumps({"recorded": about, "deals": deals}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
