"""``freecell rules``, ``deal`` and ``replay``: the core library on the command line."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from freecell.cli.options import fail, read_board, resolve_deal, resolve_rules, rules_options
from freecell.deals import random_deal
from freecell.notation import split_moves
from freecell.replay import ReplayError, replay
from freecell.rules import PRESETS


@click.command("rules")
def rules_command() -> None:
    """List the rulesets, one a line: the name, then what it is."""
    for rules in PRESETS.values():
        click.echo(rules.summary())


@click.command("deal")
@click.argument("number", type=int, required=False)
@rules_options
@click.option(
    "--code", "code", is_flag=False, flag_value="", default=None,
    help="With a deal number: print its game code. With a value: deal that game code.",
)
@click.option("--random", "random_", is_flag=True, help="A new random deal.")
def deal_command(number: int | None, rules_name: str, cells: int | None, code: str | None, random_: bool) -> None:
    """Print deal NUMBER in Freecell Solver's board format (fc-solve reads it as it is)."""
    rules = resolve_rules(rules_name, cells)
    if random_:
        deal = random_deal(rules)
    else:
        deal = resolve_deal(number, code or None, rules)
    if code == "":
        click.echo(deal.code())
        return
    click.echo(deal.position().to_text(), nl=False)


@click.command("replay")
@click.argument("arguments", nargs=-1, metavar="[NUMBER] [SOLUTION]")
@rules_options
@click.option("--code", default=None, help="Replay over the deal of this game code.")
@click.option("--board", "board", default=None, help="Replay from a board file instead of a deal.")
def replay_command(
    arguments: tuple[str, ...], rules_name: str, cells: int | None, code: str | None, board: str | None
) -> None:
    """Replay SOLUTION (a file, or - for standard input, the default) over deal NUMBER,
    or over the deal of --code, or from the position of --board.

    Exit status 0 when the moves win, 1 when a move is illegal or the game is not won.
    """
    rules = resolve_rules(rules_name, cells)
    number, solution = _replay_arguments(arguments, given_start=board is not None or code is not None)
    if board is not None:
        start = read_board(board, rules)
    else:
        deal = resolve_deal(number, code, rules)
        rules, start = deal.rules, deal.position()
    try:
        text = sys.stdin.read() if solution == "-" else Path(solution).read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {solution}: {error.strerror}")
    moves = split_moves(text)
    try:
        end = replay(start, rules, moves)
    except ReplayError as error:
        click.echo(str(error))
        sys.exit(1)
    if end.is_won():
        click.echo(f"won: {len(moves)} moves, all {rules.card_count} cards home")
        return
    click.echo(
        f"not won: the {len(moves)} moves are legal, but only {end.cards_home} of {rules.card_count} cards are home"
    )
    sys.exit(1)


def _replay_arguments(arguments: tuple[str, ...], *, given_start: bool) -> tuple[int | None, str]:
    """The deal number and the solution's file: with --code or --board the only argument
    is the solution."""
    if given_start:
        if len(arguments) > 1:
            fail("with --code or --board, give only the solution file (or -)")
        return None, arguments[0] if arguments else "-"
    if len(arguments) > 2:
        fail("give a deal number and a solution file (or -)")
    if not arguments:
        return None, "-"
    try:
        number = int(arguments[0])
    except ValueError:
        fail(f"not a deal number: {arguments[0]!r}")
        raise AssertionError from None  # unreachable: fail() exits
    return number, arguments[1] if len(arguments) > 1 else "-"
