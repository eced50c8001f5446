"""Live checks against Debian's freecell-solver-bin: the Microsoft dealer against
``make-microsoft-freecell-board``, and our boards and rules against ``fc-solve``.

These run only where the binaries are installed (``scripts/test`` installs them); the
same facts are also checked without them against the files in ``tests/data``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from freecell.cards import card_name
from freecell.deals import Deal
from freecell.notation import split_moves
from freecell.position import Position
from freecell.replay import replay
from freecell.rules import find_rules
from freecell.solver import SolveStatus, solve

FC_SOLVE = shutil.which("fc-solve")
MAKE_BOARD = shutil.which("make-microsoft-freecell-board")
DATA = Path(__file__).parent / "data"
QUIET = {**os.environ, "FREECELL_SOLVER_QUIET": "1"}

needs_fc_solve = pytest.mark.skipif(FC_SOLVE is None, reason="fc-solve (freecell-solver-bin) is not installed")
needs_make_board = pytest.mark.skipif(
    MAKE_BOARD is None, reason="make-microsoft-freecell-board (freecell-solver-bin) is not installed"
)


def _fc_solve(board: str, *options: str) -> str:
    assert FC_SOLVE is not None
    result = subprocess.run(
        [FC_SOLVE, *options, "-m", "-snx"], input=board, capture_output=True, text=True, env=QUIET, timeout=120,
        check=False,
    )
    assert "This game is solveable." in result.stdout, result.stdout[-500:] + result.stderr[-500:]
    return result.stdout


@needs_make_board
@pytest.mark.parametrize(
    "number",
    [1, 2, 617, 1941, 11982, 1_000_000, 2**31 - 1, 2**31, 2**31 + 1, 2**32 - 1, 2**32, 2**32 + 1, 8_589_934_591],
)
def test_the_dealer_matches_make_microsoft_freecell_board(number: int) -> None:
    assert MAKE_BOARD is not None
    made = subprocess.run([MAKE_BOARD, "-t", str(number)], capture_output=True, text=True, check=True, timeout=30)
    rows = [line.split() for line in made.stdout.splitlines() if line.strip()]
    position = Deal(find_rules("standard"), number).position()
    assert [[card_name(card) for card in column] for column in position.columns] == rows


@needs_fc_solve
@pytest.mark.parametrize("number", [617, 1, 2**32 + 7])
def test_fc_solve_solves_our_deal_and_its_solution_replays_here(number: int) -> None:
    rules = find_rules("standard")
    start = Deal(rules, number).position()
    solution = _fc_solve(start.to_text(), "-l", "lg")
    assert replay(start, rules, split_moves(solution)).is_won()


@needs_fc_solve
def test_freecell_deal_617_piped_into_fc_solve() -> None:
    assert FC_SOLVE is not None
    command = [sys.executable, "-m", "freecell", "deal", "617"]  # never a `freecell` that happens to be on PATH
    deal = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60)
    solved = subprocess.run(
        [FC_SOLVE, "-l", "lg"], input=deal.stdout, capture_output=True, text=True, env=QUIET, check=False, timeout=120
    )
    assert solved.returncode == 0
    assert "This game is solveable." in solved.stdout


@needs_fc_solve
def test_fc_solve_reads_our_mid_game_board() -> None:
    rules = find_rules("standard")
    start = Position.from_text((DATA / "boards" / "617-after-46.txt").read_text(), rules)
    solution = _fc_solve(start.to_text())
    assert replay(start, rules, split_moves(solution)).is_won()


@needs_fc_solve
@pytest.mark.parametrize("number", [1, 2, 617])
def test_bakers_game_agrees_with_fc_solve(number: int) -> None:
    rules = find_rules("bakers-game")
    start = Deal(rules, number).position()
    solution = _fc_solve(start.to_text(), "--game", "bakers_game")
    assert replay(start, rules, split_moves(solution)).is_won()


@needs_fc_solve
@pytest.mark.parametrize("number", [1, 2, 617])
def test_eight_off_agrees_with_fc_solve(number: int) -> None:
    """fc-solve's eight_off game (kings only into empty columns, building by suit)
    solves our Eight Off layout, and the solution replays under our rules. fc-solve
    names the eighth cell ``k`` (FreeCell Pro's way: it skips h, i and j), as we do."""
    rules = find_rules("eight-off")
    start = Deal(rules, number).position()
    solution = _fc_solve(start.to_text(), "--game", "eight_off")
    assert replay(start, rules, split_moves(solution)).is_won()


@needs_fc_solve
def test_every_board_fc_solve_prints_reads_here_with_its_cells_in_place() -> None:
    assert FC_SOLVE is not None
    board = Deal(find_rules("standard"), 617).position().to_text()
    printed = subprocess.run(
        [FC_SOLVE, "-l", "lg", "-s", "-i", "-p", "-t", "-mi", "150"], input=board, capture_output=True, text=True,
        env=QUIET, check=False, timeout=120,
    ).stdout
    blocks = [block for block in printed.split("\n\n") if block.startswith("Foundations:")]
    assert len(blocks) > 100
    for block in blocks:
        position = Position.from_text(block)  # a full, valid board
        cells_line = next(line for line in block.splitlines() if line.startswith("Freecells:"))
        laid_out = "".join(f"{card_name(c):>4}" if c is not None else "    " for c in position.cells)
        assert cells_line.rstrip() == ("Freecells:" + laid_out).rstrip()


@needs_fc_solve
@pytest.mark.parametrize("number", [2, 3])
def test_the_app_with_two_cells_agrees_with_fc_solve(number: int) -> None:
    """With 2 cells the capacity counts only those two: fc-solve's runs fit it."""
    rules = find_rules("app", cells=2)
    start = Deal(rules, number).position()
    solution = _fc_solve(start.to_text(), "--freecells-num", "2", "-mi", "300000")
    assert replay(start, rules, split_moves(solution)).is_won()


@needs_fc_solve
@pytest.mark.parametrize("number", [2, 4])
def test_double_agrees_with_fc_solve(number: int) -> None:
    """Our double deal read by fc-solve with two decks, ten columns and six cells; its
    solution (tenth column written 10) replays under our rules."""
    rules = find_rules("double")
    start = Deal(rules, number).position()
    options = ("--decks-num", "2", "--stacks-num", "10", "--freecells-num", "6", "-mi", "400000")
    solution = _fc_solve(start.to_text(), *options)
    assert replay(start, rules, split_moves(solution)).is_won()


@needs_fc_solve
# 8323 and 22299: proofs that send cards home once those that could lie on them could go
# home instead (board.py): a depth-first proof of each sees 24-27k positions, 51-62k without.
@pytest.mark.parametrize("number", [24297, 15377, 8323, 22299])
def test_two_cell_losses_agree_with_fc_solve_single_card_scan(number: int) -> None:
    """A deal proven lost with 2 cells, and a position after a move from it (known lost
    at once, from the keys the proof saw), are lost for fc-solve's single-card scan too."""
    rules = find_rules("standard", cells=2)
    start = Deal(rules, number).position()
    following = start.apply_unchecked(start.legal_moves(rules)[-1])
    assert solve(start, rules).status is SolveStatus.UNSOLVABLE
    known = solve(following, rules)
    assert (known.status, known.expanded) == (SolveStatus.UNSOLVABLE, 0)
    for position in (start, following):
        result = subprocess.run(
            [str(FC_SOLVE), "--freecells-num", "2", "-to", "01ABCDE"], input=position.to_text(), capture_output=True,
            text=True, env=QUIET, timeout=120, check=False,
        )
        assert "I could not solve this game." in result.stdout, result.stdout[-500:]
