"""Bad input on every subcommand, as a new user gives it: exit status 2, exactly one line
on standard error, and never a traceback. Most cases run in this process through click's
runner; a few run ``python -m freecell`` to check what a terminal really shows."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from freecell.census import Census, DealRecord
from freecell.cli import main
from freecell.cli.options import MAX_INPUT_BYTES, read_text
from freecell.deals import Deal
from freecell.rules import find_rules
from freecell.solver import SolveStatus

DATA = Path(__file__).parent / "data"
SOLUTION_617 = DATA / "solutions" / "fcsolve-617.txt"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One file of each kind of bad input, named by what is wrong with it."""
    folder = tmp_path_factory.mktemp("bad")
    board = Deal(find_rules("standard"), 617).position().to_text()
    made = {
        "latin1": board.encode() + "# Aufgabe für Übung\n".encode("latin-1"),
        "binary": bytes(range(256)) * 4,
        "huge": b"2h " * (MAX_INPUT_BYTES // 3 + 1),
        "empty": b"",
        "eight_off": Deal(find_rules("eight-off"), 617).position().to_text().encode(),
        "double": Deal(find_rules("double"), 5).position().to_text().encode(),
        "prose": b"Dear reader, these are not moves.\n",
        "many_columns": b":\n" * 100_000,
    }
    paths = {name: folder / f"{name}.txt" for name in made}
    for name, data in made.items():
        paths[name].write_bytes(data)
    paths["folder"] = folder / "a-folder"
    paths["folder"].mkdir()
    paths["db_folder"] = folder
    return paths


# (arguments, standard input, words the one line must hold). "{name}" is a file above.
CASES: list[tuple[list[str], bytes | None, str]] = [
    # 1. Files that are not UTF-8.
    (["solve", "{latin1}"], None, "is not UTF-8 text"),
    (["replay", "617", "{latin1}"], None, "is not UTF-8 text"),
    (["replay", "--board", "{latin1}", "-"], b"", "is not UTF-8 text"),
    (["solve", "-"], "Freecells: 5H\nÜ\n".encode("latin-1"), "standard input is not UTF-8 text"),
    (["replay", "617", "{binary}"], None, "is not UTF-8 text"),
    # 2. Deal numbers are ASCII digits.
    (["solve", "²"], None, "not a deal number"),
    (["deal", "١٢"], None, "not a deal number"),
    (["deal", "1_0"], None, "not a deal number"),
    (["replay", "١٢", "-"], b"", "not a deal number"),
    (["range", "١-٢"], None, "a range is START-END"),
    (["deal", "--code", "FC1-ST٤-N00000K9Z"], None, "not a game code"),
    (["range", "1-3", "--scheduler", "local:²"], None, "local:N needs a number of workers"),
    # 3. Limits have a maximum, and one parser.
    (["solve", "1", "--limit", "9" * 400], None, "at most"),
    (["range", "1-2", "--limit", "9" * 30], None, "at most"),
    (["range", "1-2", "--limit", "0.4"], None, "a number of positions is a whole number"),
    (["solve", "1", "--limit", "0.4"], None, "a number of positions is a whole number"),
    (["solve", "1", "--limit", "2m"], None, "2min or 2000k"),
    # 4. Inputs have a size cap.
    (["solve", "{huge}"], None, "larger than"),
    (["replay", "617", "{huge}"], None, "larger than"),
    (["solve", "-"], b"x" * (MAX_INPUT_BYTES + 1), "standard input is larger than"),
    # 8. Input that is not moves at all.
    (["replay", "617", "{prose}"], None, "not a move"),
    (["replay", "617", "{empty}"], None, "holds no moves"),
    (["replay", "617", "/dev/null"], None, "holds no moves"),
    # 9. A layout that does not fit the rules.
    (["solve", "-"], "eight_off", "it looks like eight-off (try --rules eight-off)"),
    (["solve", "{double}"], None, "it looks like double (try --rules double)"),
    (["replay", "--board", "{eight_off}", "{empty}"], None, "it looks like eight-off"),
    (["solve", "{many_columns}"], None, "laid out in 100000 columns, but standard has only 8"),
    # 10. What a new user tries.
    (["solve", "{folder}"], None, "Is a directory"),
    (["replay", "617", "{folder}"], None, "Is a directory"),
    (["solve", "/no/such/board"], None, "No such file or directory"),
    (["solve", "/dev/null"], None, "52 cards missing"),
    (["solve"], None, "name a deal number"),
    (["solve", "1", "--code", "FC1-ST4-N00000K9Z"], None, "not both"),
    (["solve", "99999999999999999999999"], None, "out of range"),
    (["solve", "0"], None, "out of range"),
    (["solve", "1", "--cells", "x"], None, "'x' is not a valid integer"),
    (["solve", "1", "--rules", "app", "--cells", "3"], None, "app is played with 4, 2 or 1 cells, not 3"),
    (["solve", "1", "--limit", ""], None, "not a limit"),
    (["solve", "1", "--limit", "-5s"], None, "not a limit"),
    (["solve", "1", "--limit", "10s,,5"], None, "not a limit"),
    (["solve", "1", "--bogus"], None, "No such option '--bogus'"),
    (["deal", "abc"], None, "not a deal number: 'abc'"),
    (["deal", "-5"], None, "No such option '-5'"),
    (["deal", "8589934592"], None, "out of range"),
    (["deal", "1", "--random"], None, "not both"),
    (["deal", "1", "--code", "FC1-ST4-N00000K9Z"], None, "not both"),
    (["deal", "--random", "--code", "FC1-ST4-N00000K9Z"], None, "not both"),
    (["deal", "--code", "FC1"], None, "not a game code"),
    (["deal", "1", "--rules", ""], None, "no ruleset is called ''"),
    (["deal", "1", "--cells", "-1"], None, "cells, not -1"),
    (["deal", "1", "--cells", "99999999999999999999999"], None, "not 99999999999999999999999"),
    (["rules", "extra"], None, "unexpected extra argument"),
    (["replay"], b"", "name a deal number"),
    (["replay", "0", "-"], b"", "out of range"),
    (["replay", "617", "/no/such/moves"], None, "No such file or directory"),
    (["replay", "617"], b"\xff\xfe", "standard input is not UTF-8 text"),
    (["replay", "617", "-"], b"38 zz 1a", "move 2: not a move: 'zz'"),
    (["replay", "--board", "/dev/null", "{empty}"], None, "52 cards missing"),
    (["range", "5-1"], None, "not 5-1"),
    (["range", "0-3"], None, "not 0-3"),
    (["range", "1-99999999999"], None, "out of range"),
    (["range", "1-99999999999999999999999999"], None, "out of range"),
    (["range", "a-b"], None, "a range is START-END"),
    (["range", "1-3", "--jobs", "-1"], None, "--jobs must be at least 1"),
    (["range", "1-3", "--jobs", "x"], None, "'x' is not a valid integer"),
    (["range", "1-3", "--limit", "1s", "--limit", "huge"], None, "not a limit"),
    (["range", "1-3", "--scheduler", "local:2", "--jobs", "2"], None, "--jobs sizes the local pool"),
    (["range", "1-3", "--scheduler", "nonsense"], None, "cannot start the workers"),
    (["range", "1-2", "--db", "/proc/nope/x.db"], None, "cannot create /proc/nope/x.db"),
    (["report", "{folder}"], None, "{folder}"),
    (["report", "/no/such.db"], None, "no such census store"),
    (["report", "/dev/null"], None, "/dev/null"),
    (["lesson", "nope"], None, "nope"),
    (["lesson", "1", "2"], None, "unexpected extra argument"),
    (["stats", "--csv", "--json"], None, "choose --csv or --json"),
    (["play", "--no-browser", "--hint-limit", "3x"], None, "not a limit"),
    (["play", "--no-browser", "--longer-limit", "0s"], None, "a limit is more than 0"),
    (["nonsense"], None, "No such command 'nonsense'"),
]


def _arguments(arguments: list[str], files: dict[str, Path]) -> list[str]:
    return [argument.format(**{name: str(path) for name, path in files.items()}) for argument in arguments]


def _input(stdin: bytes | str | None, files: dict[str, Path]) -> bytes | None:
    return files[stdin].read_bytes() if isinstance(stdin, str) else stdin


@pytest.mark.parametrize(("arguments", "stdin", "words"), CASES, ids=lambda value: repr(value)[:40])
def test_bad_input_exits_2_with_one_line(
    arguments: list[str], stdin: bytes | None, words: str, files: dict[str, Path], tmp_path: Path
) -> None:
    if arguments[0] in ("range",) and "--db" not in arguments:
        arguments = [*arguments, "--db", str(tmp_path / "census.db")]
    result = CliRunner().invoke(main, _arguments(arguments, files), input=_input(stdin, files))
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("freecell: ")
    assert _arguments([words], files)[0] in lines[0]
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("arguments", "stdin"),
    [
        (["solve", "{latin1}"], None),
        (["replay", "617", "{huge}"], None),
        (["deal", "abc"], None),
        (["solve", "-"], "eight_off"),
        (["range", "1-2", "--db", "/proc/nope/x.db"], None),
    ],
)
def test_the_terminal_sees_one_line(arguments: list[str], stdin: str | None, files: dict[str, Path]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "freecell", *_arguments(arguments, files)],
        input=_input(stdin, files) or b"", capture_output=True, timeout=60,
    )
    assert done.returncode == 2
    assert len(done.stderr.decode().splitlines()) == 1, done.stderr
    assert done.stdout == b""


def test_a_report_without_matplotlib_names_the_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--html draws its plots with matplotlib, from the ``cluster`` extra: without it the
    report is refused before anything is written, in one line that says what to install."""
    db, page = tmp_path / "census.db", tmp_path / "out.html"
    with Census(db) as census:
        census.store([DealRecord("standard", 4, 11982, SolveStatus.UNSOLVABLE, None, 10, 40, seconds=0.5)])
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what `import matplotlib` meets where it is missing
    result = CliRunner().invoke(main, ["report", str(db), "--html", str(page)])
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "freecell: --html draws its plots with matplotlib, which is not installed: pip install 'freecell[cluster]'"
    ]
    assert result.stdout == ""
    assert not page.exists()


def test_a_huge_input_is_refused_before_it_is_read_whole(tmp_path: Path) -> None:
    huge = tmp_path / "huge.board"
    with huge.open("wb") as out:
        out.truncate(50_000_000)  # sparse: 50 MB that cost nothing to make
    tracemalloc.start()
    try:
        with pytest.raises(SystemExit) as exit_:
            read_text(str(huge), "a board")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert exit_.value.code == 2
    assert peak < 3 * MAX_INPUT_BYTES


def test_good_input_still_reads(files: dict[str, Path]) -> None:
    """The checks above refuse only what is wrong: the same commands with good input work."""
    runner = CliRunner()
    assert runner.invoke(main, ["replay", "617", str(SOLUTION_617)]).exit_code == 0
    eight_off = files["eight_off"].read_bytes()
    assert runner.invoke(main, ["solve", "-", "--rules", "eight-off", "--limit", "50k"], input=eight_off).exit_code == 0
    bom = b"\xef\xbb\xbf" + SOLUTION_617.read_bytes()
    assert runner.invoke(main, ["replay", "617", "-"], input=bom).exit_code == 0


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_output_that_cannot_be_written_is_one_line_too() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "freecell", "deal", "1"], stdout=full, stderr=subprocess.PIPE,
                              timeout=60)
    assert done.returncode == 1
    assert done.stderr.decode().splitlines() == ["freecell: cannot write the output: No space left on device"]


# `freecell` with a soft limit on the size of any file it writes (a full disk): writing
# past it fails with EFBIG instead of killing the process. Run with -c: the range's
# worker processes import the main module again, and there is none to import.
FILE_SIZE_LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY))
from freecell.census import Census, DealRecord
from freecell.cli import main
main(sys.argv[2:], prog_name="freecell")
"""


def test_a_range_on_a_full_disk_stops_with_one_line_and_keeps_what_it_stored(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    command = [sys.executable, "-c", FILE_SIZE_LIMITED, "100000", "range", "1-1000", "--db", str(db), "--jobs", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, env={**os.environ, "TERM": "dumb"})
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"freecell: cannot store results in {db}") and "run the same command again" in last
    assert "Traceback" not in done.stderr
    stored = int(last.split("; ")[1].split()[0])
    assert 0 < stored < 1000
    with Census(db, readonly=True) as census:
        assert census.count() == stored
