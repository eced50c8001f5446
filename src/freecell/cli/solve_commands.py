"""``freecell solve``: solve a deal, a game code or a board, and print the moves."""

from __future__ import annotations

import json
import os
import sys

import click

from freecell.cli.options import fail, read_board, resolve_deal, resolve_limit, resolve_rules, rules_options
from freecell.position import Position
from freecell.rules import Rules
from freecell.solver import SolveResult, SolveStatus, solve
from freecell.solver.plan import describe, plan_for

EXIT_STATUS = {SolveStatus.SOLVED: 0, SolveStatus.UNSOLVABLE: 3, SolveStatus.LIMIT_REACHED: 4}
MOVES_PER_LINE = 10

def _start(target: str | None, code: str | None, rules: Rules) -> tuple[Position, Rules, str]:
    """The position to solve, its rules and how to name it: a deal number (all digits),
    ``-`` for a board on standard input, or a board file."""
    if code is not None or (target is not None and _looks_like_a_number(target)):
        deal = resolve_deal(target, code, rules)
        return deal.position(), deal.rules, str(deal)
    if target is None:
        fail("name a deal number, a board file (or - for standard input), or a game code with --code")
        raise AssertionError  # unreachable: fail() exits
    return read_board(target, rules), rules, "the board" if target == "-" else target


def _looks_like_a_number(target: str) -> bool:
    """Digits 0 to 9, or digits of another kind (``²``, ``١٢``) that name no file: a deal
    number, which :func:`resolve_deal` reads or refuses as one."""
    text = target.strip()
    return text.isnumeric() and (text.isascii() or not os.path.exists(target))


def _print_moves(moves: tuple[str, ...]) -> None:
    for first in range(0, len(moves), MOVES_PER_LINE):
        click.echo(" ".join(moves[first : first + MOVES_PER_LINE]))


def _report(result: SolveResult, name: str) -> str:
    if result.status is SolveStatus.UNSOLVABLE:
        return f"{name} cannot be won: every reachable position was searched ({result.expanded:,} positions)"
    return f"{name}: the limit was reached after {result.expanded:,} positions and {result.seconds:.2f} s, undecided"


@click.command("solve")
@click.argument("target", required=False)
@rules_options
@click.option("--code", default=None, help="Solve the deal of this game code.")
@click.option("--json", "as_json", is_flag=True, help="Print the moves and the statistics as JSON.")
@click.option("--short", is_flag=True, help="Spend more effort to find a shorter solution.")
@click.option(
    "--limit", "limit_text", default=None,
    help="Budget: 10s, 2min, 200000 or 200k (positions), 500MB, or several: 10s,500MB.",
)
@click.option(
    "--plan", "show_plan", is_flag=True,
    help="Print the searches the solver runs under these rules (or the game code's), and when; solve nothing.",
)
def solve_command(
    target: str | None,
    rules_name: str,
    cells: int | None,
    code: str | None,
    as_json: bool,
    short: bool,
    limit_text: str | None,
    show_plan: bool,
) -> None:
    """Solve TARGET: a Microsoft deal number, a board file in Freecell Solver's format,
    or - to read the board from standard input.

    Standard output holds only the moves, in standard notation. Exit status: 0 solved,
    3 proven unsolvable, 4 limit reached, 2 bad input.
    """
    rules = resolve_rules(rules_name, cells)
    if show_plan:
        if code is not None:
            rules = resolve_deal(None, code, rules).rules
        click.echo("\n".join(describe(plan_for(rules), rules)))
        return
    limit = None if limit_text is None else resolve_limit(limit_text)
    position, rules, name = _start(target, code, rules)
    result = solve(position, rules, limit=limit, short=short)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "status": result.status.value,
                    "rules": rules.name,
                    "cells": rules.cells,
                    "moves": list(result.moves),
                    "non_foundation_moves": result.non_foundation_moves,
                    "expanded": result.expanded,
                    "generated": result.generated,
                    "seconds": round(result.seconds, 6),
                }
            )
        )
    elif result.solved:
        _print_moves(result.moves)
    if not result.solved:
        click.echo(f"freecell: {_report(result, name)}", err=True)
    sys.exit(EXIT_STATUS[result.status])
