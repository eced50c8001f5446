"""The ``freecell rules``, ``deal`` and ``replay`` commands: output, exit status, and a
message (never a traceback) for bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from freecell.cli import main
from freecell.deals import Deal
from freecell.notation import split_moves
from freecell.position import Position
from freecell.rules import PRESETS, find_rules

DATA = Path(__file__).parent / "data"
SOLUTIONS = sorted((DATA / "solutions").glob("fcsolve-*.txt"))  # Microsoft deals, standard rules


def _run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def _deal_number(path: Path) -> str:
    return path.stem.removeprefix("fcsolve-")


def test_rules_lists_each_preset_on_a_line_starting_with_its_name() -> None:
    result = _run("rules")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == 8
    assert [line.split()[0] for line in lines] == list(PRESETS)
    assert all(len(line.split()) > 3 for line in lines)


def test_deal_prints_the_board_in_fc_solve_format() -> None:
    result = _run("deal", "617")
    assert result.exit_code == 0
    rows = (DATA / "microsoft" / "deal-617.txt").read_text().splitlines()
    assert result.output.splitlines() == ["Foundations: H-0 C-0 D-0 S-0", "Freecells: - - - -"] + [
        f": {row}" for row in rows
    ]


def test_deal_under_other_rules_and_cells() -> None:
    eight_off = _run("deal", "617", "--rules", "eight-off").output
    assert eight_off.splitlines()[1] == "Freecells: JD KS KC 4H - - - -"
    app = _run("deal", "617", "--rules", "app", "--cells", "2").output
    assert app.splitlines()[1] == "Freecells: - -"
    double = Position.from_text(_run("deal", "5", "--rules", "double").output, find_rules("double"))
    assert double == Deal(find_rules("double"), 5).position()


def test_deal_codes_both_ways() -> None:
    code = _run("deal", "617", "--code").output.strip()
    assert code == "FC1-ST4-N00000K9Z"
    assert _run("deal", "--code", code).output == _run("deal", "617").output
    app_code = _run("deal", "617", "--rules", "app", "--cells", "1", "--code").output.strip()
    assert app_code.startswith("FC1-AP1-")
    assert _run("deal", "--code", app_code).output == _run("deal", "617", "--rules", "app", "--cells", "1").output


def test_a_random_deal_is_a_full_board() -> None:
    result = _run("deal", "--random", "--rules", "cardems")
    assert result.exit_code == 0
    Position.from_text(result.output, find_rules("cardems"))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "0"], "deal 0 is out of range"),
        (["deal", "8589934592"], "out of range"),
        (["deal"], "name a deal number, or a game code with --code"),
        (["deal", "abc"], "not a deal number: 'abc'"),
        (["deal", "1", "--rules", "spider"], "no ruleset is called 'spider'"),
        (["deal", "1", "--rules", "app", "--cells", "3"], "app is played with 4, 2 or 1 cells, not 3"),
        (["deal", "--code", "FC1-ST4-N00000K9R"], "does not check out"),
        (["deal", "--code", "XC1-ST4-N00000K9Z"], "a game code starts with FC1-"),
        (["replay", "1", "/nonexistent/solution.txt"], "cannot read /nonexistent/solution.txt"),
        (["replay", "--board", "/nonexistent/board.txt"], "cannot read /nonexistent/board.txt"),
        (["replay", "x1", "-"], "not a deal number: 'x1'"),
        (["replay", "1", "a", "b"], "give a deal number and a solution file"),
        (["replay", "--code", "FC1-ST4-N00000K9Z", "1", "-"], "with --code or --board, give only the solution"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    result = _run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_malformed_board_is_named_not_a_traceback(tmp_path: Path) -> None:
    board = tmp_path / "board.txt"
    board.write_text(Deal(find_rules("standard"), 1).position().to_text().replace("JD", "JX"))
    result = _run("replay", "--board", str(board), "-", stdin="")
    assert result.exit_code == 2
    assert "not a card: 'JX'" in result.output


@pytest.mark.parametrize("path", SOLUTIONS, ids=_deal_number)
def test_fc_solve_solutions_replay_as_they_are(path: Path) -> None:
    result = _run("replay", _deal_number(path), str(path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("won: ")
    assert result.output.endswith("all 52 cards home\n")


@pytest.mark.parametrize("rules", ["strict", "supermove", "app", "cardems"])
def test_a_solution_replays_under_any_preset_that_allows_its_moves(rules: str) -> None:
    for path in SOLUTIONS:
        result = _run("replay", _deal_number(path), str(path), "--rules", rules)
        assert result.exit_code == 0, (path.name, result.output)


def test_an_fc_solve_double_deck_solution_replays_under_double() -> None:
    """fc-solve --decks-num 2 --stacks-num 10 --freecells-num 6, on our double deal 3; it
    writes the tenth column as 10."""
    result = _run("replay", "3", str(DATA / "solutions" / "double-fcsolve-3.txt"), "--rules", "double")
    assert result.exit_code == 0, result.output
    assert result.output.endswith("all 104 cards home\n")


def test_replay_reads_standard_input_and_a_game_code() -> None:
    solution = (DATA / "solutions" / "fcsolve-617.txt").read_text()
    assert _run("replay", "617", "-", stdin=solution).exit_code == 0
    assert _run("replay", "--code", "FC1-ST4-N00000K9Z", "-", stdin=solution).exit_code == 0


def test_replay_names_the_first_illegal_move_and_exits_1() -> None:
    moves = split_moves((DATA / "solutions" / "fcsolve-617.txt").read_text())
    spoiled = " ".join(moves[:4] + ["1a", "1a"])
    result = _run("replay", "617", "-", stdin=spoiled)
    assert result.exit_code == 1
    assert result.output == "move 5 ('1a') is illegal: cell a already holds J♥\n"  # 7a 7b 7c b7 left JH in a
    wrong_deal = _run("replay", "618", str(DATA / "solutions" / "fcsolve-617.txt"))
    assert wrong_deal.exit_code == 1 and wrong_deal.output.startswith("move ")


def test_replay_of_legal_moves_that_do_not_win_exits_1() -> None:
    result = _run("replay", "617", "-", stdin="7a 7b")
    assert result.exit_code == 1
    assert result.output == "not won: the 2 moves are legal, but only 0 of 52 cards are home\n"


def test_replay_from_a_board(tmp_path: Path) -> None:
    board = DATA / "boards" / "617-after-46.txt"
    moves = split_moves((DATA / "solutions" / "fcsolve-617.txt").read_text())
    result = _run("replay", "--board", str(board), "-", stdin=" ".join(moves[46:103]))
    assert result.exit_code == 0, result.output


def test_the_console_command_and_python_m_freecell() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "freecell", "deal", "1"], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0
    assert result.stdout.splitlines()[2] == ": JD KD 2S 4C 3S 6D 6S"
    bad = subprocess.run(
        [sys.executable, "-m", "freecell", "deal", "0"], capture_output=True, text=True, check=False, timeout=60
    )
    assert bad.returncode == 2 and "out of range" in bad.stderr and "Traceback" not in bad.stderr
