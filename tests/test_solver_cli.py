"""``freecell solve``: exit statuses, and standard output that holds only moves."""

from __future__ import annotations

import json
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from freecell import Deal, find_rules
from freecell.cli import main
from freecell.notation import split_moves
from freecell.position import Position
from freecell.replay import replay
from freecell.solver import SearchLimit
from freecell.solver.plan import plan_for
from freecell.solver.twins import IN_BUILT_RUN, IN_CELL, ON_CARD

DATA = Path(__file__).parent / "data" / "solver"


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["solve", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_a_deal_number_prints_only_moves_that_win() -> None:
    code, out, err = run("1")
    assert code == 0 and err == ""
    moves = out.split()
    rules = find_rules("standard")
    assert replay(Deal(rules, 1).position(), rules, moves).is_won()
    assert all(len(line.split()) <= 10 for line in out.splitlines())


def test_a_game_code_and_other_rules() -> None:
    deal = Deal(find_rules("app", cells=2), 2)
    code, out, _ = run("--code", deal.code())
    assert code == 0
    assert replay(deal.position(), deal.rules, out.split()).is_won()
    code, out, _ = run("7", "--rules", "bakers-game")
    assert code == 0
    rules = find_rules("bakers-game")
    assert replay(Deal(rules, 7).position(), rules, out.split()).is_won()


def test_a_board_file_mid_game_and_standard_input() -> None:
    path = DATA / "deal1-midgame.board"
    start = Position.from_text(path.read_text(), find_rules("standard"))
    for args, stdin in (((str(path),), None), (("-",), path.read_text())):
        code, out, _ = run(*args, stdin=stdin)
        assert code == 0
        end = replay(start, find_rules("standard"), split_moves(out))
        assert end.is_won()


def test_a_lost_deal_exits_3_with_nothing_on_standard_output() -> None:
    # Without cells, deal 7 is lost; the board on standard input and the number agree.
    board = Deal(find_rules("standard", cells=0), 7).position().to_text()
    for args, stdin in ((("7",), None), (("-",), board)):
        code, out, err = run(*args, "--cells", "0", stdin=stdin)
        assert (code, out) == (3, "")
        assert "cannot be won" in err


def test_a_limit_reached_exits_4() -> None:
    code, out, err = run("5", "--limit", "5")
    assert (code, out) == (4, "")
    assert "limit" in err


@pytest.mark.parametrize(
    "args",
    [("0",), ("no-such-file.board",), ("1", "--limit", "fast"), ("1", "--rules", "nonsense"), ()],
)
def test_bad_input_exits_2_with_a_message(args: tuple[str, ...]) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.startswith("freecell: ")


def test_a_bad_board_on_standard_input_exits_2() -> None:
    code, out, err = run("-", stdin=": AH AH\n")
    assert code == 2 and out == ""
    assert "A♥" in err and err.count("\n") == 1  # the card as players write it, in one line


def test_json_carries_the_moves_and_the_statistics() -> None:
    code, out, _ = run("3", "--json", "--short")
    assert code == 0
    data = json.loads(out)
    assert data["status"] == "solved"
    rules = find_rules("standard")
    assert replay(Deal(rules, 3).position(), rules, data["moves"]).is_won()
    assert data["expanded"] > 0 and data["seconds"] >= 0
    assert data["non_foundation_moves"] == sum(1 for m in data["moves"] if m[1:] != "h")


def test_limits_are_read_in_several_units() -> None:
    parse_limit = SearchLimit.from_text
    assert parse_limit("10s") == SearchLimit(seconds=10)
    assert parse_limit("200000") == SearchLimit(positions=200_000)
    assert parse_limit("200k,500MB") == SearchLimit(positions=200_000, memory_mb=500)
    limit = parse_limit("10s, 200k, 1GB")
    assert limit == SearchLimit(seconds=10.0, positions=200_000, memory_mb=1000)
    assert pickle.loads(pickle.dumps(limit)) == limit  # as it goes to a worker process
    assert parse_limit("1.5GB, 250ms") == SearchLimit(seconds=0.25, memory_mb=1500)
    assert parse_limit("2min, 1.5k") == SearchLimit(seconds=120, positions=1500)
    with pytest.raises(ValueError, match="not a limit"):
        parse_limit("soon")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9" * 400, "too large: positions are at most 10^12"),
        ("9" * 30, "too large: positions are at most 10^12"),
        ("9999999999s", "too large: a time is at most a week"),
        ("2000000GB", "too large: memory is at most"),
        ("0.4", "a number of positions is a whole number"),
        ("0.5MB", "memory in MB is a whole number"),
        ("2m", "minutes or millions?"),
        ("0s", "a limit is more than 0"),
        ("1e9", "not a limit"),
    ],
)
def test_limits_out_of_reason_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        SearchLimit.from_text(text)
    with pytest.raises(ValueError, match="at most"):
        SearchLimit(positions=10**13)


# The child's peak resident size is read by a parent of its own (ru_maxrss of its only
# child): RUSAGE_CHILDREN of pytest would count every other test's children too.
_PEAK_OF_CHILD = """
import resource, subprocess, sys
done = subprocess.run([sys.executable, "-m", "freecell", "solve", "--json", *sys.argv[1:]],
                      capture_output=True, text=True)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.stdout)
"""


def _solve_with_peak(*args: str) -> tuple[int, int, dict[str, object]]:
    """``freecell solve --json`` with ``args``: its exit code, its peak resident size in
    bytes, and its answer."""
    done = subprocess.run([sys.executable, "-c", _PEAK_OF_CHILD, *args], capture_output=True, text=True, check=True)
    code, peak_kib, out = done.stdout.split(" ", 2)
    return int(code), int(peak_kib) * 1024, json.loads(out)


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the resident size is read from /proc")
def test_a_memory_limit_bounds_the_peak_resident_size_of_the_process() -> None:
    # App 2 cells deal 8162 (lost) takes 33 s and 792 MB to prove with no limit (29577,
    # used here before, is now proven in 3 s; deal 140, which took 2.38 GB before
    # take-backs were fused, is won in 0.7 s). At 60 MB, past half the limit, a
    # depth-first proof takes over, and each time the memory runs short it moves its
    # keys to disk: it goes on until its time is up, and the process never holds more
    # than the limit (20.0 s and a peak of 51 MB, twice, in session 41). Near the end a
    # spill that would make the filter again, reading back every key on disk, may no
    # longer fit in the time left, and the proof then stops there: hence 15 s, not 20.
    # A margin of 2 MB: ru_maxrss is in KiB.
    limit_mb = 60
    code, peak, answer = _solve_with_peak("--rules", "app", "--cells", "2", "--limit", f"20s,{limit_mb}MB", "8162")
    assert code == 4 and answer["status"] == "limit-reached"
    assert isinstance(answer["seconds"], float) and answer["seconds"] >= 15  # it went on: time stopped it
    assert peak <= limit_mb * 1_000_000 + 2_000_000


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the resident size is read from /proc")
@pytest.mark.parametrize("rules, other_limit", [("standard", "300s"), ("app", "300k")])
def test_a_proof_near_the_memory_limit_goes_on_to_its_end(rules: str, other_limit: str) -> None:
    # Deal 1 with 2 cells is lost under both rules.
    # - Standard: best first, which keeps every position it saw with its parent, stopped
    #   for memory at 60 MB after 2.8 s; past half the limit it now gives way to a
    #   depth-first proof that keeps only keys, which ends the proof within the limit.
    # - App: the walk of the relaxed problem proves it over 33,643 classes, the plain
    #   proof in 213,895 positions. At 60 MB the walk used to be dropped for memory, and
    #   300,000 positions were not enough; now it spills its keys to disk when the
    #   memory runs short, as the plain proof does, and ends the proof.
    limit_mb = 60
    limit = f"{other_limit},{limit_mb}MB"
    code, peak, answer = _solve_with_peak("--rules", rules, "--cells", "2", "--limit", limit, "1")
    assert code == 3 and answer["status"] == "unsolvable"
    assert peak <= limit_mb * 1_000_000 + 2_000_000


def _plan_rows(out: str) -> list[str]:
    """The searches a printed plan lists, by name, in order."""
    rows = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    return [row.split("  ")[0] for row in rows if not row.startswith("search ")]


@pytest.mark.parametrize(("name", "cells"), [("standard", 4), ("app", 1), ("bakers-game", 4), ("double", 6)])
def test_the_plan_lists_every_search_of_the_rules_family_in_the_order_they_take_over(name: str, cells: int) -> None:
    code, out, err = run("--plan", "--rules", name, "--cells", str(cells))
    assert code == 0 and err == ""
    rules = find_rules(name, cells=cells)
    plan = plan_for(rules)
    walks = [] if plan.walks is None else [f"twins loose {_LOOSE[twins]}" for twins in plan.walks.relaxations]
    walks += [] if plan.walks is None else ["follow a goal"]
    kept = [] if plan.hand_over.kept_room is None else [f"{plan.final.name}, kept"]
    assert _plan_rows(out) == [
        *(strategy.name for strategy in plan.portfolio),
        plan.final.name,
        *(strategy.name for strategy in plan.restarts),
        *walks,
        *kept,
        *(strategy.name for strategy in plan.hand_over.late),
        "short 1",
        "short 2",
    ]
    assert out.startswith(f"Plan for {name}, {cells} cell")
    assert ("limit or 200,000 positions" in " ".join(out.split())) is (plan.hand_over.at is not None)


_LOOSE = {IN_CELL | IN_BUILT_RUN: "in a cell or in a built run", ON_CARD | IN_CELL: "on a card or in a cell"}


def test_the_plan_of_a_game_code_is_that_of_its_rules() -> None:
    code, out, _ = run("--plan", "--code", Deal(find_rules("app", cells=2), 1).code())
    assert code == 0
    assert out.splitlines()[0] == "Plan for app, 2 cells: tight, one deck in alternate colours, take-backs, two cells"
    assert "tight final, two rankings" in out and "tight final, two rankings, kept" in out
